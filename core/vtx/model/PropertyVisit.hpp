// SPDX-License-Identifier: MIT
#pragma once
// Reads one named property of a container and hands its typed value to a visitor. This is the
// single place that maps (FieldType, ContainerKind, slot) to a PropertyContainer member
// (spec §5.5); the JSON writer, the diff and the GUI models all go through it.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/Schema.hpp"

namespace vtx {

struct Absent { };
struct BoolSpan {
    std::span<const uint8_t> values; ///< one byte per element, non-zero = true
};
/// Raw bytes: a byte_array_properties sub-array (no schema type addresses them, spec §5.5).
struct ByteSpan {
    std::span<const uint8_t> bytes;
};

/// Calls `v` with the value at slot `k.slot` of member `k.member` (a ContainerKind::Unnamed key):
/// what visitProperty passes for named keys, plus FloatRange, std::span<const FloatRange>,
/// ByteSpan and ListSlice<MapList> (map_arrays), which no schema field reaches.
template <class Visitor> decltype(auto) visitUnnamed(ContainerView c, const PropertyKey& k, Visitor&& v)
{
    using M = ContainerMember;
    const uint32_t i = k.slot;
    auto pick = [&](auto sp) -> decltype(auto) { return i < sp.size() ? v(sp[i]) : v(Absent{}); };
    switch (k.member) {
    case M::Bools: {
        auto sp = c.bools();
        return i < sp.size() ? v(sp[i] != 0) : v(Absent{});
    }
    case M::Int32s: return pick(c.int32s());
    case M::Int64s: return pick(c.int64s());
    case M::Floats: return pick(c.floats());
    case M::Doubles: return pick(c.doubles());
    case M::Strings: {
        StringList s = c.strings();
        return i < s.size() ? v(s[i]) : v(Absent{});
    }
    case M::Transforms: return pick(c.transforms());
    case M::Vectors: return pick(c.vectors());
    case M::Quats: return pick(c.quats());
    case M::Ranges: return pick(c.ranges());
    case M::ByteArrays: return v(ByteSpan{c.byteArrays().at(i)});
    case M::Int32Arrays: return v(c.int32Arrays().at(i));
    case M::Int64Arrays: return v(c.int64Arrays().at(i));
    case M::FloatArrays: return v(c.floatArrays().at(i));
    case M::DoubleArrays: return v(c.doubleArrays().at(i));
    case M::VectorArrays: return v(c.vectorArrays().at(i));
    case M::QuatArrays: return v(c.quatArrays().at(i));
    case M::TransformArrays: return v(c.transformArrays().at(i));
    case M::RangeArrays: return v(c.rangeArrays().at(i));
    case M::BoolArrays: return v(BoolSpan{c.boolArrays().at(i)});
    case M::StringArrays: return v(c.stringArrays().at(i));
    case M::Structs: {
        ContainerList s = c.structs();
        return i < s.size() ? v(s[i]) : v(Absent{});
    }
    case M::StructArrays: return v(c.structArrays().at(i));
    case M::Maps: {
        MapList m = c.maps();
        return i < m.size() ? v(m[i]) : v(Absent{});
    }
    case M::MapArrays: return v(c.mapArrays().at(i));
    }
    return v(Absent{});
}

/// Calls `v` with exactly one of: Absent, bool, int32_t, int64_t, float, double, std::string_view,
/// Vec3, Quat, Transform, ContainerView (scalar struct), BoolSpan, std::span<const int32_t>,
/// std::span<const int64_t>, std::span<const float>, std::span<const double>,
/// ListSlice<StringList>, std::span<const Vec3>, std::span<const Quat>,
/// std::span<const Transform>, ListSlice<ContainerList> (struct array), MapView; for an unnamed
/// key (ContainerKind::Unnamed) what visitUnnamed passes.
template <class Visitor> decltype(auto) visitProperty(ContainerView c, const PropertyKey& k, Visitor&& v)
{
    const uint32_t i = k.slot;
    switch (k.container) {
    case ContainerKind::Scalar: {
        auto pick = [&](auto sp) -> decltype(auto) { return i < sp.size() ? v(sp[i]) : v(Absent{}); };
        switch (k.type) {
        case FieldType::Bool: {
            auto sp = c.bools();
            return i < sp.size() ? v(sp[i] != 0) : v(Absent{});
        }
        case FieldType::Int8:
        case FieldType::Int32: return pick(c.int32s());
        case FieldType::Int64: return pick(c.int64s());
        case FieldType::Float: return pick(c.floats());
        case FieldType::Double: return pick(c.doubles());
        case FieldType::String: {
            StringList s = c.strings();
            return i < s.size() ? v(s[i]) : v(Absent{});
        }
        case FieldType::Vector: return pick(c.vectors());
        case FieldType::Quat: return pick(c.quats());
        case FieldType::Transform: return pick(c.transforms());
        case FieldType::Struct: {
            ContainerList s = c.structs();
            return i < s.size() ? v(s[i]) : v(Absent{});
        }
        case FieldType::None: return v(Absent{});
        }
        return v(Absent{});
    }
    case ContainerKind::Array:
        switch (k.type) {
        case FieldType::Bool: return v(BoolSpan{c.boolArrays().at(i)});
        case FieldType::Int8:
        case FieldType::Int32: return v(c.int32Arrays().at(i));
        case FieldType::Int64: return v(c.int64Arrays().at(i));
        case FieldType::Float: return v(c.floatArrays().at(i));
        case FieldType::Double: return v(c.doubleArrays().at(i));
        case FieldType::String: return v(c.stringArrays().at(i));
        case FieldType::Vector: return v(c.vectorArrays().at(i));
        case FieldType::Quat: return v(c.quatArrays().at(i));
        case FieldType::Transform: return v(c.transformArrays().at(i));
        case FieldType::Struct: return v(c.structArrays().at(i));
        case FieldType::None: return v(Absent{});
        }
        return v(Absent{});
    case ContainerKind::Map: {
        if (k.type == FieldType::None)
            return v(Absent{});
        MapList m = c.maps();
        return i < m.size() ? v(m[i]) : v(Absent{});
    }
    case ContainerKind::Unnamed: return visitUnnamed(c, k, v);
    }
    return v(Absent{});
}

} // namespace vtx
