// SPDX-License-Identifier: MIT
#pragma once
// The embedded property schema (spec §5): names struct type ids and maps (struct, property name)
// to a typed slot, following the SDK registry's exact token and slot-counter rules.

#include "vtx/base/Status.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vtx {

enum class FieldType : uint8_t { None, Bool, Int8, Int32, Int64, Float, Double, String, Vector, Quat, Transform, Struct };
/// Scalar / Array / Map: how a schema field is stored (§5.5). Unnamed: not a schema kind but the
/// address of stored data no field names (a PropertyKey's `member` and `slot`, see UnnamedData).
enum class ContainerKind : uint8_t { Scalar, Array, Map, Unnamed };

/// Every value member of a PropertyContainer (spec §6.3), named as in the FlatBuffers schema.
enum class ContainerMember : uint8_t {
    Bools,
    Int32s,
    Int64s,
    Floats,
    Doubles,
    Strings,
    Transforms,
    Vectors,
    Quats,
    Ranges,
    ByteArrays,
    Int32Arrays,
    Int64Arrays,
    FloatArrays,
    DoubleArrays,
    VectorArrays,
    QuatArrays,
    TransformArrays,
    RangeArrays,
    BoolArrays,
    StringArrays,
    Structs,
    StructArrays,
    Maps,
    MapArrays
};
constexpr size_t kContainerMemberCount = size_t(ContainerMember::MapArrays) + 1;
/// "bool_properties", "byte_array_properties", "map_arrays", ...
const char* containerMemberName(ContainerMember m);

const char* fieldTypeName(FieldType t);
const char* containerKindName(ContainerKind c);
/// The registry's typeId token table (§5.2); unknown tokens are FieldType::None.
FieldType fieldTypeFromToken(std::string_view token);
/// Exactly "array" / "map"; everything else is scalar (§5.2, case-sensitive like the SDK).
ContainerKind containerKindFromToken(std::string_view token);

/// A resolved property address: reading a value through it is O(1).
struct PropertyKey {
    int32_t typeId = -1; ///< struct that owns the field
    FieldType type = FieldType::None;
    ContainerKind container = ContainerKind::Scalar;
    ContainerMember member = ContainerMember::Bools; ///< for ContainerKind::Unnamed: the member holding it
    uint32_t slot = 0; ///< index into the typed vector / FlatArray / map list
    int32_t structTypeId = -1; ///< for Struct fields: type id of the nested struct
    bool valid() const { return type != FieldType::None || container == ContainerKind::Unnamed; }
    /// The address of slot `slot` of `member` in a container of type `owner`, which no field names.
    static PropertyKey unnamed(int32_t owner, ContainerMember member, uint32_t slot)
    {
        PropertyKey k;
        k.typeId = owner;
        k.container = ContainerKind::Unnamed;
        k.member = member;
        k.slot = slot;
        return k;
    }
};
/// The member a named key's values live in.
ContainerMember memberOf(const PropertyKey& k);

struct FieldDef {
    std::string name;
    std::string typeToken;
    std::string structType;
    std::string keyId;
    std::string displayName;
    std::string category;
    std::string tooltip;
    PropertyKey key;
    bool shadowed = false; ///< a later field of the same struct has the same name (§5.4): lookups never find this one
};

/// The PropertyContainer member a field's values live in when they are plain old data (all
/// float fields share float_properties, ...); Other for strings, structs and maps. Fields of a
/// struct share a few members, so a comparison that finds a member bytewise equal on both sides
/// skips every field stored in it.
enum class PodMember : uint8_t {
    Bools,
    Int32s,
    Int64s,
    Floats,
    Doubles,
    Vectors,
    Quats,
    Transforms,
    BoolArrays,
    Int32Arrays,
    Int64Arrays,
    FloatArrays,
    DoubleArrays,
    VectorArrays,
    QuatArrays,
    TransformArrays,
    Other
};
constexpr size_t kPodMemberCount = size_t(PodMember::Other) + 1;
PodMember podMemberOf(const PropertyKey& k);

struct StructDef {
    std::string name;
    int32_t typeId = -1;
    std::vector<FieldDef> fields; ///< in schema order
    /// Per PodMember, a bitmap over `fields` (bit i = field i) of the addressable fields stored
    /// there (named, valid key, not shadowed); `podMembersUsed` lists members with any field.
    std::vector<uint64_t> fieldsByMember[kPodMemberCount];
    std::vector<PodMember> podMembersUsed;
    /// Per ContainerMember, one past the highest slot a named, unshadowed field addresses (every
    /// counter of §5.4 numbers from 0, so those slots are [0, end)); the rest is unnamed.
    uint32_t namedSlotEnd[kContainerMemberCount] = {};
    uint32_t namedMemberMask = 0; ///< bit m: some field addresses member m (namedSlotEnd[m] > 0)
    /// The scalar String fields among PodMember::Other's (bitmap over `fields`): the diff compares
    /// string_properties once and skips them all when equal.
    std::vector<uint64_t> stringFields;
    size_t fieldWords() const { return (fields.size() + 63) / 64; }
    const FieldDef* field(std::string_view name) const;
    std::unordered_map<std::string, size_t> fieldIndexByName; ///< later duplicate wins (§5.4)
};

class Schema {
public:
    /// Parses the schema JSON. Wrong JSON value types, a missing `property_mapping` or
    /// malformed JSON are errors (the SDK refuses such schemas too); problems that the SDK
    /// tolerates (duplicate names, unknown type tokens, unknown struct types) become warnings.
    static Result<Schema> parse(std::string_view json, std::vector<Problem>* warnings = nullptr);

    bool empty() const { return m_structs.empty(); }
    const std::string& version() const { return m_version; }
    const std::vector<std::string>& bucketNames() const { return m_bucketNames; }
    /// Schema name of bucket `index`, or "bucket_<index>" when the schema names fewer buckets.
    std::string bucketName(size_t index) const;
    const std::vector<StructDef>& structs() const { return m_structs; }
    const StructDef* structById(int32_t typeId) const
    {
        return typeId >= 0 && static_cast<size_t>(typeId) < m_structs.size() ? &m_structs[static_cast<size_t>(typeId)] : nullptr;
    }
    const StructDef* structByName(std::string_view name) const;
    /// Resolves (struct, property) once; an invalid key when either name is unknown.
    PropertyKey key(std::string_view structName, std::string_view property) const;
    PropertyKey key(int32_t typeId, std::string_view property) const;

private:
    std::string m_version;
    std::vector<std::string> m_bucketNames;
    std::vector<StructDef> m_structs;
    std::unordered_map<std::string, int32_t> m_typeIdByName;
};

} // namespace vtx
