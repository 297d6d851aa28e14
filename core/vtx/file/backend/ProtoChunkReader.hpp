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
#include <utility>
#include <vector>

namespace vtx {

/// `what` names the chunk in errors (file, chunk, offset); errors add the byte offset in the
/// decoded chunk and the frame, bucket and entity being read.
Result<flatbuffers::DetachedBuffer> flattenProtoChunk(std::span<const uint8_t> wire, const DecodeLimits& limits, const std::string& what);

/// Finds the frames of a Protobuf FrameChunk in a prefix of its decoded bytes, as a stream
/// decode produces them: the SDK writes `frames` (field 4) in frame order, each one
/// length-delimited, so frame k is whole once the prefix reaches its end. Only the top-level
/// fields are read (tags and lengths); a malformed one stops the search, and the whole-chunk
/// read reports it.
class ProtoFrameLocator {
public:
    /// Reads the top-level fields that are whole in `decoded` (a longer prefix of the same bytes
    /// on every call); returns how many frames it found.
    size_t advance(std::span<const uint8_t> decoded);
    /// [begin, end) of every frame found so far, in the decoded chunk, in file order.
    const std::vector<std::pair<size_t, size_t>>& frames() const { return m_frames; }
    /// The chunk_index field, once read (it precedes the frames in the SDK's files).
    int32_t chunkIndex() const { return m_chunkIndex; }

private:
    size_t m_pos = 0;
    bool m_stopped = false;
    int32_t m_chunkIndex = 0;
    std::vector<std::pair<size_t, size_t>> m_frames;
};

/// One frame of a Protobuf chunk, at [begin, end) of its decoded bytes `wire`, as a Chunk
/// FlatBuffer holding just that frame (the form flattenProtoChunk gives the whole chunk, with
/// the same checks and limits). `local` is its index in the chunk, for errors.
Result<flatbuffers::DetachedBuffer> flattenProtoFrame(std::span<const uint8_t> wire, size_t begin, size_t end, int32_t chunkIndex, size_t local,
                                                      const DecodeLimits& limits, const std::string& what);

} // namespace vtx
