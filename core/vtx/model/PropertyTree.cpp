// SPDX-License-Identifier: MIT
#include "vtx/model/PropertyTree.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/base/Utf8.hpp"
#include "vtx/model/PropertyPath.hpp"
#include "vtx/model/PropertyVisit.hpp"
#include "vtx/model/UnnamedData.hpp"
#include "vtx/model/Value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace vtx {

namespace {

// Built by appending: GCC 12 at -O3 warns (-Wrestrict, a known false positive) on "[" + to_string(i).
std::string indexLabel(size_t i)
{
    std::string s = "[";
    s += std::to_string(i);
    s += ']';
    return s;
}

std::string quoted(std::string_view s)
{
    return "\"" + sanitizeUtf8(s) + "\"";
}

/// "1,824 bytes"
std::string formatByteCount(size_t n)
{
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out + (n == 1 ? " byte" : " bytes");
}

class TreeBuilder {
public:
    TreeBuilder(const Schema& s, const PropertyTreeOptions& o) : m_schema(s), m_opt(o) { }
    std::vector<PropertyNode> nodes;

    int add(int parent, std::string name, std::string type, std::string value = {}, std::optional<double> number = {})
    {
        PropertyNode n;
        n.name = std::move(name);
        n.path = parent <= 0 ? n.name : (n.name.starts_with("[") ? nodes[size_t(parent)].path + n.name : nodes[size_t(parent)].path + "." + n.name);
        n.type = std::move(type);
        n.value = std::move(value);
        n.number = number;
        n.parent = parent;
        nodes.push_back(std::move(n));
        const int id = int(nodes.size() - 1);
        if (parent >= 0)
            nodes[size_t(parent)].children.push_back(id);
        return id;
    }

    void container(int parent, ContainerView c, int depth)
    {
        if (depth > m_opt.maxDepth)
            return;
        if (const StructDef* def = m_schema.structById(c.typeId()))
            for (const FieldDef& f : def->fields) {
                if (f.name.empty() || !f.key.valid() || f.shadowed)
                    continue;
                field(parent, f, c, depth);
            }
        unnamed(parent, c, depth);
    }

private:
    std::string structName(int32_t typeId) const
    {
        const StructDef* d = m_schema.structById(typeId);
        return d ? d->name : "struct";
    }

    void field(int parent, const FieldDef& f, ContainerView c, int depth)
    {
        const std::string base = fieldTypeName(f.key.type);
        if (const auto bytes = blobBytes(c, f); !bytes.empty()) {
            // The SDK's blob convention: shown under the field's name, marked as such.
            const int id = bytesNode(parent, f.name, bytes, "Int8[" + std::to_string(bytes.size()) + "] blob");
            nodes[size_t(id)].blob = true;
            nodes[size_t(id)].value += " · blob in byte_array_properties[" + std::to_string(f.key.slot) + "]";
            return;
        }
        visitProperty(c, f.key, [&](const auto& v) { value(parent, f.name, base, f.key.structTypeId, v, depth); });
    }

    void unnamed(int parent, ContainerView c, int depth)
    {
        std::vector<UnnamedSlot> slots;
        unnamedSlots(c, m_schema, slots);
        std::erase_if(slots, [](const UnnamedSlot& u) { return u.blobOf != nullptr; }); // shown by name
        if (slots.empty())
            return;
        const int id = add(parent, "Unnamed fields (" + std::to_string(slots.size()) + ")", "", "");
        nodes[size_t(id)].unnamed = true;
        nodes[size_t(id)].path = nodes[size_t(id)].parent <= 0 ? "#unnamed" : nodes[size_t(parent)].path + ".#unnamed";
        for (const UnnamedSlot& u : slots) {
            const size_t first = nodes.size();
            visitProperty(c, u.key, [&](const auto& v) { value(id, unnamedSlotName(u.key), "", -1, v, depth); });
            for (size_t k = first; k < nodes.size(); ++k)
                nodes[k].unnamed = true;
        }
    }

    int bytesNode(int parent, const std::string& name, std::span<const uint8_t> bytes, std::string type)
    {
        const int id = add(parent, name, std::move(type), formatByteCount(bytes.size()));
        nodes[size_t(id)].isBytes = true;
        nodes[size_t(id)].bytes.assign(bytes.begin(), bytes.end());
        return id;
    }

