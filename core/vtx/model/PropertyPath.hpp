// SPDX-License-Identifier: MIT
#pragma once
// A property path parsed once and evaluated on many frames without allocating: the inspector's
// path syntax ("Health", "Weapon.Attachment.Name", "Trail[2].x", "RoundStats[round_1].Kills",
// "Pose.translation.z"). Field lookups are cached per struct type, so evaluating the same path
// on the same entity across a whole replay costs a few pointer hops per step.

#include "vtx/model/FrameView.hpp"
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

/// The value of the field `k` (a scalarKey()) in `c`: what evaluate() gives for that path.
inline Value readScalar(ContainerView c, const PropertyKey& k)
{
    const uint32_t i = k.slot;
    if (c.isNull())
        return {};
    switch (k.type) {
    case FieldType::Bool: {
        const auto sp = c.bools();
        return i < sp.size() ? Value::ofBool(sp[i] != 0) : Value{};
    }
    case FieldType::Int8:
    case FieldType::Int32: {
        const auto sp = c.int32s();
        return i < sp.size() ? Value::ofInt(sp[i]) : Value{};
    }
    case FieldType::Int64: {
        const auto sp = c.int64s();
        return i < sp.size() ? Value::ofInt(sp[i]) : Value{};
    }
    case FieldType::Float: {
        const auto sp = c.floats();
        return i < sp.size() ? Value::ofFloat(sp[i]) : Value{};
    }
    case FieldType::Double: {
        const auto sp = c.doubles();
        return i < sp.size() ? Value::ofDouble(sp[i]) : Value{};
    }
    case FieldType::String: {
        const StringList sp = c.strings();
        return i < sp.size() ? Value::ofString(sp[i]) : Value{};
    }
    default: return {};
    }
}

} // namespace vtx
