// SPDX-License-Identifier: MIT
#pragma once
// Zero-copy, backend-neutral views of decoded frames. Every decoded chunk is held as a verified
// FlatBuffer (Protobuf chunks are flattened into one at decode time), so these views read in
// place: no heap object per frame, entity or property. A view is valid while the FrameHandle /
// DecodedChunk it came from is alive. All accessors accept absent members (empty results).

#include "vtx/base/Types.hpp"
#include "vtx/model/Schema.hpp"
#include "vtx_generated.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>

namespace vtx {

namespace detail {
template <class T, class FbT> inline std::span<const T> span(const flatbuffers::Vector<FbT>* v)
{
    if (!v)
        return {};
    return {reinterpret_cast<const T*>(v->Data()), v->size()};
}
} // namespace detail

class StringList {
public:
    using FbVec = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;
    StringList() = default;
    explicit StringList(const FbVec* v) : m_v(v) { }
    size_t size() const { return m_v ? m_v->size() : 0; }
    bool empty() const { return size() == 0; }
    std::string_view operator[](size_t i) const
    {
        const flatbuffers::String* s = m_v->Get(static_cast<flatbuffers::uoffset_t>(i));
        return s ? std::string_view(s->c_str(), s->size()) : std::string_view{};
    }

private:
    const FbVec* m_v = nullptr;
};

/// A sub-range [begin, end) of a list type (StringList, ContainerList, MapList).
template <class List> class ListSlice {
public:
    ListSlice() = default;
    ListSlice(List list, size_t begin, size_t end) : m_list(list), m_begin(begin), m_end(end) { }
    size_t size() const { return m_end - m_begin; }
    bool empty() const { return m_end == m_begin; }
    auto operator[](size_t i) const { return m_list[m_begin + i]; }

private:
    List m_list;
    size_t m_begin = 0, m_end = 0;
};

/// Sub-array bounds of a FlatArray (spec §6.4); malformed offsets give an empty sub-array
/// instead of an out-of-bounds range (strict validation reports them).
inline std::pair<size_t, size_t> subArrayBounds(std::span<const uint32_t> offsets, size_t dataSize, size_t i)
{
    if (i >= offsets.size())
        return {0, 0};
    const size_t b = offsets[i];
    const size_t e = i + 1 < offsets.size() ? offsets[i + 1] : dataSize;
    if (b > e || e > dataSize)
        return {0, 0};
    return {b, e};
}

template <class T> struct FlatArrayView {
    std::span<const T> data;
    std::span<const uint32_t> offsets;
    size_t count() const { return offsets.size(); }
    std::span<const T> at(size_t i) const
    {
        auto [b, e] = subArrayBounds(offsets, data.size(), i);
        return data.subspan(b, e - b);
    }
};

template <class List> struct FlatListArrayView {
    List data;
    std::span<const uint32_t> offsets;
    size_t count() const { return offsets.size(); }
    ListSlice<List> at(size_t i) const
    {
        auto [b, e] = subArrayBounds(offsets, data.size(), i);
        return {data, b, e};
    }
};

class ContainerView;
class MapView;

class ContainerList {
public:
    using FbVec = flatbuffers::Vector<flatbuffers::Offset<fbsvtx::PropertyContainer>>;
    ContainerList() = default;
    explicit ContainerList(const FbVec* v) : m_v(v) { }
    size_t size() const { return m_v ? m_v->size() : 0; }
    bool empty() const { return size() == 0; }
    inline ContainerView operator[](size_t i) const;

private:
    const FbVec* m_v = nullptr;
};

class MapList {
public:
    using FbVec = flatbuffers::Vector<flatbuffers::Offset<fbsvtx::MapContainer>>;
    MapList() = default;
    explicit MapList(const FbVec* v) : m_v(v) { }
    size_t size() const { return m_v ? m_v->size() : 0; }
    bool empty() const { return size() == 0; }
    inline MapView operator[](size_t i) const;

private:
    const FbVec* m_v = nullptr;
};

/// One PropertyContainer: an entity, a nested struct, a struct-array element or a map value.
class ContainerView {
public:
    ContainerView() = default;
    explicit ContainerView(const fbsvtx::PropertyContainer* p) : m_p(p) { }
    bool isNull() const { return m_p == nullptr; }

