#include "vtx/backend/BackendCodec.hpp"
#include "vtx/LargeAlloc.hpp"

#include "vtx.pb.h"
#include "vtx_generated.h"

#include <google/protobuf/arena.h>
#include <algorithm>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

namespace vtx {

const BackendCodec& protoCodec();
const BackendCodec& fbsCodec();

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
namespace pb = cppvtx;

// ---- memory for one chunk decode -------------------------------------------------------------

/// The flattened chunk's buffer: large, written once, kept while the chunk is cached.
class LargeBlockAllocator final : public flatbuffers::Allocator {
public:
    uint8_t* allocate(size_t size) override { return static_cast<uint8_t*>(allocateLarge(size)); }
    void deallocate(uint8_t* p, size_t size) override { freeLarge(p, size); }
};

flatbuffers::Allocator* largeBlockAllocator()
{
    static LargeBlockAllocator a; // stateless; DetachedBuffers keep a pointer to it
    return &a;
}

/// The parse arena: the default grows in blocks of at most 8 KiB, each a fresh malloc (and for
/// a 26 MB chunk, thousands of first-touch page faults); here blocks grow to 16 MiB.
google::protobuf::ArenaOptions chunkArenaOptions(size_t encodedBytes)
{
    google::protobuf::ArenaOptions o;
    // Whole pages: the arena places 8-byte-aligned cleanup records at a block's end.
    const size_t pages = (std::max<size_t>(encodedBytes, 4096) + 4095) / 4096 * 4096;
    o.start_block_size = std::min<size_t>(pages, size_t(16) << 20);
    o.max_block_size = size_t(16) << 20;
    o.block_alloc = &allocateLarge;
    o.block_dealloc = [](void* p, size_t size) { freeLarge(p, size); };
    return o;
}

// ---- Protobuf -> FlatBuffers flattening (read side) ----------------------------------------

fbsvtx::Vector fbVec(const pb::Vector& v) { return {v.x(), v.y(), v.z()}; }
// Absent messages read as all zeros in proto3, including Quat.w and Transform.scale (§3.2).
fbsvtx::Quat fbQuat(const pb::Quat& q) { return {q.x(), q.y(), q.z(), q.w()}; }
fbsvtx::Transform fbTransform(const pb::Transform& t)
{
    return {fbVec(t.translation()), fbQuat(t.rotation()), fbVec(t.scale())};
}
fbsvtx::FloatRange fbRange(const pb::FloatRange& r) { return {r.min(), r.max(), r.value_normalized()}; }

class Flattener {
public:
    explicit Flattener(FlatBufferBuilder& fbb) : m_fbb(fbb) {}

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

