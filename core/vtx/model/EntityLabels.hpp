// SPDX-License-Identifier: MIT
#pragma once
// Readable names for entities: per entity type, the scalar String property that names an entity
// of that type ("DisplayName", "Name", "UserName", …), chosen from the schema and overridable per
// type. The label is always read from the frame being shown (a name may change between frames)
// and is empty when that frame's entity does not hold it: callers then show the unique id, so a
// label never names an entity with a value it does not have.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/Schema.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace vtx {

class EntityLabels {
public:
    EntityLabels() = default;
    /// Picks a label property for every struct of `schema`: the first of the well-known label
    /// names (DisplayName, Name, UserName, PlayerName, NickName, CustomName, Title, Label; case
    /// ignored), else the first other scalar String field whose name ends in "Name" and does not
    /// name a resource or a type (MapName yes; MeshName, ClassName no); else none (id only).
    /// Ids (UniqueID, Identifier, OwnerId…) are never labels.
    static EntityLabels choose(const Schema& schema);
    /// The field `choose` picks for `def`; null when its entities show their id.
    static const FieldDef* defaultField(const StructDef& def);

    /// The scalar, named, unshadowed String fields of `def` a user may pick as its label, in
    /// schema order.
    static std::vector<std::string> candidates(const StructDef& def);

    /// Uses `field` as the label of type `typeName` (empty: id only). False, and nothing
    /// changes, when the type is unknown or `field` is not one of its candidates.
    bool setField(const Schema& schema, std::string_view typeName, std::string_view field);

    /// The label property of `typeId` ("" when the type shows its id only).
    std::string_view field(int32_t typeId) const;

    /// The entity's label in the frame it comes from: the label property's value, or empty when
    /// its type has none, the entity does not hold it in this frame, or it is the empty string.
    std::string_view label(const ContainerView& entity) const
    {
        const int32_t t = entity.typeId();
        if (t < 0 || size_t(t) >= m_keys.size() || !m_keys[size_t(t)].valid())
            return {};
        return entity.get<std::string_view>(m_keys[size_t(t)]).value_or(std::string_view{});
    }

    bool empty() const { return m_keys.empty(); }

private:
    std::vector<PropertyKey> m_keys; ///< per type id; invalid: id only
    std::vector<std::string> m_fields; ///< per type id; "" for id only
};

} // namespace vtx
