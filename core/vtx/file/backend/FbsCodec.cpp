// SPDX-License-Identifier: MIT
#include "vtx/file/backend/BackendCodec.hpp"

#include <cstring>

#include "vtx_generated.h"

namespace vtx {

const BackendCodec& fbsCodec();

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

std::string str(const flatbuffers::String* s)
{
    return s ? std::string(s->c_str(), s->size()) : std::string{};
}

template <class Root> Result<const Root*> verifiedRoot(std::span<const uint8_t> blob, size_t maxDepth, const std::string& what)
{
    if (blob.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return Error{what + ": FlatBuffer of " + std::to_string(blob.size()) + " bytes exceeds the 2 GiB format limit"};
    flatbuffers::Verifier::Options opts;
    opts.max_depth = static_cast<flatbuffers::uoffset_t>(maxDepth);
    // Tables can share data; bounding the count by the size keeps verification linear.
    opts.max_tables = static_cast<flatbuffers::uoffset_t>(std::max<size_t>(blob.size() / 4, 1024));
    flatbuffers::Verifier v(blob.data(), blob.size(), opts);
    if (!v.VerifyBuffer<Root>(nullptr))
        return Error{what + ": FlatBuffers verification failed (corrupt data, or nesting deeper than " + std::to_string(maxDepth) +
                     " levels: maxTableDepth)"};
    return flatbuffers::GetRoot<Root>(blob.data());
}

/// The chunk's root table, its own fields and its frames vector, with every frame offset
/// pointing inside the buffer; not the frames themselves (DecodedChunk verifies each one on
/// first access). The same checks as Chunk::Verify minus the recursion into the frames.
Result<const fbsvtx::Chunk*> shallowChunk(std::span<const uint8_t> blob, size_t maxDepth, const std::string& what)
{
    if (blob.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return Error{what + ": FlatBuffer of " + std::to_string(blob.size()) + " bytes exceeds the 2 GiB format limit"};
    flatbuffers::Verifier::Options opts;
    opts.max_depth = static_cast<flatbuffers::uoffset_t>(maxDepth);
    flatbuffers::Verifier v(blob.data(), blob.size(), opts);
    const Error bad{what + ": FlatBuffers verification of the chunk table failed (corrupt data)"};
    const flatbuffers::uoffset_t rootOffset = blob.size() >= sizeof(flatbuffers::uoffset_t) ? v.VerifyOffset(0) : 0;
    if (!rootOffset)
        return bad;
    using C = fbsvtx::Chunk;
    const auto* chunk = flatbuffers::GetRoot<C>(blob.data());
    // Chunk derives privately from Table; the generated Verify() does the same through it.
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(chunk);
    const bool ok = t->VerifyTableStart(v) && t->VerifyField<int32_t>(v, C::VT_CHUNK_INDEX, 4) &&
        t->VerifyField<uint8_t>(v, C::VT_IS_COMPRESSED, 1) && t->VerifyOffset(v, C::VT_COMPRESSED_DATA) && v.VerifyVector(chunk->compressed_data()) &&
        t->VerifyOffset(v, C::VT_FRAMES) && v.VerifyVector(chunk->frames()) && t->VerifyOffset(v, C::VT_COMPRESSED_FRAMES) &&
        v.VerifyVector(chunk->compressed_frames()) && v.EndTable();
    if (!ok)
        return bad;
    if (const auto* frames = chunk->frames()) {
        const auto start = static_cast<size_t>(frames->Data() - blob.data());
        for (flatbuffers::uoffset_t i = 0; i < frames->size(); ++i)
            if (!v.VerifyOffset(start + size_t(i) * sizeof(flatbuffers::uoffset_t)))
                return Error{what + ": frame " + std::to_string(i) + " of the chunk points outside the chunk (corrupt data)"};
    }
    return chunk;
}

template <class T, class V> std::vector<T> copyVec(const flatbuffers::Vector<V>* v)
{
    if (!v)
        return {};
    // Element by element through memcpy: the verifier does not check that 8-byte elements are
    // aligned, and a hostile footer may misplace them.
    std::vector<T> out(v->size());
    const uint8_t* p = v->Data();
    for (size_t i = 0; i < out.size(); ++i) {
        V x;
        std::memcpy(&x, p + i * sizeof(V), sizeof(V));
        out[i] = T(x);
    }
    return out;
}

template <class T, class S> Offset<flatbuffers::Vector<const S*>> structs(FlatBufferBuilder& fbb, const std::vector<T>& v)
{
    static_assert(sizeof(T) == sizeof(S));
    return fbb.CreateVectorOfStructs(reinterpret_cast<const S*>(v.data()), v.size());
}

template <class R, class D, class T>
Offset<R> flatStructs(FlatBufferBuilder& fbb, const FlatArray<T>& a,
                      Offset<R> (*create)(FlatBufferBuilder&, Offset<flatbuffers::Vector<D>>, Offset<flatbuffers::Vector<uint32_t>>))
{
    using S = std::remove_const_t<std::remove_pointer_t<D>>;
    if (a.data.empty())
        return 0;
    auto d = structs<T, S>(fbb, a.data);
    auto o = fbb.CreateVector(a.offsets);
    return create(fbb, d, o);
}

template <class R, class D, class T>
Offset<R> flatScalars(FlatBufferBuilder& fbb, const FlatArray<T>& a,
                      Offset<R> (*create)(FlatBufferBuilder&, Offset<flatbuffers::Vector<D>>, Offset<flatbuffers::Vector<uint32_t>>))
{
    static_assert(sizeof(D) == sizeof(T));
    if (a.data.empty())
        return 0;
    auto d = fbb.CreateVector(reinterpret_cast<const D*>(a.data.data()), a.data.size());
    auto o = fbb.CreateVector(a.offsets);
    return create(fbb, d, o);
}

Offset<fbsvtx::MapContainer> buildMap(FlatBufferBuilder& fbb, const MapData& m)
{
    std::vector<Offset<fbsvtx::PropertyContainer>> values;
    values.reserve(m.values.size());
    for (const auto& v : m.values)
        values.push_back(buildContainer(fbb, v));
    auto keys = fbb.CreateVectorOfStrings(m.keys);
    auto vals = fbb.CreateVector(values);
    return fbsvtx::CreateMapContainer(fbb, keys, vals);
}

class FbsCodec final : public BackendCodec {
public:
    Backend backend() const override { return Backend::FlatBuffers; }

    Result<ReplayHeader> parseHeader(std::span<const uint8_t> blob, const std::string& what) const override
    {
        auto root = verifiedRoot<fbsvtx::FileHeader>(blob, 16, what + " (FileHeader)");
        if (!root)
            return root.error();
        const fbsvtx::FileHeader* h = *root;
        ReplayHeader out;
        if (auto* v = h->version()) {
            out.formatMajor = v->format_major();
            out.formatMinor = v->format_minor();
            out.schemaVersion = v->schema_version();
        } else {
            out.formatMajor = out.formatMinor = 0;
        }
        if (auto* cs = h->contextual_schema()) {
            out.dataIdentifier = str(cs->data_identifier());
            out.dataVersion = cs->data_version();
            out.dataVersionString = str(cs->data_version_string());
            out.schemaJson = str(cs->schema());
        } else {
            out.dataIdentifier.clear();
        }
        out.replayUuid = str(h->replay_uuid());
        out.replayName = str(h->replay_name());
        out.recordedUtcTimestamp = h->recorded_utc_timestamp();
        out.customJsonMetadata = str(h->custom_json_metadata());
        return out;
    }

    Result<ReplayFooter> parseFooter(std::span<const uint8_t> blob, const std::string& what) const override
    {
        auto root = verifiedRoot<fbsvtx::FileFooter>(blob, 16, what + " (FileFooter)");
        if (!root)
            return root.error();
        const fbsvtx::FileFooter* f = *root;
        ReplayFooter out;
        out.totalFrames = f->total_frames();
        out.durationSeconds = f->duration_seconds();
        out.payloadChecksum = f->payload_checksum();
        if (auto* t = f->times()) {
            out.times.gameTime = copyVec<int64_t>(t->game_time());
            out.times.createdUtc = copyVec<int64_t>(t->created_utc());
            for (int32_t g : copyVec<int32_t>(t->gaps()))
                out.times.gaps.push_back(static_cast<uint32_t>(g));
            for (int32_t s : copyVec<int32_t>(t->segments()))
                out.times.segments.push_back(static_cast<uint32_t>(s));
        }
        if (auto* idx = f->chunk_index()) {
            out.chunks.reserve(idx->size());
            for (const auto* e : *idx) {
                ChunkEntry c;
                if (e) {
                    c.chunkIndex = e->chunk_index();
                    c.startFrame = e->start_frame();
                    c.endFrame = e->end_frame();
                    c.fileOffset = e->file_offset();
                    c.chunkSizeBytes = e->chunk_size_bytes();
                }
                out.chunks.push_back(c);
            }
        }
        if (auto* ev = f->events()) {
            for (const auto* e : *ev) {
                if (!e)
                    continue;
                TimelineEvent t;
                t.gameTimeSeconds = e->game_time();
                t.type = str(e->event_type());
                t.label = str(e->label());
                if (auto* loc = e->location())
                    t.location = {loc->x(), loc->y(), loc->z()};
                t.entityUniqueId = str(e->entity_unique_id());
                out.events.push_back(std::move(t));
            }
        }
        return out;
    }

    Result<ChunkStorage> parseChunk(Buffer decoded, const DecodeLimits& limits, const std::string& what) const override
    {
        auto root = shallowChunk(decoded.span(), limits.maxTableDepth, what);
        if (!root)
            return root.error();
        ChunkStorage s;
        s.root = *root;
        s.decodedBlobBytes = decoded.size();
        s.bytes = std::move(decoded);
        s.framesVerified = false;
        s.limits = limits;
        s.what = what;
        return s;
    }

    std::vector<uint8_t> serializeHeader(const ReplayHeader& h) const override
    {
        FlatBufferBuilder fbb(1024 + h.schemaJson.size());
        auto version = fbsvtx::CreateVersionInfo(fbb, h.formatMajor, h.formatMinor, h.schemaVersion);
        auto cs = fbsvtx::CreateContextualSchema(fbb, fbb.CreateString(h.dataIdentifier), h.dataVersion, fbb.CreateString(h.dataVersionString),
                                                 fbb.CreateString(h.schemaJson));
        auto uuid = fbb.CreateString(h.replayUuid);
        auto name = fbb.CreateString(h.replayName);
        auto meta = fbb.CreateString(h.customJsonMetadata);
        fbb.Finish(fbsvtx::CreateFileHeader(fbb, version, cs, uuid, name, h.recordedUtcTimestamp, meta));
        return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
    }

    std::vector<uint8_t> serializeFooter(const ReplayFooter& f) const override
    {
        FlatBufferBuilder fbb(4096);
        std::vector<int32_t> gaps(f.times.gaps.begin(), f.times.gaps.end());
        std::vector<int32_t> segments(f.times.segments.begin(), f.times.segments.end());
        auto times = fbsvtx::CreateReplayTimeData(fbb, fbb.CreateVector(f.times.gameTime), fbb.CreateVector(f.times.createdUtc),
                                                  fbb.CreateVector(gaps), fbb.CreateVector(segments));
        std::vector<Offset<fbsvtx::ChunkIndexEntry>> entries;
        for (const auto& c : f.chunks)
            entries.push_back(fbsvtx::CreateChunkIndexEntry(fbb, c.chunkIndex, c.startFrame, c.endFrame, c.fileOffset, c.chunkSizeBytes));
        auto index = fbb.CreateVector(entries);
        std::vector<Offset<fbsvtx::TimelineEvent>> events;
        for (const auto& e : f.events) {
            auto type = fbb.CreateString(e.type);
            auto label = fbb.CreateString(e.label);
            auto uid = fbb.CreateString(e.entityUniqueId);
            fbsvtx::Vector loc(e.location.x, e.location.y, e.location.z);
            events.push_back(fbsvtx::CreateTimelineEvent(fbb, e.gameTimeSeconds, type, label, &loc, uid));
        }
        auto ev = fbb.CreateVector(events);
        fbb.Finish(fbsvtx::CreateFileFooter(fbb, f.totalFrames, f.durationSeconds, times, index, ev, f.payloadChecksum));
        return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
    }

    std::vector<uint8_t> serializeChunk(int32_t chunkIndex, bool isCompressedFlag, std::span<const FrameData> frames) const override
    {
        FlatBufferBuilder fbb(1 << 20);
        std::vector<Offset<fbsvtx::Frame>> frameOffsets;
        frameOffsets.reserve(frames.size());
        std::vector<Offset<fbsvtx::Bucket>> buckets;
        std::vector<Offset<fbsvtx::PropertyContainer>> entities;
        for (const FrameData& frame : frames) {
            buckets.clear();
            for (const BucketData& b : frame.buckets) {
                entities.clear();
                for (const auto& e : b.entities)
                    entities.push_back(buildContainer(fbb, e));
                auto ents = fbb.CreateVector(entities);
                Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> ids = 0;
                if (!b.uniqueIds.empty())
                    ids = fbb.CreateVectorOfStrings(b.uniqueIds);
                Offset<flatbuffers::Vector<const fbsvtx::EntityRange*>> ranges = 0;
                if (!b.typeRanges.empty())
                    ranges = structs<EntityRange, fbsvtx::EntityRange>(fbb, b.typeRanges);
                buckets.push_back(fbsvtx::CreateBucket(fbb, ids, ents, ranges));
            }
            frameOffsets.push_back(fbsvtx::CreateFrame(fbb, fbb.CreateVector(buckets)));
        }
        auto fv = fbb.CreateVector(frameOffsets);
        fbb.Finish(fbsvtx::CreateChunk(fbb, chunkIndex, isCompressedFlag, 0, fv, 0));
        return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
    }
};

} // namespace

Offset<fbsvtx::PropertyContainer> buildContainer(FlatBufferBuilder& fbb, const PropertyContainerData& c)
{
    // Children first: FlatBuffers builds bottom-up.
    Offset<flatbuffers::Vector<Offset<fbsvtx::PropertyContainer>>> structsOff = 0;
    if (!c.structs.empty()) {
        std::vector<Offset<fbsvtx::PropertyContainer>> v;
        for (const auto& s : c.structs)
            v.push_back(buildContainer(fbb, s));
        structsOff = fbb.CreateVector(v);
    }
    Offset<fbsvtx::FlatPropertyContainerArray> structArrays = 0;
    if (!c.structArrays.data.empty()) {
        std::vector<Offset<fbsvtx::PropertyContainer>> v;
        for (const auto& s : c.structArrays.data)
            v.push_back(buildContainer(fbb, s));
        auto d = fbb.CreateVector(v);
        auto o = fbb.CreateVector(c.structArrays.offsets);
        structArrays = fbsvtx::CreateFlatPropertyContainerArray(fbb, d, o);
    }
    Offset<flatbuffers::Vector<Offset<fbsvtx::MapContainer>>> mapsOff = 0;
    if (!c.maps.empty()) {
        std::vector<Offset<fbsvtx::MapContainer>> v;
        for (const auto& m : c.maps)
            v.push_back(buildMap(fbb, m));
        mapsOff = fbb.CreateVector(v);
    }
    Offset<fbsvtx::FlatMapArray> mapArrays = 0;
    if (!c.mapArrays.data.empty()) {
        std::vector<Offset<fbsvtx::MapContainer>> v;
        for (const auto& m : c.mapArrays.data)
            v.push_back(buildMap(fbb, m));
        auto d = fbb.CreateVector(v);
        auto o = fbb.CreateVector(c.mapArrays.offsets);
        mapArrays = fbsvtx::CreateFlatMapArray(fbb, d, o);
    }
    auto nonEmpty = [&](const auto& v) { return !v.empty(); };
    auto bools = nonEmpty(c.bools) ? fbb.CreateVector(c.bools) : 0;
    auto i32 = nonEmpty(c.int32s) ? fbb.CreateVector(c.int32s) : 0;
    auto i64 = nonEmpty(c.int64s) ? fbb.CreateVector(c.int64s) : 0;
    auto f32 = nonEmpty(c.floats) ? fbb.CreateVector(c.floats) : 0;
    auto f64 = nonEmpty(c.doubles) ? fbb.CreateVector(c.doubles) : 0;
    auto strs = nonEmpty(c.strings) ? fbb.CreateVectorOfStrings(c.strings) : 0;
    auto tr = nonEmpty(c.transforms) ? structs<Transform, fbsvtx::Transform>(fbb, c.transforms) : 0;
    auto ve = nonEmpty(c.vectors) ? structs<Vec3, fbsvtx::Vector>(fbb, c.vectors) : 0;
    auto qu = nonEmpty(c.quats) ? structs<Quat, fbsvtx::Quat>(fbb, c.quats) : 0;
    auto ra = nonEmpty(c.ranges) ? structs<FloatRange, fbsvtx::FloatRange>(fbb, c.ranges) : 0;
    auto byteArr = flatScalars(fbb, c.byteArrays, &fbsvtx::CreateFlatBytesArray);
    auto i32Arr = flatScalars(fbb, c.int32Arrays, &fbsvtx::CreateFlatIntArray);
    auto i64Arr = flatScalars(fbb, c.int64Arrays, &fbsvtx::CreateFlatInt64Array);
    auto f32Arr = flatScalars(fbb, c.floatArrays, &fbsvtx::CreateFlatFloatArray);
    auto f64Arr = flatScalars(fbb, c.doubleArrays, &fbsvtx::CreateFlatDoubleArray);
    auto vecArr = flatStructs(fbb, c.vectorArrays, &fbsvtx::CreateFlatVectorArray);
    auto quatArr = flatStructs(fbb, c.quatArrays, &fbsvtx::CreateFlatQuatArray);
    auto trArr = flatStructs(fbb, c.transformArrays, &fbsvtx::CreateFlatTransformArray);
    auto raArr = flatStructs(fbb, c.rangeArrays, &fbsvtx::CreateFlatRangeArray);
    auto boolArr = flatScalars(fbb, c.boolArrays, &fbsvtx::CreateFlatBoolArray);
    Offset<fbsvtx::FlatStringArray> strArr = 0;
    if (!c.stringArrays.data.empty()) {
        auto d = fbb.CreateVectorOfStrings(c.stringArrays.data);
        auto o = fbb.CreateVector(c.stringArrays.offsets);
        strArr = fbsvtx::CreateFlatStringArray(fbb, d, o);
    }

    fbsvtx::PropertyContainerBuilder b(fbb);
    b.add_content_hash(c.contentHash);
    b.add_type_id(c.typeId);
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
    if (!structsOff.IsNull())
        b.add_any_struct_properties(structsOff);
    if (!structArrays.IsNull())
        b.add_any_struct_arrays(structArrays);
    if (!mapsOff.IsNull())
        b.add_map_properties(mapsOff);
    if (!mapArrays.IsNull())
        b.add_map_arrays(mapArrays);
    return b.Finish();
}

const BackendCodec& fbsCodec()
{
    static const FbsCodec codec;
    return codec;
}

} // namespace vtx
