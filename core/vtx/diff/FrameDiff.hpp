// SPDX-License-Identifier: MIT
#pragma once
// What changed between two frames, in entities and named properties. Entities are matched by
// unique id per bucket (not by position); changes go down into nested structs, arrays
// (element-wise, with length changes) and maps (by key). Entities and nested structs whose
// stored content hashes and types are equal are skipped without reading their properties, but
// only where the file's HashTrust says the stored hash covers the whole container.
//
// The result is flat and reusable (diffFrames() clears and refills it, keeping capacity), and
// its values view strings inside the two frames, so it holds their handles.

#include "vtx/base/AppendArray.hpp"
#include "vtx/integrity/HashTrust.hpp"
#include "vtx/model/DecodedChunk.hpp"
#include "vtx/model/Schema.hpp"
#include "vtx/model/Value.hpp"

#include <span>
#include <string>
#include <vector>

namespace vtx {

struct EntityRef {
    uint32_t bucket = 0;
    std::string uniqueId;
    friend bool operator==(const EntityRef&, const EntityRef&) = default;
};

struct DiffOptions {
    FloatTolerance tolerance; ///< applies to float, double, vector, quat, transform
    std::vector<std::string> ignore; ///< property names ignored at any depth ("Timestamp")
    std::vector<EntityRef> only; ///< when non-empty, only these entities are compared
    bool useContentHash = true; ///< the equal-hash short-circuit where HashTrust allows it (off: compare values)
    /// Whose stored hashes may stand in for values. Null: the FrameHandle overloads use each
    /// frame's own file's (its chunk's), the FrameView overloads trust no stored hash.
    const HashTrust* hashTrust = nullptr;
    uint32_t maxChangesPerProperty = 1000; ///< element changes kept per array/map; the rest are counted
};

enum class EntityStatus : uint8_t { Added, Removed, Changed };
/// Changed: present in both with different values. Added / Removed: an array element or map
/// key only in B / only in A. TypeChanged: the entity's or struct's type differs.
enum class ChangeKind : uint8_t { Changed, Added, Removed, TypeChanged };

const char* entityStatusName(EntityStatus s);
const char* changeKindName(ChangeKind k);

struct PathStep {
    /// Unnamed: stored data no field names (UnnamedData): `member`, slot in `index`, owner type
    /// in `typeId`; shown as "byte_array_properties[2]", or as the field's name for the SDK's blob
    /// convention (an Int8-array field whose bytes sit in byte_array_properties).
    enum class Kind : uint8_t { Field, Index, Key, Unnamed };
    Kind kind = Kind::Field;
    ContainerMember member = ContainerMember::Bools; ///< Unnamed only
    int32_t typeId = -1; ///< Field: the struct owning the field
    uint32_t index = 0; ///< Field: index in StructDef::fields; Index: element index; Key: key length
    const char* keyData = nullptr; ///< Key: the map key's bytes (in frame A or B)
    std::string_view key() const { return {keyData, index}; }

    static PathStep field(int32_t typeId, uint32_t index) { return {Kind::Field, {}, typeId, index, nullptr}; }
    static PathStep element(size_t index) { return {Kind::Index, {}, -1, uint32_t(index), nullptr}; }
    static PathStep mapKey(std::string_view key) { return {Kind::Key, {}, -1, uint32_t(key.size()), key.data()}; }
    static PathStep unnamed(const PropertyKey& k) { return {Kind::Unnamed, k.member, k.typeId, k.slot, nullptr}; }
};

/// Where one side's value of a change lives: the diff records references, not copies, so a
/// diff of many changes costs a few words each; values are lifted only when shown.
struct ValueRef {
    enum class Part : uint8_t {
        Whole, ///< the property `key` of `parent` (a scalar, or an array/map as a whole)
        Element, ///< element `index` of the array property `key`
        MapValue, ///< value `index` of the map property `key`
        Self, ///< `parent` itself (an entity or struct whose type changed)
    };
    const fbsvtx::PropertyContainer* parent = nullptr; ///< null: absent on this side
    PropertyKey key;
    uint32_t index = 0;
    Part part = Part::Whole;
    Value lift() const;
};

/// One change. Both sides' references share the key, so a change is 56 bytes: a diff of
/// hundreds of array elements writes little more than it compares.
struct PropertyChange {
    const fbsvtx::PropertyContainer* parentA = nullptr; ///< null: absent on side A
    const fbsvtx::PropertyContainer* parentB = nullptr; ///< null: absent on side B
    PropertyKey key;
    uint32_t indexA = 0, indexB = 0;
    uint32_t pathBegin = 0, pathSize = 0; ///< steps[pathBegin, pathBegin + pathSize), shared by changes with the same path
    ChangeKind kind = ChangeKind::Changed;
    ValueRef::Part partA = ValueRef::Part::Whole, partB = ValueRef::Part::Whole;