    template <class T>
    Offset<flatbuffers::Vector<T>> scalars(const google::protobuf::RepeatedField<T>& f)
    {
        return m_fbb.CreateVector(f.data(), static_cast<size_t>(f.size()));
    }
    Offset<flatbuffers::Vector<uint8_t>> boolsOf(const google::protobuf::RepeatedField<bool>& f)
    {
        static_assert(sizeof(bool) == 1);
        return m_fbb.CreateVector(reinterpret_cast<const uint8_t*>(f.data()), static_cast<size_t>(f.size()));
    }
    template <class S, class M, class Conv>
    Offset<flatbuffers::Vector<const S*>> structsOf(const google::protobuf::RepeatedPtrField<M>& f, Conv conv)
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
        if (!bools.IsNull()) b.add_bool_properties(bools);
        if (!i32.IsNull()) b.add_int32_properties(i32);
        if (!i64.IsNull()) b.add_int64_properties(i64);
        if (!f32.IsNull()) b.add_float_properties(f32);
        if (!f64.IsNull()) b.add_double_properties(f64);
        if (!strs.IsNull()) b.add_string_properties(strs);
        if (!tr.IsNull()) b.add_transform_properties(tr);
        if (!ve.IsNull()) b.add_vector_properties(ve);
        if (!qu.IsNull()) b.add_quat_properties(qu);
        if (!ra.IsNull()) b.add_range_properties(ra);
        if (!byteArr.IsNull()) b.add_byte_array_properties(byteArr);
        if (!i32Arr.IsNull()) b.add_int32_arrays(i32Arr);
        if (!i64Arr.IsNull()) b.add_int64_arrays(i64Arr);
        if (!f32Arr.IsNull()) b.add_float_arrays(f32Arr);
        if (!f64Arr.IsNull()) b.add_double_arrays(f64Arr);
        if (!vecArr.IsNull()) b.add_vector_arrays(vecArr);
        if (!quatArr.IsNull()) b.add_quat_arrays(quatArr);
        if (!trArr.IsNull()) b.add_transform_arrays(trArr);
        if (!raArr.IsNull()) b.add_range_arrays(raArr);
        if (!boolArr.IsNull()) b.add_bool_arrays(boolArr);
        if (!strArr.IsNull()) b.add_string_arrays(strArr);
        if (!structs.IsNull()) b.add_any_struct_properties(structs);
        if (!structArrays.IsNull()) b.add_any_struct_arrays(structArrays);
        if (!maps.IsNull()) b.add_map_properties(maps);
        if (!mapArrays.IsNull()) b.add_map_arrays(mapArrays);
        return b.Finish();
    }

    FlatBufferBuilder& m_fbb;
    std::vector<uint8_t> m_structScratch;
};

// ---- owned data -> Protobuf (write side) ---------------------------------------------------

void setVec(pb::Vector* o, const Vec3& v)
{
    o->set_x(v.x);
    o->set_y(v.y);
    o->set_z(v.z);
}
void setQuat(pb::Quat* o, const Quat& q)
{
    o->set_x(q.x);
    o->set_y(q.y);
    o->set_z(q.z);
    o->set_w(q.w);
}
void setTransform(pb::Transform* o, const Transform& t)
{
    setVec(o->mutable_translation(), t.translation);
    setQuat(o->mutable_rotation(), t.rotation);
    setVec(o->mutable_scale(), t.scale);
}
void setRange(pb::FloatRange* o, const FloatRange& r)
{
    o->set_min(r.min);
    o->set_max(r.max);
    o->set_value_normalized(r.valueNormalized);
}

template <class T, class F>
void copyScalars(google::protobuf::RepeatedField<F>* out, const std::vector<T>& in)
{
    out->Reserve(static_cast<int>(in.size()));
    for (const T& v : in)
        out->AddAlreadyReserved(static_cast<F>(v));
}

template <class M, class T>
void fillFlat(M* out, const FlatArray<T>& a)
{
    copyScalars(out->mutable_data(), a.data);
    copyScalars(out->mutable_offsets(), a.offsets);
}

void fillContainer(pb::PropertyContainer* o, const PropertyContainerData& c);

void fillMap(pb::MapContainer* o, const MapData& m)
{
    for (const auto& k : m.keys)
        o->add_keys(k);
    for (const auto& v : m.values)
        fillContainer(o->add_values(), v);
}

