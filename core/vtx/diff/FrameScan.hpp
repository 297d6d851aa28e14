// SPDX-License-Identifier: MIT
#pragma once
// Seek by change: from a frame, find the next (or previous) frame where one entity's property
// changes, or where a query expression ("Player.Health < 20", "any(IsAlive == false)",
// "changed(Money) && Team == 2", README "Query language") becomes true for the frame. Chunks are decoded here, in frame order, without touching the playhead's cache;
// the scan is cancellable and reports progress, so a GUI runs it on a worker thread.

#include "vtx/diff/FrameDiff.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/model/PropertyPath.hpp"
#include "vtx/query/Expression.hpp"

#include <atomic>
#include <functional>
#include <optional>

namespace vtx {

struct FrameScanRequest {
    enum class Mode {
        NextChange, ///< the value differs from the previous frame's (changes at frame f)
        ConditionBecomesTrue, ///< the expression matches frame f and not f − 1 (Expression::matchesFrame)
    };
    Mode mode = Mode::NextChange;
    EntityRef entity; ///< for NextChange
    std::string path; ///< for NextChange
    std::optional<query::Expression> condition; ///< for ConditionBecomesTrue, compiled for the file's schema
    int32_t from = 0; ///< the scan starts after (or before) this frame
    bool forward = true;
};

struct FrameScanControl {
    const std::atomic<bool>* cancel = nullptr;
    /// Frames scanned so far and the most the scan can visit; called about once per chunk.
    std::function<void(int64_t done, int64_t total)> progress;
    /// Chunks the caller already holds decoded (the one on screen): used instead of decoding
    /// them again.
    std::vector<std::shared_ptr<const DecodedChunk>> decoded;
};

struct FrameScanResult {
    std::optional<int32_t> frame; ///< nullopt: not found before the end (or start) of the replay
    bool cancelled = false;
    int64_t framesScanned = 0;
    std::vector<Problem> problems; ///< chunks that could not be decoded (skipped)
};

Result<FrameScanResult> scanFrames(const ReplayFile& file, const FrameScanRequest& request, const FrameScanControl& control = {});

} // namespace vtx
