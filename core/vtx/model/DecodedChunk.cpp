// SPDX-License-Identifier: MIT
#include "vtx/model/DecodedChunk.hpp"

#include "vtx/base/StreamIn.hpp"

#include "vtx/file/backend/ChunkLimits.hpp"
#include "vtx/file/backend/FrameVerifier.hpp"

#include <algorithm>

namespace vtx {

DecodedChunk::DecodedChunk(size_t chunkIndex, int32_t startFrame, ChunkStorage storage, std::shared_ptr<const HashTrust> trust)
    : m_index(chunkIndex), m_startFrame(startFrame), m_storage(std::move(storage)), m_hashTrust(std::move(trust))
{
    // FlatBuffers are built back to front and writers finish one frame before starting the
    // next, so a frame's vectors and tables lie between its own table and the next frame table
    // above it. Sorting the table addresses gives every frame its range; the topmost frame ends
    // at the buffer's end. A writer with another layout only gets less useful ranges.
    const size_t n = frameCount();
    if (!m_storage.framesVerified && n > 0) {
        m_frameState = std::make_unique<std::atomic<uint8_t>[]>(n);
        for (size_t i = 0; i < n; ++i)
            m_frameState[i].store(0, std::memory_order_relaxed);
    }
    // Only frame table addresses are used here (the offsets were checked to point inside the
    // buffer); no frame is read before it is verified.
    const uint8_t* base = m_storage.data();
    const size_t size = m_storage.sizeBytes();
    if (n == 0 || !base || size > UINT32_MAX)
        return;
    std::vector<std::pair<uint32_t, uint32_t>> tables(n); // (offset of the frame table, frame)
    for (size_t i = 0; i < n; ++i)
        tables[i] = {uint32_t(reinterpret_cast<const uint8_t*>(frames()->Get(flatbuffers::uoffset_t(i))) - base), uint32_t(i)};
    std::sort(tables.begin(), tables.end());
    m_frameBytes.assign(n, {0, 0});
    for (size_t k = 0; k < n; ++k) {
        const uint32_t begin = tables[k].first;
        const uint32_t end = k + 1 < n ? tables[k + 1].first : uint32_t(size);
        m_frameBytes[tables[k].second] = {begin, std::max(begin, end)};
    }
}

Status DecodedChunk::frameStatus(size_t local) const
{
    if (local >= frameCount())
        return Error{m_storage.what + ": frame " + std::to_string(local) + " of the chunk does not exist"};
    if (frameVerified(local))
        return {};
    return verifyFrame(local); // the failure's message; failures are rare, so it is recomputed
}

std::optional<ChunkDamage> DecodedChunk::damage() const
{
    if (m_damage)
        return m_damage;
    const int64_t bad = m_firstBadLocal.load(std::memory_order_acquire);
    if (bad < 0)
        return std::nullopt;
    return ChunkDamage{m_index, m_startFrame + int32_t(bad), false, verifyFrame(size_t(bad)).message()};
}

void DecodedChunk::noteBadFrame(size_t local) const
{
    int64_t seen = m_firstBadLocal.load(std::memory_order_relaxed);
    while ((seen < 0 || int64_t(local) < seen) && !m_firstBadLocal.compare_exchange_weak(seen, int64_t(local), std::memory_order_acq_rel))
        ;
}

Status DecodedChunk::verifyFrame(size_t local) const
{
    const uint8_t* base = m_storage.data();
    const size_t size = m_storage.sizeBytes();
    flatbuffers::Verifier::Options opts;
    // The chunk's depth budget counts the root table and the frames vector above the frame.
    opts.max_depth = static_cast<flatbuffers::uoffset_t>(std::max<size_t>(m_storage.limits.maxTableDepth, 2) - 1);
    opts.max_tables = static_cast<flatbuffers::uoffset_t>(std::max<size_t>(size / 4, 1024));
    const fbsvtx::Frame* f = frames()->Get(static_cast<flatbuffers::uoffset_t>(local));
    // The frame's bytes were written by zstd a whole chunk ago and are out of the caches; the
    // verifier chases offsets through them one miss at a time (a third of its samples sat on
    // the first load of each table). Read as one stream first: cs2_fbs, docs/PERFORMANCE.md
    // "Full-read CPU profile".
    if (local < m_frameBytes.size())
        streamIn(std::span<const uint8_t>(base + m_frameBytes[local].first, m_frameBytes[local].second - m_frameBytes[local].first));
    // One fused pass decides; only a rejection runs the FlatBuffers verifier and the limits walk,
    // for the error message they have always given.
    if (frameIsValid(base, size, size_t(reinterpret_cast<const uint8_t*>(f) - base), m_storage.limits, opts.max_depth, opts.max_tables))
        return {};
    const std::string what = m_storage.what + ": frame " + std::to_string(local) + " of the chunk";
    flatbuffers::Verifier v(base, size, opts);
    if (!v.VerifyTable(f))
        return Error{what + ": FlatBuffers verification failed (corrupt data, or nesting deeper than " +
                     std::to_string(m_storage.limits.maxTableDepth) + " levels: maxTableDepth)"};
    return checkFrameLimits(*f, m_storage.limits, what);
}

} // namespace vtx
