// SPDX-License-Identifier: MIT
#include "vtx/export/JsonExport.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/base/Utf8.hpp"
#include "vtx/file/FrameTimes.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/model/PropertyTree.hpp"
#include "vtx/model/PropertyVisit.hpp"
#include "vtx/model/UnnamedData.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace vtx {
namespace {

constexpr int kMaxJsonDepth = 64;

Json nonFinite(double v)
{
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

Json vecJson(const Vec3& v)
{
    return Json::array({f64Json(v.x), f64Json(v.y), f64Json(v.z)});
}
Json quatJson(const Quat& q)
{
    return Json::array({f32Json(q.x), f32Json(q.y), f32Json(q.z), f32Json(q.w)});
}
Json transformJson(const Transform& t)
{
    return Json{{"translation", vecJson(t.translation)}, {"rotation", quatJson(t.rotation)}, {"scale", vecJson(t.scale)}};
}

Json structJson(ContainerView c, const Schema& schema, int depth)
{
    const StructDef* def = schema.structById(c.typeId());
    Json out;
    out["type_id"] = c.typeId();
    out["type_name"] = def ? Json(sanitizeUtf8(def->name)) : Json(nullptr);
    out["properties"] = containerJson(c, schema, depth + 1);
    if (Json u = unnamedJson(c, schema, depth + 1); !u.empty())
        out["unnamed"] = std::move(u);
    return out;
}

Json bytesJson(std::span<const uint8_t> b)
{
    static const char* digits = "0123456789abcdef";
    std::string hex;
    hex.reserve(b.size() * 2);
    for (uint8_t x : b) {
        hex += digits[x >> 4];
        hex += digits[x & 15];
    }
    return Json{{"length", b.size()}, {"hex", std::move(hex)}};
}

struct ValueToJson {
    const Schema& schema;
    int depth;

    Json operator()(Absent) const { return nullptr; }
    Json operator()(bool v) const { return v; }
    Json operator()(int32_t v) const { return v; }
    Json operator()(int64_t v) const { return v; }
    Json operator()(float v) const { return f32Json(v); }
    Json operator()(double v) const { return f64Json(v); }
    Json operator()(std::string_view v) const { return sanitizeUtf8(v); }
    Json operator()(const Vec3& v) const { return vecJson(v); }
    Json operator()(const Quat& v) const { return quatJson(v); }
    Json operator()(const Transform& v) const { return transformJson(v); }
    Json operator()(const FloatRange& r) const
    {
        return Json{{"min", f32Json(r.min)}, {"max", f32Json(r.max)}, {"value_normalized", f32Json(r.valueNormalized)}};
    }
    Json operator()(ByteSpan b) const { return bytesJson(b.bytes); }
    Json operator()(ContainerView v) const { return structJson(v, schema, depth); }
    Json operator()(BoolSpan s) const
    {
        Json a = Json::array();
        for (uint8_t b : s.values)
            a.push_back(b != 0);
        return a;
    }
    template <class T> Json operator()(std::span<const T> s) const
    {
        Json a = Json::array();
        for (const T& x : s)
            a.push_back((*this)(x));
        return a;
    }
    template <class L> Json operator()(const ListSlice<L>& s) const
    {
        Json a = Json::array();
        for (size_t i = 0; i < s.size(); ++i)
            a.push_back((*this)(s[i]));
        return a;
    }
    Json operator()(MapView m) const
    {
        Json o = Json::object();
        StringList keys = m.keys();
        ContainerList values = m.values();
        for (size_t i = 0; i < m.size(); ++i)
            o[sanitizeUtf8(keys[i])] = structJson(values[i], schema, depth);
        return o;
    }
};

} // namespace

Json f32Json(float v)
{
    if (!std::isfinite(v))
        return nonFinite(v);
    char buf[32];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    *p = 0;
    return std::strtod(buf, nullptr); // the double nearest the shortest float32 decimal
}

Json f64Json(double v)
{
    if (!std::isfinite(v))
        return nonFinite(v);
    return v;
}

namespace {

void appendEscaped(std::string& out, const std::string& s)
{
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

void appendDouble(std::string& out, double v)
{
    if (!std::isfinite(v)) { // Json::dump's spelling; f32Json / f64Json never store these
        out += "null";
        return;
    }
    const std::string text = formatDouble(v);
    out += text;
    if (text.find_first_of(".e") == std::string::npos)
        out += ".0";
}

void appendJson(std::string& out, const Json& j, int indent, int level)
{
    auto newline = [&](int l) {
        if (indent >= 0) {
            out += '\n';
            out.append(size_t(indent) * size_t(l), ' ');
        }
    };
    switch (j.type()) {
    case Json::value_t::null: out += "null"; break;
    case Json::value_t::boolean: out += j.get<bool>() ? "true" : "false"; break;
    case Json::value_t::number_integer: out += std::to_string(j.get<int64_t>()); break;
    case Json::value_t::number_unsigned: out += std::to_string(j.get<uint64_t>()); break;
    case Json::value_t::number_float: appendDouble(out, j.get<double>()); break;
    case Json::value_t::string: appendEscaped(out, j.get_ref<const std::string&>()); break;
    case Json::value_t::array: {
        if (j.empty()) {
            out += "[]";
            break;
        }
        out += '[';
        bool first = true;
        for (const Json& e : j) {
            if (!first)
                out += ',';
            first = false;
            newline(level + 1);
            appendJson(out, e, indent, level + 1);
        }
        newline(level);
        out += ']';
        break;
    }
    case Json::value_t::object: {
        if (j.empty()) {
            out += "{}";
            break;
        }
        out += '{';
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first)
                out += ',';
            first = false;
            newline(level + 1);
            appendEscaped(out, it.key());
            out += indent >= 0 ? ": " : ":";
            appendJson(out, it.value(), indent, level + 1);
        }
        newline(level);
        out += '}';
        break;
    }
    case Json::value_t::binary:
    case Json::value_t::discarded: out += j.dump(); break; // never built by this project
    }
}

} // namespace

