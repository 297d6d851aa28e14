#include "vtx/diff/FrameDiff.hpp"

#include <algorithm>
#include <cstring>

namespace vtx {

const char* entityStatusName(EntityStatus s)
{
    switch (s) {
    case EntityStatus::Added: return "added";
    case EntityStatus::Removed: return "removed";
    case EntityStatus::Changed: return "changed";
    }
    return "?";
}

const char* changeKindName(ChangeKind k)
{
    switch (k) {
    case ChangeKind::Changed: return "changed";
    case ChangeKind::Added: return "added";
    case ChangeKind::Removed: return "removed";
    case ChangeKind::TypeChanged: return "type_changed";
    }
    return "?";
}

void FrameDiff::clear()
{
    a = {};
    b = {};
    entities.clear();
    changes.clear();
    steps.clear();
    buckets.clear();
    omittedChanges = 0;
}

namespace {
std::string stepText(const PathStep& s, const Schema& schema, bool first)
{
    switch (s.kind) {
    case PathStep::Kind::Field: {
        const StructDef* def = schema.structById(s.typeId);
        const std::string name = def && s.index < def->fields.size() ? def->fields[s.index].name : "?";
        return first ? name : "." + name;
    }
    case PathStep::Kind::Index: return "[" + std::to_string(s.index) + "]";
    case PathStep::Kind::Key: return "[" + std::string(s.key) + "]";
    }
    return {};
}
} // namespace

std::string FrameDiff::pathText(const PropertyChange& c, const Schema& schema) const
{
    std::string out;
    bool first = true;
    for (const PathStep& s : pathOf(c)) {
        out += stepText(s, schema, first);
        first = false;
    }
    return out;
}

std::string FrameDiff::leafName(const PropertyChange& c, const Schema& schema) const
{
    auto p = pathOf(c);
    return p.empty() ? std::string() : stepText(p.back(), schema, true);
}

BucketDiffCounts FrameDiff::totals() const
{
    BucketDiffCounts t;
    for (const auto& b : buckets) {
        t.added += b.added;
        t.removed += b.removed;
        t.changed += b.changed;
        t.unchanged += b.unchanged;
        t.skippedByHash += b.skippedByHash;
    }
    return t;
}

namespace {

Value toValue(bool v) { return Value::ofBool(v); }
Value toValue(int32_t v) { return Value::ofInt(v); }
Value toValue(int64_t v) { return Value::ofInt(v); }
Value toValue(float v) { return Value::ofFloat(v); }
Value toValue(double v) { return Value::ofDouble(v); }
Value toValue(std::string_view v) { return Value::ofString(v); }
Value toValue(const Vec3& v) { return Value::ofVector(v); }
Value toValue(const Quat& v) { return Value::ofQuat(v); }
Value toValue(const Transform& v) { return Value::ofTransform(v); }
Value toValue(ContainerView c) { return Value::ofStruct(c.typeId(), c.contentHash()); }

class Differ {
public:
    Differ(const Schema& schema, const DiffOptions& options, FrameDiff& out) : m_schema(schema), m_opt(options), m_out(out)
    {
        m_path.clear();
    }

    void frames(FrameView a, FrameView b)
    {
        const size_t nb = std::max(a.bucketCount(), b.bucketCount());
        m_out.buckets.assign(nb, {});
        for (size_t i = 0; i < nb; ++i)
            bucket(uint32_t(i), i < a.bucketCount() ? a.bucket(i) : BucketView{}, i < b.bucketCount() ? b.bucket(i) : BucketView{});
    }

private:
    // ---- entities ---------------------------------------------------------------------------

    bool selected(uint32_t bucket, std::string_view id) const
    {
        if (m_opt.only.empty())
            return true;
        for (const EntityRef& r : m_opt.only)
            if (r.bucket == bucket && r.uniqueId == id)
                return true;
        return false;
    }

