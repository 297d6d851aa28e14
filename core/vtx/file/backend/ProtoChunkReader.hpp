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

#include <atomic>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace vtx {

/// How large a buffer to give a chunk's flattened form before reading it: running out means a
/// new block and a copy of everything written so far (for a fresh block, its pages faulted in
/// too). The flattened form is 1.19-1.26x the wire bytes in CS-like files and 1.6-1.95x in
/// RL-like and arena files (the SDK's samples and the generator's), and the fixed 1.5x this
/// replaced grew every chunk of the second kind: a new block and a copy of ~1.5 MB per RL-like
/// chunk (3.6 % of a full read's instructions, callgrind). This learns the ratio from the chunks
/// flattened so far and gives at least 1.5x. It is only a size: the bytes written are the same
/// whatever it says.
class FlattenedSizeEstimate {
public:
    explicit FlattenedSizeEstimate(uint32_t ratioPermille = 1500) : m_ratioPermille(ratioPermille) { }
    /// The last ratio seen, 5 % over (the chunks of one file differ by up to 3 %), at least 1.5x,
    /// plus room for the tables of a tiny chunk.
    size_t capacityFor(size_t wireBytes) const;
    void observe(size_t wireBytes, size_t flattenedBytes);
    uint32_t ratioPermille() const { return m_ratioPermille.load(std::memory_order_relaxed); }

    /// The one every chunk decode uses. Shared by the files of a process: two files of different
    /// shapes decoded in turn may each grow once in a while, as every chunk did with a fixed ratio.
    static FlattenedSizeEstimate& shared();

private:
    std::atomic<uint32_t> m_ratioPermille;
};

/// `what` names the chunk in errors (file, chunk, offset); errors add the byte offset in the
/// decoded chunk and the frame, bucket and entity being read. `sizing`: see FlattenedSizeEstimate.
Result<flatbuffers::DetachedBuffer> flattenProtoChunk(std::span<const uint8_t> wire, const DecodeLimits& limits, const std::string& what,
                                                      FlattenedSizeEstimate& sizing = FlattenedSizeEstimate::shared());

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
