// SPDX-License-Identifier: MIT
#pragma once
// Decoded file-level metadata: header, footer, seek table, times, events (spec §1, §4, §6.7).

#include "vtx/base/Types.hpp"
#include "vtx/model/ReplayData.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vtx {

struct ReplayHeader {
    uint32_t formatMajor = 1;
    uint32_t formatMinor = 0;
    uint32_t schemaVersion = 0;
    std::string dataIdentifier = "VTX_GameData";
    int32_t dataVersion = 0;
    std::string dataVersionString;
    std::string schemaJson;
    std::string replayUuid;
    std::string replayName;
    int64_t recordedUtcTimestamp = 0; ///< seconds since the Unix epoch
    std::string customJsonMetadata = "{}";
};

/// One seek-table entry. `fileOffset` is the offset of the record's 4-byte size prefix and
/// `chunkSizeBytes` includes it; `endFrame` is inclusive (spec §1.2).
struct ChunkEntry {
    int32_t chunkIndex = 0;
    int32_t startFrame = 0;
    int32_t endFrame = -1;
    uint64_t fileOffset = 0;
    uint32_t chunkSizeBytes = 0;
    int64_t frameCount() const { return int64_t(endFrame) - startFrame + 1; }
    bool operator==(const ChunkEntry&) const = default;
};

struct ReplayTimes {
    std::vector<int64_t> gameTime; ///< ticks per frame
    std::vector<int64_t> createdUtc; ///< ticks per frame
    /// Stored markers use the k+1 convention: the 0-based index of the frame after the gap,
    /// plus one (§6.7).
    std::vector<uint32_t> gaps;
    std::vector<uint32_t> segments;
    bool operator==(const ReplayTimes&) const = default;
};

struct ReplayFooter {
    int32_t totalFrames = 0;
    float durationSeconds = 0;
    ReplayTimes times;
    std::vector<ChunkEntry> chunks;
    std::vector<TimelineEvent> events;
    uint64_t payloadChecksum = 0;
};

/// Where a blob sits in the file and how it was stored.
struct BlobInfo {
    uint64_t offset = 0; ///< of the blob itself (after any size prefix)
    uint64_t storedSize = 0;
    bool zstd = false;
    uint64_t decodedSize = 0;
};

} // namespace vtx