    int32_t typeId() const { return m_p ? m_p->type_id() : -1; }
    uint64_t contentHash() const { return m_p ? m_p->content_hash() : 0; }

    std::span<const uint8_t> bools() const { return m_p ? detail::span<uint8_t>(m_p->bool_properties()) : std::span<const uint8_t>{}; }
    std::span<const int32_t> int32s() const { return m_p ? detail::span<int32_t>(m_p->int32_properties()) : std::span<const int32_t>{}; }
    std::span<const int64_t> int64s() const { return m_p ? detail::span<int64_t>(m_p->int64_properties()) : std::span<const int64_t>{}; }
    std::span<const float> floats() const { return m_p ? detail::span<float>(m_p->float_properties()) : std::span<const float>{}; }
    std::span<const double> doubles() const { return m_p ? detail::span<double>(m_p->double_properties()) : std::span<const double>{}; }
    StringList strings() const { return StringList(m_p ? m_p->string_properties() : nullptr); }
    std::span<const Transform> transforms() const
    {
        return m_p ? detail::span<Transform>(m_p->transform_properties()) : std::span<const Transform>{};
    }
    std::span<const Vec3> vectors() const { return m_p ? detail::span<Vec3>(m_p->vector_properties()) : std::span<const Vec3>{}; }
    std::span<const Quat> quats() const { return m_p ? detail::span<Quat>(m_p->quat_properties()) : std::span<const Quat>{}; }
    std::span<const FloatRange> ranges() const { return m_p ? detail::span<FloatRange>(m_p->range_properties()) : std::span<const FloatRange>{}; }

    FlatArrayView<uint8_t> byteArrays() const { return flat<uint8_t>(m_p ? m_p->byte_array_properties() : nullptr); }
    FlatArrayView<int32_t> int32Arrays() const { return flat<int32_t>(m_p ? m_p->int32_arrays() : nullptr); }
    FlatArrayView<int64_t> int64Arrays() const { return flat<int64_t>(m_p ? m_p->int64_arrays() : nullptr); }
    FlatArrayView<float> floatArrays() const { return flat<float>(m_p ? m_p->float_arrays() : nullptr); }
    FlatArrayView<double> doubleArrays() const { return flat<double>(m_p ? m_p->double_arrays() : nullptr); }
    FlatArrayView<Vec3> vectorArrays() const { return flat<Vec3>(m_p ? m_p->vector_arrays() : nullptr); }
    FlatArrayView<Quat> quatArrays() const { return flat<Quat>(m_p ? m_p->quat_arrays() : nullptr); }
    FlatArrayView<Transform> transformArrays() const { return flat<Transform>(m_p ? m_p->transform_arrays() : nullptr); }
    FlatArrayView<FloatRange> rangeArrays() const { return flat<FloatRange>(m_p ? m_p->range_arrays() : nullptr); }
    FlatArrayView<uint8_t> boolArrays() const { return flat<uint8_t>(m_p ? m_p->bool_arrays() : nullptr); }
    FlatListArrayView<StringList> stringArrays() const
    {
        auto* a = m_p ? m_p->string_arrays() : nullptr;
        return a ? FlatListArrayView<StringList>{StringList(a->data()), detail::span<uint32_t>(a->offsets())} : FlatListArrayView<StringList>{};
    }
    ContainerList structs() const { return ContainerList(m_p ? m_p->any_struct_properties() : nullptr); }
    FlatListArrayView<ContainerList> structArrays() const
    {
        auto* a = m_p ? m_p->any_struct_arrays() : nullptr;
        return a ? FlatListArrayView<ContainerList>{ContainerList(a->data()), detail::span<uint32_t>(a->offsets())}
                 : FlatListArrayView<ContainerList>{};
    }
    MapList maps() const { return MapList(m_p ? m_p->map_properties() : nullptr); }
    FlatListArrayView<MapList> mapArrays() const
    {
        auto* a = m_p ? m_p->map_arrays() : nullptr;
        return a ? FlatListArrayView<MapList>{MapList(a->data()), detail::span<uint32_t>(a->offsets())} : FlatListArrayView<MapList>{};
    }

