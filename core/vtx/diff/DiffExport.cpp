// SPDX-License-Identifier: MIT
#include "vtx/diff/DiffExport.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/base/Utf8.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/model/PropertyTree.hpp"

#include <cstdio>

namespace vtx {

namespace {

std::string typeName(const Schema& schema, int32_t typeId)
{
    const StructDef* d = schema.structById(typeId);
    return d ? d->name : (typeId < 0 ? std::string() : "type_" + std::to_string(typeId));
}

Json vecJson(const Vec3& v)
{
    return Json::array({f64Json(v.x), f64Json(v.y), f64Json(v.z)});
}
Json quatJson(const Quat& q)
{
    return Json::array({f32Json(q.x), f32Json(q.y), f32Json(q.z), f32Json(q.w)});
}

std::string csvField(std::string s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

Json valueJson(const Value& v, const Schema& schema)
{
    switch (v.kind) {
    case Value::Kind::Absent: return nullptr;
    case Value::Kind::Bool: return v.integer != 0;
    case Value::Kind::Int: return v.integer;
    case Value::Kind::Float: return f32Json(float(v.number));
    case Value::Kind::Double: return f64Json(v.number);
    case Value::Kind::String: return sanitizeUtf8(v.text);
    case Value::Kind::Vector: return vecJson(v.transform.translation);
    case Value::Kind::Quat: return quatJson(v.transform.rotation);
    case Value::Kind::Transform:
        return Json{
            {"translation", vecJson(v.transform.translation)}, {"rotation", quatJson(v.transform.rotation)}, {"scale", vecJson(v.transform.scale)}};
    case Value::Kind::Struct: return Json{{"type", typeName(schema, v.typeId)}, {"content_hash", hex64(v.count)}};
    case Value::Kind::Array: return Json{{"length", v.count}};
    case Value::Kind::Map: return Json{{"size", v.count}};
    case Value::Kind::Range:
        return Json{{"min", f32Json(v.transform.rotation.x)},
                    {"max", f32Json(v.transform.rotation.y)},
                    {"value_normalized", f32Json(v.transform.rotation.z)}};
    }
    return nullptr;
}

Json deltaJson(const Value& a, const Value& b)
{
    if (a.isBytes && b.isBytes) {
        const std::string d = formatDeltaOf(a, b);
        return d.empty() ? Json(nullptr) : Json(d);
    }
    if (a.kind == Value::Kind::Int && b.kind == Value::Kind::Int) {
        int64_t exact = 0;
        if (!__builtin_sub_overflow(b.integer, a.integer, &exact))
            return exact;
        return f64Json(double(b.integer) - double(a.integer));
    }
    auto d = deltaOf(a, b);
    if (!d)
        return nullptr;
    const bool f32 = a.kind == Value::Kind::Float || a.kind == Value::Kind::Quat || a.kind == Value::Kind::Range;
    auto one = [&](double x) { return f32 ? f32Json(float(x)) : f64Json(x); };
    if (d->size == 1)
        return one(d->values[0]);
    Json arr = Json::array();
    for (size_t i = 0; i < d->size; ++i)
        arr.push_back(one(d->values[i]));
    return arr;
}

Json diffJson(const FrameDiff& d, const Schema& schema, const DiffOptions& options)
{
    const BucketDiffCounts t = d.totals();
    Json j;
    j["frame_a"] = d.a.isNull() ? Json(nullptr) : Json(d.a.index());
    j["frame_b"] = d.b.isNull() ? Json(nullptr) : Json(d.b.index());
    j["options"] = Json{{"absolute_epsilon", options.tolerance.absolute},
                        {"relative_epsilon", options.tolerance.relative},
                        {"ignore", options.ignore},
                        {"content_hash_short_circuit", options.useContentHash}};
    j["summary"] = Json{{"added", t.added},
                        {"removed", t.removed},
                        {"changed", t.changed},
                        {"unchanged", t.unchanged},
                        {"skipped_by_hash", t.skippedByHash},
                        {"changed_properties", d.changes.size()},
                        {"omitted_changes", d.omittedChanges}};
    Json buckets = Json::array();
    for (size_t i = 0; i < d.buckets.size(); ++i) {
        const BucketDiffCounts& b = d.buckets[i];
        buckets.push_back(Json{{"index", i},
                               {"name", schema.bucketName(i)},
                               {"added", b.added},
                               {"removed", b.removed},
                               {"changed", b.changed},
                               {"unchanged", b.unchanged},
                               {"skipped_by_hash", b.skippedByHash}});
    }
    j["buckets"] = std::move(buckets);
    // Entities are named as in B (A when removed); a name that changed from A to B is given too.
    const EntityLabels labels = EntityLabels::choose(schema);
    auto labelIn = [&](const FrameHandle& h, int32_t index, uint32_t bucket) -> std::string_view {
        if (h.isNull() || index < 0 || bucket >= h->bucketCount() || size_t(index) >= h->bucket(bucket).entityCount())
            return {};
        return labels.label(h->bucket(bucket).entity(size_t(index)));
    };
    auto nameJson = [](std::string_view label) { return label.empty() ? Json(nullptr) : Json(sanitizeUtf8(label)); };
    Json entities = Json::array();
    for (const EntityDiff& e : d.entities) {
        Json ej{{"bucket", schema.bucketName(e.bucket)}, {"unique_id", sanitizeUtf8(e.uniqueId)}};
        const std::string_view inA = labelIn(d.a, e.indexA, e.bucket), inB = labelIn(d.b, e.indexB, e.bucket);
        ej["display_name"] = nameJson(e.status == EntityStatus::Removed ? inA : inB);
        if (e.status == EntityStatus::Changed && inA != inB)
            ej["display_name_a"] = nameJson(inA);
        ej["status"] = entityStatusName(e.status);
        ej["type"] = typeName(schema, e.status == EntityStatus::Added ? e.typeIdB : e.typeIdA);
        if (e.status == EntityStatus::Changed && e.typeIdA != e.typeIdB)
            ej["type_b"] = typeName(schema, e.typeIdB);
        Json changes = Json::array();
        for (const PropertyChange& c : d.changesOf(e)) {
            Json cj{{"path", sanitizeUtf8(d.pathText(c, schema))},
                    {"change", changeKindName(c.kind)},
                    {"a", valueJson(c.a(), schema)},
                    {"b", valueJson(c.b(), schema)}};
            Json delta = deltaJson(c.a(), c.b());
            if (!delta.is_null())
                cj["delta"] = std::move(delta);
            changes.push_back(std::move(cj));
        }
        if (e.status == EntityStatus::Changed)
            ej["changes"] = std::move(changes);
        entities.push_back(std::move(ej));
    }
    j["entities"] = std::move(entities);
    return j;
}

std::string diffCsv(const FrameDiff& d, const Schema& schema)
{
    std::string out = "bucket,unique_id,type,entity,path,change,a,b,delta\n";
    for (const EntityDiff& e : d.entities) {
        const std::string head = csvField(schema.bucketName(e.bucket)) + "," + csvField(sanitizeUtf8(e.uniqueId)) + "," +
            csvField(typeName(schema, e.status == EntityStatus::Added ? e.typeIdB : e.typeIdA)) + "," + entityStatusName(e.status) + ",";
        if (e.status != EntityStatus::Changed) {
            out += head + ",,,,\n";
            continue;
        }
        for (const PropertyChange& c : d.changesOf(e))
            out += head + csvField(sanitizeUtf8(d.pathText(c, schema))) + "," + changeKindName(c.kind) + "," + csvField(formatValue(c.a())) + "," +
                csvField(formatValue(c.b())) + "," + csvField(formatDeltaOf(c.a(), c.b())) + "\n";
    }
    return out;
}

std::string diffText(const FrameDiff& d, const Schema& schema)
{
    const BucketDiffCounts t = d.totals();
    std::string out = "A=" + (d.a.isNull() ? std::string("?") : std::to_string(d.a.index())) +
        " B=" + (d.b.isNull() ? std::string("?") : std::to_string(d.b.index())) + ": +" + std::to_string(t.added) + " added, -" +
        std::to_string(t.removed) + " removed, ~" + std::to_string(t.changed) + " changed entities, " + std::to_string(d.changes.size()) +
        " changed properties (" + std::to_string(t.unchanged) + " unchanged, " + std::to_string(t.skippedByHash) + " by content hash)\n";
    for (const EntityDiff& e : d.entities) {
        const char sign = e.status == EntityStatus::Added ? '+' : e.status == EntityStatus::Removed ? '-' : '~';
        out += std::string(1, sign) + " " + schema.bucketName(e.bucket) + "/" + sanitizeUtf8(e.uniqueId) + " (" +
            typeName(schema, e.status == EntityStatus::Added ? e.typeIdB : e.typeIdA) + ")\n";
        for (const PropertyChange& c : d.changesOf(e)) {
            out += "    " + sanitizeUtf8(d.pathText(c, schema)) + ": ";
            if (c.kind == ChangeKind::Added)
                out += "added " + formatValue(c.b());
            else if (c.kind == ChangeKind::Removed)
                out += "removed " + formatValue(c.a());
            else
                out += formatValue(c.a()) + " -> " + formatValue(c.b());
            const std::string delta = formatDeltaOf(c.a(), c.b());
            if (!delta.empty())
                out += delta.front() == '(' ? " Δ" + delta : " (" + delta + ")";
            out += "\n";
        }
    }
    if (d.omittedChanges)
        out += "(" + std::to_string(d.omittedChanges) + " more element changes omitted)\n";
    return out;
}

} // namespace vtx
