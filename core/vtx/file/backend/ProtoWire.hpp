// SPDX-License-Identifier: MIT
#pragma once
// The Protobuf wire format at the level the chunk reader needs: varints, tags, fixed-width and
// length-delimited fields, each read checked against the end of the enclosing message. Written
// from the encoding rules (spec §3); nothing here allocates.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace vtx::wire {

static_assert(std::endian::native == std::endian::little, "fixed-width fields are copied as they are stored");

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Len = 2, StartGroup = 3, EndGroup = 4, Fixed32 = 5 };

/// One message's bytes. A read that returns false leaves the cursor where the bad field began
/// (pos() tells the caller where to point in its error).
class Cursor {
public:
    Cursor(const uint8_t* begin, const uint8_t* end) : m_p(begin), m_end(end) { }
    bool atEnd() const { return m_p >= m_end; }
    const uint8_t* pos() const { return m_p; }
    const uint8_t* end() const { return m_end; }

    [[gnu::always_inline]] bool varint(uint64_t& out)
    {
        if (m_p < m_end && *m_p < 0x80) [[likely]] {
            out = *m_p++;
            return true;
        }
        return varintSlow(out);
    }

    /// Field numbers start at 1 and end at 2^29 - 1; groups are not part of this format.
    /// On failure the cursor stays at the tag.
    [[gnu::always_inline]] bool tag(uint32_t& field, WireType& type)
    {
        if (m_p < m_end) [[likely]] {
            const unsigned t = *m_p;
            // One byte: fields 1-15 with wire type 0, 1, 2 or 5 (bits of 0x27).
            if (t < 0x80 && t >= 8 && ((0x27u >> (t & 7)) & 1)) [[likely]] {
                ++m_p;
                field = t >> 3;
                type = WireType(t & 7);
                return true;
            }
            // Two bytes: fields 16-2047 (the container's arrays, structs and maps).
            if (t >= 0x80 && m_end - m_p >= 2 && m_p[1] < 0x80) {
                const unsigned t2 = (t & 0x7F) | (unsigned(m_p[1]) << 7);
                if (t2 >= 8 && ((0x27u >> (t2 & 7)) & 1)) {
                    m_p += 2;
                    field = t2 >> 3;
                    type = WireType(t2 & 7);
                    return true;
                }
            }
        }
        return tagSlow(field, type);
    }

    template <class T> bool fixed(T& out)
    {
        static_assert(sizeof(T) == 4 || sizeof(T) == 8);
        if (size_t(m_end - m_p) < sizeof(T))
            return false;
        std::memcpy(&out, m_p, sizeof(T));
        m_p += sizeof(T);
        return true;
    }

    /// A length-delimited field's payload; the length is checked against what is left.
    [[gnu::always_inline]] bool bytes(const uint8_t*& p, size_t& n)
    {
        const uint8_t* start = m_p;
        uint64_t len;
        // Lengths are at most five bytes long (libprotobuf's rule: sizes stay below 2 GiB).
        if (!varint(len) || m_p - start > 5 || len > uint64_t(m_end - m_p)) {
            m_p = start;
            return false;
        }
        p = m_p;
        n = size_t(len);
        m_p += n;
        return true;
    }

    /// Skips the payload of a field whose tag was just read (unknown fields, unexpected types).
    bool skip(WireType type)
    {
        uint64_t v;
        const uint8_t* p;
        size_t n;
        switch (type) {
        case WireType::Varint: return varint(v);
        case WireType::Fixed64: return fixed(v);
        case WireType::Fixed32: {
            uint32_t w;
            return fixed(w);
        }
        case WireType::Len: return bytes(p, n);
        default: return false;
        }
    }

private:
    [[gnu::noinline]] bool tagSlow(uint32_t& field, WireType& type)
    {
        const uint8_t* start = m_p;
        uint64_t wide;
        // A tag is at most five bytes, and as in libprotobuf bits of the fifth beyond 32 are dropped.
        const bool read = varint(wide) && m_p - start <= 5;
        const uint32_t t = uint32_t(wide);
        if (!read || (t >> 3) == 0 || !((0x27u >> (t & 7)) & 1)) {
            m_p = start;
            return false;
        }
        field = t >> 3;
        type = WireType(t & 7);
        return true;
    }

    bool varintSlow(uint64_t& out)
    {
        uint64_t v = 0;
        const uint8_t* p = m_p;
        // At most ten bytes; the tenth contributes its lowest bit, as in every Protobuf parser.
        for (unsigned shift = 0; shift < 64 && p < m_end; shift += 7) {
            const uint8_t b = *p++;
            v |= uint64_t(b & 0x7F) << shift;
            if (b < 0x80) {
                m_p = p;
                out = v;
                return true;
            }
        }
        return false;
    }

    const uint8_t* m_p;
    const uint8_t* m_end;
};

inline int32_t zigzag32(uint64_t v)
{
    const uint32_t u = uint32_t(v); // sint32 is read as a 32-bit varint, then unzigzagged
    return int32_t((u >> 1) ^ (~(u & 1) + 1));
}
inline int64_t zigzag64(uint64_t v)
{
    return int64_t((v >> 1) ^ (~(v & 1) + 1));
}

/// Elements in a packed varint payload: every element ends in exactly one byte below 0x80.
inline size_t packedVarintCount(const uint8_t* p, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; ++i)
        count += p[i] < 0x80;
    return count;
}

} // namespace vtx::wire
