// SPDX-License-Identifier: MIT
#include "ProtoReference.hpp"

#include "vtx.pb.h"

#include <cstring>
#include <google/protobuf/arena.h>
#include <vector>

namespace vtxref {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
namespace pb = cppvtx;

fbsvtx::Vector fbVec(const pb::Vector& v)
{
    return {v.x(), v.y(), v.z()};
}
// Absent messages read as all zeros in proto3, including Quat.w and Transform.scale (§3.2).
fbsvtx::Quat fbQuat(const pb::Quat& q)
{
    return {q.x(), q.y(), q.z(), q.w()};
}
fbsvtx::Transform fbTransform(const pb::Transform& t)
{
    return {fbVec(t.translation()), fbQuat(t.rotation()), fbVec(t.scale())};
}
fbsvtx::FloatRange fbRange(const pb::FloatRange& r)
{
    return {r.min(), r.max(), r.value_normalized()};
}

class Flattener {
public:
    explicit Flattener(FlatBufferBuilder& fbb) : m_fbb(fbb) { }

    Offset<fbsvtx::Chunk> chunk(const pb::FrameChunk& c)
    {
        std::vector<Offset<fbsvtx::Frame>> frames;
        frames.reserve(static_cast<size_t>(c.frames_size()));
        for (const auto& f : c.frames()) {
            std::vector<Offset<fbsvtx::Bucket>> buckets;
            buckets.reserve(static_cast<size_t>(f.data_size()));
            for (const auto& b : f.data())
                buckets.push_back(bucket(b));
            frames.push_back(fbsvtx::CreateFrame(m_fbb, m_fbb.CreateVector(buckets)));
        }
        auto fv = m_fbb.CreateVector(frames);
        return fbsvtx::CreateChunk(m_fbb, c.chunk_index(), c.is_compressed(), 0, fv, 0);
    }

private:
    Offset<fbsvtx::Bucket> bucket(const pb::Bucket& b)
    {
        std::vector<Offset<fbsvtx::PropertyContainer>> ents;
        ents.reserve(static_cast<size_t>(b.entities_size()));
        for (const auto& e : b.entities())
            ents.push_back(container(e));
        auto ev = m_fbb.CreateVector(ents);
        auto ids = b.unique_ids_size() ? strings(b.unique_ids()) : 0;
        Offset<flatbuffers::Vector<const fbsvtx::EntityRange*>> ranges = 0;
        if (b.type_ranges_size()) {
            std::vector<fbsvtx::EntityRange> r;
            for (const auto& tr : b.type_ranges())
                r.emplace_back(tr.start_index(), tr.count());
            ranges = m_fbb.CreateVectorOfStructs(r);
        }
        return fbsvtx::CreateBucket(m_fbb, ids, ev, ranges);
    }

    Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> strings(const google::protobuf::RepeatedPtrField<std::string>& s)
    {
        std::vector<Offset<flatbuffers::String>> v;
        v.reserve(static_cast<size_t>(s.size()));
        for (const auto& x : s)
            v.push_back(m_fbb.CreateString(x));
        return m_fbb.CreateVector(v);
    }

    template <class T> Offset<flatbuffers::Vector<T>> scalars(const google::protobuf::RepeatedField<T>& f)
    {
        return m_fbb.CreateVector(f.data(), static_cast<size_t>(f.size()));
    }
    Offset<flatbuffers::Vector<uint8_t>> boolsOf(const google::protobuf::RepeatedField<bool>& f)
    {
        static_assert(sizeof(bool) == 1);
        return m_fbb.CreateVector(reinterpret_cast<const uint8_t*>(f.data()), static_cast<size_t>(f.size()));
    }
    template <class S, class M, class Conv> Offset<flatbuffers::Vector<const S*>> structsOf(const google::protobuf::RepeatedPtrField<M>& f, Conv conv)
    {
        m_structScratch.resize(sizeof(S) * static_cast<size_t>(f.size()));
        S* out = reinterpret_cast<S*>(m_structScratch.data());
        for (int i = 0; i < f.size(); ++i)
            out[i] = conv(f.Get(i));
        return m_fbb.CreateVectorOfStructs(out, static_cast<size_t>(f.size()));
    }

