#include "vtx/DecodedChunk.hpp"

#include <algorithm>

namespace vtx {

DecodedChunk::DecodedChunk(size_t chunkIndex, int32_t startFrame, ChunkStorage storage)
    : m_index(chunkIndex), m_startFrame(startFrame), m_storage(std::move(storage))
{
    // FlatBuffers are built back to front and writers finish one frame before starting the
    // next, so a frame's vectors and tables lie between its own table and the next frame table
    // above it. Sorting the table addresses gives every frame its range; the topmost frame ends
    // at the buffer's end. A writer with another layout only gets less useful ranges.
    const size_t n = frameCount();
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

} // namespace vtx