void fillContainer(pb::PropertyContainer* o, const PropertyContainerData& c)
{
    o->set_type_id(c.typeId);
    copyScalars(o->mutable_bool_properties(), c.bools);
    copyScalars(o->mutable_int32_properties(), c.int32s);
    copyScalars(o->mutable_int64_properties(), c.int64s);
    copyScalars(o->mutable_float_properties(), c.floats);
    copyScalars(o->mutable_double_properties(), c.doubles);
    for (const auto& s : c.strings)
        o->add_string_properties(s);
    for (const auto& t : c.transforms)
        setTransform(o->add_transform_properties(), t);
    for (const auto& v : c.vectors)
        setVec(o->add_vector_properties(), v);
    for (const auto& q : c.quats)
        setQuat(o->add_quat_properties(), q);
    for (const auto& r : c.ranges)
        setRange(o->add_range_properties(), r);
    // A Flat* message is written only when its data is non-empty (§3.1).
    if (!c.byteArrays.data.empty()) {
        auto* a = o->mutable_byte_array_properties();
        a->add_data(std::string(c.byteArrays.data.begin(), c.byteArrays.data.end()));
        copyScalars(a->mutable_offsets(), c.byteArrays.offsets);
    }
    if (!c.int32Arrays.data.empty()) fillFlat(o->mutable_int32_arrays(), c.int32Arrays);
    if (!c.int64Arrays.data.empty()) fillFlat(o->mutable_int64_arrays(), c.int64Arrays);
    if (!c.floatArrays.data.empty()) fillFlat(o->mutable_float_arrays(), c.floatArrays);
    if (!c.doubleArrays.data.empty()) fillFlat(o->mutable_double_arrays(), c.doubleArrays);
    if (!c.vectorArrays.data.empty()) {
        auto* a = o->mutable_vector_arrays();
        for (const auto& v : c.vectorArrays.data)
            setVec(a->add_data(), v);
        copyScalars(a->mutable_offsets(), c.vectorArrays.offsets);
    }
    if (!c.quatArrays.data.empty()) {
        auto* a = o->mutable_quat_arrays();
        for (const auto& v : c.quatArrays.data)
            setQuat(a->add_data(), v);
        copyScalars(a->mutable_offsets(), c.quatArrays.offsets);
    }
    if (!c.transformArrays.data.empty()) {
        auto* a = o->mutable_transform_arrays();
        for (const auto& v : c.transformArrays.data)
            setTransform(a->add_data(), v);
        copyScalars(a->mutable_offsets(), c.transformArrays.offsets);
    }
    if (!c.rangeArrays.data.empty()) {
        auto* a = o->mutable_range_arrays();
        for (const auto& v : c.rangeArrays.data)
            setRange(a->add_data(), v);
        copyScalars(a->mutable_offsets(), c.rangeArrays.offsets);
    }
    if (!c.boolArrays.data.empty()) {
        auto* a = o->mutable_bool_arrays();
        for (uint8_t v : c.boolArrays.data)
            a->add_data(v != 0);
        copyScalars(a->mutable_offsets(), c.boolArrays.offsets);
    }
    if (!c.stringArrays.data.empty()) {
        auto* a = o->mutable_string_arrays();
        for (const auto& s : c.stringArrays.data)
            a->add_data(s);
        copyScalars(a->mutable_offsets(), c.stringArrays.offsets);
    }
    for (const auto& s : c.structs)
        fillContainer(o->add_any_struct_properties(), s);
    if (!c.structArrays.data.empty()) {
        auto* a = o->mutable_any_struct_arrays();
        for (const auto& s : c.structArrays.data)
            fillContainer(a->add_data(), s);
        copyScalars(a->mutable_offsets(), c.structArrays.offsets);
    }
    for (const auto& m : c.maps)
        fillMap(o->add_map_properties(), m);
    if (!c.mapArrays.data.empty()) {
        auto* a = o->mutable_map_arrays();
        for (const auto& m : c.mapArrays.data)
            fillMap(a->add_data(), m);
        copyScalars(a->mutable_offsets(), c.mapArrays.offsets);
    }
    o->set_content_hash(c.contentHash);
}

std::vector<uint8_t> serialize(const google::protobuf::MessageLite& m)
{
    std::vector<uint8_t> out(m.ByteSizeLong());
    m.SerializeWithCachedSizesToArray(out.data());
    return out;
}

class ProtoCodec final : public BackendCodec {
public:
    Backend backend() const override { return Backend::Protobuf; }

