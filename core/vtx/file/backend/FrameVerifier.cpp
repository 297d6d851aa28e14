// SPDX-License-Identifier: MIT
#include "vtx/file/backend/FrameVerifier.hpp"

#include "vtx_generated.h"

#include <algorithm>
#include <cstring>

namespace vtx {
namespace {

using PC = fbsvtx::PropertyContainer;

/// Mirrors flatbuffers::Verifier (2.x) check for check: every position is an offset from the
/// buffer start, arithmetic is on size_t as there, and the same quantities are bounded.
class Walk {
public:
    Walk(const uint8_t* b, size_t n, const DecodeLimits& limits, uint32_t maxDepth, uint32_t maxTables)
        : m_b(b), m_n(n), m_limits(limits), m_maxDepth(maxDepth), m_maxTables(maxTables)
    {
    }

    bool frame(size_t t)
    {
        Table tb;
        if (!start(t, tb))
            return false;
        size_t v;
        uint32_t count;
        if (!offsetField(tb, fbsvtx::Frame::VT_DATA, v))
            return false;
        if (v != kNone) {
            if (!vector(v, 4, count))
                return false;
            for (uint32_t i = 0; i < count; ++i)
                if (!bucket(element(v, i)))
                    return false;
        }
        return end();
    }

private:
    static constexpr size_t kNone = size_t(-1);
    struct Table {
        size_t at = 0;
        size_t vtable = 0;
        uint16_t vsize = 0;
    };

    template <class T> T read(size_t pos) const
    {
        T v;
        std::memcpy(&v, m_b + pos, sizeof v);
        return v;
    }
    bool in(size_t pos, size_t len) const { return len < m_n && pos <= m_n - len; }
    static bool aligned(size_t pos, size_t a) { return (pos & (a - 1)) == 0; }

    // VerifyTableStart.
    bool start(size_t t, Table& tb)
    {
        if (!aligned(t, 4) || !in(t, 4))
            return false;
        const size_t vt = t - static_cast<size_t>(int64_t(read<int32_t>(t)));
        if (++m_depth > m_maxDepth || ++m_tables > m_maxTables)
            return false;
        if (!aligned(vt, 2) || !in(vt, 2))
            return false;
        const uint16_t vsize = read<uint16_t>(vt);
        if ((vsize & 1) || !in(vt, vsize))
            return false;
        tb = {t, vt, vsize};
        return true;
    }
    bool end()
    {
        --m_depth;
        return true;
    }
    uint16_t fieldOffset(const Table& tb, uint16_t slot) const { return slot < tb.vsize ? read<uint16_t>(tb.vtable + slot) : 0; }
    // VerifyField<T>.
    bool scalarField(const Table& tb, uint16_t slot, size_t size) const
    {
        const uint16_t fo = fieldOffset(tb, slot);
        return !fo || (aligned(tb.at + fo, size) && in(tb.at + fo, size));
    }
    // VerifyOffset: the field's target, or kNone when the field is absent.
    bool offsetField(const Table& tb, uint16_t slot, size_t& target) const
    {
        target = kNone;
        const uint16_t fo = fieldOffset(tb, slot);
        if (!fo)
            return true;
        const size_t p = tb.at + fo;
        if (!aligned(p, 4) || !in(p, 4))
            return false;
        const uint32_t o = read<uint32_t>(p);
        if (o == 0 || int32_t(o) < 0 || !in(p + o, 1))
            return false;
        target = p + o;
        return true;
    }
    // VerifyVectorOrString.
    bool vector(size_t v, size_t elemSize, uint32_t& count) const
    {
        if (!aligned(v, 4) || !in(v, 4))
            return false;
        count = read<uint32_t>(v);
        if (count >= FLATBUFFERS_MAX_BUFFER_SIZE / elemSize)
            return false;
        return in(v, 4 + elemSize * count);
    }
    // Vector<Offset<T>>::Get(i), as a position (not checked, as there).
    size_t element(size_t v, uint32_t i) const
    {
        const size_t p = v + 4 + size_t(i) * 4;
        return p + read<uint32_t>(p);
    }
    // VerifyString, plus maxStringBytes.
    bool string(size_t s) const
    {
        uint32_t len;
        if (!vector(s, 1, len))
            return false;
        const size_t endPos = s + 4 + len;
        return in(endPos, 1) && m_b[endPos] == 0 && len <= m_limits.maxStringBytes;
    }
    bool strings(size_t v) const
    {
        uint32_t count;
        if (!vector(v, 4, count))
            return false;
        for (uint32_t i = 0; i < count; ++i)
            if (!string(element(v, i)))
                return false;
        return true;
    }
    /// The views read 8-byte values in place (ChunkLimits: the verifier checks only lengths).
    bool dataAligned8(size_t v) const { return reinterpret_cast<uintptr_t>(m_b + v + 4) % 8 == 0; }

