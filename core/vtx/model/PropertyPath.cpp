// SPDX-License-Identifier: MIT
#include "vtx/model/PropertyPath.hpp"

#include "vtx/integrity/ContentHash.hpp"
#include "vtx/model/PropertyVisit.hpp"
#include "vtx/model/UnnamedData.hpp"

#include <charconv>
#include <xxhash.h>

namespace vtx {

Result<PropertyPath> PropertyPath::parse(std::string_view text)
{
    PropertyPath p;
    p.m_text = std::string(text);
    size_t i = 0;
    auto fail = [&](const std::string& why) {
        return Error{"property path \"" + std::string(text) + "\": " + why + " at offset " + std::to_string(i)};
    };
    if (text.empty())
        return fail("empty path");
    bool expectName = true;
    while (i < text.size()) {
        if (text[i] == '[') {
            const size_t close = text.find(']', i + 1);
            if (close == std::string_view::npos)
                return fail("unclosed '['");
            Segment s;
            s.text = std::string(text.substr(i + 1, close - i - 1));
            s.bracket = true;
            p.m_segments.push_back(std::move(s));
            i = close + 1;
            expectName = false;
            continue;
        }
        if (text[i] == '.') {
            if (expectName)
                return fail("empty name");
            ++i;
            expectName = true;
            continue;
        }
        if (!expectName && !p.m_segments.empty())
            return fail("expected '.' or '['");
        size_t end = i;
        while (end < text.size() && text[end] != '.' && text[end] != '[')
            ++end;
        Segment s;
        s.text = std::string(text.substr(i, end - i));
        p.m_segments.push_back(std::move(s));
        i = end;
        expectName = false;
    }
    if (expectName)
        return fail("path ends with '.'");
    return p;
}

namespace {

bool parseIndex(const std::string& s, size_t& out)
{
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
}

class Evaluator {
public:
    Evaluator(const std::vector<PropertyPath::Segment>& segs, const Schema& schema) : m_segs(segs), m_schema(schema) { }

    Value container(ContainerView c, size_t i)
    {
        // A struct's value is its recomputed hash, never the stored one: the SDK v0.2.0
        // writer's stored hash of a struct with nested structs misses most of its values
        // (spec §6.6 ⚠), and "did this property change" must see every one.
        if (i == m_segs.size())
            return Value::ofStruct(c.typeId(), computeContentHash(c));
        const PropertyPath::Segment& s = m_segs[i];
        if (s.bracket || c.isNull())
            return {};
        if (s.cachedTypeId != c.typeId()) {
            const StructDef* def = m_schema.structById(c.typeId());
            s.cachedField = def ? def->field(s.text) : nullptr;
            s.cachedTypeId = c.typeId();
        }
        const FieldDef* f = s.cachedField;
        if (!f || !f->key.valid())
            return {};
        m_elementType = f->key.structTypeId;
        // The SDK's blob convention: an Int8-array field whose bytes sit in byte_array_properties.
        if (f->key.type == FieldType::Int8 && f->key.container == ContainerKind::Array)
            if (const auto bytes = blobBytes(c, *f); !bytes.empty())
                return value(ByteSpan{bytes}, i + 1);
        return visitProperty(c, f->key, [&](const auto& v) { return value(v, i + 1); });
    }

private:
    bool end(size_t i) const { return i == m_segs.size(); }
    const std::string* name(size_t i) const { return i < m_segs.size() && !m_segs[i].bracket ? &m_segs[i].text : nullptr; }
    bool index(size_t i, size_t& out) const { return i < m_segs.size() && m_segs[i].bracket && parseIndex(m_segs[i].text, out); }

