// SPDX-License-Identifier: MIT
#include "vtx/map/EntityPositions.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace vtx {

namespace {

std::string lower(std::string_view s)
{
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return r;
}

bool isPositionKind(const FieldDef& f)
{
    return !f.shadowed && f.key.container == ContainerKind::Scalar && (f.key.type == FieldType::Transform || f.key.type == FieldType::Vector);
}

// Preferred names, best first. Transform-like names come after the plain position names: a
// struct with both a Position vector and a Pose transform usually keeps Position as the truth.
constexpr std::string_view kPreferred[] = {"position",    "location",  "origin",         "worldposition", "worldlocation", "pos",   "loc",
                                           "translation", "transform", "worldtransform", "pose",          "center",        "centre"};
// Vectors that are about motion or extent, never where the entity is.
constexpr std::string_view kNotPositions[] = {"velocity", "vel",    "speed", "direction", "dir",   "normal",
                                              "offset",   "extent", "size",  "scale",     "force", "acceleration"};
constexpr std::string_view kRotations[] = {"rotation", "orientation", "heading", "viewangles", "aim", "quat"};

bool mentionsMotion(const std::string& name)
{
    return std::any_of(std::begin(kNotPositions), std::end(kNotPositions), [&](std::string_view bad) { return name.find(bad) != std::string::npos; });
}

} // namespace

std::vector<std::string> positionCandidates(const StructDef& type)
{
    std::vector<std::string> r;
    for (const FieldDef& f : type.fields)
        if (isPositionKind(f))
            r.push_back(f.name);
    return r;
}

EntityPositions::EntityPositions(const Schema& schema) : m_schema(&schema)
{
    m_sources.reserve(schema.structs().size());
    for (const StructDef& s : schema.structs())
        m_sources.push_back(byRules(s));
}

PositionSource EntityPositions::byRules(const StructDef& type) const
{
    PositionSource src;
    const FieldDef* pick = nullptr;
    size_t pickRank = std::size(kPreferred);
    const FieldDef* containing = nullptr;
    const FieldDef* onlyTransform = nullptr;
    size_t transforms = 0;
    for (const FieldDef& f : type.fields) {
        if (!isPositionKind(f))
            continue;
        const std::string name = lower(f.name);
        if (f.key.type == FieldType::Transform) {
            ++transforms;
            onlyTransform = &f;
        }
        for (size_t i = 0; i < pickRank; ++i)
            if (name == kPreferred[i]) {
                pick = &f;
                pickRank = i;
                break;
            }
        if (!containing && !mentionsMotion(name) && (name.find("position") != std::string::npos || name.find("location") != std::string::npos))
            containing = &f;
    }
    if (!pick)
        pick = containing;
    if (!pick && transforms == 1)
        pick = onlyTransform;
    if (!pick)
        return src;
    src.position = pick->key;
    src.field = pick->name;
    if (pick->key.type == FieldType::Vector) {
        for (std::string_view want : kRotations) {
            for (const FieldDef& f : type.fields)
                if (!f.shadowed && f.key.container == ContainerKind::Scalar && f.key.type == FieldType::Quat && lower(f.name) == want) {
                    src.rotation = f.key;
                    src.rotationField = f.name;
                    break;
                }
            if (src.rotation.valid())
                break;
        }
    }
    return src;
}

bool EntityPositions::setOverride(int32_t typeId, const std::string& field)
{
    if (!m_schema || typeId < 0 || size_t(typeId) >= m_sources.size())
        return false;
    const StructDef& type = m_schema->structs()[size_t(typeId)];
    PositionSource src;
    src.overridden = true;
    if (!field.empty()) {
        const FieldDef* f = type.field(field);
        if (!f || !isPositionKind(*f))
            return false;
        // The heading rule stays the same: only where the position lives changes.
        const PositionSource rules = byRules(type);
        src.position = f->key;
        src.field = f->name;
        if (f->key.type == FieldType::Vector) {
            src.rotation = rules.rotation;
            src.rotationField = rules.rotationField;
            if (!src.rotation.valid())
                for (const FieldDef& q : type.fields)
                    if (!q.shadowed && q.key.container == ContainerKind::Scalar && q.key.type == FieldType::Quat) {
                        src.rotation = q.key;
                        src.rotationField = q.name;
                        break;
                    }
        }
    }
    m_sources[size_t(typeId)] = std::move(src);
    return true;
}

void EntityPositions::clearOverride(int32_t typeId)
{
    if (m_schema && typeId >= 0 && size_t(typeId) < m_sources.size())
        m_sources[size_t(typeId)] = byRules(m_schema->structs()[size_t(typeId)]);
}

const PositionSource& EntityPositions::source(int32_t typeId) const
{
    static const PositionSource none;
    return typeId >= 0 && size_t(typeId) < m_sources.size() ? m_sources[size_t(typeId)] : none;
}

const char* upAxisName(UpAxis a)
{
    switch (a) {
    case UpAxis::X: return "X";
    case UpAxis::Y: return "Y";
    case UpAxis::Z: return "Z";
    }
    return "?";
}

const char* planeName(UpAxis a)
{
    switch (a) {
    case UpAxis::X: return "YZ";
    case UpAxis::Y: return "XZ";
    case UpAxis::Z: return "XY";
    }
    return "?";
}

std::optional<double> MapPlane::heading(const Quat& q) const
{
    // v' = q v q*, with v the forward axis; written out for a unit vector along one axis.
    const double x = q.x, y = q.y, z = q.z, w = q.w;
    Vec3 f;
    if (up == UpAxis::X) // forward = +Y: second column of the rotation matrix
        f = {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)};
    else // forward = +X: first column
        f = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
    const auto uv = project(f);
    if (std::hypot(uv[0], uv[1]) < 0.1)
        return std::nullopt;
    return std::atan2(uv[1], uv[0]);
}

UpAxis chooseUpAxis(const std::vector<FrameView>& frames, const EntityPositions& positions)
{
    double lo[3], hi[3];
    std::fill(std::begin(lo), std::end(lo), std::numeric_limits<double>::infinity());
    std::fill(std::begin(hi), std::end(hi), -std::numeric_limits<double>::infinity());
    bool any = false;
    for (const FrameView& f : frames)
        for (const FrameEntity e : f.entities()) {
            const auto p = positions.placementOf(e.entity);
            if (!p)
                continue;
            const double c[3] = {p->position.x, p->position.y, p->position.z};
            if (!std::isfinite(c[0]) || !std::isfinite(c[1]) || !std::isfinite(c[2]))
                continue;
            any = true;
            for (int a = 0; a < 3; ++a)
                lo[a] = std::min(lo[a], c[a]), hi[a] = std::max(hi[a], c[a]);
        }
    if (!any)
        return UpAxis::Z;
    const double sx = hi[0] - lo[0], sy = hi[1] - lo[1], sz = hi[2] - lo[2];
    if (sz <= sx && sz <= sy)
        return UpAxis::Z;
    if (sy <= sx)
        return UpAxis::Y;
    return UpAxis::X;
}

PlacementCount countPlacements(FrameView frame, const EntityPositions& positions)
{
    PlacementCount c;
    for (const FrameEntity e : frame.entities())
        ++(positions.placementOf(e.entity) ? c.placed : c.unplaced);
    return c;
}

} // namespace vtx
