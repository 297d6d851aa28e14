// SPDX-License-Identifier: MIT
#include "vtx/diff/ReplayPairing.hpp"

namespace vtx {

const char* alignmentName(Alignment a)
{
    return a == Alignment::Frame ? "frame" : "time";
}

Status checkAlignment(const ReplayFile& a, const ReplayFile& b, Alignment alignment)
{
    if (alignment != Alignment::Time)
        return {};
    for (const ReplayFile* f : {&a, &b})
        if (!holdsGameTimes(*f))
            return Error{f->path() + ": holds no game time for its frames" +
                         (f->isRecovered() ? std::string(" (a recovered file lost them with its footer)") : std::string()) +
                         ", so frames cannot be paired by game time: pair them by frame"};
    return {};
}

std::vector<FramePair> pairFrames(const ReplayFile& a, const ReplayFile& b, Alignment alignment, int64_t offset)
{
    if (!checkAlignment(a, b, alignment))
        return {};
    return pairFrames(
        a.frameCount(), b.frameCount(), alignment, offset, [&](int32_t f) { return a.gameTimeTicks(f); },
        [&](int32_t f) { return b.gameTimeTicks(f); });
}

const char* schemaDifferenceKindName(SchemaDifference::Kind k)
{
    switch (k) {
    case SchemaDifference::Kind::TypeAdded: return "type_added";
    case SchemaDifference::Kind::TypeRemoved: return "type_removed";
    case SchemaDifference::Kind::PropertyAdded: return "property_added";
    case SchemaDifference::Kind::PropertyRemoved: return "property_removed";
    case SchemaDifference::Kind::PropertyRetyped: return "property_retyped";
    }
    return "?";
}

std::string fieldTypeText(const FieldDef& f)
{
    std::string t = f.key.type == FieldType::Struct && !f.structType.empty() ? f.structType : fieldTypeName(f.key.type);
    if (f.key.container == ContainerKind::Array)
        return "array<" + t + ">";
    if (f.key.container == ContainerKind::Map)
        return "map<" + t + ">";
    return t;
}

std::vector<SchemaDifference> compareSchemas(const Schema& a, const Schema& b)
{
    using Kind = SchemaDifference::Kind;
    std::vector<SchemaDifference> out;
    for (const StructDef& sa : a.structs()) {
        const StructDef* sb = b.structByName(sa.name);
        if (!sb) {
            out.push_back({Kind::TypeRemoved, sa.name, {}, {}, {}});
            continue;
        }
        for (const FieldDef& fa : sa.fields) {
            if (fa.shadowed)
                continue;
            const FieldDef* fb = sb->field(fa.name);
            if (!fb)
                out.push_back({Kind::PropertyRemoved, sa.name, fa.name, fieldTypeText(fa), {}});
            else if (fieldTypeText(fa) != fieldTypeText(*fb))
                out.push_back({Kind::PropertyRetyped, sa.name, fa.name, fieldTypeText(fa), fieldTypeText(*fb)});
        }
        for (const FieldDef& fb : sb->fields)
            if (!fb.shadowed && !sa.field(fb.name))
                out.push_back({Kind::PropertyAdded, sa.name, fb.name, {}, fieldTypeText(fb)});
    }
    for (const StructDef& sb : b.structs())
        if (!a.structByName(sb.name))
            out.push_back({Kind::TypeAdded, sb.name, {}, {}, {}});
    return out;
}

bool sameLayout(const Schema& a, const Schema& b)
{
    if (a.structs().size() != b.structs().size())
        return false;
    for (size_t i = 0; i < a.structs().size(); ++i) {
        const StructDef& sa = a.structs()[i];
        const StructDef& sb = b.structs()[i];
        if (sa.name != sb.name || sa.typeId != sb.typeId || sa.fields.size() != sb.fields.size())
            return false;
        for (size_t k = 0; k < sa.fields.size(); ++k) {
            const FieldDef& fa = sa.fields[k];
            const FieldDef& fb = sb.fields[k];
            if (fa.name != fb.name || fa.shadowed != fb.shadowed || fa.key.type != fb.key.type || fa.key.container != fb.key.container ||
                fa.key.slot != fb.key.slot || fa.key.structTypeId != fb.key.structTypeId)
                return false;
        }
    }
    return true;
}

} // namespace vtx
