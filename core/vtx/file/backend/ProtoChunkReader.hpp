// SPDX-License-Identifier: MIT
#pragma once
// Reads a Protobuf FrameChunk's wire bytes straight into the FlatBuffers Chunk form everything
// above the codecs reads. libprotobuf built a heap message per Vector, Transform and container
// (millions per chunk) and a second pass copied them into FlatBuffers; this reads each field once
// and writes it once, and checks the DecodeLimits on the way, so the result needs no verifier
// and no limits pass.
//
// Accepts what a conforming proto3 parser accepts: fields in any order, repeated scalars packed
// or not, repeated occurrences of a message field merged, unknown fields skipped; rejects
// truncated or malformed data, groups and invalid UTF-8 in `string` fields.

#include "vtx/base/Status.hpp"
#include "vtx/file/backend/BackendCodec.hpp"

#include <span>
#include <string>

namespace vtx {

/// `what` names the chunk in errors (file, chunk, offset); errors add the byte offset in the
/// decoded chunk and the frame, bucket and entity being read.
Result<flatbuffers::DetachedBuffer> flattenProtoChunk(std::span<const uint8_t> wire, const DecodeLimits& limits, const std::string& what);

} // namespace vtx
