// SPDX-License-Identifier: MIT
#pragma once
// Decoded chunks under a memory budget in bytes, decoded on a background pool, planned by a
// CachePolicy. Requests from the playhead are latest-wins per channel; demand decodes always
// go before prefetch, and one worker is kept free of prefetch so a jump never waits behind
// speculative work. Frame handles share ownership of their chunk: a chunk referenced outside
// the cache (the frame on screen, a pinned A frame) is never evicted.

#include "vtx/cache/CachePolicy.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace vtx {

/// Default budget: a quarter of physical memory.
size_t defaultCacheBudget();

struct CacheOptions {
    size_t budgetBytes = defaultCacheBudget();
    unsigned workers = 0; ///< 0: one per hardware thread (at least 1)
    std::string policy = "adaptive";
    /// The host's cores (0: std::thread::hardware_concurrency()). A prefetch starts beside the
    /// first decode someone waits for (an open) only when a core is left for it and one for the
    /// UI thread.
    unsigned cores = 0;
};

struct RequestOptions {
    bool observe = true; ///< feed the policy (the playhead); background scans pass false
    int channel = 0; ///< latest-wins channel: a newer request supersedes older pending ones; -1 = none
};

enum class ChunkState { NotLoaded, Queued, Decoding, Cached, Failed };

struct CacheStats {
    std::string policy;
    PolicyState state;
    size_t budgetBytes = 0;
    size_t residentBytes = 0;
    size_t peakResidentBytes = 0;
    size_t residentChunks = 0;
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t decodes = 0;
    uint64_t bytesDecoded = 0; ///< memory bytes of every decoded chunk
    uint64_t prefetchDecodes = 0;
    uint64_t prefetchUsed = 0; ///< prefetched chunks later requested
    uint64_t prefetchWasted = 0; ///< prefetched chunks evicted or refused unused
    uint64_t prefetchWastedBytes = 0;
    uint64_t superseded = 0;
    uint64_t earlyFrames = 0; ///< requests answered while their chunk was still decoding (FrameStream)
    uint64_t evictions = 0;
    double decodeMs = 0; ///< EWMA per chunk
    double hitRate() const { return hits + misses ? double(hits) / double(hits + misses) : 0; }
};

class ChunkCache {
public:
    using Callback = std::function<void(const Result<FrameHandle>&)>;

    ChunkCache(std::shared_ptr<const ReplayFile> file, const CacheOptions& options = {});
    ~ChunkCache();
    ChunkCache(const ChunkCache&) = delete;
    ChunkCache& operator=(const ChunkCache&) = delete;

    /// Non-blocking. `done` runs once: on the calling thread when the chunk is resident, else on
    /// a worker thread; with an error when the frame is invalid, its chunk fails to decode, or a
    /// newer request on the same channel superseded it (code Errc::Superseded). In a Protobuf
    /// file a frame is answered as soon as the decode reaches it, before the rest of its chunk
    /// (the handle's chunk then holds only that frame: FrameStream).
    void request(int32_t frame, Callback done, RequestOptions options = {});
    /// Blocking; never superseded.
    Result<FrameHandle> get(int32_t frame, RequestOptions options = {true, -1});
    /// The frame if its chunk is decoded and held, without waiting, stats or policy input.
    std::optional<FrameHandle> peek(int32_t frame) const;

    CacheStats stats() const;
    std::vector<ChunkState> chunkStates() const;
    void setBudget(size_t bytes);
    /// Replaces the policy ("none", "fixed:B,F", "adaptive"); false on an unknown spec.
    bool setPolicy(const std::string& spec);
    /// `report(c)` runs on a decode worker, once per chunk, the first time chunk `c` fails to
    /// decode. In a Protobuf file frames of it may have been handed out before the decode reached
    /// the damage; asked for again, they come with the damage known (ReplayFile::knownDamage).
    void setFailureReport(std::function<void(size_t c)> report);
    /// The file this cache reads. Replaced only by extendTo(), on the thread that owns the cache.
    const ReplayFile& file() const { return *m_file; }
    /// Adopts a re-read of the same file that kept every chunk and added more (a followed
    /// recording); decoded chunks stay. False, and nothing changes, when the chunk lists differ.
    bool extendTo(std::shared_ptr<const ReplayFile> grown);

private:
    struct Waiter {
        int32_t frame;
        Callback done;
        int channel;
        uint64_t since; ///< m_waiterCount when it was added
    };
    struct Slot {
        std::shared_ptr<const DecodedChunk> chunk; ///< resident when set
        std::weak_ptr<const DecodedChunk> alive; ///< still referenced by some handle
        size_t bytes = 0;
        uint64_t lastUse = 0;
        uint32_t uses = 0;
        bool prefetched = false;
        bool decoding = false;
        bool failed = false;
        bool failureReported = false; ///< onChunkFailed was called for this chunk
        uint64_t decodeStartedAt = 0; ///< m_waiterCount when its last decode started
        std::vector<Waiter> waiters;
    };
    using Completion = std::pair<Callback, Result<FrameHandle>>;

    void workerLoop();
    /// Hands chunk `c`'s waiters their frames as the stream decode reaches them.
    FrameStream earlyFrames(size_t c);
    bool hasWorkLocked() const;
    std::optional<std::pair<size_t, bool>> pickJobLocked();
    void applyPlanLocked(CachePlan plan);
    /// With a window policy: evicts every unprotected chunk outside the window.
    void dropOutsideWindowLocked();
    bool isProtectedLocked(size_t c) const;
    double keepScoreLocked(size_t c) const;
    bool evictForLocked(size_t need, size_t exclude, double belowScore);
    void evictLocked(size_t c);
    Result<FrameHandle> handleFor(const std::shared_ptr<const DecodedChunk>& chunk, int32_t frame) const;
    CacheGeometry geometryLocked() const;
    size_t estimateBytesLocked(size_t c) const;

    std::shared_ptr<const ReplayFile> m_file;
    size_t m_budget;
    unsigned m_workerCount;
    unsigned m_cores;
    std::unique_ptr<CachePolicy> m_policy;
    std::function<void(size_t)> m_onChunkFailed;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::vector<Slot> m_slots;
    std::deque<size_t> m_demand;
    std::vector<size_t> m_prefetch;
    size_t m_prefetchPos = 0;
    unsigned m_prefetchRunning = 0;
    unsigned m_demandRunning = 0; ///< decodes started for a waiting request
    bool prefetchMayStartLocked() const;
    CachePlan m_plan;
    size_t m_resident = 0;
    uint64_t m_clock = 0;
    uint64_t m_waiterCount = 0; ///< waiters ever added
    double m_bytesPerStoredByte = 4.0; ///< decoded / stored ratio estimate
    CacheStats m_stats;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::vector<std::thread> m_workers;
};

} // namespace vtx
