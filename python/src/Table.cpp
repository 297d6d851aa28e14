// SPDX-License-Identifier: MIT
#include "Table.hpp"
#include "vtx/file/FrameTimes.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace vtxpy {

size_t Column::rows() const
{
    switch (kind) {
    case Kind::Bool: return bools.size();
    case Kind::Int64: return ints.size();
    case Kind::Float32: return floats.size();
    case Kind::Float64: return doubles.size();
    case Kind::Category: return codes.size();
    }
    return 0;
}

namespace {

using vtx::Value;

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// Appends to one column, keeping `valid` only once a row is missing.
class ColumnWriter {
public:
    explicit ColumnWriter(Column& c) : m_c(&c) { }
    void missing()
    {
        if (m_c->valid.empty())
            m_c->valid.assign(m_c->rows(), 1);
        m_c->valid.push_back(0);
        switch (m_c->kind) {
        case Column::Kind::Bool: m_c->bools.push_back(0); break;
        case Column::Kind::Int64: m_c->ints.push_back(0); break;
        case Column::Kind::Float32: m_c->floats.push_back(std::numeric_limits<float>::quiet_NaN()); break;
        case Column::Kind::Float64: m_c->doubles.push_back(std::numeric_limits<double>::quiet_NaN()); break;
        case Column::Kind::Category: m_c->codes.push_back(-1); break;
        }
    }
    void number(double v) // Bool, Int64 (exact through `integer`), Float32, Float64
    {
        mark();
        switch (m_c->kind) {
        case Column::Kind::Bool: m_c->bools.push_back(v != 0); break;
        case Column::Kind::Int64: m_c->ints.push_back(int64_t(v)); break;
        case Column::Kind::Float32: m_c->floats.push_back(float(v)); break;
        case Column::Kind::Float64: m_c->doubles.push_back(v); break;
        case Column::Kind::Category: m_c->codes.push_back(-1); break;
        }
    }
    void integer(int64_t v)
    {
        mark();
        m_c->ints.push_back(v);
    }
    void text(std::string_view s)
    {
        mark();
        // Ids and names repeat entity after entity: try the previous code first.
        if (m_last >= 0 && m_c->categories[size_t(m_last)] == s) {
            m_c->codes.push_back(m_last);
            return;
        }
        auto it = m_index.find(s);
        if (it == m_index.end()) {
            const auto code = int32_t(m_c->categories.size());
            m_c->categories.emplace_back(s);
            it = m_index.emplace(m_c->categories.back(), code).first;
        }
        m_last = it->second;
        m_c->codes.push_back(m_last);
    }
    Column& column() { return *m_c; }

private:
    void mark()
    {
        if (!m_c->valid.empty())
            m_c->valid.push_back(1);
    }
    Column* m_c;
    std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>> m_index;
    int32_t m_last = -1;
};

/// One requested property path and the columns it became once its kind was seen.
struct Source {
    std::string path;
    vtx::PropertyPath parsed;
    bool resolved = false;
    Value::Kind kind = Value::Kind::Absent;
    size_t pendingMissing = 0; ///< rows before the first value (kind unknown yet)
    size_t mismatches = 0; ///< values of another kind than the first (shown as missing)
    std::vector<std::unique_ptr<Column>> columns;
    std::vector<ColumnWriter> writers;

    void addColumn(std::string name, Column::Kind k)
    {
        columns.push_back(std::make_unique<Column>());
        columns.back()->name = std::move(name);
        columns.back()->kind = k;
        writers.emplace_back(*columns.back());
    }

    void resolve(const Value& v)
    {
        kind = v.kind;
        resolved = true;
        using K = Value::Kind;
        switch (v.kind) {
        case K::Bool: addColumn(path, Column::Kind::Bool); break;
        case K::Int: addColumn(path, Column::Kind::Int64); break;
        case K::Float: addColumn(path, Column::Kind::Float32); break;
        case K::Double: addColumn(path, Column::Kind::Float64); break;
        case K::String: addColumn(path, Column::Kind::Category); break;
        case K::Array:
        case K::Map: addColumn(path, Column::Kind::Int64); break; // the length
        case K::Vector:
        case K::Quat:
        case K::Transform:
        case K::Range: {
            const size_t n = vtx::componentsOf(v).size;
            for (size_t i = 0; i < n; ++i) {
                const std::string comp = vtx::componentName(v.kind, i);
                // Quat and Range components and a Transform's rotation are float32 in the file.
                const bool f32 = v.kind == K::Quat || v.kind == K::Range || (v.kind == K::Transform && comp.rfind("rotation", 0) == 0);
                addColumn(path + "." + comp, f32 ? Column::Kind::Float32 : Column::Kind::Float64);
            }
            break;
        }
        case K::Struct: throw BindError("bad_argument", "property '" + path + "' is a struct: name a property inside it ('" + path + ".…')");
        case K::Absent: break;
        }
        for (ColumnWriter& w : writers)
            for (size_t i = 0; i < pendingMissing; ++i)
                w.missing();
    }

