// SPDX-License-Identifier: MIT
#pragma once
// What to keep and what to decode ahead. A policy observes the request stream of the playhead
// cursor and answers with a plan; ChunkCache carries the plan out (decode pool, budget,
// eviction). Policies are pure logic: unit tests drive them with synthetic streams.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace vtx {

/// What a policy may know about the file and the machine.
struct CacheGeometry {
    std::vector<int32_t> chunkStartFrames; ///< first frame of each chunk, ascending
    int32_t frameCount = 0;
    size_t budgetBytes = 0;
    double estimatedChunkBytes = 0; ///< mean decoded chunk size (estimate until chunks are seen)
    double decodeMs = 50; ///< EWMA of one chunk's decode time
    unsigned workers = 1;

    size_t chunkCount() const { return chunkStartFrames.size(); }
    size_t chunkOf(int32_t frame) const;
    /// Mean frames per chunk.
    double framesPerChunk() const { return chunkCount() ? double(frameCount) / double(chunkCount()) : 1.0; }
};

struct Access {
    int32_t frame = 0;
    double timeMs = 0;
};

enum class AccessMode { Idle, Playback, Reverse, Scrub, Random, Toggle };
const char* accessModeName(AccessMode m);

struct CachePlan {
    size_t center = 0; ///< chunk of the latest request
    int back = 0; ///< chunks behind the center kept from eviction
    int forward = 0; ///< chunks ahead kept from eviction
    int direction = 0; ///< +1 / -1 when moving: what lies behind the motion is evicted first
    bool dropOutsideWindow = false; ///< SDK-style fixed window: keep nothing else
    std::vector<size_t> prefetch; ///< chunks to decode ahead, most urgent first
    std::vector<size_t> hot; ///< hot spots protected from eviction (A/B toggling)
};

struct PolicyState {
    AccessMode mode = AccessMode::Idle;
    int back = 0;
    int forward = 0;
    double velocity = 0; ///< frames per second, signed
};

class CachePolicy {
public:
    virtual ~CachePolicy() = default;
    virtual std::string name() const = 0;
    virtual CachePlan observe(const Access& a, const CacheGeometry& g) = 0;
    virtual PolicyState state() const = 0;
};

/// "none", "fixed:B,F" (the SDK's window, in chunks) or "adaptive". nullptr + message on error.
std::unique_ptr<CachePolicy> makeCachePolicy(std::string_view spec, std::string* error = nullptr);

/// The adaptive policy's tuning, one field per value (like ReaderOptions). Where a value rests
/// on a measurement it says which; the rest are design choices, said as such, and are checked
/// only by the behaviour tests in tst_cachepolicy and the trace replays in docs/PERFORMANCE.md.
struct AdaptivePolicyConfig {
    /// Requests remembered for classification. The classifier reads at most the last 4 (toggle
    /// needs 4, runs stop at 4); 16 leaves room for the prefetch ordering's 4 recent spots.
    size_t historyLength = 16;
    /// Largest step (frames) still counted as playback (design choice: fast playback of a
    /// 64 fps replay moves a few to a couple of dozen frames per tick; larger steps are drags).
    double playbackStepFrames = 24;
    /// Same-direction small steps in a row that make playback (2: react within a few requests,
    /// the "follows a change of pattern within a few requests" test).
    int playbackRun = 2;
    /// Largest step (frames) counted as scrubbing is max(this, frames per chunk): a drag moves
    /// within about a chunk per event; 64 is one chunk of the demo and CS2-like fixtures.
    double scrubStepMinFrames = 64;
    /// A/B toggling: a ≈ a' within max(this, chunk/4) frames...
    double toggleNearMinFrames = 8;
    double toggleNearChunkFraction = 0.25;
    /// ...and a, b farther apart than max(scrub step, chunk/2): otherwise it is scrubbing.
    double toggleFarChunkFraction = 0.5;
    /// Weight of the newest velocity sample in the moving average (design choice: smooths the
    /// timer jitter of playback while following a speed change within ~3 requests).
    double velocityWeight = 0.4;
    /// Playback window: decode this many chunk decode times ahead, plus `playbackLeadSeconds`,
    /// so the next chunks are ready before the playhead reaches them (design choice; with these
    /// values the playback_1x / playback_4x trace replays in docs/PERFORMANCE.md run at 1.00×
    /// of the trace's own length, i.e. without stalls).
    double decodeQueueFactor = 4;
    double playbackLeadSeconds = 1.0;
    /// Floor for the decode time estimate before any chunk was decoded, in seconds.
    double minDecodeSeconds = 0.005;
    /// Scrub window: ± the frames the drag covers in this many seconds (design choice).
    double scrubLookSeconds = 0.5;
    /// Chunks of the budget kept out of planning: the center and one spare for a jump.
    int reservedChunks = 2;
    /// When the whole replay fits this fraction of the budget, everything is prefetched after
    /// the window (leaves 20 % for estimate error: decoded sizes are estimated from stored
    /// sizes until chunks are seen).
    double prefetchAllBudgetFraction = 0.8;
    /// Recent requests the full-prefetch order measures distance from.
    size_t prefetchRecentRequests = 4;
    /// Distance behind the motion counts this many times (what lies behind is needed later).
    double behindMotionPenalty = 2;
};

/// Classifies the request stream and sizes windows from it (see docs/CACHE.md).
class AdaptivePolicy final : public CachePolicy {
public:
    explicit AdaptivePolicy(AdaptivePolicyConfig config = {}) : m_config(config) { }
    const AdaptivePolicyConfig& config() const { return m_config; }
    std::string name() const override { return "adaptive"; }
    CachePlan observe(const Access& a, const CacheGeometry& g) override;
    PolicyState state() const override { return m_state; }

private:
    AccessMode classify(const CacheGeometry& g);
    AdaptivePolicyConfig m_config;
    std::vector<Access> m_history; ///< most recent last, bounded
    PolicyState m_state;
    double m_velocity = 0;
};

} // namespace vtx