    /// Bit m set when value member m (ContainerMember order: bool_properties = 0 ... map_arrays =
    /// 24, the table's fields 1..25) is present in this table; an absent member holds nothing.
    /// Read from the vtable alone.
    uint32_t presentMembers() const
    {
        if (!m_p)
            return 0;
        const auto* table = reinterpret_cast<const uint8_t*>(m_p);
        const uint8_t* vtable = table - flatbuffers::ReadScalar<flatbuffers::soffset_t>(table);
        const flatbuffers::voffset_t vtsize = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable);
        static_assert(fbsvtx::PropertyContainer::VT_BOOL_PROPERTIES == 6 && fbsvtx::PropertyContainer::VT_MAP_ARRAYS == 54);
        const uint32_t fields = std::min<uint32_t>(25, vtsize > 6 ? uint32_t(vtsize - 6) / 2 : 0);
        uint32_t mask = 0;
        for (uint32_t m = 0; m < fields; ++m)
            mask |= uint32_t(flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable + 6 + 2 * size_t(m)) != 0) << m;
        return mask;
    }

    /// Whether this container holds a nested container whose hash feeds its own (a struct, a
    /// struct-array element, a map or map-array value): the only case in which the SDK v0.2.0
    /// writer's content_hash differs from the spec's (§6.6 ⚠).
    bool hasNestedContainers() const
    {
        if (!m_p)
            return false;
        if (const auto* s = m_p->any_struct_properties(); s && s->size() > 0)
            return true;
        if (const auto* sa = m_p->any_struct_arrays(); sa && sa->data() && sa->data()->size() > 0)
            return true;
        if (const auto* maps = m_p->map_properties())
            for (flatbuffers::uoffset_t i = 0; i < maps->size(); ++i)
                if (const auto* m = maps->Get(i); m && m->values() && m->values()->size() > 0)
                    return true;
        if (const auto* ma = m_p->map_arrays(); ma && ma->data())
            for (flatbuffers::uoffset_t i = 0; i < ma->data()->size(); ++i)
                if (const auto* m = ma->data()->Get(i); m && m->values() && m->values()->size() > 0)
                    return true;
        return false;
    }

    /// O(1), allocation-free typed read of a scalar slot; nullopt when the slot is absent or
    /// the key's type is not T. T: bool, int32_t, int64_t, float, double, std::string_view,
    /// Vec3, Quat, Transform, ContainerView (nested struct).
    template <class T> std::optional<T> get(const PropertyKey& k) const;

    const fbsvtx::PropertyContainer* raw() const { return m_p; }

private:
    template <class T, class FbArr> static FlatArrayView<T> flat(const FbArr* a)
    {
        return a ? FlatArrayView<T>{detail::span<T>(a->data()), detail::span<uint32_t>(a->offsets())} : FlatArrayView<T>{};
    }
    const fbsvtx::PropertyContainer* m_p = nullptr;
};

class MapView {
public:
    MapView() = default;
    explicit MapView(const fbsvtx::MapContainer* m) : m_m(m) { }
    StringList keys() const { return StringList(m_m ? m_m->keys() : nullptr); }
    ContainerList values() const { return ContainerList(m_m ? m_m->values() : nullptr); }
    /// Pairs present in both lists (they should be parallel; strict validation reports it).
    size_t size() const { return std::min(keys().size(), values().size()); }

private:
    const fbsvtx::MapContainer* m_m = nullptr;
};

inline ContainerView ContainerList::operator[](size_t i) const
{
    return ContainerView(m_v->Get(static_cast<flatbuffers::uoffset_t>(i)));
}
inline MapView MapList::operator[](size_t i) const
{
    return MapView(m_v->Get(static_cast<flatbuffers::uoffset_t>(i)));
}

