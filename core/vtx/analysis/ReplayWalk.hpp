// SPDX-License-Identifier: MIT
#pragma once
// Every frame of a replay in order, for scans that look at the whole recording (plot series,
// analyses). Chunks are decoded by the scan engine (ChunkPipeline: the next chunks decompress on
// worker threads while this thread walks the current one), never through the playhead's cache,
// so a scan neither moves the playhead's window nor keeps more than threads + 1 chunks alive
// (one with `WalkControl::threads` 1, decoded on the calling thread). A chunk that
// fails to decode, or a frame that fails verification, becomes a failed span with its reason:
// the scan goes on, and the caller shows the hole instead of drawing across it.

#include "vtx/base/FrameSpan.hpp"
#include "vtx/base/StreamIn.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace vtx {

struct WalkControl {
    const std::atomic<bool>* cancel = nullptr;
    /// Frames done so far and the replay's frame count; called once per chunk.
    std::function<void(int64_t done, int64_t total)> progress;
    /// Decode threads (ChunkPipelineOptions::threads): 1 decodes each chunk on the calling
    /// thread. Frames, failures, progress and cancellation are the same for any count.
    unsigned threads = kScanThreads;
};

struct WalkResult {
    std::vector<FrameSpan> failed; ///< ascending, adjacent failures merged (the first one's reason kept)
    bool cancelled = false;
    int64_t framesRead = 0;
};

namespace detail {
void addFailed(std::vector<FrameSpan>& spans, int32_t first, int32_t last, std::string reason);
}

/// Calls `visit(frameIndex, frame, chunk)` for every readable frame, in frame order, on the
/// calling thread.
template <class Visit> WalkResult walkReplay(const ReplayFile& file, const WalkControl& control, Visit&& visit)
{
    WalkResult r;
    const int64_t total = file.frameCount();
    int64_t done = 0;
    ChunkPipelineOptions po;
    po.threads = control.threads;
    po.cancel = control.cancel;
    ChunkPipeline pipeline(file, ChunkPipeline::chunkRange(file, 0, file.chunks().size()), po);
    for (const ChunkEntry& entry : file.chunks()) {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            r.cancelled = true;
            return r;
        }
        // Held for this chunk only: it is let go before the next take (its blocks are recycled).
        auto decoded = pipeline.take(size_t(&entry - file.chunks().data()));
        if (!decoded) {
            detail::addFailed(r.failed, entry.startFrame, entry.endFrame, decoded.message());
        } else {
            const DecodedChunk& chunk = **decoded;
            const size_t n = chunk.frameCount();
            for (size_t local = 0; local < n; ++local) {
                const int32_t f = chunk.startFrame() + int32_t(local);
                const FrameView fv = chunk.frame(local);
                if (fv.isNull()) {
                    detail::addFailed(r.failed, f, f, chunk.frameStatus(local).message());
                    continue;
                }
                // Cold unless its verification just read it (a chunk verified by a worker, or a
                // Protobuf chunk, was written a whole chunk ago): one stream instead of the
                // visitor's misses one at a time.
                streamIn(fv.bytes());
                visit(f, fv, chunk);
                ++r.framesRead;
            }
            // A chunk holding fewer frames than its entry promises: the rest is unreadable too.
            if (int64_t(n) < entry.frameCount())
                detail::addFailed(r.failed, chunk.startFrame() + int32_t(n), entry.endFrame, "chunk holds fewer frames than its index entry");
        }
        done += entry.frameCount();
        if (control.progress)
            control.progress(std::min(done, total), total);
    }
    return r;
}

} // namespace vtx
