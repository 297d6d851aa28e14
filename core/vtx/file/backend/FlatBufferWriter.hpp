// SPDX-License-Identifier: MIT
#pragma once
// A FlatBuffers encoder for a known schema, written for the Protobuf chunk reader's volume
// (~1.5 M vectors and 240 k tables per chunk). It lays out bytes exactly as the format requires
// and as flatbuffers::FlatBufferBuilder does: back to front, children before parents, offsets
// relative to the referring field. What differs is the cost per object: a vector of offsets is
// written in one pass instead of one bounds-checked push per element, and a table finds its vtable
// by a key the caller derives from which fields are present, instead of comparing its vtable
// against every vtable written so far.
//
// Locations ("refs") are distances from the end of the buffer, as in FlatBufferBuilder; 0 means
// "no object".

#include "vtx/base/LargeAlloc.hpp"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace vtx {

class FlatBufferWriter {
public:
    using Ref = uint32_t;

    /// `capacity`: the expected final size (growing copies everything written so far).
    explicit FlatBufferWriter(size_t capacity);
    ~FlatBufferWriter();
    FlatBufferWriter(const FlatBufferWriter&) = delete;
    FlatBufferWriter& operator=(const FlatBufferWriter&) = delete;

    size_t size() const { return m_size; }

    /// A vector of scalars or structs, `align` being the element alignment.
    Ref vector(const void* data, size_t count, size_t elemSize, size_t align)
    {
        const size_t bytes = count * elemSize;
        align = std::max<size_t>(align, 4); // the length before the data is a uint32
        m_minAlign = std::max(m_minAlign, align);
        const size_t pad = (~(m_size + bytes) + 1) & (align - 1);
        // One reservation for length, data and padding (written top down: padding first).
        uint8_t* p = reserve(4 + bytes + pad);
        const uint32_t n = uint32_t(count);
        std::memcpy(p, &n, 4);
        if (bytes) // an empty vector's data may be null
            std::memcpy(p + 4, data, bytes);
        std::memset(p + 4 + bytes, 0, pad);
        return Ref(m_size);
    }
    template <class T> Ref vector(const T* data, size_t count) { return vector(data, count, sizeof(T), alignof(T)); }

    /// A vector of offsets to the objects at `targets` (all written before).
    Ref offsets(const Ref* targets, size_t count)
    {
        align(4);
        uint8_t* p = reserve(4 + count * 4);
        const uint32_t n = uint32_t(count);
        std::memcpy(p, &n, 4);
        const Ref first = Ref(m_size - 4); // location of element 0; element i is 4 i nearer the end
        for (size_t i = 0; i < count; ++i) {
            const uint32_t v = first - uint32_t(4 * i) - targets[i];
            std::memcpy(p + 4 + 4 * i, &v, 4);
        }
        return Ref(m_size);
    }

    Ref string(const void* data, size_t n)
    {
        const size_t pad = (~(m_size + n + 1) + 1) & 3;
        uint8_t* p = reserve(4 + n + 1 + pad);
        const uint32_t len = uint32_t(n);
        std::memcpy(p, &len, 4);
        if (n)
            std::memcpy(p + 4, data, n);
        std::memset(p + 4 + n, 0, 1 + pad); // the terminating NUL, then padding
        return Ref(m_size);
    }

    /// Fields of one table, added largest first and otherwise in ascending id order; `end` writes
    /// the table. That order makes the layout, and so the vtable, a function of which fields are
    /// present (the vtable key), whatever the table type.
    class Table {
    public:
        /// `layoutClass` tells apart tables whose fields of the same ids differ in size (all
        /// 4-byte fields and one 8-byte field last in the vtable need none).
        Table(FlatBufferWriter& w, bool has8ByteFields, uint32_t layoutClass = 0) : m_w(w), m_key(uint64_t(layoutClass) << 32)
        {
            m_w.align(has8ByteFields ? 8 : 4);
            m_start = Ref(m_w.m_size);
        }
        void add64(uint16_t slot, uint64_t v)
        {
            m_w.align(8);
            std::memcpy(m_w.reserve(8), &v, 8);
            track(slot);
        }
        void add32(uint16_t slot, uint32_t v)
        {
            m_w.align(4);
            std::memcpy(m_w.reserve(4), &v, 4);
            track(slot);
        }
        void add8(uint16_t slot, uint8_t v)
        {
            *m_w.reserve(1) = v;
            track(slot);
        }
        void addOffset(uint16_t slot, Ref target)
        {
            m_w.align(4);
            uint8_t* p = m_w.reserve(4);
            const uint32_t v = uint32_t(m_w.m_size) - target;
            std::memcpy(p, &v, 4);
            track(slot);
        }
        Ref end();

    private:
        void track(uint16_t slot)
        {
            m_fields[m_count++] = {slot, Ref(m_w.m_size)};
            m_key |= uint64_t(1) << ((slot - 4) / 2);
        }
        FlatBufferWriter& m_w;
        uint64_t m_key; ///< layout class, then one bit per present field
        Ref m_start = 0;
        struct Field {
            uint16_t slot; // vtable offset constant (VT_*): 4 + 2 * field id
            Ref at;
        };
        std::array<Field, 32> m_fields; // the first m_count are set
        size_t m_count = 0;
    };

    /// Writes the root offset and hands the bytes over (the writer is empty afterwards).
    flatbuffers::DetachedBuffer finish(Ref root);

private:
    uint8_t* reserve(size_t n)
    {
        if (m_capacity - m_size < n) [[unlikely]]
            grow(n);
        m_size += n;
        return m_end - m_size;
    }
    void zeros(size_t n)
    {
        if (n)
            std::memset(reserve(n), 0, n);
    }
    void align(size_t a)
    {
        m_minAlign = std::max(m_minAlign, a);
        zeros((~m_size + 1) & (a - 1));
    }
    /// Pads so that `n` more bytes end `a`-aligned.
    void preAlign(size_t n, size_t a)
    {
        m_minAlign = std::max(m_minAlign, a);
        zeros((~(m_size + n) + 1) & (a - 1));
    }
    Ref pushLength(size_t count)
    {
        const uint32_t n = uint32_t(count);
        std::memcpy(reserve(4), &n, 4);
        return Ref(m_size);
    }
    void grow(size_t n);

    uint8_t* m_block = nullptr; ///< allocation; the data ends at m_end
    uint8_t* m_end = nullptr;
    size_t m_capacity = 0;
    size_t m_size = 0;
    size_t m_minAlign = 8;

    /// key -> vtable location; open addressing, linear probing. A full table only stops sharing.
    struct VtableEntry {
        uint64_t key = 0;
        Ref at = 0;
    };
    static constexpr size_t kVtableSlots = 1024;
    std::array<VtableEntry, kVtableSlots> m_vtables{};
    size_t m_vtableCount = 0;
};

} // namespace vtx