    Result<ReplayHeader> parseHeader(std::span<const uint8_t> blob, const std::string& what) const override
    {
        pb::FileHeader h;
        if (blob.size() > static_cast<size_t>(INT32_MAX) || !h.ParseFromArray(blob.data(), static_cast<int>(blob.size())))
            return Error{what + ": failed to parse the Protobuf FileHeader"};
        ReplayHeader out;
        out.formatMajor = h.version().format_major();
        out.formatMinor = h.version().format_minor();
        out.schemaVersion = h.version().schema_version();
        out.dataIdentifier = h.prop_schema().data_indentifier();
        out.dataVersion = h.prop_schema().data_version();
        out.dataVersionString = h.prop_schema().data_version_string();
        out.schemaJson = h.prop_schema().schema();
        out.replayUuid = h.replay_uuid();
        out.replayName = h.replay_name();
        out.recordedUtcTimestamp = h.recorded_utc_timestamp();
        out.customJsonMetadata = h.custom_json_metadata();
        return out;
    }

    Result<ReplayFooter> parseFooter(std::span<const uint8_t> blob, const std::string& what) const override
    {
        pb::FileFooter f;
        if (blob.size() > static_cast<size_t>(INT32_MAX) || !f.ParseFromArray(blob.data(), static_cast<int>(blob.size())))
            return Error{what + ": failed to parse the Protobuf FileFooter"};
        ReplayFooter out;
        out.totalFrames = f.total_frames();
        out.durationSeconds = f.duration_seconds();
        out.payloadChecksum = f.payload_checksum();
        const auto& t = f.times();
        out.times.gameTime.assign(t.game_time().begin(), t.game_time().end());
        out.times.createdUtc.assign(t.created_utc().begin(), t.created_utc().end());
        out.times.gaps.assign(t.gaps().begin(), t.gaps().end());
        out.times.segments.assign(t.segments().begin(), t.segments().end());
        for (const auto& e : f.chunk_index())
            out.chunks.push_back({e.chunk_index(), e.start_frame(), e.end_frame(), e.file_offset(), e.chunk_size_bytes()});
        for (const auto& e : f.events()) {
            TimelineEvent ev;
            ev.gameTimeSeconds = e.game_time();
            ev.type = e.event_type();
            ev.label = e.label();
            ev.location = {e.location().x(), e.location().y(), e.location().z()};
            ev.entityUniqueId = e.entity_unique_id();
            out.events.push_back(std::move(ev));
        }
        return out;
    }

