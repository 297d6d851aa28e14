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
    double decodeMs = 50;           ///< EWMA of one chunk's decode time
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
    size_t center = 0;      ///< chunk of the latest request
    int back = 0;           ///< chunks behind the center kept from eviction
    int forward = 0;        ///< chunks ahead kept from eviction
    int direction = 0;      ///< +1 / -1 when moving: what lies behind the motion is evicted first
    bool dropOutsideWindow = false; ///< SDK-style fixed window: keep nothing else
    std::vector<size_t> prefetch;   ///< chunks to decode ahead, most urgent first
    std::vector<size_t> hot;        ///< hot spots protected from eviction (A/B toggling)
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

/// Classifies the request stream and sizes windows from it (see docs/CACHE.md).
class AdaptivePolicy final : public CachePolicy {
public:
    std::string name() const override { return "adaptive"; }
    CachePlan observe(const Access& a, const CacheGeometry& g) override;
    PolicyState state() const override { return m_state; }

private:
    AccessMode classify(const CacheGeometry& g);
    std::vector<Access> m_history; ///< most recent last, bounded
    PolicyState m_state;
    double m_velocity = 0;
};

} // namespace vtx
