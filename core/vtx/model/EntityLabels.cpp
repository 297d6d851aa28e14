// SPDX-License-Identifier: MIT
#include "vtx/model/EntityLabels.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace vtx {

namespace {

bool equalNoCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() &&
        std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(uint8_t(x)) == std::tolower(uint8_t(y)); });
}

bool endsWithNoCase(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && equalNoCase(s.substr(s.size() - suffix.size()), suffix);
}

// In order of preference: a name meant for people first.
constexpr std::array<std::string_view, 8> kLabelNames = {"DisplayName", "Name", "UserName", "PlayerName", "NickName", "CustomName", "Title", "Label"};

// "…Name" fields that name a resource or a kind, not the entity.
constexpr std::array<std::string_view, 14> kNotLabels = {"MeshName",  "ClassName",     "TypeName", "FileName",     "PathName",
                                                         "AssetName", "ModelName",     "BoneName", "MaterialName", "TextureName",
                                                         "SoundName", "ArchetypeName", "SkinName", "AnimName"};

bool isLabelCandidate(const FieldDef& f)
{
    return !f.shadowed && f.key.valid() && f.key.type == FieldType::String && f.key.container == ContainerKind::Scalar;
}

} // namespace

std::vector<std::string> EntityLabels::candidates(const StructDef& def)
{
    std::vector<std::string> out;
    for (const FieldDef& f : def.fields)
        if (isLabelCandidate(f))
            out.push_back(f.name);
    return out;
}

const FieldDef* EntityLabels::defaultField(const StructDef& def)
{
    for (std::string_view want : kLabelNames)
        for (const FieldDef& f : def.fields)
            if (isLabelCandidate(f) && equalNoCase(f.name, want))
                return &f;
    for (const FieldDef& f : def.fields)
        if (isLabelCandidate(f) && f.name.size() > 4 && endsWithNoCase(f.name, "Name") &&
            std::none_of(kNotLabels.begin(), kNotLabels.end(), [&](std::string_view n) { return equalNoCase(f.name, n); }))
            return &f;
    return nullptr;
}

EntityLabels EntityLabels::choose(const Schema& schema)
{
    EntityLabels labels;
    labels.m_keys.resize(schema.structs().size());
    labels.m_fields.resize(schema.structs().size());
    for (const StructDef& def : schema.structs()) {
        if (def.typeId < 0 || size_t(def.typeId) >= labels.m_keys.size())
            continue;
        if (const FieldDef* pick = defaultField(def)) {
            labels.m_keys[size_t(def.typeId)] = pick->key;
            labels.m_fields[size_t(def.typeId)] = pick->name;
        }
    }
    return labels;
}

bool EntityLabels::setField(const Schema& schema, std::string_view typeName, std::string_view field)
{
    const StructDef* def = schema.structByName(typeName);
    if (!def || def->typeId < 0 || size_t(def->typeId) >= m_keys.size())
        return false;
    const size_t t = size_t(def->typeId);
    if (field.empty()) {
        m_keys[t] = PropertyKey{};
        m_fields[t].clear();
        return true;
    }
    const FieldDef* f = def->field(field);
    if (!f || !isLabelCandidate(*f))
        return false;
    m_keys[t] = f->key;
    m_fields[t] = f->name;
    return true;
}

std::string_view EntityLabels::field(int32_t typeId) const
{
    return typeId >= 0 && size_t(typeId) < m_fields.size() ? std::string_view(m_fields[size_t(typeId)]) : std::string_view{};
}

} // namespace vtx