    Offset<fbsvtx::MapContainer> map(const pb::MapContainer& m)
    {
        std::vector<Offset<fbsvtx::PropertyContainer>> values;
        for (const auto& v : m.values())
            values.push_back(container(v));
        auto vals = m_fbb.CreateVector(values);
        auto keys = strings(m.keys());
        return fbsvtx::CreateMapContainer(m_fbb, keys, vals);
    }

    Offset<fbsvtx::PropertyContainer> container(const pb::PropertyContainer& p)
    {
        Offset<flatbuffers::Vector<Offset<fbsvtx::PropertyContainer>>> structs = 0;
        if (p.any_struct_properties_size()) {
            std::vector<Offset<fbsvtx::PropertyContainer>> v;
            for (const auto& s : p.any_struct_properties())
                v.push_back(container(s));
            structs = m_fbb.CreateVector(v);
        }
        Offset<fbsvtx::FlatPropertyContainerArray> structArrays = 0;
        if (p.has_any_struct_arrays() && p.any_struct_arrays().data_size()) {
            std::vector<Offset<fbsvtx::PropertyContainer>> v;
            for (const auto& s : p.any_struct_arrays().data())
                v.push_back(container(s));
            auto d = m_fbb.CreateVector(v);
            structArrays = fbsvtx::CreateFlatPropertyContainerArray(m_fbb, d, scalars(p.any_struct_arrays().offsets()));
        }
        Offset<flatbuffers::Vector<Offset<fbsvtx::MapContainer>>> maps = 0;
        if (p.map_properties_size()) {
            std::vector<Offset<fbsvtx::MapContainer>> v;
            for (const auto& m : p.map_properties())
                v.push_back(map(m));
            maps = m_fbb.CreateVector(v);
        }
        Offset<fbsvtx::FlatMapArray> mapArrays = 0;
        if (p.has_map_arrays() && p.map_arrays().data_size()) {
            std::vector<Offset<fbsvtx::MapContainer>> v;
            for (const auto& m : p.map_arrays().data())
                v.push_back(map(m));
            auto d = m_fbb.CreateVector(v);
            mapArrays = fbsvtx::CreateFlatMapArray(m_fbb, d, scalars(p.map_arrays().offsets()));
        }
        auto bools = p.bool_properties_size() ? boolsOf(p.bool_properties()) : 0;
        auto i32 = p.int32_properties_size() ? scalars(p.int32_properties()) : 0;
        auto i64 = p.int64_properties_size() ? scalars(p.int64_properties()) : 0;
        auto f32 = p.float_properties_size() ? scalars(p.float_properties()) : 0;
        auto f64 = p.double_properties_size() ? scalars(p.double_properties()) : 0;
        auto strs = p.string_properties_size() ? strings(p.string_properties()) : 0;
        auto tr = p.transform_properties_size() ? structsOf<fbsvtx::Transform>(p.transform_properties(), fbTransform) : 0;
        auto ve = p.vector_properties_size() ? structsOf<fbsvtx::Vector>(p.vector_properties(), fbVec) : 0;
        auto qu = p.quat_properties_size() ? structsOf<fbsvtx::Quat>(p.quat_properties(), fbQuat) : 0;
        auto ra = p.range_properties_size() ? structsOf<fbsvtx::FloatRange>(p.range_properties(), fbRange) : 0;

        Offset<fbsvtx::FlatBytesArray> byteArr = 0;
        if (p.has_byte_array_properties()) {
            // The SDK writes all bytes as one element; a reader must concatenate (§3.2).
            const auto& a = p.byte_array_properties();
            std::string all;
            for (const auto& chunk : a.data())
                all += chunk;
            if (!all.empty()) {
                auto d = m_fbb.CreateVector(reinterpret_cast<const uint8_t*>(all.data()), all.size());
                byteArr = fbsvtx::CreateFlatBytesArray(m_fbb, d, scalars(a.offsets()));
            }
        }
        auto flatScalar = [&](const auto& a, auto create) -> decltype(create(m_fbb, 0, 0)) {
            if (a.data_size() == 0)
                return 0;
            auto d = scalars(a.data());
            return create(m_fbb, d, scalars(a.offsets()));
        };
        auto i32Arr = p.has_int32_arrays() ? flatScalar(p.int32_arrays(), &fbsvtx::CreateFlatIntArray) : 0;
        auto i64Arr = p.has_int64_arrays() ? flatScalar(p.int64_arrays(), &fbsvtx::CreateFlatInt64Array) : 0;
        auto f32Arr = p.has_float_arrays() ? flatScalar(p.float_arrays(), &fbsvtx::CreateFlatFloatArray) : 0;
        auto f64Arr = p.has_double_arrays() ? flatScalar(p.double_arrays(), &fbsvtx::CreateFlatDoubleArray) : 0;
        Offset<fbsvtx::FlatBoolArray> boolArr = 0;
        if (p.has_bool_arrays() && p.bool_arrays().data_size()) {
            auto d = boolsOf(p.bool_arrays().data());
            boolArr = fbsvtx::CreateFlatBoolArray(m_fbb, d, scalars(p.bool_arrays().offsets()));
        }
        Offset<fbsvtx::FlatStringArray> strArr = 0;
        if (p.has_string_arrays() && p.string_arrays().data_size()) {
            auto d = strings(p.string_arrays().data());
            strArr = fbsvtx::CreateFlatStringArray(m_fbb, d, scalars(p.string_arrays().offsets()));
        }
        auto flatStruct = [&](const auto& a, auto conv, auto create) -> decltype(create(m_fbb, 0, 0)) {
            if (a.data_size() == 0)
                return 0;
            using S = decltype(conv(a.data(0)));
            auto d = structsOf<S>(a.data(), conv);
            return create(m_fbb, d, scalars(a.offsets()));
        };
        auto vecArr = p.has_vector_arrays() ? flatStruct(p.vector_arrays(), fbVec, &fbsvtx::CreateFlatVectorArray) : 0;
        auto quatArr = p.has_quat_arrays() ? flatStruct(p.quat_arrays(), fbQuat, &fbsvtx::CreateFlatQuatArray) : 0;
        auto trArr = p.has_transform_arrays() ? flatStruct(p.transform_arrays(), fbTransform, &fbsvtx::CreateFlatTransformArray) : 0;
        auto raArr = p.has_range_arrays() ? flatStruct(p.range_arrays(), fbRange, &fbsvtx::CreateFlatRangeArray) : 0;

        fbsvtx::PropertyContainerBuilder b(m_fbb);
        b.add_content_hash(p.content_hash());
        b.add_type_id(p.type_id());
        if (!bools.IsNull())
            b.add_bool_properties(bools);
        if (!i32.IsNull())
            b.add_int32_properties(i32);
        if (!i64.IsNull())
            b.add_int64_properties(i64);
        if (!f32.IsNull())
            b.add_float_properties(f32);
        if (!f64.IsNull())
            b.add_double_properties(f64);
        if (!strs.IsNull())
            b.add_string_properties(strs);
        if (!tr.IsNull())
            b.add_transform_properties(tr);
        if (!ve.IsNull())
            b.add_vector_properties(ve);
        if (!qu.IsNull())
            b.add_quat_properties(qu);
        if (!ra.IsNull())
            b.add_range_properties(ra);
        if (!byteArr.IsNull())
            b.add_byte_array_properties(byteArr);
        if (!i32Arr.IsNull())
            b.add_int32_arrays(i32Arr);
        if (!i64Arr.IsNull())
            b.add_int64_arrays(i64Arr);
        if (!f32Arr.IsNull())
            b.add_float_arrays(f32Arr);
        if (!f64Arr.IsNull())
            b.add_double_arrays(f64Arr);
        if (!vecArr.IsNull())
            b.add_vector_arrays(vecArr);
        if (!quatArr.IsNull())
            b.add_quat_arrays(quatArr);
        if (!trArr.IsNull())
            b.add_transform_arrays(trArr);
        if (!raArr.IsNull())
            b.add_range_arrays(raArr);
        if (!boolArr.IsNull())
            b.add_bool_arrays(boolArr);
        if (!strArr.IsNull())
            b.add_string_arrays(strArr);
        if (!structs.IsNull())
            b.add_any_struct_properties(structs);
        if (!structArrays.IsNull())
            b.add_any_struct_arrays(structArrays);
        if (!maps.IsNull())
            b.add_map_properties(maps);
        if (!mapArrays.IsNull())
            b.add_map_arrays(mapArrays);
        return b.Finish();
    }