// Always inlined: out of line, GCC -O3 returned the optional through two narrow stores and one
// wide load, a store-forwarding stall that made a read 10.8 ns instead of 2.4 (Release
// `vtxscope-bench property-read`, isolated).
template <class T> [[gnu::always_inline]] inline std::optional<T> ContainerView::get(const PropertyKey& k) const
{
    if (k.container != ContainerKind::Scalar)
        return std::nullopt;
    auto pick = [&](auto sp) -> std::optional<T> {
        if (k.slot < sp.size())
            return T(sp[k.slot]);
        return std::nullopt;
    };
    if constexpr (std::is_same_v<T, bool>) {
        if (k.type == FieldType::Bool) {
            auto sp = bools();
            if (k.slot < sp.size())
                return sp[k.slot] != 0;
        }
        return std::nullopt;
    } else if constexpr (std::is_same_v<T, int32_t>) {
        return (k.type == FieldType::Int32 || k.type == FieldType::Int8) ? pick(int32s()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, int64_t>) {
        return k.type == FieldType::Int64 ? pick(int64s()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, float>) {
        return k.type == FieldType::Float ? pick(floats()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, double>) {
        return k.type == FieldType::Double ? pick(doubles()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        if (k.type == FieldType::String) {
            StringList s = strings();
            if (k.slot < s.size())
                return s[k.slot];
        }
        return std::nullopt;
    } else if constexpr (std::is_same_v<T, Vec3>) {
        return k.type == FieldType::Vector ? pick(vectors()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, Quat>) {
        return k.type == FieldType::Quat ? pick(quats()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, Transform>) {
        return k.type == FieldType::Transform ? pick(transforms()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, ContainerView>) {
        if (k.type == FieldType::Struct) {
            ContainerList s = structs();
            if (k.slot < s.size())
                return s[k.slot];
        }
        return std::nullopt;
    } else {
        static_assert(sizeof(T) == 0, "unsupported property type");
    }
}

/// One bucket of a frame: entities and their unique ids, parallel lists.
class BucketView {
public:
    BucketView() = default;
    explicit BucketView(const fbsvtx::Bucket* b) : m_b(b) { }
    size_t entityCount() const { return ContainerList(m_b ? m_b->entities() : nullptr).size(); }
    ContainerList entities() const { return ContainerList(m_b ? m_b->entities() : nullptr); }
    StringList uniqueIds() const { return StringList(m_b ? m_b->unique_ids() : nullptr); }
    /// unique id of entity i, empty when the ids list is shorter.
    std::string_view uniqueId(size_t i) const
    {
        StringList ids = uniqueIds();
        return i < ids.size() ? ids[i] : std::string_view{};
    }
    ContainerView entity(size_t i) const { return entities()[i]; }
    std::span<const EntityRange> typeRanges() const { return m_b ? detail::span<EntityRange>(m_b->type_ranges()) : std::span<const EntityRange>{}; }

private:
    const fbsvtx::Bucket* m_b = nullptr;
};

/// One entity as FrameView::entities() yields it: where it is and its container.
struct FrameEntity {
    uint32_t bucket = 0; ///< bucket index in the frame
    size_t index = 0; ///< entity index in its bucket
    ContainerView entity;
    StringList ids; ///< the bucket's unique ids (parallel to its entities)
    /// This entity's unique id, empty when the bucket's ids list is shorter.
    std::string_view uniqueId() const { return index < ids.size() ? ids[index] : std::string_view{}; }
};

/// Every entity of a frame, bucket by bucket, in stored order: the bucket × entity loop as one
/// range. The iterator keeps the current bucket's lists, so a step is an index increment and
/// a compare, as in the hand-written nested loop. `WithIds` stops each bucket at the shorter of
/// its entity and unique-id lists (for loops that need every entity's id).
class FrameEntities {
public:
    enum class Extent { All, WithIds };

    class Iterator {
    public:
        using value_type = FrameEntity;
        using difference_type = std::ptrdiff_t;
        Iterator() = default;
        Iterator(const fbsvtx::Frame* f, Extent extent) : m_f(f), m_extent(extent)
        {
            m_buckets = m_f && m_f->data() ? m_f->data()->size() : 0;
            enterBucket();
        }
        FrameEntity operator*() const { return FrameEntity{m_b, m_i, m_entities[m_i], m_ids}; }
        Iterator& operator++()
        {
            if (++m_i == m_n) {
                ++m_b;
                enterBucket();
            }
            return *this;
        }
        void operator++(int) { ++*this; }
        // The end is m_i == m_n (enterBucket leaves both 0 after the last bucket): right after
        // operator++'s own compare, so the compiler folds the two into one per step.
        bool operator==(std::default_sentinel_t) const { return m_i == m_n; }

    private:
        /// Settles on the first entity of bucket m_b or a later one (empty buckets are passed).
        void enterBucket()
        {
            for (; m_b < m_buckets; ++m_b) {
                const BucketView bucket(m_f->data()->Get(m_b));
                m_entities = bucket.entities();
                m_ids = bucket.uniqueIds();
                m_n = m_extent == Extent::WithIds ? std::min(m_entities.size(), m_ids.size()) : m_entities.size();
                if (m_n != 0) {
                    m_i = 0;
                    return;
                }
            }
            m_i = m_n = 0;
        }

        const fbsvtx::Frame* m_f = nullptr;
        Extent m_extent = Extent::All;
        uint32_t m_b = 0, m_buckets = 0;
        size_t m_i = 0, m_n = 0;
        ContainerList m_entities;
        StringList m_ids;
    };

    FrameEntities(const fbsvtx::Frame* f, Extent extent) : m_f(f), m_extent(extent) { }
    Iterator begin() const { return Iterator(m_f, m_extent); }
    std::default_sentinel_t end() const { return {}; }

private:
    const fbsvtx::Frame* m_f;
    Extent m_extent;
};

class FrameView {
public:
    FrameView() = default;
    explicit FrameView(const fbsvtx::Frame* f, std::span<const uint8_t> bytes = {}) : m_f(f), m_bytes(bytes) { }
    bool isNull() const { return m_f == nullptr; }
    /// The chunk bytes this frame's tables and vectors occupy (writers serialize one frame after
    /// another, so each frame is a contiguous range); empty when unknown. A hint for reading a
    /// cold frame ahead in one stream, never needed for correctness.
    std::span<const uint8_t> bytes() const { return m_bytes; }
    size_t bucketCount() const { return m_f && m_f->data() ? m_f->data()->size() : 0; }
    BucketView bucket(size_t i) const { return BucketView(m_f->data()->Get(static_cast<flatbuffers::uoffset_t>(i))); }
    /// Every entity of every bucket, in stored order: `for (const FrameEntity e : frame.entities())`.
    FrameEntities entities() const { return FrameEntities(m_f, FrameEntities::Extent::All); }
    /// Every entity that has a unique id: each bucket up to the shorter of its entity and id lists.
    FrameEntities entitiesWithIds() const { return FrameEntities(m_f, FrameEntities::Extent::WithIds); }

private:
    const fbsvtx::Frame* m_f = nullptr;
    std::span<const uint8_t> m_bytes;
};

/// The entity with `uniqueId` in `bucket` of `frame`; `hint` (the index it had last time) is
/// tried first and updated. Null when the entity is not in this frame.
inline ContainerView findEntity(FrameView frame, uint32_t bucket, std::string_view uniqueId, int32_t* hint = nullptr)
{
    if (bucket >= frame.bucketCount())
        return {};
    const BucketView b = frame.bucket(bucket);
    const StringList ids = b.uniqueIds();
    const size_t n = std::min(ids.size(), b.entityCount());
    if (hint && *hint >= 0 && size_t(*hint) < n && ids[size_t(*hint)] == uniqueId)
        return b.entity(size_t(*hint));
    for (size_t i = 0; i < n; ++i)
        if (ids[i] == uniqueId) {
            if (hint)
                *hint = int32_t(i);
            return b.entity(i);
        }
    return {};
}

} // namespace vtx
