// SPDX-License-Identifier: MIT
#pragma once
// content_hash (spec §6.6): XXH3-64, seed 0, over the container's values in a fixed order.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/ReplayData.hpp"

#include <cstdint>

namespace vtx {

/// Which algorithm a writer used for content_hash.
enum class HashVariant : uint8_t {
    Spec, ///< spec §6.6 as written: every byte of the container, children by their own hash
    SdkTail, ///< SDK v0.2.0 (§6.6 ⚠): one state shared across the recursion, so a container with
    ///< nested containers is hashed from its last nested child onwards only
};

/// Recomputes the hash of a stored container (children recomputed too, not trusted).
uint64_t computeContentHash(ContainerView c);
/// Hash of owned data (children recomputed).
uint64_t computeContentHash(const PropertyContainerData& c);
/// The SDK v0.2.0 writer's hash of the same container (§6.6 ⚠). Equal to computeContentHash
/// exactly when the container holds no nested container
/// (ContainerView::hasNestedContainers).
uint64_t computeSdkContentHash(ContainerView c);
uint64_t computeSdkContentHash(const PropertyContainerData& c);
/// Sets contentHash on `c` and on every nested container, bottom-up.
void fillContentHashes(PropertyContainerData& c, HashVariant variant = HashVariant::Spec);

} // namespace vtx
