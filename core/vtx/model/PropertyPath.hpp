// SPDX-License-Identifier: MIT
#pragma once
// A property path parsed once and evaluated on many frames without allocating: the inspector's
// path syntax ("Health", "Weapon.Attachment.Name", "Trail[2].x", "RoundStats[round_1].Kills",
// "Pose.translation.z"). Field lookups are cached per struct type, so evaluating the same path
// on the same entity across a whole replay costs a few pointer hops per step.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/PropertyVisit.hpp"
#include "vtx/model/Schema.hpp"
#include "vtx/model/Value.hpp"

#include <string>
#include <vector>

namespace vtx {

class PropertyPath {
public:
    struct Segment {
        std::string text;
        bool bracket = false; ///< "[...]": an array index or a map key
        // Cache: the field this segment resolved to for the struct type last seen here.
        mutable int32_t cachedTypeId = -2;
        mutable const FieldDef* cachedField = nullptr;
    };

    /// Parses `text`; an error names the offending position.
    static Result<PropertyPath> parse(std::string_view text);

    const std::string& text() const { return m_text; }
    const std::vector<Segment>& segments() const { return m_segments; }

    /// The value at this path in `c`; Absent when any step does not exist in this frame.
    /// Not thread-safe (the field cache is mutable): give each thread its own copy.
    Value evaluate(ContainerView c, const Schema& schema) const;

    /// When this path is one named field of struct `typeId` holding a single bool, integer,
    /// float, double or string, that field's key (readScalar() reads it as evaluate() would,
    /// without walking the path); otherwise an invalid key. Scans that evaluate a path on every
    /// entity of every frame (queries, filters) take this path for plain fields.
    PropertyKey scalarKey(const Schema& schema, int32_t typeId) const;

private:
    std::string m_text;
    std::vector<Segment> m_segments;
};

namespace detail {
/// readScalar's visitor: a plain value as a Value, anything else absent.
struct PlainValue {
    Value operator()(bool v) const { return Value::ofBool(v); }
    Value operator()(int32_t v) const { return Value::ofInt(v); }
    Value operator()(int64_t v) const { return Value::ofInt(v); }
    Value operator()(float v) const { return Value::ofFloat(v); }
    Value operator()(double v) const { return Value::ofDouble(v); }
    Value operator()(std::string_view v) const { return Value::ofString(v); }
    template <class T> Value operator()(const T&) const { return {}; } // not a plain field (scalarKey gives none)
};
} // namespace detail

/// The value of the field `k` (a scalarKey()) in `c`: what evaluate() gives for that path.
/// Through visitProperty, the one place that maps a key to its member, without the path walk.
inline Value readScalar(ContainerView c, const PropertyKey& k)
{
    return c.isNull() ? Value{} : visitProperty(c, k, detail::PlainValue{});
}

} // namespace vtx
