// SPDX-License-Identifier: MIT
#include "vtx/model/Schema.hpp"

#include <algorithm>

#include <map>
#include <nlohmann/json.hpp>

namespace vtx {

const char* fieldTypeName(FieldType t)
{
    switch (t) {
    case FieldType::None: return "None";
    case FieldType::Bool: return "Bool";
    case FieldType::Int8: return "Int8";
    case FieldType::Int32: return "Int32";
    case FieldType::Int64: return "Int64";
    case FieldType::Float: return "Float";
    case FieldType::Double: return "Double";
    case FieldType::String: return "String";
    case FieldType::Vector: return "Vector";
    case FieldType::Quat: return "Quat";
    case FieldType::Transform: return "Transform";
    case FieldType::Struct: return "Struct";
    }
    return "None";
}

const char* containerKindName(ContainerKind c)
{
    switch (c) {
    case ContainerKind::Scalar: return "None";
    case ContainerKind::Array: return "array";
    case ContainerKind::Map: return "map";
    case ContainerKind::Unnamed: return "unnamed";
    }
    return "None";
}

const char* containerMemberName(ContainerMember m)
{
    static const char* const names[kContainerMemberCount] = {
        "bool_properties",       "int32_properties",      "int64_properties",  "float_properties", "double_properties",
        "string_properties",     "transform_properties",  "vector_properties", "quat_properties",  "range_properties",
        "byte_array_properties", "int32_arrays",          "int64_arrays",      "float_arrays",     "double_arrays",
        "vector_arrays",         "quat_arrays",           "transform_arrays",  "range_arrays",     "bool_arrays",
        "string_arrays",         "any_struct_properties", "any_struct_arrays", "map_properties",   "map_arrays"};
    return size_t(m) < kContainerMemberCount ? names[size_t(m)] : "?";
}

ContainerMember memberOf(const PropertyKey& k)
{
    using M = ContainerMember;
    if (k.container == ContainerKind::Unnamed)
        return k.member;
    if (k.container == ContainerKind::Map)
        return M::Maps;
    const bool a = k.container == ContainerKind::Array;
    switch (k.type) {
    case FieldType::Bool: return a ? M::BoolArrays : M::Bools;
    case FieldType::Int8:
    case FieldType::Int32: return a ? M::Int32Arrays : M::Int32s;
    case FieldType::Int64: return a ? M::Int64Arrays : M::Int64s;
    case FieldType::Float: return a ? M::FloatArrays : M::Floats;
    case FieldType::Double: return a ? M::DoubleArrays : M::Doubles;
    case FieldType::String: return a ? M::StringArrays : M::Strings;
    case FieldType::Vector: return a ? M::VectorArrays : M::Vectors;
    case FieldType::Quat: return a ? M::QuatArrays : M::Quats;
    case FieldType::Transform: return a ? M::TransformArrays : M::Transforms;
    case FieldType::Struct: return a ? M::StructArrays : M::Structs;
    case FieldType::None: break;
    }
    return M::Bools; // None fields are not addressable; callers skip them
}

FieldType fieldTypeFromToken(std::string_view t)
{
    static const std::unordered_map<std::string_view, FieldType> table = {
        {"int8", FieldType::Int8},           {"Int8", FieldType::Int8},           {"uint8", FieldType::Int8},    {"UInt8", FieldType::Int8},
        {"int32", FieldType::Int32},         {"Int32", FieldType::Int32},         {"uint32", FieldType::Int32},  {"UInt32", FieldType::Int32},
        {"int", FieldType::Int32},           {"Int", FieldType::Int32},           {"int64", FieldType::Int64},   {"Int64", FieldType::Int64},
        {"uint64", FieldType::Int64},        {"UInt64", FieldType::Int64},        {"long", FieldType::Int64},    {"Long", FieldType::Int64},
        {"float", FieldType::Float},         {"Float", FieldType::Float},         {"double", FieldType::Double}, {"Double", FieldType::Double},
        {"bool", FieldType::Bool},           {"Bool", FieldType::Bool},           {"string", FieldType::String}, {"String", FieldType::String},
        {"vector", FieldType::Vector},       {"Vector", FieldType::Vector},       {"quat", FieldType::Quat},     {"Quat", FieldType::Quat},
        {"transform", FieldType::Transform}, {"Transform", FieldType::Transform}, {"struct", FieldType::Struct}, {"Struct", FieldType::Struct},
    };
    auto it = table.find(t);
    return it == table.end() ? FieldType::None : it->second;
}

ContainerKind containerKindFromToken(std::string_view t)
{
    if (t == "array")
        return ContainerKind::Array;
    if (t == "map")
        return ContainerKind::Map;
    return ContainerKind::Scalar;
}

const FieldDef* StructDef::field(std::string_view n) const
{
    auto it = fieldIndexByName.find(std::string(n));
    return it == fieldIndexByName.end() ? nullptr : &fields[it->second];
}

std::string Schema::bucketName(size_t index) const
{
    if (index < m_bucketNames.size() && !m_bucketNames[index].empty())
        return m_bucketNames[index];
    return "bucket_" + std::to_string(index);
}

const StructDef* Schema::structByName(std::string_view name) const
{
    auto it = m_typeIdByName.find(std::string(name));
    return it == m_typeIdByName.end() ? nullptr : structById(it->second);
}

PropertyKey Schema::key(std::string_view structName, std::string_view property) const
{
    const StructDef* s = structByName(structName);
    if (!s)
        return {};
    const FieldDef* f = s->field(property);
    return f ? f->key : PropertyKey{};
}

PropertyKey Schema::key(int32_t typeId, std::string_view property) const
{
    const StructDef* s = structById(typeId);
    if (!s)
        return {};
    const FieldDef* f = s->field(property);
    return f ? f->key : PropertyKey{};
}

namespace {

using nlohmann::json;

Status optionalString(const json& obj, const char* key, std::string& out, const std::string& where)
{
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return {};
    if (!it->is_string())
        return Error{"schema: " + where + ": \"" + key + "\" must be a string"};
    out = it->get<std::string>();
    return {};
}

} // namespace

Result<Schema> Schema::parse(std::string_view text, std::vector<Problem>* warnings)
{
    auto warn = [&](std::string msg, Problem::Severity severity = Problem::Severity::Warning) {
        if (warnings)
            warnings->push_back({severity, "schema: " + std::move(msg)});
    };
    json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
        return Error{"schema: embedded schema is not valid JSON"};
    if (!doc.is_object())
        return Error{"schema: embedded schema is not a JSON object"};
    auto pm = doc.find("property_mapping");
    if (pm == doc.end() || !pm->is_array())
        return Error{"schema: \"property_mapping\" is missing or not an array"};

    Schema s;
    if (auto v = doc.find("version"); v != doc.end() && v->is_string())
        s.m_version = v->get<std::string>();
    if (auto b = doc.find("buckets"); b != doc.end()) {
        if (!b->is_array())
            return Error{"schema: \"buckets\" must be an array"};
        for (const auto& name : *b) {
            if (!name.is_string())
                return Error{"schema: \"buckets\" entries must be strings"};
            s.m_bucketNames.push_back(name.get<std::string>());
        }
    }

    size_t entryIndex = 0;
    for (const auto& entry : *pm) {
        const std::string where = "property_mapping[" + std::to_string(entryIndex++) + "]";
        if (!entry.is_object())
            return Error{"schema: " + where + " is not an object"};
        std::string structName;
        if (Status st = optionalString(entry, "struct", structName, where); !st)
            return Error{st.message()};
        auto values = entry.find("values");
        if (values != entry.end() && !values->is_null() && !values->is_array())
            return Error{"schema: " + where + ": \"values\" must be an array"};
        if (structName.empty())
            continue; // unnamed entries consume no type id (§5.3)

        StructDef def;
        def.name = structName;
        def.typeId = static_cast<int32_t>(s.m_structs.size());
        std::map<std::pair<FieldType, ContainerKind>, uint32_t> counters;
        if (values != entry.end() && values->is_array()) {
            size_t fieldIndex = 0;
            for (const auto& v : *values) {
                const std::string fwhere = structName + ".values[" + std::to_string(fieldIndex++) + "]";
                if (!v.is_object())
                    return Error{"schema: " + fwhere + " is not an object"};
                FieldDef f;
                std::string container;
                for (auto [key, out] : {std::pair{"name", &f.name}, std::pair{"typeId", &f.typeToken}, std::pair{"containerType", &container},
                                        std::pair{"structType", &f.structType}, std::pair{"keyId", &f.keyId}}) {
                    if (Status st = optionalString(v, key, *out, fwhere); !st)
                        return Error{st.message()};
                }
                if (auto meta = v.find("meta"); meta != v.end() && !meta->is_null()) {
                    if (!meta->is_object())
                        return Error{"schema: " + fwhere + ": \"meta\" must be an object"};
                    auto str = [&](const char* k) {
                        auto it = meta->find(k);
                        return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string{};
                    };
                    f.displayName = str("displayName");
                    f.category = str("category");
                    f.tooltip = str("tooltip");
                }
                f.key.typeId = def.typeId;
                f.key.type = fieldTypeFromToken(f.typeToken);
                f.key.container = containerKindFromToken(container);
                f.key.slot = counters[{f.key.type, f.key.container}]++;
                if (f.key.type == FieldType::None)
                    warn(structName + "." + f.name + ": type \"" + f.typeToken + "\" has no values read by name (they show as unnamed bytes)",
                         Problem::Severity::Info);
                if (!f.name.empty()) {
                    if (auto earlier = def.fieldIndexByName.find(f.name); earlier != def.fieldIndexByName.end()) {
                        warn(structName + ": property \"" + f.name + "\" is defined twice; the later one wins");
                        def.fields[earlier->second].shadowed = true;
                    }
                    def.fieldIndexByName[f.name] = def.fields.size();
                }
                def.fields.push_back(std::move(f));
            }
        }
        if (s.m_typeIdByName.count(structName))
            warn("struct \"" + structName + "\" is defined twice; the later type id wins");
        s.m_typeIdByName[structName] = def.typeId;
        s.m_structs.push_back(std::move(def));
    }
    for (auto& def : s.m_structs) {
        for (auto& f : def.fields) {
            if (f.key.type != FieldType::Struct)
                continue;
            auto it = s.m_typeIdByName.find(f.structType);
            if (it == s.m_typeIdByName.end())
                warn(def.name + "." + f.name + ": unknown structType \"" + f.structType + "\"");
            else
                f.key.structTypeId = it->second;
        }
        // The same fields PodMembers loads (named, addressable, not shadowed): a shadowed field's
        // slot is not reachable by name, so it counts as unnamed unless a later slot covers it.
        for (const FieldDef& f : def.fields)
            if (!f.name.empty() && f.key.valid() && !f.shadowed) {
                uint32_t& end = def.namedSlotEnd[size_t(memberOf(f.key))];
                end = std::max(end, f.key.slot + 1);
                def.namedMemberMask |= uint32_t(1) << size_t(memberOf(f.key));
            }
        for (auto& bits : def.fieldsByMember)
            bits.assign(def.fieldWords(), 0);
        def.stringFields.assign(def.fieldWords(), 0);
        for (size_t i = 0; i < def.fields.size(); ++i) {
            const FieldDef& f = def.fields[i];
            if (f.name.empty() || !f.key.valid() || f.shadowed)
                continue;
            const PodMember m = podMemberOf(f.key);
            auto& bits = def.fieldsByMember[size_t(m)];
            if (std::find(def.podMembersUsed.begin(), def.podMembersUsed.end(), m) == def.podMembersUsed.end())
                def.podMembersUsed.push_back(m);
            bits[i / 64] |= uint64_t(1) << (i % 64);
            if (f.key.type == FieldType::String && f.key.container == ContainerKind::Scalar)
                def.stringFields[i / 64] |= uint64_t(1) << (i % 64);
        }
    }
    return s;
}

PodMember podMemberOf(const PropertyKey& k)
{
    if (k.container == ContainerKind::Map || k.container == ContainerKind::Unnamed)
        return PodMember::Other;
    const bool array = k.container == ContainerKind::Array;
    switch (k.type) {
    case FieldType::Bool: return array ? PodMember::BoolArrays : PodMember::Bools;
    case FieldType::Int8:
    case FieldType::Int32: return array ? PodMember::Int32Arrays : PodMember::Int32s;
    case FieldType::Int64: return array ? PodMember::Int64Arrays : PodMember::Int64s;
    case FieldType::Float: return array ? PodMember::FloatArrays : PodMember::Floats;
    case FieldType::Double: return array ? PodMember::DoubleArrays : PodMember::Doubles;
    case FieldType::Vector: return array ? PodMember::VectorArrays : PodMember::Vectors;
    case FieldType::Quat: return array ? PodMember::QuatArrays : PodMember::Quats;
    case FieldType::Transform: return array ? PodMember::TransformArrays : PodMember::Transforms;
    default: return PodMember::Other;
    }
}

} // namespace vtx
