// SPDX-License-Identifier: MIT
#pragma once
// Where each entity is on a 2D map, read from the schema rather than from game-specific code:
// per struct type, the field its position lives in (a Transform's translation or a Vector,
// picked by name and kind), the quaternion its heading comes from, and which world axis is "up"
// (the one the entities spread least along). Overridable per type; everything here is plain
// data so the GUI can remember the user's choices and the tests can check the defaults.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/Schema.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace vtx {

/// Where one struct type's position and heading live; `position` invalid: the type has none.
struct PositionSource {
    PropertyKey position; ///< a scalar Transform (translation, and rotation for the heading) or Vector field
    PropertyKey rotation; ///< a scalar Quat field for the heading when `position` is a Vector; else invalid
    std::string field; ///< the position field's name ("" when none)
    std::string rotationField;
    bool overridden = false; ///< chosen by the user, not by the name rules
    bool valid() const { return position.valid(); }
};

/// One entity's place in the world, as read from a frame.
struct Placement {
    Vec3 position;
    std::optional<Quat> rotation;
};

/// Fields of `type` a position could come from: its scalar Transform and Vector fields, in
/// schema order (what the GUI offers as overrides).
std::vector<std::string> positionCandidates(const StructDef& type);

class EntityPositions {
public:
    EntityPositions() = default;
    /// Picks a position for every struct type of `schema` by the name rules: an exact name from
    /// the preferred list (Position, Location, Origin, Transform, Pose, ...; case-insensitive),
    /// then a name containing "position" or "location", then the only Transform field; Vector
    /// fields named like motion (Velocity, Offset, Extent, ...) are never picked.
    explicit EntityPositions(const Schema& schema);

    /// Uses field `field` (a scalar Transform or Vector of `typeId`) for the type's position;
    /// empty `field`: the type has no position. False, and nothing changes, for any other field.
    bool setOverride(int32_t typeId, const std::string& field);
    /// Back to the name rules for `typeId`.
    void clearOverride(int32_t typeId);

    const PositionSource& source(int32_t typeId) const;
    const std::vector<PositionSource>& sources() const { return m_sources; }

    /// The entity's position (and rotation, when the type has one); nullopt when its type has no
    /// position or this frame does not store it.
    std::optional<Placement> placementOf(ContainerView entity) const
    {
        const int32_t t = entity.typeId();
        if (t < 0 || size_t(t) >= m_sources.size())
            return std::nullopt;
        const PositionSource& s = m_sources[size_t(t)];
        if (s.position.type == FieldType::Transform) {
            if (auto tr = entity.get<Transform>(s.position))
                return Placement{tr->translation, tr->rotation};
            return std::nullopt;
        }
        if (s.position.type == FieldType::Vector) {
            if (auto v = entity.get<Vec3>(s.position)) {
                Placement p{*v, std::nullopt};
                if (s.rotation.valid())
                    p.rotation = entity.get<Quat>(s.rotation);
                return p;
            }
        }
        return std::nullopt;
    }

private:
    PositionSource byRules(const StructDef& type) const;
    const Schema* m_schema = nullptr;
    std::vector<PositionSource> m_sources; ///< by type id
};

/// The world axis that points up, out of the map.
enum class UpAxis : uint8_t { X, Y, Z };
const char* upAxisName(UpAxis a); ///< "X", "Y", "Z"
/// "YZ", "XZ", "XY": the map's plane for an up axis.
const char* planeName(UpAxis a);

/// How world positions land on the map plane: the two axes across the up axis (X up: Y right,
/// Z top; Y up: X right, Z top; Z up: X right, Y top), the horizontal one mirrored when `flip`.
struct MapPlane {
    UpAxis up = UpAxis::Z;
    bool flip = false;
    /// Map coordinates: u to the right, v to the top, in world units.
    std::array<double, 2> project(const Vec3& p) const
    {
        double u = 0, v = 0;
        switch (up) {
        case UpAxis::X: u = p.y, v = p.z; break;
        case UpAxis::Y: u = p.x, v = p.z; break;
        case UpAxis::Z: u = p.x, v = p.y; break;
        }
        return {flip ? -u : u, v};
    }
    /// Heading in the map plane, radians counter-clockwise from +u: where the rotation takes the
    /// forward axis (X forward when Z or Y is up, as in Unreal; Y forward when X is up). Nullopt
    /// when the forward axis points (almost) straight up.
    std::optional<double> heading(const Quat& q) const;
};

/// The axis with the least spread (max − min) of the positions of every entity in `frames`;
/// Z when there is no position at all (ties go to Z, then Y). Pass the first frames of a replay.
UpAxis chooseUpAxis(const std::vector<FrameView>& frames, const EntityPositions& positions);

/// Counts of one frame: entities on the map and entities whose type has no position (or whose
/// frame did not store it).
struct PlacementCount {
    size_t placed = 0;
    size_t unplaced = 0;
};
PlacementCount countPlacements(FrameView frame, const EntityPositions& positions);

} // namespace vtx