    Value value(Absent, size_t) { return {}; }
    Value value(const FloatRange& r, size_t i)
    {
        const std::string* n = name(i);
        if (!n || !end(i + 1))
            return {};
        if (*n == "min")
            return Value::ofFloat(r.min);
        if (*n == "max")
            return Value::ofFloat(r.max);
        if (*n == "value_normalized")
            return Value::ofFloat(r.valueNormalized);
        return {};
    }
    Value value(ByteSpan b, size_t i)
    {
        if (end(i)) {
            Value v = Value::ofArray(b.bytes.size());
            v.digest = digestOf(b.bytes);
            return v;
        }
        size_t k = 0;
        if (!index(i, k) || k >= b.bytes.size() || !end(i + 1))
            return {};
        return Value::ofInt(int8_t(b.bytes[k])); // the field is declared Int8
    }
    Value value(const ListSlice<MapList>& s, size_t i)
    {
        if (!end(i))
            return {};
        Value v = Value::ofArray(s.size());
        uint64_t h = s.size();
        for (size_t k = 0; k < s.size(); ++k)
            h = XXH3_64bits_withSeed(&(v.digest = mapDigest(s[k])), sizeof(uint64_t), h);
        v.digest = h;
        return v;
    }
    Value value(bool v, size_t i) { return end(i) ? Value::ofBool(v) : Value{}; }
    Value value(int32_t v, size_t i) { return end(i) ? Value::ofInt(v) : Value{}; }
    Value value(int64_t v, size_t i) { return end(i) ? Value::ofInt(v) : Value{}; }
    Value value(float v, size_t i) { return end(i) ? Value::ofFloat(v) : Value{}; }
    Value value(double v, size_t i) { return end(i) ? Value::ofDouble(v) : Value{}; }
    Value value(std::string_view v, size_t i) { return end(i) ? Value::ofString(v) : Value{}; }
    Value value(const Vec3& v, size_t i)
    {
        if (end(i))
            return Value::ofVector(v);
        const std::string* n = name(i);
        if (!n || i + 1 != m_segs.size())
            return {};
        if (*n == "x")
            return Value::ofDouble(v.x);
        if (*n == "y")
            return Value::ofDouble(v.y);
        if (*n == "z")
            return Value::ofDouble(v.z);
        return {};
    }
    Value value(const Quat& q, size_t i)
    {
        if (end(i))
            return Value::ofQuat(q);
        const std::string* n = name(i);
        if (!n || i + 1 != m_segs.size())
            return {};
        if (*n == "x")
            return Value::ofFloat(q.x);
        if (*n == "y")
            return Value::ofFloat(q.y);
        if (*n == "z")
            return Value::ofFloat(q.z);
        if (*n == "w")
            return Value::ofFloat(q.w);
        return {};
    }
    Value value(const Transform& t, size_t i)
    {
        if (end(i))
            return Value::ofTransform(t);
        const std::string* n = name(i);
        if (!n)
            return {};
        if (*n == "translation")
            return value(t.translation, i + 1);
        if (*n == "rotation")
            return value(t.rotation, i + 1);
        if (*n == "scale")
            return value(t.scale, i + 1);
        return {};
    }
    Value value(ContainerView c, size_t i) { return container(c, i); }
    // Digest of a whole array or map, so "did this property change" also sees element changes.
    template <class T> static uint64_t digestOf(std::span<const T> s) { return XXH3_64bits(s.data(), s.size_bytes()); }
    static uint64_t digestOf(const ListSlice<StringList>& s)
    {
        uint64_t h = s.size();
        for (size_t k = 0; k < s.size(); ++k) {
            const std::string_view v = s[k];
            h = XXH3_64bits_withSeed(v.data(), v.size(), h);
        }
        return h;
    }
    static uint64_t digestOf(const ListSlice<ContainerList>& s)
    {
        uint64_t h = s.size();
        for (size_t k = 0; k < s.size(); ++k) {
            const uint64_t e = computeContentHash(s[k]); // recomputed: see container()
            h = XXH3_64bits_withSeed(&e, sizeof e, h);
        }
        return h;
    }

    template <class Span> Value elements(const Span& s, size_t n, size_t i)
    {
        if (end(i)) {
            Value v = Value::ofArray(n, m_elementType);
            v.digest = digestOf(s);
            return v;
        }
        size_t k = 0;
        if (!index(i, k) || k >= n)
            return {};
        return value(s[k], i + 1);
    }
    Value value(BoolSpan s, size_t i)
    {
        if (end(i)) {
            Value v = Value::ofArray(s.values.size());
            v.digest = digestOf(s.values);
            return v;
        }
        size_t k = 0;
        if (!index(i, k) || k >= s.values.size())
            return {};
        return value(s.values[k] != 0, i + 1);
    }
    template <class T> Value value(std::span<const T> s, size_t i) { return elements(s, s.size(), i); }
    Value value(const ListSlice<StringList>& s, size_t i) { return elements(s, s.size(), i); }
    Value value(const ListSlice<ContainerList>& s, size_t i) { return elements(s, s.size(), i); }
    static uint64_t mapDigest(MapView m)
    {
        uint64_t h = m.size();
        for (size_t k = 0; k < m.size(); ++k) {
            const std::string_view key = m.keys()[k];
            const uint64_t e = computeContentHash(m.values()[k]); // recomputed: see container()
            h = XXH3_64bits_withSeed(key.data(), key.size(), h);
            h = XXH3_64bits_withSeed(&e, sizeof e, h);
        }
        return h;
    }
    Value value(MapView m, size_t i)
    {
        if (end(i)) {
            Value v = Value::ofMap(m.size(), m_elementType);
            v.digest = mapDigest(m);
            return v;
        }
        if (!m_segs[i].bracket)
            return {};
        StringList keys = m.keys();
        for (size_t k = 0; k < m.size(); ++k)
            if (keys[k] == m_segs[i].text)
                return container(m.values()[k], i + 1);
        return {};
    }

    const std::vector<PropertyPath::Segment>& m_segs;
    const Schema& m_schema;
    int32_t m_elementType = -1;
};

} // namespace

Value PropertyPath::evaluate(ContainerView c, const Schema& schema) const
{
    if (c.isNull())
        return {};
    return Evaluator(m_segments, schema).container(c, 0);
}

PropertyKey PropertyPath::scalarKey(const Schema& schema, int32_t typeId) const
{
    if (m_segments.size() != 1 || m_segments[0].bracket)
        return {};
    const StructDef* def = schema.structById(typeId);
    const FieldDef* f = def ? def->field(m_segments[0].text) : nullptr;
    if (!f || !f->key.valid() || f->key.container != ContainerKind::Scalar)
        return {};
    switch (f->key.type) {
    case FieldType::Bool:
    case FieldType::Int8:
    case FieldType::Int32:
    case FieldType::Int64:
    case FieldType::Float:
    case FieldType::Double:
    case FieldType::String: return f->key;
    default: return {};
    }
}

} // namespace vtx
