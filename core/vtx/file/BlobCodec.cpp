// SPDX-License-Identifier: MIT
#include "vtx/file/BlobCodec.hpp"
#include "vtx/base/LargeAlloc.hpp"

#include <cstring>
#include <zstd.h>

namespace vtx {

bool startsWithZstdMagic(std::span<const uint8_t> blob)
{
    static constexpr uint8_t magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    return blob.size() >= 4 && std::memcmp(blob.data(), magic, 4) == 0;
}

Buffer::Buffer(size_t size) : m_data(static_cast<uint8_t*>(allocateLarge(size))), m_size(size) { }

Buffer::~Buffer()
{
    if (m_data)
        freeLarge(m_data, m_size);
}

Result<Buffer> decodeBlob(Buffer stored, size_t maxDecodedBytes, const std::string& what, const char* limitName)
{
    if (!startsWithZstdMagic(stored.span())) {
        if (stored.size() > maxDecodedBytes)
            return Error{what + ": raw blob of " + std::to_string(stored.size()) + " bytes, more than the limit of " +
                         std::to_string(maxDecodedBytes) + " bytes (" + limitName + ")"};
        return stored;
    }
    const unsigned long long declared = ZSTD_getFrameContentSize(stored.data(), stored.size());
    if (declared == ZSTD_CONTENTSIZE_UNKNOWN)
        return Error{what + ": zstd frame does not declare its decompressed size"};
    if (declared == ZSTD_CONTENTSIZE_ERROR)
        return Error{what + ": not a valid zstd frame header"};
    if (declared > maxDecodedBytes)
        return Error{what + ": zstd frame declares " + std::to_string(declared) + " decompressed bytes, more than the limit of " +
                     std::to_string(maxDecodedBytes) + " bytes (" + limitName + "; decompression bomb or corrupt size)"};
    const size_t frameSize = ZSTD_findFrameCompressedSize(stored.data(), stored.size());
    if (ZSTD_isError(frameSize))
        return Error{what + ": truncated or corrupt zstd frame (" + ZSTD_getErrorName(frameSize) + ")"};
    if (frameSize != stored.size())
        return Error{what + ": " + std::to_string(stored.size() - frameSize) + " bytes of trailing data after the zstd frame"};
    Buffer out(static_cast<size_t>(declared));
    const size_t got = ZSTD_decompress(out.data(), out.size(), stored.data(), stored.size());
    if (ZSTD_isError(got))
        return Error{what + ": zstd decompression failed (" + ZSTD_getErrorName(got) + ")"};
    if (got != declared)
        return Error{what + ": zstd produced " + std::to_string(got) + " bytes, the frame declared " + std::to_string(declared)};
    return out;
}

std::vector<uint8_t> encodeBlob(std::span<const uint8_t> raw, bool compress, int level)
{
    if (compress && raw.size() >= kCompressMinBytes) {
        std::vector<uint8_t> out(ZSTD_compressBound(raw.size()));
        const size_t n = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), level);
        if (!ZSTD_isError(n) && n < raw.size()) {
            out.resize(n);
            return out;
        }
    }
    return {raw.begin(), raw.end()};
}

} // namespace vtx