    void bucket(uint32_t bi, BucketView a, BucketView b)
    {
        const size_t na = a.entityCount(), nb = b.entityCount();
        ContainerList ea = a.entities(), eb = b.entities();
        m_matchB.assign(nb, -1);
        m_matchA.assign(na, -1);
        // Entities usually keep their positions from one frame to the next: pair those directly
        // and fall back to a sorted id index only for the rest.
        bool allPaired = na == nb;
        for (size_t i = 0; i < na; ++i) {
            if (i < nb && a.uniqueId(i) == b.uniqueId(i)) {
                m_matchA[i] = int32_t(i);
                m_matchB[i] = int32_t(i);
            } else {
                allPaired = false;
            }
        }
        if (!allPaired) {
            m_index.clear();
            for (size_t j = 0; j < nb; ++j)
                if (m_matchB[j] < 0)
                    m_index.emplace_back(b.uniqueId(j), uint32_t(j));
            std::stable_sort(m_index.begin(), m_index.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
            for (size_t i = 0; i < na; ++i) {
                if (m_matchA[i] >= 0)
                    continue;
                const std::string_view id = a.uniqueId(i);
                auto it = std::lower_bound(m_index.begin(), m_index.end(), id, [](const auto& x, std::string_view v) { return x.first < v; });
                for (; it != m_index.end() && it->first == id; ++it) {
                    if (m_matchB[it->second] < 0) { // duplicates pair in order of appearance
                        m_matchB[it->second] = int32_t(i);
                        m_matchA[i] = int32_t(it->second);
                        break;
                    }
                }
            }
        }
        BucketDiffCounts& counts = m_out.buckets[bi];
        for (size_t i = 0; i < na; ++i) {
            const std::string_view id = a.uniqueId(i);
            if (!selected(bi, id))
                continue;
            const ContainerView ca = ea[i];
            if (m_matchA[i] < 0) {
                EntityDiff d;
                d.status = EntityStatus::Removed;
                d.bucket = bi;
                d.uniqueId = id;
                d.typeIdA = ca.typeId();
                d.indexA = int32_t(i);
                d.firstChange = uint32_t(m_out.changes.size());
                m_out.entities.push_back(d);
                ++counts.removed;
                continue;
            }
            const size_t j = size_t(m_matchA[i]);
            entity(bi, id, ca, eb[j], int32_t(i), int32_t(j), counts);
        }
        for (size_t j = 0; j < nb; ++j) {
            if (m_matchB[j] >= 0 || !selected(bi, b.uniqueId(j)))
                continue;
            EntityDiff d;
            d.status = EntityStatus::Added;
            d.bucket = bi;
            d.uniqueId = b.uniqueId(j);
            d.typeIdB = eb[j].typeId();
            d.indexB = int32_t(j);
            d.firstChange = uint32_t(m_out.changes.size());
            m_out.entities.push_back(d);
            ++counts.added;
        }
    }

    void entity(uint32_t bi, std::string_view id, ContainerView ca, ContainerView cb, int32_t ia, int32_t ib, BucketDiffCounts& counts)
    {
        EntityDiff d;
        d.status = EntityStatus::Changed;
        d.bucket = bi;
        d.uniqueId = id;
        d.typeIdA = ca.typeId();
        d.typeIdB = cb.typeId();
        d.indexA = ia;
        d.indexB = ib;
        d.firstChange = uint32_t(m_out.changes.size());
        if (ca.typeId() == cb.typeId() && sameHash(ca, cb)) {
            ++counts.unchanged;
            ++counts.skippedByHash;
            return;
        }
        m_path.clear();
        if (ca.typeId() != cb.typeId())
            record(ChangeKind::TypeChanged, toValue(ca), toValue(cb));
        else
            containers(ca, cb);
        d.changeCount = uint32_t(m_out.changes.size() - d.firstChange);
        if (d.changeCount == 0) {
            ++counts.unchanged;
            return;
        }
        ++counts.changed;
        m_out.entities.push_back(d);
    }

    bool sameHash(ContainerView a, ContainerView b) const
    {
        // 0 is what a writer that does not hash stores: no evidence either way.
        return m_opt.useContentHash && a.contentHash() == b.contentHash() && a.contentHash() != 0;
    }

    // ---- properties -------------------------------------------------------------------------

    void record(ChangeKind kind, const Value& a, const Value& b)
    {
        PropertyChange c;
        c.kind = kind;
        c.pathBegin = uint32_t(m_out.steps.size());
        c.pathSize = uint32_t(m_path.size());
        m_out.steps.insert(m_out.steps.end(), m_path.begin(), m_path.end());
        c.a = a;
        c.b = b;
        m_out.changes.push_back(c);
    }

    bool ignored(const std::string& name) const
    {
        for (const std::string& n : m_opt.ignore)
            if (n == name)
                return true;
        return false;
    }

    void containers(ContainerView a, ContainerView b)
    {
        if (++m_depth > kMaxDepth) { // hostile nesting: report the subtree as one change
            record(ChangeKind::Changed, toValue(a), toValue(b));
            --m_depth;
            return;
        }
        const StructDef* def = m_schema.structById(a.typeId());
        if (!def) {
            // No schema for this type: the hash is all we can compare by.
            if (a.contentHash() != b.contentHash() || !m_opt.useContentHash)
                record(ChangeKind::Changed, toValue(a), toValue(b));
        } else {
            for (size_t fi = 0; fi < def->fields.size(); ++fi) {
                const FieldDef& f = def->fields[fi];
                if (f.name.empty() || !f.key.valid() || def->field(f.name) != &f || ignored(f.name))
                    continue;
                m_path.push_back({PathStep::Kind::Field, def->typeId, uint32_t(fi), {}});
                field(f.key, a, b);
                m_path.pop_back();
            }
        }
        --m_depth;
    }

    template <class T>
    void scalar(std::span<const T> sa, std::span<const T> sb, uint32_t slot)
    {
        const bool ha = slot < sa.size(), hb = slot < sb.size();
        if (!ha && !hb)
            return;
        const Value va = ha ? toValue(sa[slot]) : Value{}, vb = hb ? toValue(sb[slot]) : Value{};
        if (!valuesEqual(va, vb, m_opt.tolerance))
            record(ChangeKind::Changed, va, vb);
    }

    void scalarBool(std::span<const uint8_t> sa, std::span<const uint8_t> sb, uint32_t slot)
    {
        const bool ha = slot < sa.size(), hb = slot < sb.size();
        if (!ha && !hb)
            return;
        const Value va = ha ? toValue(sa[slot] != 0) : Value{}, vb = hb ? toValue(sb[slot] != 0) : Value{};
        if (!valuesEqual(va, vb, m_opt.tolerance))
            record(ChangeKind::Changed, va, vb);
    }

    void nested(ContainerView a, ContainerView b)
    {
        if (a.isNull() && b.isNull())
            return;
        if (a.isNull() || b.isNull()) {
            record(ChangeKind::Changed, a.isNull() ? Value{} : toValue(a), b.isNull() ? Value{} : toValue(b));
            return;
        }
        if (a.typeId() != b.typeId()) {
            record(ChangeKind::TypeChanged, toValue(a), toValue(b));
            return;
        }
        if (sameHash(a, b))
            return;
        containers(a, b);
    }

    template <class T>
    static bool bitwiseEqual(std::span<const T> a, std::span<const T> b)
    {
        return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
    }

    /// Element-wise comparison of two lists of any element type; `eq(i)` compares element i,
    /// `value(list, i)` lifts it, `deep(i)` (for struct elements) recurses instead of recording.
    template <class EqFn, class ValueA, class ValueB>
    void elements(size_t na, size_t nb, int32_t elementType, EqFn eq, ValueA valueA, ValueB valueB)
    {
        if (na != nb)
            record(ChangeKind::Changed, Value::ofArray(na, elementType), Value::ofArray(nb, elementType));
        uint32_t kept = 0;
        auto push = [&](size_t i) {
            m_path.push_back({PathStep::Kind::Index, -1, uint32_t(i), {}});
        };
        const size_t common = std::min(na, nb);
        for (size_t i = 0; i < common; ++i) {
            const size_t before = m_out.changes.size();
            push(i);
            eq(i, kept < m_opt.maxChangesPerProperty);
            m_path.pop_back();
            if (m_out.changes.size() > before)
                ++kept;
        }
        for (size_t i = common; i < na; ++i) {
            if (kept++ >= m_opt.maxChangesPerProperty) {
                ++m_out.omittedChanges;
                continue;
            }
            push(i);
            record(ChangeKind::Removed, valueA(i), Value{});
            m_path.pop_back();
        }
        for (size_t i = common; i < nb; ++i) {
            if (kept++ >= m_opt.maxChangesPerProperty) {
                ++m_out.omittedChanges;
                continue;
            }
            push(i);
            record(ChangeKind::Added, Value{}, valueB(i));
            m_path.pop_back();
        }
    }

    template <class T>
    void array(std::span<const T> a, std::span<const T> b)
    {
        if (bitwiseEqual(a, b)) // equal bits are equal values under any tolerance
            return;
        elements(
            a.size(), b.size(), -1,
            [&](size_t i, bool keep) {
                const Value va = toValue(a[i]), vb = toValue(b[i]);
                if (!valuesEqual(va, vb, m_opt.tolerance)) {
                    if (keep)
                        record(ChangeKind::Changed, va, vb);
                    else
                        ++m_out.omittedChanges;
                }
            },
            [&](size_t i) { return toValue(a[i]); }, [&](size_t i) { return toValue(b[i]); });
    }

    void boolArray(std::span<const uint8_t> a, std::span<const uint8_t> b)
    {
        if (bitwiseEqual(a, b))
            return;
        elements(
            a.size(), b.size(), -1,
            [&](size_t i, bool keep) {
                if ((a[i] != 0) != (b[i] != 0)) {
                    if (keep)
                        record(ChangeKind::Changed, toValue(a[i] != 0), toValue(b[i] != 0));
                    else
                        ++m_out.omittedChanges;
                }
            },
            [&](size_t i) { return toValue(a[i] != 0); }, [&](size_t i) { return toValue(b[i] != 0); });
    }

    void stringArray(const ListSlice<StringList>& a, const ListSlice<StringList>& b)
    {
        elements(
            a.size(), b.size(), -1,
            [&](size_t i, bool keep) {
                if (a[i] != b[i]) {
                    if (keep)
                        record(ChangeKind::Changed, toValue(a[i]), toValue(b[i]));
                    else
                        ++m_out.omittedChanges;
                }
            },
            [&](size_t i) { return toValue(a[i]); }, [&](size_t i) { return toValue(b[i]); });
    }

    void structArray(const ListSlice<ContainerList>& a, const ListSlice<ContainerList>& b, int32_t elementType)
    {
        elements(
            a.size(), b.size(), elementType,
            [&](size_t i, bool keep) {
                if (keep)
                    nested(a[i], b[i]);
                else if (!sameHash(a[i], b[i]))
                    ++m_out.omittedChanges;
            },
            [&](size_t i) { return toValue(a[i]); }, [&](size_t i) { return toValue(b[i]); });
    }

    void map(MapView a, MapView b, int32_t valueType, bool presentA, bool presentB)
    {
        if (!presentA && !presentB)
            return;
        const size_t na = a.size(), nb = b.size();
        if (!presentA || !presentB) {
            record(ChangeKind::Changed, presentA ? Value::ofMap(na, valueType) : Value{}, presentB ? Value::ofMap(nb, valueType) : Value{});
            return;
        }
        StringList ka = a.keys(), kb = b.keys();
        ContainerList va = a.values(), vb = b.values();
        std::vector<int32_t> matchB(nb, -1); // maps are small and rare: a local is fine
        uint32_t kept = 0;
        auto limited = [&] {
            if (kept++ < m_opt.maxChangesPerProperty)
                return false;
            ++m_out.omittedChanges;
            return true;
        };
        for (size_t i = 0; i < na; ++i) {
            const std::string_view key = ka[i];
            size_t j = nb;
            if (i < nb && kb[i] == key && matchB[i] < 0)
                j = i;
            else
                for (size_t k = 0; k < nb; ++k)
                    if (matchB[k] < 0 && kb[k] == key) {
                        j = k;
                        break;
                    }
            m_path.push_back({PathStep::Kind::Key, -1, 0, key});
            if (j == nb) {
                if (!limited())
                    record(ChangeKind::Removed, toValue(va[i]), Value{});
            } else {
                matchB[j] = int32_t(i);
                const size_t before = m_out.changes.size();
                if (!sameHash(va[i], vb[j])) {
                    if (kept < m_opt.maxChangesPerProperty)
                        nested(va[i], vb[j]);
                    else
                        ++m_out.omittedChanges;
                }
                if (m_out.changes.size() > before)
                    ++kept;
            }
            m_path.pop_back();
        }
        for (size_t j = 0; j < nb; ++j) {
            if (matchB[j] >= 0)
                continue;
            m_path.push_back({PathStep::Kind::Key, -1, 0, kb[j]});
            if (!limited())
                record(ChangeKind::Added, Value{}, toValue(vb[j]));
            m_path.pop_back();
        }
    }

    void field(const PropertyKey& k, ContainerView a, ContainerView b)
    {
        const uint32_t s = k.slot;
        switch (k.container) {
        case ContainerKind::Scalar:
            switch (k.type) {
            case FieldType::Bool: return scalarBool(a.bools(), b.bools(), s);
            case FieldType::Int8:
            case FieldType::Int32: return scalar(a.int32s(), b.int32s(), s);
            case FieldType::Int64: return scalar(a.int64s(), b.int64s(), s);
            case FieldType::Float: return scalar(a.floats(), b.floats(), s);
            case FieldType::Double: return scalar(a.doubles(), b.doubles(), s);
            case FieldType::Vector: return scalar(a.vectors(), b.vectors(), s);
            case FieldType::Quat: return scalar(a.quats(), b.quats(), s);
            case FieldType::Transform: return scalar(a.transforms(), b.transforms(), s);
            case FieldType::String: {
                StringList sa = a.strings(), sb = b.strings();
                const bool ha = s < sa.size(), hb = s < sb.size();
                if ((ha || hb) && (ha != hb || sa[s] != sb[s]))
                    record(ChangeKind::Changed, ha ? toValue(sa[s]) : Value{}, hb ? toValue(sb[s]) : Value{});
                return;
            }
            case FieldType::Struct: {
                ContainerList sa = a.structs(), sb = b.structs();
                return nested(s < sa.size() ? sa[s] : ContainerView{}, s < sb.size() ? sb[s] : ContainerView{});
            }
            case FieldType::None: return;
            }
            return;
        case ContainerKind::Array:
            switch (k.type) {
            case FieldType::Bool: return boolArray(a.boolArrays().at(s), b.boolArrays().at(s));
            case FieldType::Int8:
            case FieldType::Int32: return array(a.int32Arrays().at(s), b.int32Arrays().at(s));
            case FieldType::Int64: return array(a.int64Arrays().at(s), b.int64Arrays().at(s));
            case FieldType::Float: return array(a.floatArrays().at(s), b.floatArrays().at(s));
            case FieldType::Double: return array(a.doubleArrays().at(s), b.doubleArrays().at(s));
            case FieldType::Vector: return array(a.vectorArrays().at(s), b.vectorArrays().at(s));
            case FieldType::Quat: return array(a.quatArrays().at(s), b.quatArrays().at(s));
            case FieldType::Transform: return array(a.transformArrays().at(s), b.transformArrays().at(s));
            case FieldType::String: return stringArray(a.stringArrays().at(s), b.stringArrays().at(s));
            case FieldType::Struct: return structArray(a.structArrays().at(s), b.structArrays().at(s), k.structTypeId);
            case FieldType::None: return;
            }
            return;
        case ContainerKind::Map: {
            if (k.type == FieldType::None)
                return;
            MapList ma = a.maps(), mb = b.maps();
            const bool ha = s < ma.size(), hb = s < mb.size();
            return map(ha ? ma[s] : MapView{}, hb ? mb[s] : MapView{}, k.structTypeId, ha, hb);
        }
        }
    }

    static constexpr int kMaxDepth = 64;
    const Schema& m_schema;
    const DiffOptions& m_opt;
    FrameDiff& m_out;
    std::vector<PathStep>& m_path = scratchPath();
    int m_depth = 0;
    // Reused across buckets (and across calls through thread-local storage below).
    std::vector<int32_t>& m_matchA = scratchA();
    std::vector<int32_t>& m_matchB = scratchB();
    std::vector<std::pair<std::string_view, uint32_t>>& m_index = scratchIndex();

    static std::vector<PathStep>& scratchPath() { thread_local std::vector<PathStep> v; return v; }
    static std::vector<int32_t>& scratchA() { thread_local std::vector<int32_t> v; return v; }
    static std::vector<int32_t>& scratchB() { thread_local std::vector<int32_t> v; return v; }
    static std::vector<std::pair<std::string_view, uint32_t>>& scratchIndex()
    {
        thread_local std::vector<std::pair<std::string_view, uint32_t>> v;
        return v;
    }
};

} // namespace

void diffFrames(FrameView a, FrameView b, const Schema& schema, const DiffOptions& options, FrameDiff& out)
{
    out.clear();
    Differ d(schema, options, out);
    d.frames(a, b);
}

void diffFrames(const FrameHandle& a, const FrameHandle& b, const Schema& schema, const DiffOptions& options, FrameDiff& out)
{
    diffFrames(a.view(), b.view(), schema, options, out);
    out.a = a;
    out.b = b;
}

FrameDiff diffFrames(const FrameHandle& a, const FrameHandle& b, const Schema& schema, const DiffOptions& options)
{
    FrameDiff d;
    diffFrames(a, b, schema, options, d);
    return d;
}

} // namespace vtx
