// SPDX-License-Identifier: MIT
#pragma once
// Blob encoding (spec §1.3): a blob is one zstd frame iff it starts with the zstd magic,
// otherwise the raw serialized message.

#include "vtx/base/Status.hpp"
#include "vtx/file/ByteSource.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace vtx {

/// An owned, uninitialised-on-allocation byte buffer (decoded chunks are large; zero-filling
/// them first would cost as much as a memcpy). Large ones get huge pages (vtx/LargeAlloc.hpp).
/// Alignment suits FlatBuffers.
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(size_t size);
    Buffer(Buffer&& o) noexcept : m_data(std::exchange(o.m_data, nullptr)), m_size(std::exchange(o.m_size, 0)) { }
    Buffer& operator=(Buffer&& o) noexcept
    {
        std::swap(m_data, o.m_data);
        std::swap(m_size, o.m_size);
        return *this;
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();
    uint8_t* data() { return m_data; }
    const uint8_t* data() const { return m_data; }
    size_t size() const { return m_size; }
    std::span<const uint8_t> span() const { return {m_data, m_size}; }
    std::span<uint8_t> span() { return {m_data, m_size}; }

private:
    uint8_t* m_data = nullptr;
    size_t m_size = 0;
};

bool startsWithZstdMagic(std::span<const uint8_t> blob);

/// Decodes a stored blob. A zstd blob must be exactly one frame that declares its content size,
/// and that size must not exceed `maxDecodedBytes`. `what` names the blob in errors
/// (e.g. "file.vtx: chunk 3 at offset 1234"); `limitName` names the limit in the error.
Result<Buffer> decodeBlob(Buffer stored, size_t maxDecodedBytes, const std::string& what, const char* limitName = "maxChunkBytes");

/// Decodes a stored blob step by step (ZSTD_decompressStream), so a reader can use the bytes
/// decoded so far while the rest is still being decoded: a jump into a Protobuf chunk needs only
/// the bytes up to its frame (docs/PERFORMANCE.md, "Streaming decode"). The same limits and
/// checks as decodeBlob, in stream order: the declared size is checked before anything is
/// allocated; damage (a corrupt block, a truncated blob, trailing data, a size other than the
/// declared one) is an error from the step that reaches it, and the bytes decoded before it
/// stay valid. A raw blob is decoded in one step.
class BlobStream {
public:
    static Result<BlobStream> open(Buffer stored, size_t maxDecodedBytes, const std::string& what, const char* limitName = "maxChunkBytes");
    /// The stored blob is `storedBytes` at `offset` in `source`, read as the decode needs it (a
    /// jump to an early frame reads the start of its chunk only, into memory touched as it goes).
    static Result<BlobStream> open(std::shared_ptr<const ByteSource> source, uint64_t offset, size_t storedBytes, size_t maxDecodedBytes,
                                   const std::string& what, const char* limitName = "maxChunkBytes");
    BlobStream(BlobStream&&) noexcept;
    BlobStream& operator=(BlobStream&&) noexcept;
    ~BlobStream();

    /// Decodes the next `storedBytes` bytes of the stored blob (or what is left). Returns the
    /// error of the damage it reached; after an error, further steps return it again.
    Status step(size_t storedBytes = kDefaultStep);
    bool finished() const { return m_finished; }
    /// The prefix decoded so far; its bytes never change.
    std::span<const uint8_t> decoded() const { return {m_out.data(), m_decoded}; }
    size_t decodedBytes() const { return m_decoded; }
    /// The declared decoded size.
    size_t totalBytes() const { return m_out.size(); }
    /// A zstd frame (damage spreads to what follows it), not a raw blob.
    bool compressed() const { return m_decoder != nullptr; }
    /// The decoded blob, once finished().
    Buffer take() { return std::move(m_out); }

    /// ~32 KB stored is ~100-150 KB decoded on the SDK's chunks: ~0.1 ms of zstd per step.
    static constexpr size_t kDefaultStep = 32u << 10;

private:
    BlobStream() = default;
    struct Decoder;
    /// Reads the stored blob up to `end` (when it is read lazily).
    Status readStoredTo(size_t end);
    Buffer m_stored;
    std::shared_ptr<const ByteSource> m_source; ///< set while part of the stored blob is unread
    uint64_t m_offset = 0;
    size_t m_read = 0; ///< stored bytes read so far
    Buffer m_out;
    size_t m_consumed = 0;
    size_t m_decoded = 0;
    bool m_finished = false;
    std::string m_what;
    std::string m_error;
    Decoder* m_decoder = nullptr;
};

/// The writer's CompressIfBeneficial rule: raw when compression is off or the blob is shorter
/// than 512 bytes, else one zstd frame at `level` if strictly smaller, else raw.
std::vector<uint8_t> encodeBlob(std::span<const uint8_t> raw, bool compress, int level);

constexpr size_t kCompressMinBytes = 512;

} // namespace vtx
