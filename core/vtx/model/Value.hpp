// SPDX-License-Identifier: MIT
#pragma once
// One property value lifted out of a frame, typed but backend-neutral: what a property path
// evaluates to and what a diff reports as old/new. Strings are views into the decoded chunk, so
// a Value is only valid while the frame it came from is alive.

#include "vtx/base/Types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace vtx {

struct Value {
    enum class Kind : uint8_t { Absent, Bool, Int, Float, Double, String, Vector, Quat, Transform, Struct, Array, Map, Range };

    Kind kind = Kind::Absent;
    int32_t typeId = -1; ///< Struct: its type id; Array/Map of structs: element type id
    uint64_t count = 0; ///< Array: element count; Map: key count; Struct: content hash
    uint64_t digest = 0; ///< Array / Map from a property path: hash of the elements (0 = not computed)
    int64_t integer = 0; ///< Bool (0/1) and Int, exactly
    double number = 0; ///< Bool, Int, Float, Double as a double
    std::string_view text; ///< String; Array of bytes (isBytes): the bytes themselves
    bool isBytes = false; ///< an Array of raw bytes (byte_array_properties, a blob)
    Transform transform; ///< Vector in .translation, Quat in .rotation, Transform whole, Range as rotation (x min, y max, z value_normalized)

    static Value absent() { return {}; }
    static Value ofBool(bool v)
    {
        Value r;
        r.kind = Kind::Bool;
        r.integer = v;
        r.number = v;
        return r;
    }
    static Value ofInt(int64_t v)
    {
        Value r;
        r.kind = Kind::Int;
        r.integer = v;
        r.number = double(v);
        return r;
    }
    static Value ofFloat(float v)
    {
        Value r;
        r.kind = Kind::Float;
        r.number = v;
        return r;
    }
    static Value ofDouble(double v)
    {
        Value r;
        r.kind = Kind::Double;
        r.number = v;
        return r;
    }
    static Value ofString(std::string_view v)
    {
        Value r;
        r.kind = Kind::String;
        r.text = v;
        return r;
    }
    static Value ofVector(const Vec3& v)
    {
        Value r;
        r.kind = Kind::Vector;
        r.transform.translation = v;
        return r;
    }
    static Value ofQuat(const Quat& q)
    {
        Value r;
        r.kind = Kind::Quat;
        r.transform.rotation = q;
        return r;
    }
    static Value ofTransform(const Transform& t)
    {
        Value r;
        r.kind = Kind::Transform;
        r.transform = t;
        return r;
    }
    static Value ofStruct(int32_t typeId, uint64_t hash)
    {
        Value r;
        r.kind = Kind::Struct;
        r.typeId = typeId;
        r.count = hash;
        return r;
    }
    static Value ofArray(uint64_t n, int32_t elementTypeId = -1)
    {
        Value r;
        r.kind = Kind::Array;
        r.count = n;
        r.typeId = elementTypeId;
        return r;
    }
    static Value ofBytes(std::span<const uint8_t> b)
    {
        Value r = ofArray(b.size());
        r.isBytes = true;
        r.text = std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
        return r;
    }
    static Value ofRange(const FloatRange& f)
    {
        Value r;
        r.kind = Kind::Range;
        r.transform.rotation = {f.min, f.max, f.valueNormalized, 0};
        return r;
    }
    static Value ofMap(uint64_t n, int32_t valueTypeId = -1)
    {
        Value r;
        r.kind = Kind::Map;
        r.count = n;
        r.typeId = valueTypeId;
        return r;
    }

    bool isAbsent() const { return kind == Kind::Absent; }
    bool isNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float || kind == Kind::Double; }
};

const char* valueKindName(Value::Kind k);

/// Numeric components of a value: one for numbers, 3 for vectors, 4 for quats, 10 for
/// transforms (translation xyz, rotation xyzw, scale xyz); none for the rest.
struct ValueComponents {
    std::array<double, 10> values{};
    size_t size = 0;
};
ValueComponents componentsOf(const Value& v);
/// Names of the components componentsOf() returns ("x", "rotation.w", ...); empty for numbers.
const char* componentName(Value::Kind k, size_t i);

/// b − a per component, when both values are numbers or the same math type (not for bools,
/// strings or containers).
std::optional<ValueComponents> deltaOf(const Value& a, const Value& b);
/// Text of one delta component with its sign ("+1.5", "-12.5", "0"); float-typed values are
/// rounded to float precision so the delta does not show double noise.
/// `forReading`: float64 components to 9 significant digits (readableDouble), for display.
std::string formatDelta(Value::Kind kind, double delta, bool forReading = false);
/// The whole delta of a change as text: "+1.5", or "(+1, 0, -2)" for vectors, "312 of 1,808
/// bytes differ, first at 0x2c" for byte arrays; empty when none. `forReading` (the screen, not
/// exports): each component rounded to the decimals its two values are written with (891.93 →
/// 892.01 is "+0.08"), a quaternion's change as the angle turned ("∠12.5°"), a transform's as its
/// translation delta, then the angle and the scale delta when those changed.
std::string formatDeltaOf(const Value& a, const Value& b, bool forReading = false);

/// Display text, the same the inspector shows ("87.5", "(1, 2, 3)", "\"Delta\"", "[4]").
std::string formatValue(const Value& v);
/// The same for reading on screen: float64 to 9 significant digits, integers grouped
/// (readableDouble, groupDigits); formatValue stays the exact text (tooltips, copies, exports).
std::string formatValueForReading(const Value& v);

/// Tolerance for float comparisons. Two floats are equal when they are ==, both NaN, or within
/// `absolute` or `relative` × max(|a|, |b|) of each other; ints, strings and bools are exact.
struct FloatTolerance {
    double absolute = 0;
    double relative = 0;
    bool equal(double a, double b) const
    {
        if (a == b)
            return true;
        if (absolute == 0 && relative == 0) // exact comparison: only NaN == NaN is left
            return a != a && b != b;
        return equalSlow(a, b);
    }

private:
    bool equalSlow(double a, double b) const;
};
/// Whether two leaf values are equal under the tolerance (Struct compares type and hash,
/// Array/Map compare counts and digests: the diff descends into them instead).
bool valuesEqual(const Value& a, const Value& b, const FloatTolerance& tol);

} // namespace vtx
