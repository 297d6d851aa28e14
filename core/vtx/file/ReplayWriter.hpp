// SPDX-License-Identifier: MIT
#pragma once
// Writes VTX files the SDK can read (spec §1.5, §9.5): frames are buffered and flushed as
// chunks of `chunkMaxFrames`, each blob stored by the CompressIfBeneficial rule, content hashes
// computed for every container, and the footer (seek table, times, events) written on finish().

#include "vtx/base/Status.hpp"
#include "vtx/file/ReplayInfo.hpp"
#include "vtx/model/ReplayData.hpp"

#include "vtx/integrity/ContentHash.hpp"

#include <cstdio>
#include <memory>
#include <string>

namespace vtx {

struct WriterOptions {
    Backend backend = Backend::FlatBuffers;
    int32_t chunkMaxFrames = 1000; ///< the SDK's default
    bool compress = true;
    int zstdLevel = 10; ///< the SDK's level; reproduces its bytes
    /// Reorder bucket 0 by type id and write its type_ranges, as SDK writers do (§6.2).
    /// Entities are never dropped; if any bucket-0 entity is untyped the bucket is kept as is.
    bool groupBucket0ByType = true;
    /// content_hash algorithm: the spec's, or the SDK v0.2.0 writer's (§6.6 ⚠), to produce
    /// files shaped like the SDK's for tests and benchmarks.
    HashVariant hashVariant = HashVariant::Spec;
};

struct WriteStats {
    int32_t frames = 0;
    size_t chunks = 0;
    uint64_t bytes = 0;
};

class ReplayWriter {
public:
    static Result<std::unique_ptr<ReplayWriter>> create(const std::string& path, ReplayHeader header, WriterOptions options = {});
    ~ReplayWriter();
    ReplayWriter(const ReplayWriter&) = delete;
    ReplayWriter& operator=(const ReplayWriter&) = delete;

    /// Adds one frame (it must hold at least one bucket) with its game and UTC times in ticks.
    Status addFrame(FrameData frame, int64_t gameTimeTicks, int64_t createdUtcTicks);
    void addEvent(TimelineEvent e) { m_footer.events.push_back(std::move(e)); }
    /// Markers use the stored k+1 convention (spec §6.7): pass (index of the frame after the gap) + 1.
    void addGapMarker(uint32_t marker) { m_footer.times.gaps.push_back(marker); }
    void addSegmentMarker(uint32_t marker) { m_footer.times.segments.push_back(marker); }
    /// Writes pending frames as a (possibly short) chunk now.
    Status flush();
    /// Flushes, writes the footer and closes the file.
    Result<WriteStats> finish();

private:
    ReplayWriter() = default;
    Status writeBytes(std::span<const uint8_t> bytes);
    Status writeBlob(std::span<const uint8_t> raw);

    std::string m_path;
    std::FILE* m_file = nullptr;
    WriterOptions m_options;
    ReplayFooter m_footer;
    std::vector<FrameData> m_pending;
    uint64_t m_offset = 0;
    bool m_finished = false;
};

/// Groups bucket 0 by type id and fills its type_ranges (what SDK writers do before writing).
void groupBucketByType(BucketData& bucket);

} // namespace vtx