    enum class Data { Scalars, Strings, Containers, Maps };

    // An optional vector field: its elements' size, and what its elements are.
    bool vectorField(const Table& tb, uint16_t slot, size_t elemSize, Data kind, bool needs8 = false)
    {
        size_t v;
        if (!offsetField(tb, slot, v))
            return false;
        if (v == kNone)
            return true;
        uint32_t count;
        if (!vector(v, elemSize, count))
            return false;
        switch (kind) {
        case Data::Scalars: return !needs8 || dataAligned8(v);
        case Data::Strings: return strings(v);
        case Data::Containers:
            for (uint32_t i = 0; i < count; ++i)
                if (!container(element(v, i)))
                    return false;
            return true;
        case Data::Maps:
            for (uint32_t i = 0; i < count; ++i)
                if (!map(element(v, i)))
                    return false;
            return true;
        }
        return false;
    }

    // A Flat*Array table field: data (slot 4) and offsets (slot 6).
    bool flatField(const Table& tb, uint16_t slot, size_t elemSize, Data kind, bool needs8 = false)
    {
        size_t t;
        if (!offsetField(tb, slot, t))
            return false;
        if (t == kNone)
            return true;
        Table ft;
        return start(t, ft) && vectorField(ft, 4, elemSize, kind, needs8) && vectorField(ft, 6, 4, Data::Scalars) && end();
    }

    bool map(size_t t)
    {
        Table tb;
        return start(t, tb) && vectorField(tb, fbsvtx::MapContainer::VT_KEYS, 4, Data::Strings) &&
            vectorField(tb, fbsvtx::MapContainer::VT_VALUES, 4, Data::Containers) && end();
    }