    FlatBufferBuilder& m_fbb;
    std::vector<uint8_t> m_structScratch;
};

// ---- comparison ---------------------------------------------------------------------------------

struct Compare {
    std::string where;

    template <class V> static size_t count(const V* v) { return v ? v->size() : 0; }

    template <class T> bool bytesEqual(const flatbuffers::Vector<T>* a, const flatbuffers::Vector<T>* b, const char* name)
    {
        const size_t n = count(a);
        // NOLINTNEXTLINE(bugprone-sizeof-expression): the vector's stored elements, compared as bytes
        if (n != count(b) || (n && std::memcmp(a->Data(), b->Data(), n * sizeof(T)) != 0)) {
            where = name;
            return false;
        }
        return true;
    }

    bool strings(const flatbuffers::Vector<Offset<flatbuffers::String>>* a, const flatbuffers::Vector<Offset<flatbuffers::String>>* b,
                 const char* name)
    {
        const size_t n = count(a);
        if (n != count(b)) {
            where = name;
            return false;
        }
        for (flatbuffers::uoffset_t i = 0; i < n; ++i)
            if (a->Get(i)->string_view() != b->Get(i)->string_view()) {
                where = std::string(name) + "[" + std::to_string(i) + "]";
                return false;
            }
        return true;
    }