    Result<ChunkStorage> parseChunk(Buffer decoded, const DecodeLimits& limits, const std::string& what) const override
    {
        if (decoded.size() > static_cast<size_t>(INT32_MAX))
            return Error{what + ": Protobuf chunk larger than 2 GiB"};
        google::protobuf::Arena arena(chunkArenaOptions(decoded.size()));
        auto* msg = google::protobuf::Arena::CreateMessage<pb::FrameChunk>(&arena);
        google::protobuf::io::CodedInputStream in(decoded.data(), static_cast<int>(decoded.size()));
        in.SetRecursionLimit(static_cast<int>(limits.maxTableDepth));
        if (!msg->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
            return Error{what + ": failed to parse the Protobuf FrameChunk (corrupt data, or nesting deeper than " +
                         std::to_string(limits.maxTableDepth) + " levels: maxTableDepth)"};
        FlatBufferBuilder fbb(decoded.size() + decoded.size() / 2, largeBlockAllocator());
        Flattener flat(fbb);
        fbb.Finish(flat.chunk(*msg));
        if (fbb.GetSize() >= FLATBUFFERS_MAX_BUFFER_SIZE)
            return Error{what + ": flattened chunk exceeds 2 GiB"};
        ChunkStorage s;
        s.decodedBlobBytes = decoded.size();
        auto detached = fbb.Release();
        s.root = flatbuffers::GetRoot<fbsvtx::Chunk>(detached.data());
        s.bytes = std::move(detached);
        return s;
    }

    std::vector<uint8_t> serializeHeader(const ReplayHeader& h) const override
    {
        pb::FileHeader m;
        m.mutable_version()->set_format_major(h.formatMajor);
        m.mutable_version()->set_format_minor(h.formatMinor);
        m.mutable_version()->set_schema_version(h.schemaVersion);
        auto* cs = m.mutable_prop_schema();
        cs->set_data_indentifier(h.dataIdentifier);
        cs->set_data_version(h.dataVersion);
        cs->set_data_version_string(h.dataVersionString);
        cs->set_schema(h.schemaJson);
        m.set_replay_uuid(h.replayUuid);
        m.set_replay_name(h.replayName);
        m.set_recorded_utc_timestamp(h.recordedUtcTimestamp);
        m.set_custom_json_metadata(h.customJsonMetadata);
        return serialize(m);
    }

    std::vector<uint8_t> serializeFooter(const ReplayFooter& f) const override
    {
        pb::FileFooter m;
        m.set_total_frames(f.totalFrames);
        m.set_duration_seconds(f.durationSeconds);
        auto* t = m.mutable_times();
        copyScalars(t->mutable_game_time(), f.times.gameTime);
        copyScalars(t->mutable_created_utc(), f.times.createdUtc);
        copyScalars(t->mutable_gaps(), f.times.gaps);
        copyScalars(t->mutable_segments(), f.times.segments);
        for (const auto& c : f.chunks) {
            auto* e = m.add_chunk_index();
            e->set_chunk_index(c.chunkIndex);
            e->set_start_frame(c.startFrame);
            e->set_end_frame(c.endFrame);
            e->set_file_offset(c.fileOffset);
            e->set_chunk_size_bytes(c.chunkSizeBytes);
        }
        for (const auto& ev : f.events) {
            auto* e = m.add_events();
            e->set_game_time(ev.gameTimeSeconds);
            e->set_event_type(ev.type);
            e->set_label(ev.label);
            setVec(e->mutable_location(), ev.location);
            e->set_entity_unique_id(ev.entityUniqueId);
        }
        m.set_payload_checksum(f.payloadChecksum);
        return serialize(m);
    }

    std::vector<uint8_t> serializeChunk(int32_t chunkIndex, bool isCompressedFlag, std::span<const FrameData> frames) const override
    {
        google::protobuf::Arena arena;
        auto* m = google::protobuf::Arena::CreateMessage<pb::FrameChunk>(&arena);
        m->set_chunk_index(chunkIndex);
        m->set_is_compressed(isCompressedFlag);
        for (const FrameData& f : frames) {
            auto* fm = m->add_frames();
            for (const BucketData& b : f.buckets) {
                auto* bm = fm->add_data();
                for (const auto& id : b.uniqueIds)
                    bm->add_unique_ids(id);
                for (const auto& e : b.entities)
                    fillContainer(bm->add_entities(), e);
                for (const auto& r : b.typeRanges) {
                    auto* rm = bm->add_type_ranges();
                    rm->set_start_index(r.startIndex);
                    rm->set_count(r.count);
                }
            }
        }
        return serialize(*m);
    }
};

} // namespace

// libprotobuf logs every invalid UTF-8 string of a corrupt file on stderr; the parse error we
// return already says what failed, so its messages go to the debug log instead.
void protobufLogToSpdlog(google::protobuf::LogLevel level, const char* file, int line, const std::string& message)
{
    spdlog::debug("libprotobuf {} {}:{}: {}", int(level), file, line, message);
}

const BackendCodec& protoCodec()
{
    static const ProtoCodec codec = [] {
        google::protobuf::SetLogHandler(&protobufLogToSpdlog);
        return ProtoCodec{};
    }();
    return codec;
}

const BackendCodec& codecFor(Backend b)
{
    return b == Backend::FlatBuffers ? fbsCodec() : protoCodec();
}

} // namespace vtx
