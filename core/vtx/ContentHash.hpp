#pragma once
// content_hash (spec §6.6): XXH3-64, seed 0, over the container's values in a fixed order.

#include "vtx/FrameView.hpp"
#include "vtx/ReplayData.hpp"

#include <cstdint>

namespace vtx {

/// Recomputes the hash of a stored container (children recomputed too, not trusted).
uint64_t computeContentHash(ContainerView c);
/// Hash of owned data (children recomputed).
uint64_t computeContentHash(const PropertyContainerData& c);
/// Sets contentHash on `c` and on every nested container, bottom-up.
void fillContentHashes(PropertyContainerData& c);

} // namespace vtx
