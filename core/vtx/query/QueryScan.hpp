// SPDX-License-Identifier: MIT
#pragma once
// Runs a compiled expression over a range of frames of a file: chunk by chunk in frame order,
// decoding each once (or using chunks the caller already holds) through the scan engine (the
// next chunks decompress while this one is evaluated), cancellable, with progress.
// What `vtxscope-cli query`, Find all and the bench run.

#include "vtx/base/FrameSpan.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/query/Expression.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <atomic>
#include <functional>

namespace vtx::query {

struct EntityMatch {
    uint32_t bucket = 0;
    std::string uniqueId;
    int32_t typeId = -1;
    std::string label; ///< its label (EntityLabels) in the matching frame; empty when none
};

struct FrameMatch {
    int32_t frame = 0;
    std::vector<EntityMatch> entities; ///< empty for frame-level expressions (any/all only)
};

struct QueryScanOptions {
    int32_t from = 0;
    int32_t to = -1; ///< inclusive; -1: the last frame
    bool listEntities = true; ///< false: frames only (Find all's lane)
    const std::atomic<bool>* cancel = nullptr;
    /// Frames done so far (evaluated or found unreadable) and the frames in the range; called
    /// about once per chunk.
    std::function<void(int64_t done, int64_t total)> progress;
    /// Decoded chunks the caller already holds (the one on screen), used instead of decoding again.
    std::vector<std::shared_ptr<const DecodedChunk>> decoded;
    /// Decode threads (the scan engine, ChunkPipeline): 1 decodes each chunk on the calling
    /// thread; the result is the same for any count.
    unsigned threads = kScanThreads;
};

struct QueryScanResult {
    std::vector<FrameMatch> frames;
    int64_t framesScanned = 0; ///< frames of the range the expression was evaluated on
    int64_t framesUnreadable = 0; ///< frames of the range that could not be read (problems says why)
    int64_t entityMatches = 0;
    bool cancelled = false;
    std::vector<Problem> problems; ///< chunks or frames that could not be read (skipped)
    /// The frames framesUnreadable counts, span by span in frame order with why (the matches
    /// lane hatches them: not searched is not "no match").
    std::vector<FrameSpan> unreadable;
};

/// Scans frames [from, to] of `file` with `expression` (compiled for this file's schema; the
/// scan evaluates its own copy). A range outside the file is an OutOfRange error.
Result<QueryScanResult> scanQuery(const ReplayFile& file, const Expression& expression, const QueryScanOptions& options = {});

/// The scan as JSON (`vtxscope-cli query --json`, the Python package's `query()`): expression,
/// range, counts (frames_scanned: evaluated; frames_unreadable: in the range but not read), per
/// matching frame the matching entities (bucket name, id, type), problems.
Json queryJson(const ReplayFile& file, const Expression& expression, const QueryScanOptions& options, const QueryScanResult& result);
/// A compile error as JSON: {"expression", "error": {"column", "message", "did_you_mean"}}.
Json expressionErrorJson(std::string_view text, const ExpressionError& error);

} // namespace vtx::query