    void add(const Value& v)
    {
        if (!resolved) {
            if (v.isAbsent()) {
                ++pendingMissing;
                return;
            }
            resolve(v);
        }
        if (v.isAbsent() || v.kind != kind) {
            mismatches += v.isAbsent() ? 0 : 1;
            for (ColumnWriter& w : writers)
                w.missing();
            return;
        }
        using K = Value::Kind;
        switch (kind) {
        case K::Bool:
        case K::Float:
        case K::Double: writers[0].number(v.number); break;
        case K::Int: writers[0].integer(v.integer); break;
        case K::String: writers[0].text(v.text); break;
        case K::Array:
        case K::Map: writers[0].integer(int64_t(v.count)); break;
        default: {
            const vtx::ValueComponents c = vtx::componentsOf(v);
            for (size_t i = 0; i < c.size && i < writers.size(); ++i)
                writers[i].number(c.values[i]);
        }
        }
    }
};

/// Decode threads the budget allows: `aliveBesides` chunks are held beside the ones the engine
/// decodes ahead (the one being read, and the previous one for changed()); with N >= 2 threads N
/// more are decoding or decoded ahead. Fewer than two: decoded on the calling thread.
unsigned threadsWithinBudget(unsigned wanted, size_t budgetBytes, size_t chunkBytes, size_t aliveBesides)
{
    if (wanted < 2 || budgetBytes == 0 || chunkBytes == 0)
        return wanted;
    const size_t fit = budgetBytes / chunkBytes;
    const size_t ahead = fit > aliveBesides ? fit - aliveBesides : 0;
    return ahead < 2 ? 1u : unsigned(std::min<size_t>(wanted, ahead));
}

} // namespace

const vtx::FieldDef* displayNameField(const vtx::StructDef& def)
{
    return vtx::EntityLabels::defaultField(def);
}

std::vector<std::string> defaultProperties(const vtx::StructDef& def)
{
    std::vector<std::string> out;
    for (const vtx::FieldDef& f : def.fields)
        if (!f.name.empty() && !f.shadowed && f.key.valid() && f.key.container == vtx::ContainerKind::Scalar && f.key.type != vtx::FieldType::Struct)
            out.push_back(f.name);
    return out;
}

