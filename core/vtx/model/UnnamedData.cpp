// SPDX-License-Identifier: MIT
#include "vtx/model/UnnamedData.hpp"

#include <bit>

namespace vtx {

size_t memberSlotCount(ContainerView c, ContainerMember m)
{
    using M = ContainerMember;
    switch (m) {
    case M::Bools: return c.bools().size();
    case M::Int32s: return c.int32s().size();
    case M::Int64s: return c.int64s().size();
    case M::Floats: return c.floats().size();
    case M::Doubles: return c.doubles().size();
    case M::Strings: return c.strings().size();
    case M::Transforms: return c.transforms().size();
    case M::Vectors: return c.vectors().size();
    case M::Quats: return c.quats().size();
    case M::Ranges: return c.ranges().size();
    case M::ByteArrays: return c.byteArrays().data.empty() ? 0 : c.byteArrays().count();
    case M::Int32Arrays: return c.int32Arrays().data.empty() ? 0 : c.int32Arrays().count();
    case M::Int64Arrays: return c.int64Arrays().data.empty() ? 0 : c.int64Arrays().count();
    case M::FloatArrays: return c.floatArrays().data.empty() ? 0 : c.floatArrays().count();
    case M::DoubleArrays: return c.doubleArrays().data.empty() ? 0 : c.doubleArrays().count();
    case M::VectorArrays: return c.vectorArrays().data.empty() ? 0 : c.vectorArrays().count();
    case M::QuatArrays: return c.quatArrays().data.empty() ? 0 : c.quatArrays().count();
    case M::TransformArrays: return c.transformArrays().data.empty() ? 0 : c.transformArrays().count();
    case M::RangeArrays: return c.rangeArrays().data.empty() ? 0 : c.rangeArrays().count();
    case M::BoolArrays: return c.boolArrays().data.empty() ? 0 : c.boolArrays().count();
    case M::StringArrays: return c.stringArrays().data.empty() ? 0 : c.stringArrays().count();
    case M::Structs: return c.structs().size();
    case M::StructArrays: return c.structArrays().data.empty() ? 0 : c.structArrays().count();
    case M::Maps: return c.maps().size();
    case M::MapArrays: return c.mapArrays().data.empty() ? 0 : c.mapArrays().count();
    }
    return 0;
}

namespace {

bool isArrayMember(ContainerMember m)
{
    return (m >= ContainerMember::ByteArrays && m <= ContainerMember::StringArrays) || m == ContainerMember::StructArrays ||
        m == ContainerMember::MapArrays;
}

bool emptySubArray(ContainerView c, const PropertyKey& k)
{
    using M = ContainerMember;
    const uint32_t i = k.slot;
    switch (k.member) {
    case M::ByteArrays: return c.byteArrays().at(i).empty();
    case M::Int32Arrays: return c.int32Arrays().at(i).empty();
    case M::Int64Arrays: return c.int64Arrays().at(i).empty();
    case M::FloatArrays: return c.floatArrays().at(i).empty();
    case M::DoubleArrays: return c.doubleArrays().at(i).empty();
    case M::VectorArrays: return c.vectorArrays().at(i).empty();
    case M::QuatArrays: return c.quatArrays().at(i).empty();
    case M::TransformArrays: return c.transformArrays().at(i).empty();
    case M::RangeArrays: return c.rangeArrays().at(i).empty();
    case M::BoolArrays: return c.boolArrays().at(i).empty();
    case M::StringArrays: return c.stringArrays().at(i).empty();
    case M::StructArrays: return c.structArrays().at(i).empty();
    case M::MapArrays: return c.mapArrays().at(i).empty();
    default: return false;
    }
}

const FieldDef* blobFieldAt(const StructDef* def, uint32_t slot)
{
    if (!def)
        return nullptr;
    const FieldDef* found = nullptr;
    for (const FieldDef& f : def->fields)
        if (f.key.type == FieldType::Int8 && f.key.container == ContainerKind::Array && f.key.slot == slot && !f.shadowed)
            found = &f;
    return found;
}

} // namespace

void unnamedSlots(ContainerView c, const Schema& schema, std::vector<UnnamedSlot>& out)
{
    const StructDef* def = schema.structById(c.typeId());
    for (uint32_t bits = c.presentMembers(); bits; bits &= bits - 1) {
        const size_t mi = size_t(std::countr_zero(bits));
        const auto m = ContainerMember(mi);
        const size_t n = memberSlotCount(c, m);
        for (size_t s = def ? def->namedSlotEnd[mi] : 0; s < n; ++s) {
            UnnamedSlot u{PropertyKey::unnamed(c.typeId(), m, uint32_t(s)), nullptr};
            if (isArrayMember(m) && emptySubArray(c, u.key))
                continue;
            if (m == ContainerMember::ByteArrays)
                if (const FieldDef* f = blobFieldAt(def, uint32_t(s)); f && c.int32Arrays().at(f->key.slot).empty())
                    u.blobOf = f;
            out.push_back(u);
        }
    }
}

bool hasUnnamedData(ContainerView c, const StructDef* def)
{
    for (uint32_t bits = c.presentMembers(); bits; bits &= bits - 1) {
        const size_t mi = size_t(std::countr_zero(bits));
        if (memberSlotCount(c, ContainerMember(mi)) > (def ? def->namedSlotEnd[mi] : 0))
            return true;
    }
    return false;
}

std::span<const uint8_t> blobBytes(ContainerView c, const FieldDef& f)
{
    if (f.key.type != FieldType::Int8 || f.key.container != ContainerKind::Array)
        return {};
    if (!c.int32Arrays().at(f.key.slot).empty())
        return {};
    return c.byteArrays().at(f.key.slot);
}

std::string unnamedSlotName(const PropertyKey& k)
{
    std::string s = containerMemberName(k.member);
    s += '[';
    s += std::to_string(k.slot);
    s += ']';
    return s;
}

} // namespace vtx
