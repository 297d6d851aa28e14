// SPDX-License-Identifier: MIT
#pragma once
// Whether the values of a frame are the values the writer stored: every container's stored
// content hash is checked against its values, with whichever algorithm the writer used (the
// spec's or the SDK v0.2.0 variant, spec §6.6 ⚠). Files carry no zstd checksum and damaged value
// bytes pass the FlatBuffers verifier, so this is the only check that notices a float changed
// in storage.
//
// What a stored hash covers: the spec's covers the whole container, nested ones included; the
// SDK variant covers a container with nested containers only from its last nested container on,
// so damage to its earlier values cannot be told (`partlyCovered` counts such containers). A
// container whose stored hash matches neither variant is damaged — unless hashes of its type
// never matched any variant in this file (HashTrust evidence), which means a writer with
// another algorithm, and the container is only `unchecked`. A stored hash of 0 is "none": damage
// in a file whose hashes are known to be written (a wiped FlatBuffers vtable reads as hash 0,
// type 0 and no values), else unchecked.
//
// Runs where values are shown or exported (inspector, diff panel, frame JSON, validate): one
// frame costs about one pass of XXH3 over its values (twice for SDK-variant types with nested
// containers); scans and full reads do not pay it.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/Schema.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vtx {

class HashTrust;

/// A container whose stored hash matches neither variant recomputed from its values.
struct DamagedContainer {
    uint32_t bucket = 0;
    uint32_t entity = 0; ///< index in the bucket
    std::string uniqueId;
    std::string path; ///< "" for the entity itself, else as the inspector writes it: "Equipment",
        ///< "Items[2]", "Stats[round_1]"; unnamed members as ".struct[3]"
    int32_t typeId = -1;
    uint64_t stored = 0; ///< the stored content_hash
    uint64_t spec = 0; ///< recomputed, spec §6.6
    uint64_t sdk = 0; ///< recomputed, SDK v0.2.0 variant
};

struct FrameIntegrity {
    std::vector<DamagedContainer> damaged; ///< outer containers before the ones inside them
    uint64_t checked = 0; ///< containers whose stored hash matched a variant
    uint64_t partlyCovered = 0; ///< of those: SDK variant with nested containers (head not covered)
    uint64_t unchecked = 0; ///< stored hash 0, or a type whose hashes never match in this file

    bool clean() const { return damaged.empty(); }
    bool isDamaged(uint32_t bucket, uint32_t entity) const;
    /// The damaged containers of one entity (the entity itself first when it is one).
    std::vector<const DamagedContainer*> damageOf(uint32_t bucket, uint32_t entity) const;
};

/// Checks every container of `frame`. `trust` (may be null) only orders the two variants and
/// tells a type whose hashes never match any variant; the verdict itself is per container.
FrameIntegrity checkFrameIntegrity(FrameView frame, const Schema& schema, const HashTrust* trust);

/// The same check for one entity's container (a plot's entity over many frames): its
/// damaged containers (bucket and entity index 0, no unique id), counts for it alone. `frame`
/// (the entity's) decides, like checkFrameIntegrity, whether a missing hash is damage when the
/// file's sampled evidence cannot tell (nothing sampled matched yet).
FrameIntegrity checkEntityIntegrity(ContainerView entity, const Schema& schema, const HashTrust* trust, FrameView frame = {});

/// One line for people: "stored hash of Player 'p1' (bucket 0) .Equipment differs from its values".
std::string damageText(const DamagedContainer& d, const Schema& schema);

} // namespace vtx