    void value(int parent, const std::string& name, const std::string&, int32_t, Absent, int)
    {
        int id = add(parent, name, "absent", "—");
        nodes[size_t(id)].absent = true;
    }
    void value(int p, const std::string& n, const std::string& t, int32_t, bool v, int) { add(p, n, t, v ? "true" : "false", v ? 1.0 : 0.0); }
    void value(int p, const std::string& n, const std::string& t, int32_t, int32_t v, int) { add(p, n, t, std::to_string(v), double(v)); }
    void value(int p, const std::string& n, const std::string& t, int32_t, int64_t v, int) { add(p, n, t, std::to_string(v), double(v)); }
    void value(int p, const std::string& n, const std::string& t, int32_t, float v, int) { add(p, n, t, formatFloat(v), double(v)); }
    void value(int p, const std::string& n, const std::string& t, int32_t, double v, int) { add(p, n, t, formatDouble(v), v); }
    void value(int p, const std::string& n, const std::string& t, int32_t, std::string_view v, int)
    {
        nodes[size_t(add(p, n, t, quoted(v)))].quotedText = true;
    }
    void value(int p, const std::string& n, const std::string& t, int32_t, const Vec3& v, int)
    {
        const int id = add(p, n, t, formatValue(Value::ofVector(v)));
        add(id, "x", "Double", formatDouble(v.x), v.x);
        add(id, "y", "Double", formatDouble(v.y), v.y);
        add(id, "z", "Double", formatDouble(v.z), v.z);
    }
    void value(int p, const std::string& n, const std::string& t, int32_t, const Quat& q, int)
    {
        const int id = add(p, n, t, formatValue(Value::ofQuat(q)));
        add(id, "x", "Float", formatFloat(q.x), q.x);
        add(id, "y", "Float", formatFloat(q.y), q.y);
        add(id, "z", "Float", formatFloat(q.z), q.z);
        add(id, "w", "Float", formatFloat(q.w), q.w);
    }
    void value(int p, const std::string& n, const std::string& t, int32_t, const Transform& x, int d)
    {
        const int id = add(p, n, t, formatValue(Value::ofTransform(x)));
        value(id, "translation", "Vector", -1, x.translation, d);
        value(id, "rotation", "Quat", -1, x.rotation, d);
        value(id, "scale", "Vector", -1, x.scale, d);
    }
    void value(int p, const std::string& n, const std::string&, int32_t, const FloatRange& r, int)
    {
        const int id = add(p, n, "FloatRange", "[" + formatFloat(r.min) + ", " + formatFloat(r.max) + "] @ " + formatFloat(r.valueNormalized));
        add(id, "min", "Float", formatFloat(r.min), r.min);
        add(id, "max", "Float", formatFloat(r.max), r.max);
        add(id, "value_normalized", "Float", formatFloat(r.valueNormalized), r.valueNormalized);
    }
    void value(int p, const std::string& n, const std::string&, int32_t, ByteSpan b, int)
    {
        bytesNode(p, n, b.bytes, "bytes[" + std::to_string(b.bytes.size()) + "]");
    }
    void value(int p, const std::string& n, const std::string&, int32_t, const ListSlice<MapList>& s, int d)
    {
        elements(p, n, "map", s.size(), d, [&](int id, size_t i) { value(id, indexLabel(i), "", -1, s[i], d); });
    }
    void value(int p, const std::string& n, const std::string&, int32_t, ContainerView c, int d)
    {
        const int id = add(p, n, structName(c.typeId()));
        container(id, c, d + 1);
    }
    void value(int p, const std::string& n, const std::string& t, int32_t, BoolSpan s, int d)
    {
        elements(p, n, t, s.values.size(), d, [&](int id, size_t i) { value(id, indexLabel(i), t, -1, s.values[i] != 0, d); });
    }
    template <class T> void value(int p, const std::string& n, const std::string& t, int32_t, std::span<const T> s, int d)
    {
        elements(p, n, t, s.size(), d, [&](int id, size_t i) { value(id, indexLabel(i), t, -1, s[i], d); });
    }
    void value(int p, const std::string& n, const std::string& t, int32_t, const ListSlice<StringList>& s, int d)
    {
        elements(p, n, t, s.size(), d, [&](int id, size_t i) { value(id, indexLabel(i), t, -1, s[i], d); });
    }
    void value(int p, const std::string& n, const std::string&, int32_t st, const ListSlice<ContainerList>& s, int d)
    {
        elements(p, n, structName(st), s.size(), d, [&](int id, size_t i) { value(id, indexLabel(i), "", -1, s[i], d); });
    }
    void value(int p, const std::string& n, const std::string&, int32_t st, MapView m, int d)
    {
        const int id = add(p, n, "map<" + structName(st) + ">", "{" + std::to_string(m.size()) + "}");
        StringList keys = m.keys();
        ContainerList values = m.values();
        for (size_t i = 0; i < m.size() && i < m_opt.maxArrayChildren; ++i)
            value(id, "[" + sanitizeUtf8(keys[i]) + "]", "", -1, values[i], d);
    }