std::string jsonText(const Json& j, int indent)
{
    std::string out;
    appendJson(out, j, indent, 0);
    return out;
}

Json containerJson(ContainerView c, const Schema& schema, int depth)
{
    if (depth > kMaxJsonDepth)
        return "<nesting too deep>";
    const StructDef* def = schema.structById(c.typeId());
    if (!def)
        return Json::object(); // nothing is named: unnamedJson() holds every value
    Json o = Json::object();
    ValueToJson conv{schema, depth};
    for (const FieldDef& f : def->fields) {
        if (f.name.empty() || !f.key.valid())
            continue;
        if (f.name.empty() || f.shadowed)
            continue; // shadowed by a later field of the same name
        o[sanitizeUtf8(f.name)] = visitProperty(c, f.key, conv);
    }
    return o;
}

Json unnamedJson(ContainerView c, const Schema& schema, int depth)
{
    Json out = Json::object();
    if (depth > kMaxJsonDepth)
        return out;
    std::vector<UnnamedSlot> slots;
    unnamedSlots(c, schema, slots);
    ValueToJson conv{schema, depth};
    for (const UnnamedSlot& u : slots) {
        Json v = visitProperty(c, u.key, conv);
        if (u.blobOf)
            v["blob_of"] = sanitizeUtf8(u.blobOf->name);
        out[containerMemberName(u.key.member)][std::to_string(u.key.slot)] = std::move(v);
    }
    return out;
}

