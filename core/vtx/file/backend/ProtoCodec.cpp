// SPDX-License-Identifier: MIT
#include "vtx/file/backend/BackendCodec.hpp"
#include "vtx/file/backend/ProtoChunkReader.hpp"

#include "vtx.pb.h"
#include "vtx_generated.h"

#include <algorithm>
#include <google/protobuf/arena.h>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

namespace vtx {

const BackendCodec& protoCodec();
const BackendCodec& fbsCodec();

namespace {

namespace pb = cppvtx;

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

template <class T, class F> void copyScalars(google::protobuf::RepeatedField<F>* out, const std::vector<T>& in)
{
    out->Reserve(static_cast<int>(in.size()));
    for (const T& v : in)
        out->AddAlreadyReserved(static_cast<F>(v));
}

template <class M, class T> void fillFlat(M* out, const FlatArray<T>& a)
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
    if (!c.int32Arrays.data.empty())
        fillFlat(o->mutable_int32_arrays(), c.int32Arrays);
    if (!c.int64Arrays.data.empty())
        fillFlat(o->mutable_int64_arrays(), c.int64Arrays);
    if (!c.floatArrays.data.empty())
        fillFlat(o->mutable_float_arrays(), c.floatArrays);
    if (!c.doubleArrays.data.empty())
        fillFlat(o->mutable_double_arrays(), c.doubleArrays);
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
        auto flat = flattenProtoChunk(decoded.span(), limits, what);
        if (!flat)
            return flat.error();
        ChunkStorage s;
        s.decodedBlobBytes = decoded.size();
        s.root = flatbuffers::GetRoot<fbsvtx::Chunk>(flat->data());
        s.bytes = std::move(*flat);
        s.limitsChecked = true; // by the reader, on the way
        s.limits = limits;
        s.what = what;
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