    template <class Fn> void elements(int p, const std::string& n, const std::string& t, size_t count, int, Fn each)
    {
        const int id = add(p, n, t + "[" + std::to_string(count) + "]", "[" + std::to_string(count) + "]");
        for (size_t i = 0; i < count && i < m_opt.maxArrayChildren; ++i)
            each(id, i);
        if (count > m_opt.maxArrayChildren)
            add(id, "…", "", std::to_string(count - m_opt.maxArrayChildren) + " more");
    }

    const Schema& m_schema;
    const PropertyTreeOptions& m_opt;
};

} // namespace

std::vector<PropertyNode> buildPropertyTree(ContainerView c, const Schema& schema, const PropertyTreeOptions& options)
{
    TreeBuilder b(schema, options);
    b.add(-1, "", schema.structById(c.typeId()) ? schema.structById(c.typeId())->name : "");
    b.nodes[0].path.clear();
    b.container(0, c, 0);
    return std::move(b.nodes);
}

std::optional<PathValue> evaluatePath(ContainerView c, const Schema& schema, const std::string& path)
{
    auto p = PropertyPath::parse(path);
    if (!p)
        return std::nullopt;
    const Value v = p->evaluate(c, schema);
    if (v.isAbsent())
        return std::nullopt;
    PathValue out;
    out.text = v.kind == Value::Kind::Struct ? std::string() : formatValue(v);
    if (v.isNumber())
        out.number = v.number;
    return out;
}

std::string readableText(const std::vector<PropertyNode>& nodes, const PropertyNode& n)
{
    if (n.absent)
        return n.value;
    if (n.value.empty() && !n.children.empty() && !n.unnamed && n.type.find('[') == std::string::npos) {
        // A struct (a field, an array's element, a map's value): its first fields, as a
        // debugger shows a collapsed object, so a row like [0] is not blank (review item 7).
        std::string text = "{";
        size_t shown = 0;
        for (const int c : n.children) {
            const PropertyNode& child = nodes[size_t(c)];
            if (child.unnamed || child.absent || child.isBytes)
                continue;
            if (shown == 3) {
                text += ", …";
                break;
            }
            // A nested struct stays short: its own row has its summary.
            const std::string value = child.value.empty() && !child.children.empty() ? "{…}" : readableText(nodes, child);
            if (value.empty())
                continue;
            text += (shown ? ", " : "") + child.name + ": " + value;
            ++shown;
        }
        return shown ? text + "}" : std::string();
    }
    if (n.value.empty())
        return n.value;
    if (n.type == "Vector" && n.children.size() == 3) {
        std::string text = "(";
        for (size_t i = 0; i < 3; ++i) {
            const PropertyNode& c = nodes[size_t(n.children[i])];
            text += (i ? ", " : "") + (c.number ? readableDouble(*c.number) : c.value);
        }
        return text + ")";
    }
    // A transform reads like its parts: its translation was shown with 17 digits beside the
    // same double under a Vector with 9 (review item 11).
    if (n.type == "Transform" && n.children.size() == 3)
        return "T" + readableText(nodes, nodes[size_t(n.children[0])]) + " R" + nodes[size_t(n.children[1])].value + " S" +
            readableText(nodes, nodes[size_t(n.children[2])]);
    if (n.type == "Double" && n.number)
        return readableDouble(*n.number);
    if (n.type == "Int32" || n.type == "Int64")
        return groupDigits(n.value);
    return n.value;
}

} // namespace vtx
