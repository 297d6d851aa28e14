// SPDX-License-Identifier: MIT
#include "vtx/analysis/Analyses.hpp"

#include "vtx/base/NumberText.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

namespace vtx {

namespace {

using EntityKey = std::pair<uint32_t, std::string>;

std::string typeNameOf(const Schema& schema, int32_t typeId)
{
    const StructDef* s = schema.structById(typeId);
    return s ? s->name : "type " + std::to_string(typeId);
}

/// Calls visit(bucket, index, uniqueId, container) for each entity of `frame` of type `typeId` (-1: all).
template <class Visit> void forEachEntity(const FrameView& frame, int32_t typeId, Visit&& visit)
{
    for (const FrameEntity e : frame.entitiesWithIds())
        if (typeId < 0 || e.entity.typeId() == typeId)
            visit(e.bucket, e.uniqueId(), e.entity);
}

} // namespace

std::string cellText(const AnalysisTable::Cell& cell)
{
    if (const auto* i = std::get_if<int64_t>(&cell))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&cell))
        return formatDouble(*d); // shortest text that reads back exactly, as the JSON writes

    if (const auto* t = std::get_if<std::string>(&cell))
        return *t;
    return {};
}

void writeCsv(const AnalysisTable& table, std::ostream& out)
{
    auto field = [&](const std::string& text) {
        if (text.find_first_of(",\"\r\n") == std::string::npos) {
            out << text;
            return;
        }
        out << '"';
        for (char c : text) {
            if (c == '"')
                out << '"';
            out << c;
        }
        out << '"';
    };
    for (size_t i = 0; i < table.columns.size(); ++i) {
        if (i)
            out << ',';
        field(table.columns[i]);
    }
    out << "\r\n";
    for (const auto& row : table.rows) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (i)
                out << ',';
            field(cellText(row[i]));
        }
        out << "\r\n";
    }
}

Result<int32_t> typeFilter(const Schema& schema, const std::string& type)
{
    if (type.empty())
        return int32_t(-1);
    if (const StructDef* s = schema.structByName(type))
        return s->typeId;
    std::string known;
    for (const StructDef& s : schema.structs())
        known += (known.empty() ? "" : ", ") + s.name;
    return Status(Error{"unknown type '" + type + "' (known: " + known + ")"});
}

LifetimesResult entityLifetimes(const ReplayFile& file, const WalkControl& control, const EntityLabels* labels)
{
    const EntityLabels chosen = labels ? EntityLabels{} : EntityLabels::choose(file.schema());
    const EntityLabels& names = labels ? *labels : chosen;
    LifetimesResult r;
    std::map<EntityKey, EntityLifetime> byKey;
    EntityKey key;
    r.walk = walkReplay(file, control, [&](int32_t f, const FrameView& fv, const DecodedChunk&) {
        forEachEntity(fv, -1, [&](uint32_t bucket, std::string_view id, ContainerView c) {
            key.first = bucket;
            key.second.assign(id);
            auto [it, fresh] = byKey.try_emplace(key);
            EntityLifetime& e = it->second;
            if (fresh) {
                e.bucket = bucket;
                e.uniqueId = key.second;
                e.type = typeNameOf(file.schema(), c.typeId());
                e.label = names.label(c);
                e.firstFrame = f;
                e.firstTicks = file.gameTimeTicks(f);
                e.appearances = 1;
            } else if (e.lastFrame != f - 1) {
                ++e.appearances;
            }
            e.lastFrame = f;
            e.lastTicks = file.gameTimeTicks(f);
            ++e.framesPresent;
        });
    });
    if (r.walk.cancelled)
        return r;
    r.entities.reserve(byKey.size());
    for (auto& [k, e] : byKey)
        r.entities.push_back(std::move(e));
    return r;
}

AnalysisTable lifetimesTable(const LifetimesResult& r)
{
    AnalysisTable t;
    t.columns = {"bucket",      "name (first frame)",  "unique id",          "type",        "first frame", "last frame", "frames present",
                 "appearances", "first game time (s)", "last game time (s)", "duration (s)"};
    for (const EntityLifetime& e : r.entities)
        t.rows.push_back({int64_t(e.bucket), e.label, e.uniqueId, e.type, int64_t(e.firstFrame), int64_t(e.lastFrame), e.framesPresent,
                          int64_t(e.appearances), double(e.firstTicks) / kTicksPerSecond, double(e.lastTicks) / kTicksPerSecond,
                          double(e.lastTicks - e.firstTicks) / kTicksPerSecond});
    t.failed = r.walk.failed;
    t.cancelled = r.walk.cancelled;
    return t;
}

