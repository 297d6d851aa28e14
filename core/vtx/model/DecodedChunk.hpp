// SPDX-License-Identifier: MIT
#pragma once
// One decoded chunk: an immutable, verified FlatBuffer shared by everything that reads its
// frames. A FrameHandle keeps its chunk alive, so a cache may drop its own reference at any
// time without invalidating a frame on screen.

#include "vtx/file/backend/BackendCodec.hpp"
#include "vtx/model/FrameView.hpp"

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

namespace vtx {

class HashTrust;

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

    bool frameVerified(size_t local) const
    {
        if (!m_frameState)
            return true;
        uint8_t s = m_frameState[local].load(std::memory_order_acquire);
        if (s == 0) {
            s = verifyFrame(local) ? 1 : 2;
            m_frameState[local].store(s, std::memory_order_release);
        }
        return s == 1;
    }
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