    /// An array element's change: its index is not a path step but `elementIndex()` (changes
    /// of one array share their path steps).
    bool isElement() const { return partA == ValueRef::Part::Element || partB == ValueRef::Part::Element; }
    uint32_t elementIndex() const { return partA == ValueRef::Part::Element ? indexA : indexB; }

    ValueRef refA() const { return {parentA, key, indexA, partA}; }
    ValueRef refB() const { return {parentB, key, indexB, partB}; }
    Value a() const { return refA().lift(); }
    Value b() const { return refB().lift(); }
};

struct EntityDiff {
    EntityStatus status = EntityStatus::Changed;
    uint32_t bucket = 0;
    std::string_view uniqueId;
    int32_t typeIdA = -1, typeIdB = -1;
    int32_t indexA = -1, indexB = -1; ///< position in the bucket; -1 when absent
    uint32_t firstChange = 0, changeCount = 0;
};

struct BucketDiffCounts {
    uint32_t added = 0, removed = 0, changed = 0, unchanged = 0;
    uint32_t skippedByHash = 0; ///< unchanged entities decided by the content hash alone
};

class FrameDiff {
public:
    FrameHandle a, b; ///< keep the frames' chunks (and the views below) alive; may be null
    std::vector<EntityDiff> entities;
    AppendArray<PropertyChange> changes;
    AppendArray<PathStep> steps;
    std::vector<BucketDiffCounts> buckets;
    uint64_t omittedChanges = 0; ///< element changes beyond maxChangesPerProperty

    void clear();
    std::span<const PropertyChange> changesOf(const EntityDiff& e) const { return {changes.data() + e.firstChange, e.changeCount}; }
    /// The steps down to the property; an element change adds its `elementIndex()` (pathText does).
    std::span<const PathStep> pathOf(const PropertyChange& c) const { return {steps.data() + c.pathBegin, c.pathSize}; }
    /// "Weapon.Ammo", "Trail[2]", "RoundStats[r1].Kills": the inspector's path syntax.
    std::string pathText(const PropertyChange& c, const Schema& schema) const;
    /// Name of the last step ("Ammo", "[2]").
    std::string leafName(const PropertyChange& c, const Schema& schema) const;
    BucketDiffCounts totals() const;
    bool empty() const { return entities.empty(); }
};

/// Diffs two frame views into `out` (cleared first; capacity is reused). The views must stay
/// valid while `out` is used; prefer the FrameHandle overload, which keeps them alive.
void diffFrames(FrameView a, FrameView b, const Schema& schema, const DiffOptions& options, FrameDiff& out);
/// Two trust objects: frames of two files (each side's hashes are judged by its own file).
void diffFrames(FrameView a, FrameView b, const Schema& schema, const DiffOptions& options, const HashTrust* trustA, const HashTrust* trustB,
                FrameDiff& out);
void diffFrames(const FrameHandle& a, const FrameHandle& b, const Schema& schema, const DiffOptions& options, FrameDiff& out);
FrameDiff diffFrames(const FrameHandle& a, const FrameHandle& b, const Schema& schema, const DiffOptions& options = {});

} // namespace vtx
