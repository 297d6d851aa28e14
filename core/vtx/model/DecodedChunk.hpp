// SPDX-License-Identifier: MIT
#pragma once
// One decoded chunk: an immutable, verified FlatBuffer shared by everything that reads its
// frames. A FrameHandle keeps its chunk alive, so a cache may drop its own reference at any
// time without invalidating a frame on screen.

#include "vtx/file/backend/BackendCodec.hpp"
#include "vtx/model/FrameView.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vtx {

class HashTrust;

/// A chunk whose data was found damaged. zstd keeps no checksum in the SDK's files, so damaged
/// compressed bytes decode to wrong bytes without an error until something downstream fails to
/// parse; the frames decoded before that point came out of the same stream and may hold wrong
/// values where no content hash checks them (review 5: sdk_cs_proto with 4 KB of noise in chunk
/// 0 parsed cleanly up to frame 276 while frames 271-275 held wrong byte arrays).
struct ChunkDamage {
    size_t chunk = 0;
    int32_t firstFrame = 0; ///< the first frame found unreadable (file-wide index)
    /// Every frame from firstFrame on is unreadable: what followed the damage in a zstd stream
    /// (a Protobuf chunk holds its frames in order). Otherwise only the frames that fail are.
    bool laterFramesLost = false;
    std::string reason; ///< why firstFrame cannot be read
};

class DecodedChunk {
public:
    /// `trust`: the file's stored-hash verdicts (null: no stored hash is trusted).
    DecodedChunk(size_t chunkIndex, int32_t startFrame, ChunkStorage storage, std::shared_ptr<const HashTrust> trust = {});
    size_t index() const { return m_index; }
    int32_t startFrame() const { return m_startFrame; }
    size_t frameCount() const { return frames() ? frames()->size() : 0; }
    /// Null when `local` is out of range or the frame fails verification (frameStatus says why).
    FrameView frame(size_t local) const
    {
        if (local >= frameCount() || !frameVerified(local))
            return {};
        const auto* f = frames()->Get(static_cast<flatbuffers::uoffset_t>(local));
        const auto [begin, end] = local < m_frameBytes.size() ? m_frameBytes[local] : std::pair<uint32_t, uint32_t>{};
        return FrameView(f, std::span<const uint8_t>(m_storage.data() + begin, end - begin));
    }
    /// Whether frame `local` passed verification and the decode limits (checked once, on the
    /// first access, when the chunk was parsed without verifying its frames); the error names
    /// the file, chunk and frame.
    Status frameStatus(size_t local) const;
    size_t decodedBlobBytes() const { return m_storage.decodedBlobBytes; }
    int32_t embeddedChunkIndex() const { return m_storage.root->chunk_index(); }
    /// Which stored hashes of this chunk's file cover their whole container; null when none do.
    const HashTrust* hashTrust() const { return m_hashTrust.get(); }
    /// Bytes held by this chunk (what a cache budget counts).
    size_t memoryBytes() const { return m_storage.sizeBytes() + sizeof(*this); }
    /// Set when this chunk's data is known to be damaged: given by the reader (a frame handed
    /// out from a chunk whose decode failed), or found here when one of its frames failed
    /// verification. Frames that read from such a chunk are suspect, not proven wrong.
    std::optional<ChunkDamage> damage() const;
    /// Before the chunk is shared: the damage the reader found in the chunk this frame came from.
    void setDamage(ChunkDamage damage) { m_damage = std::move(damage); }

private:
    const flatbuffers::Vector<flatbuffers::Offset<fbsvtx::Frame>>* frames() const { return m_storage.root->frames(); }
    size_t m_index;
    int32_t m_startFrame;
    ChunkStorage m_storage;
    std::shared_ptr<const HashTrust> m_hashTrust;
    std::vector<std::pair<uint32_t, uint32_t>> m_frameBytes; ///< per frame [begin, end) in the buffer; see FrameView::bytes()
    /// Per frame when frames are verified lazily: 0 not yet, 1 good, 2 bad. Racing first accesses
    /// verify twice and store the same answer.
    std::unique_ptr<std::atomic<uint8_t>[]> m_frameState;
    std::optional<ChunkDamage> m_damage;
    /// The lowest frame (local) found failing verification so far, -1 none.
    mutable std::atomic<int64_t> m_firstBadLocal{-1};

    bool frameVerified(size_t local) const
    {
        if (!m_frameState)
            return true;
        uint8_t s = m_frameState[local].load(std::memory_order_acquire);
        if (s == 0) {
            s = verifyFrame(local) ? 1 : 2;
            m_frameState[local].store(s, std::memory_order_release);
            if (s == 2)
                noteBadFrame(local);
        }
        return s == 1;
    }
    void noteBadFrame(size_t local) const;
    Status verifyFrame(size_t local) const;
};

/// A frame plus the shared ownership that keeps its bytes valid.
class FrameHandle {
public:
    FrameHandle() = default;
    FrameHandle(std::shared_ptr<const DecodedChunk> chunk, int32_t frameIndex)
        : m_chunk(std::move(chunk)), m_index(frameIndex), m_view(m_chunk->frame(static_cast<size_t>(frameIndex - m_chunk->startFrame())))
    {
    }
    bool isNull() const { return !m_chunk; }
    int32_t index() const { return m_index; }
    const FrameView& view() const { return m_view; }
    const FrameView* operator->() const { return &m_view; }
    const std::shared_ptr<const DecodedChunk>& chunk() const { return m_chunk; }

private:
    std::shared_ptr<const DecodedChunk> m_chunk;
    int32_t m_index = -1;
    FrameView m_view;
};

} // namespace vtx