    bool container(size_t t)
    {
        Table tb;
        if (!start(t, tb))
            return false;
        if (!scalarField(tb, PC::VT_TYPE_ID, 4) || !scalarField(tb, PC::VT_CONTENT_HASH, 8))
            return false;
        // Only the slots the vtable holds: absent fields cost nothing.
        const uint16_t last = std::min<uint16_t>(tb.vsize, PC::VT_MAP_ARRAYS + 2);
        for (uint16_t slot = PC::VT_BOOL_PROPERTIES; slot < last; slot += 2) {
            if (!read<uint16_t>(tb.vtable + slot))
                continue;
            bool ok = false;
            switch (slot) {
            case PC::VT_BOOL_PROPERTIES: ok = vectorField(tb, slot, 1, Data::Scalars); break;
            case PC::VT_INT32_PROPERTIES: ok = vectorField(tb, slot, 4, Data::Scalars); break;
            case PC::VT_INT64_PROPERTIES: ok = vectorField(tb, slot, 8, Data::Scalars, true); break;
            case PC::VT_FLOAT_PROPERTIES: ok = vectorField(tb, slot, 4, Data::Scalars); break;
            case PC::VT_DOUBLE_PROPERTIES: ok = vectorField(tb, slot, 8, Data::Scalars, true); break;
            case PC::VT_STRING_PROPERTIES: ok = vectorField(tb, slot, 4, Data::Strings); break;
            case PC::VT_TRANSFORM_PROPERTIES: ok = vectorField(tb, slot, sizeof(fbsvtx::Transform), Data::Scalars, true); break;
            case PC::VT_VECTOR_PROPERTIES: ok = vectorField(tb, slot, sizeof(fbsvtx::Vector), Data::Scalars, true); break;
            case PC::VT_QUAT_PROPERTIES: ok = vectorField(tb, slot, sizeof(fbsvtx::Quat), Data::Scalars); break;
            case PC::VT_RANGE_PROPERTIES: ok = vectorField(tb, slot, sizeof(fbsvtx::FloatRange), Data::Scalars); break;
            case PC::VT_BYTE_ARRAY_PROPERTIES: ok = flatField(tb, slot, 1, Data::Scalars); break;
            case PC::VT_INT32_ARRAYS: ok = flatField(tb, slot, 4, Data::Scalars); break;
            case PC::VT_INT64_ARRAYS: ok = flatField(tb, slot, 8, Data::Scalars, true); break;
            case PC::VT_FLOAT_ARRAYS: ok = flatField(tb, slot, 4, Data::Scalars); break;
            case PC::VT_DOUBLE_ARRAYS: ok = flatField(tb, slot, 8, Data::Scalars, true); break;
            case PC::VT_VECTOR_ARRAYS: ok = flatField(tb, slot, sizeof(fbsvtx::Vector), Data::Scalars, true); break;
            case PC::VT_QUAT_ARRAYS: ok = flatField(tb, slot, sizeof(fbsvtx::Quat), Data::Scalars); break;
            case PC::VT_TRANSFORM_ARRAYS: ok = flatField(tb, slot, sizeof(fbsvtx::Transform), Data::Scalars, true); break;
            case PC::VT_RANGE_ARRAYS: ok = flatField(tb, slot, sizeof(fbsvtx::FloatRange), Data::Scalars); break;
            case PC::VT_BOOL_ARRAYS: ok = flatField(tb, slot, 1, Data::Scalars); break;
            case PC::VT_STRING_ARRAYS: ok = flatField(tb, slot, 4, Data::Strings); break;
            case PC::VT_ANY_STRUCT_PROPERTIES: ok = vectorField(tb, slot, 4, Data::Containers); break;
            case PC::VT_ANY_STRUCT_ARRAYS: ok = flatField(tb, slot, 4, Data::Containers); break;
            case PC::VT_MAP_PROPERTIES: ok = vectorField(tb, slot, 4, Data::Maps); break;
            case PC::VT_MAP_ARRAYS: ok = flatField(tb, slot, 4, Data::Maps); break;
            default: ok = true; break; // a slot this schema does not have: not read, not verified
            }
            if (!ok)
                return false;
        }
        return end();
    }

    bool bucket(size_t t)
    {
        Table tb;
        if (!start(t, tb))
            return false;
        size_t ids, entities, ranges;
        uint32_t idCount = 0, entityCount = 0, rangeCount = 0;
        if (!offsetField(tb, fbsvtx::Bucket::VT_UNIQUE_IDS, ids) || (ids != kNone && !vector(ids, 4, idCount)))
            return false;
        if (!offsetField(tb, fbsvtx::Bucket::VT_ENTITIES, entities) || (entities != kNone && !vector(entities, 4, entityCount)))
            return false;
        if (!offsetField(tb, fbsvtx::Bucket::VT_TYPE_RANGES, ranges) || (ranges != kNone && !vector(ranges, sizeof(fbsvtx::EntityRange), rangeCount)))
            return false;
        if (std::max(idCount, entityCount) > m_limits.maxEntitiesPerBucket)
            return false;
        for (uint32_t i = 0; i < idCount; ++i)
            if (!string(element(ids, i)))
                return false;
        for (uint32_t i = 0; i < entityCount; ++i)
            if (!container(element(entities, i)))
                return false;
        return end();
    }

    const uint8_t* m_b;
    size_t m_n;
    const DecodeLimits& m_limits;
    uint32_t m_maxDepth, m_maxTables;
    uint32_t m_depth = 0, m_tables = 0;
};

} // namespace

bool frameIsValid(const uint8_t* buffer, size_t size, size_t frameTable, const DecodeLimits& limits, uint32_t maxDepth, uint32_t maxTables)
{
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return false;
    return Walk(buffer, size, limits, maxDepth, maxTables).frame(frameTable);
}

} // namespace vtx
