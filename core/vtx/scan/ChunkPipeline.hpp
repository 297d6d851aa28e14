// SPDX-License-Identifier: MIT
#pragma once
// The one scan engine: chunks of a file decoded in a scan's order while the caller walks the
// frames of the chunk before. Every whole-file scan goes through it (walkReplay, and with it
// the analyses, plot series and the Python full read; scanQuery; diverge, one per file), so a
// scan uses both cores: worker threads keep the next chunks decompressing (and their frames
// verified) while the calling thread reads values.
//
// Results come back in the scan's order, a failed decode at its place as the error the
// sequential scan would have met there; with one thread nothing runs anywhere else (each chunk
// is decoded on the calling thread when asked for, as scans did before).

#include "vtx/file/ReplayFile.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace vtx {

/// Threads a whole-file scan uses unless told otherwise: two decodes in flight beside the
/// walking thread. Measured on the 2-core hosts this project runs on (docs/PERFORMANCE.md,
/// "Scan engine"): a decode (zstd, and for FlatBuffers verifying the frames) costs more than
/// walking its values, so two decoders keep the walking thread fed; more than the cores only
/// adds chunks alive.
inline constexpr unsigned kScanThreads = 2;

struct ChunkPipelineOptions {
    /// 1: each chunk decoded on the calling thread when taken (the sequential scan, exactly).
    /// N >= 2: N worker threads keep up to N chunks of the order decoding or decoded ahead of
    /// the one last taken, so at most N + 1 of the scan's chunks are alive (N ahead, one held).
    unsigned threads = kScanThreads;
    /// Worker threads decoding (0: `threads`); with fewer workers than `threads`, the window of
    /// chunks ahead stays `threads`. A scan running several pipelines at once (diverge: one per
    /// file) gives each a share of the cores: on 2 cores, 2 workers per file made diverge of two
    /// CS2 files cost 1.2x the CPU of 1 worker per file, and 1.12x the time.
    unsigned workers = 0;
    /// Workers read every frame of a chunk they decode once (frames are verified on their first
    /// read), so the walking thread does not pay the verification. Off for sparse readers.
    bool verifyFrames = true;
    /// Read by the workers before each decode: once set, nothing new starts (a decode under
    /// way finishes; take() then decodes on the calling thread if asked).
    const std::atomic<bool>* cancel = nullptr;
};

class ChunkPipeline {
public:
    /// `order`: the chunk indexes the scan will take, in the order it takes them.
    ChunkPipeline(const ReplayFile& file, std::vector<size_t> order, const ChunkPipelineOptions& options = {});
    ~ChunkPipeline(); ///< stops the workers; waits for a decode under way
    ChunkPipeline(const ChunkPipeline&) = delete;
    ChunkPipeline& operator=(const ChunkPipeline&) = delete;

    /// Chunk `chunkIndex`, decoded (or the error decoding it gave). When it is ahead in the
    /// order, the chunks of the order before it are dropped and the pipeline moves on from
    /// there; otherwise (behind, skipped, or not in the order) it is decoded here, on the
    /// calling thread, and the pipeline does not move.
    Result<std::shared_ptr<const DecodedChunk>> take(size_t chunkIndex);

    /// Chunk indexes [from, to] of `file`, clamped to its chunks: the usual order.
    static std::vector<size_t> chunkRange(const ReplayFile& file, size_t from, size_t to);
    /// The most chunks that were decoding or decoded ahead at once (the tests' view of the bound).
    size_t peakAhead() const;
    /// Worker threads started (0 with one thread: everything on the caller).
    size_t workerCount() const { return m_workers.size(); }

private:
    using Decoded = Result<std::shared_ptr<const DecodedChunk>>;
    enum class SlotState : uint8_t { Waiting, Decoding, Ready, Gone };
    struct Slot {
        SlotState state = SlotState::Waiting;
        std::optional<Decoded> result;
    };
    void work();
    bool canStart() const; ///< with m_mutex held
    Decoded decode(size_t chunkIndex, bool verify) const;

    const ReplayFile& m_file;
    const std::vector<size_t> m_order;
    const ChunkPipelineOptions m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_workAvailable; ///< workers wait here for a slot to start
    std::condition_variable m_chunkReady; ///< take() waits here for a worker's decode
    std::vector<Slot> m_slots; ///< one per position of m_order
    size_t m_taken = 0; ///< positions before this one were handed out or dropped
    size_t m_nextToStart = 0; ///< the next position a worker may start
    /// chunks a worker is decoding (dropped by a jump or not) plus slots Ready at or after m_taken
    size_t m_ahead = 0, m_peakAhead = 0;
    bool m_stop = false;
    std::vector<std::thread> m_workers; // last: started once the members above exist
};

} // namespace vtx