Json frameJson(const ReplayFile& file, const FrameHandle& handle)
{
    const Schema& schema = file.schema();
    const FrameView& frame = handle.view();
    Json out;
    out["file"] = sanitizeUtf8(std::filesystem::path(file.path()).filename().string());
    out["frame"] = handle.index();
    out["total_frames"] = file.frameCount();
    // A time the file does not hold is null, not gameTimeTicks()'s 0: a recovered file lost its
    // frame times with the footer (frame 0's genuine 0 is a time the file holds).
    auto timeJson = [](std::optional<int64_t> t) { return t ? Json(*t) : Json(nullptr); };
    out["game_time"] = timeJson(heldGameTimeTicks(file, handle.index()));
    out["created_utc"] = timeJson(heldCreatedUtcTicks(file, handle.index()));
    const FrameIntegrity integrity = checkFrameIntegrity(frame, schema, file.hashTrust().get());
    out["integrity"] = Json{{"checked", integrity.checked},
                            {"partly_covered", integrity.partlyCovered},
                            {"unchecked", integrity.unchecked},
                            {"damaged", integrity.damaged.size()},
                            {"chunk_damage", nullptr}};
    // The frame read, but its chunk is damaged: values no hash checks may be wrong (review 5).
    if (const auto damage = handle.chunk()->damage()) {
        // null: every frame of the chunk reads, the damage lies after them.
        const bool frameLost = damage->chunk < file.chunks().size() && damage->firstFrame <= file.chunks()[damage->chunk].endFrame;
        out["integrity"]["chunk_damage"] = Json{{"chunk", damage->chunk},
                                                {"first_unreadable_frame", frameLost ? Json(damage->firstFrame) : Json(nullptr)},
                                                {"later_frames_lost", damage->laterFramesLost},
                                                {"reason", damage->reason}};
    }
    const EntityLabels labels = EntityLabels::choose(schema);
    Json buckets = Json::array();
    for (size_t b = 0; b < frame.bucketCount(); ++b) {
        BucketView bucket = frame.bucket(b);
        Json jb;
        jb["index"] = b;
        jb["name"] = sanitizeUtf8(schema.bucketName(b));
        jb["entity_count"] = bucket.entityCount();
        Json ranges = Json::array();
        for (const EntityRange& r : bucket.typeRanges())
            ranges.push_back(Json::array({r.startIndex, r.count}));
        jb["type_ranges"] = ranges;
        Json entities = Json::array();
        for (size_t e = 0; e < bucket.entityCount(); ++e) {
            ContainerView c = bucket.entity(e);
            const StructDef* def = schema.structById(c.typeId());
            Json je;
            je["index"] = e;
            je["unique_id"] = sanitizeUtf8(bucket.uniqueId(e));
            // The label of this frame (EntityLabels); null when the entity has none here.
            const std::string_view label = labels.label(c);
            je["display_name"] = label.empty() ? Json(nullptr) : Json(sanitizeUtf8(label));
            je["type_id"] = c.typeId();
            je["type_name"] = def ? Json(sanitizeUtf8(def->name)) : Json(nullptr);
            je["content_hash"] = hex64(c.contentHash());
            je["properties"] = containerJson(c, schema);
            if (Json u = unnamedJson(c, schema); !u.empty())
                je["unnamed"] = std::move(u);
            if (const auto damage = integrity.damageOf(uint32_t(b), uint32_t(e)); !damage.empty()) {
                Json d = Json::array();
                for (const DamagedContainer* x : damage)
                    d.push_back(Json{{"path", x->path}, {"stored_hash", hex64(x->stored)}, {"reason", damageText(*x, schema)}});
                je["damaged"] = std::move(d);
            }
            entities.push_back(std::move(je));
        }
        jb["entities"] = std::move(entities);
        buckets.push_back(std::move(jb));
    }
    out["buckets"] = std::move(buckets);
    return out;
}

Json hashTrustJson(const ReplayFile& file)
{
    const HashTrust& trust = *file.hashTrust();
    Json types = Json::array();
    for (const StructDef& d : file.schema().structs()) {
        const HashEvidence e = trust.evidence(d.typeId);
        const HashVerdict v = verdictOf(e);
        const char* shortcut = v == HashVerdict::Spec                    ? "always"
            : v == HashVerdict::SdkVariant || v == HashVerdict::NoNested ? "containers_without_nested"
                                                                         : "never";
        types.push_back(Json{{"type_id", d.typeId},
                             {"type", sanitizeUtf8(d.name)},
                             {"verdict", hashVerdictName(v)},
                             {"diff_shortcut", shortcut},
                             {"sampled", e.sampled()},
                             {"spec_only", e.specOnly},
                             {"sdk_only", e.sdkOnly},
                             {"both", e.both},
                             {"neither", e.neither}});
    }
    Json mismatches = Json::array();
    for (const HashMismatch& m : trust.mismatches())
        mismatches.push_back(
            Json{{"frame", m.frame}, {"bucket", m.bucket}, {"entity", sanitizeUtf8(m.uniqueId)}, {"path", m.path}, {"type_id", m.typeId}});
    return Json{{"sampled_chunks", trust.sampledChunks()}, {"types", std::move(types)}, {"mismatches", std::move(mismatches)}};
}