    template <class F> bool flat(const F* a, const F* b, const char* name)
    {
        // A Flat*Array without data is the same as none.
        const bool ea = !a || count(a->data()) == 0, eb = !b || count(b->data()) == 0;
        if (ea || eb) {
            if (ea != eb)
                where = name;
            return ea == eb;
        }
        if (!bytesEqual(a->offsets(), b->offsets(), name))
            return false;
        return data(a->data(), b->data(), name);
    }

    template <class T> bool data(const flatbuffers::Vector<T>* a, const flatbuffers::Vector<T>* b, const char* name)
    {
        return bytesEqual(a, b, name);
    }
    bool data(const flatbuffers::Vector<Offset<flatbuffers::String>>* a, const flatbuffers::Vector<Offset<flatbuffers::String>>* b, const char* name)
    {
        return strings(a, b, name);
    }
    bool data(const flatbuffers::Vector<Offset<fbsvtx::PropertyContainer>>* a, const flatbuffers::Vector<Offset<fbsvtx::PropertyContainer>>* b,
              const char* name)
    {
        return containers(a, b, name);
    }
    bool data(const flatbuffers::Vector<Offset<fbsvtx::MapContainer>>* a, const flatbuffers::Vector<Offset<fbsvtx::MapContainer>>* b,
              const char* name)
    {
        return maps(a, b, name);
    }

    bool containers(const flatbuffers::Vector<Offset<fbsvtx::PropertyContainer>>* a, const flatbuffers::Vector<Offset<fbsvtx::PropertyContainer>>* b,
                    const char* name)
    {
        const size_t n = count(a);
        if (n != count(b)) {
            where = name;
            return false;
        }
        for (flatbuffers::uoffset_t i = 0; i < n; ++i)
            if (!container(*a->Get(i), *b->Get(i))) {
                where = std::string(name) + "[" + std::to_string(i) + "]." + where;
                return false;
            }
        return true;
    }

    bool maps(const flatbuffers::Vector<Offset<fbsvtx::MapContainer>>* a, const flatbuffers::Vector<Offset<fbsvtx::MapContainer>>* b,
              const char* name)
    {
        const size_t n = count(a);
        if (n != count(b)) {
            where = name;
            return false;
        }
        for (flatbuffers::uoffset_t i = 0; i < n; ++i)
            if (!strings(a->Get(i)->keys(), b->Get(i)->keys(), "keys") || !containers(a->Get(i)->values(), b->Get(i)->values(), "values")) {
                where = std::string(name) + "[" + std::to_string(i) + "]." + where;
                return false;
            }
        return true;
    }

