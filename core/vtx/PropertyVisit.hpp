#pragma once
// Reads one named property of a container and hands its typed value to a visitor. This is the
// single place that maps (FieldType, ContainerKind, slot) to a PropertyContainer member
// (spec §5.5); the JSON writer, the diff and the GUI models all go through it.

#include "vtx/FrameView.hpp"
#include "vtx/Schema.hpp"

namespace vtx {

struct Absent {};
struct BoolSpan {
    std::span<const uint8_t> values; ///< one byte per element, non-zero = true
};

/// Calls `v` with exactly one of: Absent, bool, int32_t, int64_t, float, double, std::string_view,
/// Vec3, Quat, Transform, ContainerView (scalar struct), BoolSpan, std::span<const int32_t>,
/// std::span<const int64_t>, std::span<const float>, std::span<const double>,
/// ListSlice<StringList>, std::span<const Vec3>, std::span<const Quat>,
/// std::span<const Transform>, ListSlice<ContainerList> (struct array), MapView.
template <class Visitor>
decltype(auto) visitProperty(ContainerView c, const PropertyKey& k, Visitor&& v)
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
    }
    return v(Absent{});
}

} // namespace vtx
