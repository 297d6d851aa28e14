// SPDX-License-Identifier: MIT
#pragma once
// A library of replays: the files under a folder, and what a table row shows of each, read from
// the preamble, the header and the footer only. No chunk is read or decoded, so a folder of
// hundreds of replays lists in the time it takes to read their ends.
//
// A replay is found by its name (`*.vtx`, any case) and recognized by its magic ("VTXF" /
// "VTXP"): a `.vtx` file without it is still listed, as "not a VTX replay", so that a folder's
// listing accounts for every file the user would expect in it.

#include "vtx/base/Status.hpp"
#include "vtx/base/Types.hpp"
#include "vtx/file/ByteSource.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vtx {

/// How a file reads from its preamble, header and footer (not a content check: stored hashes
/// and chunk decoding are `vtxscope-cli validate`'s job, which reads every chunk).
enum class SummaryVerdict : uint8_t {
    Ok, ///< header, footer and seek table consistent
    Warnings, ///< opens, with strict-mode findings of Warning severity or worse (ReplayFile::problems())
    NoFooter, ///< the header reads, the footer does not (truncated, or still being written): the viewer recovers the chunks when it opens the file
    Unreadable, ///< a VTX magic, but the header cannot be read (or the file cannot be opened)
    NotReplay, ///< no VTX magic
};
const char* summaryVerdictName(SummaryVerdict v);

struct ReplaySummary {
    std::string path;
    uint64_t fileSize = 0;
    std::optional<Backend> backend; ///< from the magic: known for every VTX file, even one that does not open
    SummaryVerdict verdict = SummaryVerdict::NotReplay;
    std::string verdictText; ///< the verdict in words: "OK", "OK (2 notes)", the first warning, or the error (without the path)
    std::vector<std::string> findings; ///< every problem (notes and warnings), or the error; without the path
    // From the header: known unless Unreadable or NotReplay.
    std::string replayName;
    int64_t recordedUtcSeconds = 0; ///< seconds since the Unix epoch; 0: not recorded
    /// The schema's struct types that no other type nests: what entities are (the types actually
    /// present would take decoding chunks). All struct types when every one is nested somewhere.
    std::vector<std::string> entityTypes;
    // From the footer: known for Ok and Warnings.
    std::optional<int32_t> frames;
    std::optional<double> durationSeconds;
    size_t chunks = 0;
    bool opens() const { return verdict == SummaryVerdict::Ok || verdict == SummaryVerdict::Warnings; }
};

/// How the summary reaches a file's bytes: openFileSource unless a caller (a test counting what
/// is read) supplies another.
using SourceOpener = std::function<Result<std::shared_ptr<const ByteSource>>(const std::string& path)>;

/// Reads `path`'s preamble, header and footer (never a chunk) and says what they hold. Never
/// fails: a file that does not read is a summary whose verdict says why.
ReplaySummary summarizeReplay(const std::string& path, const SourceOpener& open = {});

/// True for a file name ending in ".vtx", any case.
bool hasReplayExtension(std::string_view name);

struct ReplayListing {
    std::vector<std::string> paths; ///< sorted
    std::vector<std::string> errors; ///< directories that could not be read (the walk goes on)
    bool cancelled = false;
};

/// Every `*.vtx` regular file under `folder`, recursively (symbolic links to files are listed,
/// linked directories are not followed: no cycles). `cancel` is polled between entries.
ReplayListing listReplayFiles(const std::string& folder, const std::atomic<bool>* cancel = nullptr);

} // namespace vtx