    bool container(const fbsvtx::PropertyContainer& a, const fbsvtx::PropertyContainer& b)
    {
        if (a.type_id() != b.type_id()) {
            where = "type_id";
            return false;
        }
        if (a.content_hash() != b.content_hash()) {
            where = "content_hash";
            return false;
        }
        return bytesEqual(a.bool_properties(), b.bool_properties(), "bool_properties") &&
            bytesEqual(a.int32_properties(), b.int32_properties(), "int32_properties") &&
            bytesEqual(a.int64_properties(), b.int64_properties(), "int64_properties") &&
            bytesEqual(a.float_properties(), b.float_properties(), "float_properties") &&
            bytesEqual(a.double_properties(), b.double_properties(), "double_properties") &&
            strings(a.string_properties(), b.string_properties(), "string_properties") &&
            bytesEqual(a.transform_properties(), b.transform_properties(), "transform_properties") &&
            bytesEqual(a.vector_properties(), b.vector_properties(), "vector_properties") &&
            bytesEqual(a.quat_properties(), b.quat_properties(), "quat_properties") &&
            bytesEqual(a.range_properties(), b.range_properties(), "range_properties") &&
            flat(a.byte_array_properties(), b.byte_array_properties(), "byte_array_properties") &&
            flat(a.int32_arrays(), b.int32_arrays(), "int32_arrays") && flat(a.int64_arrays(), b.int64_arrays(), "int64_arrays") &&
            flat(a.float_arrays(), b.float_arrays(), "float_arrays") && flat(a.double_arrays(), b.double_arrays(), "double_arrays") &&
            flat(a.vector_arrays(), b.vector_arrays(), "vector_arrays") && flat(a.quat_arrays(), b.quat_arrays(), "quat_arrays") &&
            flat(a.transform_arrays(), b.transform_arrays(), "transform_arrays") && flat(a.range_arrays(), b.range_arrays(), "range_arrays") &&
            flat(a.bool_arrays(), b.bool_arrays(), "bool_arrays") && flat(a.string_arrays(), b.string_arrays(), "string_arrays") &&
            containers(a.any_struct_properties(), b.any_struct_properties(), "any_struct_properties") &&
            flat(a.any_struct_arrays(), b.any_struct_arrays(), "any_struct_arrays") &&
            maps(a.map_properties(), b.map_properties(), "map_properties") && flat(a.map_arrays(), b.map_arrays(), "map_arrays");
    }
};

} // namespace

std::optional<flatbuffers::DetachedBuffer> flattenWithLibprotobuf(std::span<const uint8_t> wire, int maxDepth)
{
    if (wire.size() > size_t(INT32_MAX))
        return std::nullopt;
    google::protobuf::Arena arena;
    auto* msg = google::protobuf::Arena::CreateMessage<pb::FrameChunk>(&arena);
    google::protobuf::io::CodedInputStream in(wire.data(), static_cast<int>(wire.size()));
    in.SetRecursionLimit(maxDepth);
    if (!msg->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
        return std::nullopt;
    FlatBufferBuilder fbb(wire.size() + wire.size() / 2 + 1024);
    Flattener flat(fbb);
    fbb.Finish(flat.chunk(*msg));
    return fbb.Release();
}

std::string chunkDifference(const fbsvtx::Chunk& a, const fbsvtx::Chunk& b)
{
    Compare c;
    const size_t frames = Compare::count(a.frames());
    if (frames != Compare::count(b.frames()))
        return "frame count " + std::to_string(frames) + " vs " + std::to_string(Compare::count(b.frames()));
    if (a.chunk_index() != b.chunk_index())
        return "chunk_index";
    for (flatbuffers::uoffset_t f = 0; f < frames; ++f) {
        const auto* ba = a.frames()->Get(f)->data();
        const auto* bb = b.frames()->Get(f)->data();
        const std::string frame = "frame " + std::to_string(f);
        if (Compare::count(ba) != Compare::count(bb))
            return frame + ": bucket count";
        for (flatbuffers::uoffset_t k = 0; k < Compare::count(ba); ++k) {
            const std::string bucket = frame + ", bucket " + std::to_string(k);
            const auto* x = ba->Get(k);
            const auto* y = bb->Get(k);
            if (!c.strings(x->unique_ids(), y->unique_ids(), "unique_ids") || !c.bytesEqual(x->type_ranges(), y->type_ranges(), "type_ranges") ||
                !c.containers(x->entities(), y->entities(), "entities"))
                return bucket + ": " + c.where;
        }
    }
    return {};
}

} // namespace vtxref
