// SPDX-License-Identifier: MIT
#include "vtx/file/backend/FlatBufferWriter.hpp"

#include <new>

namespace vtx {
namespace {

/// Frees the finished buffer through LargeAlloc; DetachedBuffer keeps a pointer to it.
class LargeBlockAllocator final : public flatbuffers::Allocator {
public:
    uint8_t* allocate(size_t size) override { return static_cast<uint8_t*>(allocateLarge(size)); }
    void deallocate(uint8_t* p, size_t size) override { freeLarge(p, size); }
};

LargeBlockAllocator* largeBlockAllocator()
{
    static LargeBlockAllocator a; // stateless
    return &a;
}

size_t roundUp8(size_t n)
{
    return (n + 7) & ~size_t(7);
}

} // namespace

FlatBufferWriter::FlatBufferWriter(size_t capacity)
{
    m_capacity = roundUp8(std::max<size_t>(capacity, 1024));
    m_block = static_cast<uint8_t*>(allocateLarge(m_capacity));
    m_end = m_block + m_capacity;
}

FlatBufferWriter::~FlatBufferWriter()
{
    if (m_block)
        freeLarge(m_block, m_capacity);
}

void FlatBufferWriter::grow(size_t n)
{
    // The largest buffer FlatBuffers offsets can address; the reader checks before writing.
    if (n > FLATBUFFERS_MAX_BUFFER_SIZE || m_size > FLATBUFFERS_MAX_BUFFER_SIZE - n)
        throw std::length_error("FlatBuffer larger than 2 GiB");
    const size_t capacity = roundUp8(std::max(m_capacity * 2, m_size + n + 1024));
    auto* block = static_cast<uint8_t*>(allocateLarge(capacity));
    std::memcpy(block + capacity - m_size, m_end - m_size, m_size);
    freeLarge(m_block, m_capacity);
    m_block = block;
    m_capacity = capacity;
    m_end = block + capacity;
}

FlatBufferWriter::Ref FlatBufferWriter::Table::end()
{
    const uint64_t key = m_key;
    m_w.align(4);
    uint8_t* soffset = m_w.reserve(4);
    const Ref table = Ref(m_w.m_size);

    // Probe for the key; the slot it should go in if absent.
    size_t h = size_t((key * 0x9E3779B97F4A7C15ull) >> 54) % kVtableSlots;
    VtableEntry* slot = nullptr;
    for (size_t probe = 0; probe < kVtableSlots; ++probe, h = (h + 1) % kVtableSlots) {
        VtableEntry& e = m_w.m_vtables[h];
        if (e.at == 0) {
            slot = &e;
            break;
        }
        if (e.key == key) {
            const int32_t rel = int32_t(e.at) - int32_t(table);
            std::memcpy(soffset, &rel, 4);
            return table;
        }
    }

    // A new layout: write its vtable just below the table (as FlatBufferBuilder does).
    uint16_t maxSlot = 2;
    for (size_t i = 0; i < m_count; ++i)
        maxSlot = std::max(maxSlot, m_fields[i].slot);
    const size_t vtableBytes = size_t(maxSlot) + 2; // slots are byte offsets: 4 + 2 * id
    uint8_t* vt = m_w.reserve(vtableBytes);
    std::memset(vt, 0, vtableBytes);
    const uint16_t header[2] = {uint16_t(vtableBytes), uint16_t(table - m_start)};
    std::memcpy(vt, header, 4);
    for (size_t i = 0; i < m_count; ++i) {
        const uint16_t at = uint16_t(table - m_fields[i].at);
        std::memcpy(vt + m_fields[i].slot, &at, 2);
    }
    const Ref vtable = Ref(m_w.m_size);
    // reserve() may have grown the buffer: the soffset's address is recomputed from its location.
    const int32_t rel = int32_t(vtable) - int32_t(table);
    std::memcpy(m_w.m_end - table, &rel, 4);
    (void)soffset;
    if (slot && m_w.m_vtableCount < kVtableSlots / 2) {
        *slot = {key, vtable};
        ++m_w.m_vtableCount;
    }
    return table;
}

flatbuffers::DetachedBuffer FlatBufferWriter::finish(Ref root)
{
    preAlign(4, m_minAlign);
    const uint32_t v = uint32_t(m_size + 4) - root;
    std::memcpy(reserve(4), &v, 4);
    flatbuffers::DetachedBuffer out(largeBlockAllocator(), false, m_block, m_capacity, m_end - m_size, m_size);
    m_block = m_end = nullptr;
    m_capacity = m_size = 0;
    return out;
}

} // namespace vtx
