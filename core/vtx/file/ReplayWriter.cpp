// SPDX-License-Identifier: MIT
#include "vtx/file/ReplayWriter.hpp"

#include "vtx/file/BlobCodec.hpp"
#include "vtx/file/backend/BackendCodec.hpp"
#include "vtx/integrity/ContentHash.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>

namespace vtx {

void groupBucketByType(BucketData& b)
{
    if (b.entities.empty())
        return;
    int32_t maxType = -1;
    for (const auto& e : b.entities) {
        if (e.typeId < 0)
            return; // untyped entities: keep the producer's order (the SDK would drop them)
        maxType = std::max(maxType, e.typeId);
    }
    std::vector<size_t> order(b.entities.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return b.entities[x].typeId < b.entities[y].typeId; });
    std::vector<PropertyContainerData> entities;
    std::vector<std::string> ids;
    entities.reserve(order.size());
    for (size_t i : order) {
        entities.push_back(std::move(b.entities[i]));
        if (i < b.uniqueIds.size())
            ids.push_back(std::move(b.uniqueIds[i]));
    }
    b.entities = std::move(entities);
    if (ids.size() == b.entities.size())
        b.uniqueIds = std::move(ids);
    b.typeRanges.assign(static_cast<size_t>(maxType) + 1, EntityRange{});
    int32_t pos = 0;
    size_t e = 0;
    for (int32_t t = 0; t <= maxType; ++t) {
        b.typeRanges[size_t(t)].startIndex = pos;
        while (e < b.entities.size() && b.entities[e].typeId == t) {
            ++pos;
            ++e;
        }
        b.typeRanges[size_t(t)].count = pos - b.typeRanges[size_t(t)].startIndex;
    }
}

Result<std::unique_ptr<ReplayWriter>> ReplayWriter::create(const std::string& path, ReplayHeader header, WriterOptions options)
{
    if (options.chunkMaxFrames <= 0)
        return Error{"writer: chunkMaxFrames must be positive"};
    std::unique_ptr<ReplayWriter> w(new ReplayWriter);
    w->m_path = path;
    w->m_options = options;
    w->m_file = std::fopen(path.c_str(), "wb");
    if (!w->m_file)
        return Error{"writer: cannot create " + path + ": " + std::strerror(errno)};
    if (header.replayUuid.empty())
        header.replayUuid = "uuid_placeholder";
    if (Status s = w->writeBytes({reinterpret_cast<const uint8_t*>(backendMagic(options.backend)), 4}); !s)
        return Error{s.message()};
    if (Status s = w->writeBlob(codecFor(options.backend).serializeHeader(header)); !s)
        return Error{s.message()};
    std::fflush(w->m_file); // a reader following the file can open it from the first chunk on
    return w;
}

ReplayWriter::~ReplayWriter()
{
    if (m_file)
        std::fclose(m_file);
}

Status ReplayWriter::writeBytes(std::span<const uint8_t> bytes)
{
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size())
        return Error{"writer: " + m_path + ": write failed at offset " + std::to_string(m_offset) + ": " + std::strerror(errno)};
    m_offset += bytes.size();
    return {};
}

Status ReplayWriter::writeBlob(std::span<const uint8_t> raw)
{
    const std::vector<uint8_t> blob = encodeBlob(raw, m_options.compress, m_options.zstdLevel);
    const uint32_t n = static_cast<uint32_t>(blob.size());
    const uint8_t size[4] = {uint8_t(n), uint8_t(n >> 8), uint8_t(n >> 16), uint8_t(n >> 24)};
    if (Status s = writeBytes(size); !s)
        return s;
    return writeBytes(blob);
}

Status ReplayWriter::addFrame(FrameData frame, int64_t gameTimeTicks, int64_t createdUtcTicks)
{
    if (m_finished)
        return Error{"writer: " + m_path + ": addFrame after finish"};
    if (frame.buckets.empty())
        return Error{"writer: frame " + std::to_string(m_footer.totalFrames) + " has no bucket (the SDK requires one)"};
    if (static_cast<int32_t>(m_pending.size()) >= m_options.chunkMaxFrames)
        if (Status s = flush(); !s)
            return s;
    if (m_options.groupBucket0ByType)
        groupBucketByType(frame.buckets[0]);
    for (auto& b : frame.buckets)
        for (auto& e : b.entities)
            fillContentHashes(e, m_options.hashVariant);
    m_pending.push_back(std::move(frame));
    m_footer.times.gameTime.push_back(gameTimeTicks);
    m_footer.times.createdUtc.push_back(createdUtcTicks);
    ++m_footer.totalFrames;
    return {};
}

Status ReplayWriter::flush()
{
    if (m_pending.empty())
        return {};
    const int32_t index = static_cast<int32_t>(m_footer.chunks.size());
    const std::vector<uint8_t> raw = codecFor(m_options.backend).serializeChunk(index, m_options.compress, m_pending);
    ChunkEntry e;
    e.chunkIndex = index;
    e.startFrame = m_footer.totalFrames - static_cast<int32_t>(m_pending.size());
    e.endFrame = m_footer.totalFrames - 1;
    e.fileOffset = m_offset;
    if (Status s = writeBlob(raw); !s)
        return s;
    e.chunkSizeBytes = static_cast<uint32_t>(m_offset - e.fileOffset);
    m_footer.chunks.push_back(e);
    m_pending.clear();
    // Readers following a growing file see whole chunks only.
    std::fflush(m_file);
    return {};
}

Result<WriteStats> ReplayWriter::finish()
{
    if (m_finished)
        return Error{"writer: " + m_path + ": finish called twice"};
    if (Status s = flush(); !s)
        return s;
    m_finished = true;
    const auto& utc = m_footer.times.createdUtc;
    m_footer.durationSeconds = utc.empty() ? 0.0f : static_cast<float>(double(utc.back() - utc.front()) / 1e7);
    const std::vector<uint8_t> raw = codecFor(m_options.backend).serializeFooter(m_footer);
    const std::vector<uint8_t> blob = encodeBlob(raw, m_options.compress, m_options.zstdLevel);
    if (Status s = writeBytes(blob); !s)
        return s;
    const uint32_t n = static_cast<uint32_t>(blob.size());
    const uint8_t size[4] = {uint8_t(n), uint8_t(n >> 8), uint8_t(n >> 16), uint8_t(n >> 24)};
    if (Status s = writeBytes(size); !s)
        return s;
    if (Status s = writeBytes({reinterpret_cast<const uint8_t*>(backendMagic(m_options.backend)), 4}); !s)
        return s;
    if (std::fclose(m_file) != 0) {
        m_file = nullptr;
        return Error{"writer: " + m_path + ": close failed: " + std::strerror(errno)};
    }
    m_file = nullptr;
    return WriteStats{m_footer.totalFrames, m_footer.chunks.size(), m_offset};
}

} // namespace vtx