Result<UniqueValuesResult> uniqueValues(const ReplayFile& file, const UniqueValuesRequest& request, const WalkControl& control)
{
    if (request.paths.empty())
        return Status(Error{"unique values: no property chosen"});
    auto type = typeFilter(file.schema(), request.type);
    if (!type)
        return type.status();
    std::vector<PropertyPath> paths;
    for (const std::string& p : request.paths) {
        auto parsed = PropertyPath::parse(p);
        if (!parsed)
            return Status(Error{"unique values: " + parsed.message()});
        paths.push_back(std::move(*parsed));
    }
    struct Group {
        UniqueValueGroup out;
        std::set<EntityKey> entities;
    };
    std::map<std::vector<std::string>, Group> groups;
    std::vector<std::string> tuple(paths.size());
    UniqueValuesResult r;
    r.walk = walkReplay(file, control, [&](int32_t f, const FrameView& fv, const DecodedChunk&) {
        forEachEntity(fv, *type, [&](uint32_t bucket, std::string_view id, ContainerView c) {
            for (size_t i = 0; i < paths.size(); ++i) {
                const Value v = paths[i].evaluate(c, file.schema());
                tuple[i] = v.isAbsent() ? "—" : formatValue(v);
            }
            auto [it, fresh] = groups.try_emplace(tuple);
            Group& g = it->second;
            if (fresh) {
                g.out.values = tuple;
                g.out.firstFrame = f;
            }
            ++g.out.entityFrames;
            g.entities.emplace(bucket, std::string(id));
        });
    });
    if (r.walk.cancelled)
        return r;
    for (auto& [k, g] : groups) {
        g.out.entities = int64_t(g.entities.size());
        r.groups.push_back(std::move(g.out));
    }
    return r;
}

AnalysisTable uniqueValuesTable(const UniqueValuesRequest& request, const UniqueValuesResult& r)
{
    AnalysisTable t;
    t.columns = request.paths;
    for (const char* c : {"entities", "entity-frames", "first frame"})
        t.columns.emplace_back(c);
    for (const UniqueValueGroup& g : r.groups) {
        std::vector<AnalysisTable::Cell> row(g.values.begin(), g.values.end());
        row.emplace_back(g.entities);
        row.emplace_back(g.entityFrames);
        row.emplace_back(int64_t(g.firstFrame));
        t.rows.push_back(std::move(row));
    }
    t.failed = r.walk.failed;
    t.cancelled = r.walk.cancelled;
    return t;
}

Result<PropertySpansResult> propertySpans(const ReplayFile& file, const PropertySpansRequest& request, const WalkControl& control,
                                          const EntityLabels* labels)
{
    const EntityLabels chosen = labels ? EntityLabels{} : EntityLabels::choose(file.schema());
    const EntityLabels& names = labels ? *labels : chosen;
    auto type = typeFilter(file.schema(), request.type);
    if (!type)
        return type.status();
    auto path = PropertyPath::parse(request.path);
    if (!path)
        return Status(Error{"property spans: " + path.message()});
    // Per entity: its spans so far; the last one is open while the entity keeps its value in
    // consecutive frames.
    std::map<EntityKey, std::vector<PropertySpan>> byEntity;
    EntityKey key;
    std::string text;
    PropertySpansResult r;
    r.walk = walkReplay(file, control, [&](int32_t f, const FrameView& fv, const DecodedChunk&) {
        forEachEntity(fv, *type, [&](uint32_t bucket, std::string_view id, ContainerView c) {
            const Value v = path->evaluate(c, file.schema());
            if (v.isAbsent())
                return;
            text = formatValue(v);
            key.first = bucket;
            key.second.assign(id);
            std::vector<PropertySpan>& spans = byEntity[key];
            if (!spans.empty() && spans.back().lastFrame == f - 1 && spans.back().value == text) {
                spans.back().lastFrame = f;
                spans.back().lastTicks = file.gameTimeTicks(f);
                return;
            }
            spans.push_back({bucket, key.second, std::string(names.label(c)), text, f, f, file.gameTimeTicks(f), file.gameTimeTicks(f)});
        });
    });
    if (r.walk.cancelled)
        return r;
    for (auto& [k, spans] : byEntity)
        for (PropertySpan& s : spans)
            r.spans.push_back(std::move(s));
    return r;
}

AnalysisTable propertySpansTable(const PropertySpansResult& r)
{
    AnalysisTable t;
    t.columns = {"bucket", "name (first frame)",  "unique id",         "value", "first frame", "last frame",
                 "frames", "first game time (s)", "last game time (s)"};
    for (const PropertySpan& s : r.spans)
        t.rows.push_back({int64_t(s.bucket), s.label, s.uniqueId, s.value, int64_t(s.firstFrame), int64_t(s.lastFrame),
                          int64_t(s.lastFrame) - s.firstFrame + 1, double(s.firstTicks) / kTicksPerSecond, double(s.lastTicks) / kTicksPerSecond});
    t.failed = r.walk.failed;
    t.cancelled = r.walk.cancelled;
    return t;
}

} // namespace vtx