TableResult buildTable(const vtx::ReplayFile& file, const TableRequest& request)
{
    const vtx::Schema& schema = file.schema();
    const vtx::StructDef* def = schema.structByName(request.type);
    if (!def) {
        std::vector<std::string_view> names;
        for (const vtx::StructDef& s : schema.structs())
            names.push_back(s.name);
        ErrorContext c;
        c.path = file.path();
        c.suggestion = vtx::query::closestName(request.type, names);
        throw BindError(
            "unknown_name",
            "no entity type '" + request.type + "' in the schema" + (c.suggestion.empty() ? "" : " (did you mean '" + c.suggestion + "'?)"), c);
    }
    const int32_t typeId = def->typeId;

    std::vector<Source> sources;
    const std::vector<std::string> paths = request.properties.empty() ? defaultProperties(*def) : request.properties;
    sources.reserve(paths.size());
    for (const std::string& p : paths) {
        auto parsed = vtx::PropertyPath::parse(p);
        if (!parsed)
            throw BindError("bad_argument", "property path '" + p + "': " + parsed.message(), ErrorContext{file.path(), {}, {}, {}, {}, {}});
        const std::string& first = parsed->segments().front().text;
        const vtx::FieldDef* f = def->field(first);
        if (!f) {
            std::vector<std::string_view> names;
            for (const vtx::FieldDef& fd : def->fields)
                names.push_back(fd.name);
            ErrorContext c;
            c.path = file.path();
            c.suggestion = vtx::query::closestName(first, names);
            throw BindError(
                "unknown_name",
                request.type + " has no property '" + first + "'" + (c.suggestion.empty() ? "" : " (did you mean '" + c.suggestion + "'?)"), c);
        }
        if (parsed->segments().size() == 1 && f->key.container == vtx::ContainerKind::Scalar && f->key.type == vtx::FieldType::Struct)
            // NOLINTNEXTLINE(performance-inefficient-string-concatenation): the error leaves the loop
            throw BindError("bad_argument", "property '" + p + "' is a struct: name a property inside it ('" + p + ".…')",
                            ErrorContext{file.path(), {}, {}, {}, {}, {}});
        Source s;
        s.path = p;
        s.parsed = std::move(*parsed);
        sources.push_back(std::move(s));
    }

    std::optional<vtx::query::Expression> where;
    if (!request.where.empty()) {
        vtx::query::ExpressionError e;
        where = vtx::query::Expression::compile(request.where, schema, &e);
        if (!where) {
            ErrorContext c;
            c.path = file.path();
            c.column = int64_t(e.column);
            c.suggestion = e.suggestion;
            throw BindError("bad_expression", "expression: " + e.text(), c);
        }
    }

    for (size_t i = 0; i < request.frames.size(); ++i) {
        const int64_t n = request.frames[i];
        if (n < 0 || n >= file.frameCount())
            throw BindError("out_of_range", file.path() + ": frame " + std::to_string(n) + " is " + outOfRangeText(file.frameCount()),
                            ErrorContext{file.path(), n, {}, {}, {}, {}});
        if (i && n <= request.frames[i - 1])
            throw BindError("bad_argument",
                            "frames must be sorted and unique (frame " + std::to_string(n) + " follows " + std::to_string(request.frames[i - 1]) +
                                ")",
                            ErrorContext{file.path(), n, {}, {}, {}, {}});
    }

    TableResult out;
    auto base = [](std::string name, Column::Kind k) {
        Column c;
        c.name = std::move(name);
        c.kind = k;
        return c;
    };
    Column frameCol = base("frame", Column::Kind::Int64);
    Column timeCol = base("game_time", Column::Kind::Float64);
    Column idCol = base("id", Column::Kind::Category);
    Column nameCol = base("display_name", Column::Kind::Category);
    ColumnWriter frameW(frameCol), timeW(timeCol), idW(idCol), nameW(nameCol);
    const vtx::FieldDef* nameField = displayNameField(*def);

    // Which chunk holds which of the requested frames, in order.
    struct Span {
        size_t chunk;
        size_t begin, end; ///< into request.frames
    };
    std::vector<Span> spans;
    for (size_t i = 0; i < request.frames.size();) {
        const auto ci = file.chunkForFrame(request.frames[i]);
        if (!ci) {
            if (!request.skipErrors)
                throw BindError("failed", file.path() + ": frame " + std::to_string(request.frames[i]) + " is not covered by the seek table",
                                ErrorContext{file.path(), request.frames[i], {}, {}, {}, {}});
            out.problems.push_back({-1, request.frames[i], request.frames[i], "frame not covered by the seek table"});
            ++i;
            continue;
        }
        const int32_t last = file.chunks()[*ci].endFrame;
        size_t j = i;
        while (j < request.frames.size() && request.frames[j] <= last)
            ++j;
        spans.push_back({*ci, i, j});
        i = j;
    }

    // Previous frame for changed(): the last frame of the previous chunk read, when adjacent.
    // Held across the next take only when the expression asks for it.
    const bool keepPrevious = where && where->usesPrevious();
    std::shared_ptr<const vtx::DecodedChunk> previousChunk;
    using Decoded = vtx::Result<std::shared_ptr<const vtx::DecodedChunk>>;

    // The chunks come from the scan engine: worker threads decode (and verify) the next ones while
    // this thread reads the current one. Its thread count is fixed when it starts, so with a budget
    // the first chunk is decoded here and its size says how many the budget lets decode ahead;
    // the engine then starts on the rest.
    std::vector<size_t> order;
    size_t framesInChunks = 0;
    for (const Span& sp : spans) {
        order.push_back(sp.chunk);
        framesInChunks += size_t(file.chunks()[sp.chunk].frameCount());
    }
    vtx::ChunkPipelineOptions engine;
    engine.threads = std::max(1u, request.threads);
    // Workers verify every frame of a chunk; worth it when most of them are read.
    engine.verifyFrames = 2 * request.frames.size() >= framesInChunks;
    const bool probeFirst = request.budgetBytes != 0 && engine.threads >= 2 && spans.size() >= 2;
    std::optional<vtx::ChunkPipeline> pipeline;
    if (!probeFirst)
        pipeline.emplace(file, order, engine);

    for (size_t si = 0; si < spans.size(); ++si) {
        const Span& sp = spans[si];
        if (request.keepGoing && !request.keepGoing())
            throw BindError("superseded", "table() interrupted", ErrorContext{file.path(), {}, {}, {}, {}, {}});
        if (!keepPrevious)
            previousChunk.reset(); // its blocks go back to the allocator before the next decode
        Decoded decoded = vtx::Error{};
        if (pipeline) {
            decoded = pipeline->take(sp.chunk);
        } else {
            decoded = file.decodeChunk(sp.chunk);
            // A first chunk that cannot be decoded says nothing about the size: no decode ahead.
            const size_t bytes = decoded ? (*decoded)->memoryBytes() : request.budgetBytes;
            engine.threads = threadsWithinBudget(engine.threads, request.budgetBytes, bytes, keepPrevious ? 2 : 1);
            pipeline.emplace(file, std::vector<size_t>(order.begin() + 1, order.end()), engine);
        }
        ++out.chunksDecoded;
        if (!decoded) {
            if (!request.skipErrors) {
                ErrorContext c = chunkContext(file, sp.chunk);
                c.frame = request.frames[sp.begin];
                throwCore(decoded.error(), c);
            }
            out.problems.push_back({int64_t(sp.chunk), request.frames[sp.begin], request.frames[sp.end - 1], decoded.message()});
            previousChunk.reset();
            continue;
        }
        const std::shared_ptr<const vtx::DecodedChunk>& chunk = *decoded;
        const int32_t start = chunk->startFrame();
        for (size_t fi = sp.begin; fi < sp.end; ++fi) {
            const int32_t f = request.frames[fi];
            const size_t local = size_t(f - start);
            const vtx::FrameView fv = chunk->frame(local);
            if (fv.isNull()) {
                const vtx::Status st = chunk->frameStatus(local);
                if (!request.skipErrors) {
                    ErrorContext c = chunkContext(file, sp.chunk);
                    c.frame = f;
                    throw BindError("failed", st.message().empty() ? file.path() + ": frame " + std::to_string(f) + " unreadable" : st.message(), c);
                }
                out.problems.push_back({int64_t(sp.chunk), f, f, st.message()});
                continue;
            }
            bool frameMatches = true;
            if (where) {
                vtx::FrameView prev;
                if (where->usesPrevious() && f > 0) {
                    if (f - 1 >= start)
                        prev = chunk->frame(local - 1);
                    else if (previousChunk && previousChunk->startFrame() + int32_t(previousChunk->frameCount()) == f)
                        prev = previousChunk->frame(previousChunk->frameCount() - 1);
                    else if (auto pc = file.chunkForFrame(f - 1)) {
                        // Sparse frames: the frame before sits in a chunk this scan skipped.
                        if (auto d = file.decodeChunk(*pc)) {
                            previousChunk = *d;
                            prev = previousChunk->frame(size_t(f - 1 - previousChunk->startFrame()));
                        }
                    }
                }
                where->setFrame(fv, prev);
                if (!where->perEntity())
                    frameMatches = where->matchesFrame();
            }
            if (!frameMatches)
                continue;
            const std::optional<int64_t> ticks = vtx::heldGameTimeTicks(file, f);
            const double gt = ticks ? double(*ticks) / double(vtx::kTicksPerSecond) : std::numeric_limits<double>::quiet_NaN();
            for (const vtx::FrameEntity entity : fv.entities()) {
                const vtx::ContainerView c = entity.entity;
                if (c.typeId() != typeId)
                    continue;
                if (where && where->perEntity() && !where->matchesEntity(entity.bucket, entity.index))
                    continue;
                const std::string_view id = entity.uniqueId();
                frameW.integer(f);
                timeW.number(gt);
                idW.text(id);
                std::string_view name = id;
                if (nameField)
                    if (auto s = c.get<std::string_view>(nameField->key); s && !s->empty())
                        name = *s;
                nameW.text(name);
                for (Source& s : sources)
                    s.add(s.parsed.evaluate(c, schema));
                ++out.rows;
            }
        }
        previousChunk = chunk;
    }
    out.decodeThreads = pipeline ? engine.threads : 1;

    out.columns.push_back(std::move(frameCol));
    out.columns.push_back(std::move(timeCol));
    out.columns.push_back(std::move(idCol));
    out.columns.push_back(std::move(nameCol));
    for (Source& s : sources) {
        if (!s.resolved) {
            // Never present: a column of missing values.
            Column c = base(s.path, Column::Kind::Float64);
            c.doubles.assign(out.rows, std::numeric_limits<double>::quiet_NaN());
            c.valid.assign(out.rows, 0);
            out.columns.push_back(std::move(c));
            continue;
        }
        if (s.mismatches)
            out.problems.push_back({-1, 0, 0,
                                    "property '" + s.path + "': " + std::to_string(s.mismatches) + " values of another kind than " +
                                        vtx::valueKindName(s.kind) + " (shown as missing)"});
        for (auto& c : s.columns)
            out.columns.push_back(std::move(*c));
    }
    return out;
}

} // namespace vtxpy