Json infoJson(const ReplayFile& file)
{
    const ReplayHeader& h = file.header();
    const ReplayFooter& f = file.footer();
    Json out;
    out["file"] = sanitizeUtf8(std::filesystem::path(file.path()).filename().string());
    out["file_size"] = file.fileSize();
    out["backend"] = backendName(file.backend());
    out["magic"] = backendMagic(file.backend());
    auto blob = [](const BlobInfo& b) {
        return Json{{"offset", b.offset}, {"stored_size", b.storedSize}, {"zstd", b.zstd}, {"decoded_size", b.decodedSize}};
    };
    out["header_blob"] = blob(file.headerBlob());
    out["footer_blob"] = blob(file.footerBlob());
    out["header"] = Json{
        {"version", {{"format_major", h.formatMajor}, {"format_minor", h.formatMinor}, {"schema_version", h.schemaVersion}}},
        {"data_identifier", sanitizeUtf8(h.dataIdentifier)},
        {"data_version", h.dataVersion},
        {"data_version_string", sanitizeUtf8(h.dataVersionString)},
        {"schema_length", h.schemaJson.size()},
        {"replay_uuid", sanitizeUtf8(h.replayUuid)},
        {"replay_name", sanitizeUtf8(h.replayName)},
        {"recorded_utc_timestamp", h.recordedUtcTimestamp},
        {"custom_json_metadata", sanitizeUtf8(h.customJsonMetadata)},
    };
    const Schema& s = file.schema();
    Json structs = Json::array();
    for (const StructDef& d : s.structs()) {
        Json fields = Json::array();
        for (const FieldDef& fd : d.fields) {
            Json jf{{"name", sanitizeUtf8(fd.name)},
                    {"type", fieldTypeName(fd.key.type)},
                    {"container", containerKindName(fd.key.container)},
                    {"slot", fd.key.slot}};
            if (fd.key.type == FieldType::Struct)
                jf["struct_type"] = sanitizeUtf8(fd.structType);
            fields.push_back(std::move(jf));
        }
        structs.push_back(Json{{"name", sanitizeUtf8(d.name)}, {"type_id", d.typeId}, {"fields", std::move(fields)}});
    }
    Json bucketNames = Json::array();
    for (const auto& b : s.bucketNames())
        bucketNames.push_back(sanitizeUtf8(b));
    out["schema"] = Json{{"version", sanitizeUtf8(s.version())}, {"buckets", bucketNames}, {"structs", std::move(structs)}};
    out["total_frames"] = f.totalFrames;
    // The duration lived in the footer: unknown (null) when it was lost, never a made-up 0.
    out["duration_seconds"] = file.isRecovered() ? Json(nullptr) : f32Json(f.durationSeconds);
    out["payload_checksum"] = f.payloadChecksum;
    Json chunks = Json::array();
    for (const ChunkEntry& c : f.chunks)
        chunks.push_back(Json{{"chunk_index", c.chunkIndex},
                              {"start_frame", c.startFrame},
                              {"end_frame", c.endFrame},
                              {"file_offset", c.fileOffset},
                              {"chunk_size_bytes", c.chunkSizeBytes}});
    out["chunks"] = std::move(chunks);
    const ReplayTimes& t = f.times;
    auto headTail = [](const std::vector<int64_t>& v, bool head) {
        Json a = Json::array();
        const size_t n = std::min<size_t>(3, v.size());
        for (size_t i = 0; i < n; ++i)
            a.push_back(head ? v[i] : v[v.size() - n + i]);
        return a;
    };
    out["times"] = Json{{"game_time_len", t.gameTime.size()},
                        {"created_utc_len", t.createdUtc.size()},
                        {"game_time_first", headTail(t.gameTime, true)},
                        {"game_time_last", headTail(t.gameTime, false)},
                        {"created_utc_first", headTail(t.createdUtc, true)},
                        {"created_utc_last", headTail(t.createdUtc, false)},
                        {"gaps", t.gaps},
                        {"segments", t.segments}};
    Json events = Json::array();
    for (const TimelineEvent& e : f.events)
        events.push_back(Json{{"game_time", f32Json(e.gameTimeSeconds)},
                              {"event_type", sanitizeUtf8(e.type)},
                              {"label", sanitizeUtf8(e.label)},
                              {"location", vecJson(e.location)},
                              {"entity_unique_id", sanitizeUtf8(e.entityUniqueId)}});
    out["events"] = std::move(events);
    out["hash_trust"] = hashTrustJson(file);
    Json problems = Json::array();
    for (const Problem& p : file.problems())
        problems.push_back(sanitizeUtf8(p.message));
    out["problems"] = std::move(problems);
    if (const RecoveryReport& r = file.recovery(); r.recovered) {
        Json corrupt = Json::array();
        for (const auto& c : r.corruptRecords)
            corrupt.push_back(Json{{"offset", c.offset}, {"bytes", c.bytes}, {"error", sanitizeUtf8(c.error)}});
        out["recovery"] = Json{{"reason", sanitizeUtf8(r.reason)},      {"chunks", file.chunks().size()},      {"frames", file.frameCount()},
                               {"resume_offset", r.resumeOffset},       {"lost_bytes", r.lostBytes},           {"lost", sanitizeUtf8(r.lostWhat)},
                               {"corrupt_records", std::move(corrupt)}, {"summary", sanitizeUtf8(r.summary())}};
    }
    return out;
}

} // namespace vtx
