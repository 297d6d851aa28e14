// SPDX-License-Identifier: MIT
#pragma once
// Stored data that no schema name addresses (spec §5.5, §6.3, §9.1 item 12): byte arrays, map
// arrays, ranges, slots past the ones the schema's fields number, and every member of a
// container whose type the schema does not know. A viewer must still show it: the SDK's own
// CS-like files keep ~18 KB of bone payload per frame in byte_array_properties.
//
// The SDK's blob convention: its blob loader stores the bytes meant for an Int8-array field in
// byte_array_properties at that field's slot index, and the field's own slot (in int32_arrays)
// stays empty. Such bytes are shown under the field's name, marked as a blob.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/Schema.hpp"

#include <span>
#include <vector>

namespace vtx {

struct UnnamedSlot {
    PropertyKey key; ///< ContainerKind::Unnamed: member and slot (visitProperty reads it)
    const FieldDef* blobOf = nullptr; ///< byte arrays: the Int8-array field whose blob these bytes are
};

/// Number of slots `c` stores in member `m` (elements, sub-arrays or list entries).
size_t memberSlotCount(ContainerView c, ContainerMember m);

/// Appends every unnamed slot of `c` to `out`, in member order (empty sub-arrays are skipped:
/// they hold nothing). Blob-convention byte arrays are included, with `blobOf` set.
void unnamedSlots(ContainerView c, const Schema& schema, std::vector<UnnamedSlot>& out);

/// Whether `c` stores anything unnamed (cheaper than listing it: member sizes only).
bool hasUnnamedData(ContainerView c, const StructDef* def);

/// The bytes the SDK's blob convention stored for field `f` (an Int8 array whose own sub-array is
/// empty); empty when the convention does not apply.
std::span<const uint8_t> blobBytes(ContainerView c, const FieldDef& f);

/// Display name of an unnamed slot: "byte_array_properties[2]".
std::string unnamedSlotName(const PropertyKey& k);

} // namespace vtx
