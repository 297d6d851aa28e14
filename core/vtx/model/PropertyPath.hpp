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

private:
    std::string m_text;
    std::vector<Segment> m_segments;
};

} // namespace vtx
