// SPDX-License-Identifier: MIT
#pragma once
// The Protobuf chunk reader vtxscope used before ProtoChunkReader: libprotobuf parses the chunk
// into message objects, then a second pass copies them into the FlatBuffers form. Kept as the
// reference the direct reader is checked against (tst_protoreader, the chunk fuzz target) and
// as the baseline `vtxscope-bench decode-phases` measures it against.

#include "vtx_generated.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace vtxref {

/// Null when libprotobuf rejects the bytes or nesting exceeds `maxDepth`.
std::optional<flatbuffers::DetachedBuffer> flattenWithLibprotobuf(std::span<const uint8_t> wire, int maxDepth);

/// Where two decoded chunks differ ("" when they hold the same values). Floats are compared by
/// their bits, so NaNs compare equal to themselves; an absent vector equals an empty one.
std::string chunkDifference(const fbsvtx::Chunk& a, const fbsvtx::Chunk& b);

} // namespace vtxref
