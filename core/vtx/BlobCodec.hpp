#pragma once
// Blob encoding (spec §1.3): a blob is one zstd frame iff it starts with the zstd magic,
// otherwise the raw serialized message.

#include "vtx/Status.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vtx {

/// An owned, uninitialised-on-allocation byte buffer (decoded chunks are large; zero-filling
/// them first would cost as much as a memcpy). Large ones get huge pages (vtx/LargeAlloc.hpp).
/// Alignment suits FlatBuffers.
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(size_t size);
    uint8_t* data() { return m_data.get(); }
    const uint8_t* data() const { return m_data.get(); }
    size_t size() const { return m_size; }
    std::span<const uint8_t> span() const { return {m_data.get(), m_size}; }
    std::span<uint8_t> span() { return {m_data.get(), m_size}; }

private:
    struct Free {
        void operator()(uint8_t* p) const;
    };
    std::unique_ptr<uint8_t[], Free> m_data;
    size_t m_size = 0;
};

bool startsWithZstdMagic(std::span<const uint8_t> blob);

/// Decodes a stored blob. A zstd blob must be exactly one frame that declares its content size,
/// and that size must not exceed `maxDecodedBytes`. `what` names the blob in errors
/// (e.g. "file.vtx: chunk 3 at offset 1234"); `limitName` names the limit in the error.
Result<Buffer> decodeBlob(Buffer stored, size_t maxDecodedBytes, const std::string& what,
                          const char* limitName = "maxChunkBytes");

/// The writer's CompressIfBeneficial rule: raw when compression is off or the blob is shorter
/// than 512 bytes, else one zstd frame at `level` if strictly smaller, else raw.
std::vector<uint8_t> encodeBlob(std::span<const uint8_t> raw, bool compress, int level);

constexpr size_t kCompressMinBytes = 512;

} // namespace vtx
