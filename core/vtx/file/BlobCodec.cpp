// SPDX-License-Identifier: MIT
#include "vtx/file/BlobCodec.hpp"
#include "vtx/base/LargeAlloc.hpp"

#include <cstring>
#define ZSTD_STATIC_LINKING_ONLY // ZSTD_d_stableOutBuffer: decode straight into the output, no window copy
#include <optional>
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

namespace {

// What a stored blob will decode to, checked against the limit before anything is allocated:
// nullopt for a raw (not zstd) blob, else the size its zstd frame declares. The whole-buffer
// decode and the stream share it, so both refuse the same bombs with the same words.
Result<std::optional<unsigned long long>> checkedDecodedSize(const Buffer& stored, size_t maxDecodedBytes, const std::string& what,
                                                             const char* limitName)
{
    if (!startsWithZstdMagic(stored.span())) {
        if (stored.size() > maxDecodedBytes)
            return Error{what + ": raw blob of " + std::to_string(stored.size()) + " bytes, more than the limit of " +
                         std::to_string(maxDecodedBytes) + " bytes (" + limitName + ")"};
        return std::optional<unsigned long long>{};
    }
    const unsigned long long declared = ZSTD_getFrameContentSize(stored.data(), stored.size());
    if (declared == ZSTD_CONTENTSIZE_UNKNOWN)
        return Error{what + ": zstd frame does not declare its decompressed size"};
    if (declared == ZSTD_CONTENTSIZE_ERROR)
        return Error{what + ": not a valid zstd frame header"};
    if (declared > maxDecodedBytes)
        return Error{what + ": zstd frame declares " + std::to_string(declared) + " decompressed bytes, more than the limit of " +
                     std::to_string(maxDecodedBytes) + " bytes (" + limitName + "; decompression bomb or corrupt size)"};
    return std::optional<unsigned long long>{declared};
}

} // namespace

Result<Buffer> decodeBlob(Buffer stored, size_t maxDecodedBytes, const std::string& what, const char* limitName)
{
    auto size = checkedDecodedSize(stored, maxDecodedBytes, what, limitName);
    if (!size)
        return size.error();
    if (!*size)
        return stored;
    const unsigned long long declared = **size;
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

/// One decompression context per thread, reused: creating one per chunk costs an allocation of
/// its tables each time.
struct BlobStream::Decoder {
    ZSTD_DCtx* dctx = nullptr;
};

namespace {

ZSTD_DCtx* threadDecoder()
{
    struct Owned {
        ZSTD_DCtx* dctx = ZSTD_createDCtx();
        ~Owned() { ZSTD_freeDCtx(dctx); }
    };
    thread_local Owned owned;
    return owned.dctx;
}

} // namespace

Result<BlobStream> BlobStream::open(Buffer stored, size_t maxDecodedBytes, const std::string& what, const char* limitName)
{
    BlobStream s;
    s.m_what = what;
    auto size = checkedDecodedSize(stored, maxDecodedBytes, what, limitName);
    if (!size)
        return size.error();
    if (!*size) {
        s.m_out = std::move(stored);
        s.m_decoded = s.m_out.size();
        s.m_finished = true;
        return s;
    }
    const unsigned long long declared = **size;
    ZSTD_DCtx* dctx = threadDecoder();
    if (!dctx)
        return Error{what + ": zstd could not allocate a decompression context"};
    ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
    // The output buffer is the whole declared size and never moves: zstd decodes straight into it.
    if (ZSTD_isError(ZSTD_DCtx_setParameter(dctx, ZSTD_d_stableOutBuffer, 1)))
        return Error{what + ": zstd refused the stable output buffer"};
    s.m_stored = std::move(stored);
    s.m_out = Buffer(static_cast<size_t>(declared));
    s.m_decoder = new Decoder{dctx};
    return s;
}

Result<BlobStream> BlobStream::open(std::shared_ptr<const ByteSource> source, uint64_t offset, size_t storedBytes, size_t maxDecodedBytes,
                                    const std::string& what, const char* limitName)
{
    // The frame header (at most 18 bytes) decides; a raw blob is read whole.
    uint8_t head[18];
    const size_t headBytes = std::min(storedBytes, sizeof head);
    if (Status s = source->readAt(offset, std::span<uint8_t>(head, headBytes)); !s)
        return Error{what + ": " + s.message()};
    if (!startsWithZstdMagic({head, headBytes}) || ZSTD_getFrameContentSize(head, headBytes) == ZSTD_CONTENTSIZE_ERROR) {
        Buffer all(storedBytes);
        if (Status s = source->readAt(offset, all.span()); !s)
            return Error{what + ": " + s.message()};
        return open(std::move(all), maxDecodedBytes, what, limitName);
    }
    Buffer stored(storedBytes); // mapped, not touched: each read touches the pages it fills
    std::memcpy(stored.data(), head, headBytes);
    auto s = open(std::move(stored), maxDecodedBytes, what, limitName);
    if (!s)
        return s;
    s->m_source = std::move(source);
    s->m_offset = offset;
    s->m_read = headBytes;
    return s;
}

Status BlobStream::readStoredTo(size_t end)
{
    end = std::min(end, m_stored.size());
    if (!m_source || end <= m_read)
        return {};
    // Reads run ahead in 256 KB pieces: one read per several steps.
    end = std::min(m_stored.size(), std::max(end, m_read + (size_t(256) << 10)));
    if (Status s = m_source->readAt(m_offset + m_read, std::span<uint8_t>(m_stored.data() + m_read, end - m_read)); !s)
        return s;
    m_read = end;
    if (m_read == m_stored.size())
        m_source.reset();
    return {};
}

BlobStream::BlobStream(BlobStream&& o) noexcept
    : m_stored(std::move(o.m_stored))
    , m_source(std::move(o.m_source))
    , m_offset(o.m_offset)
    , m_read(o.m_read)
    , m_out(std::move(o.m_out))
    , m_consumed(o.m_consumed)
    , m_decoded(o.m_decoded)
    , m_finished(o.m_finished)
    , m_what(std::move(o.m_what))
    , m_error(std::move(o.m_error))
    , m_decoder(std::exchange(o.m_decoder, nullptr))
{
}

BlobStream& BlobStream::operator=(BlobStream&& o) noexcept
{
    std::swap(m_stored, o.m_stored);
    std::swap(m_source, o.m_source);
    std::swap(m_offset, o.m_offset);
    std::swap(m_read, o.m_read);
    std::swap(m_out, o.m_out);
    std::swap(m_consumed, o.m_consumed);
    std::swap(m_decoded, o.m_decoded);
    std::swap(m_finished, o.m_finished);
    std::swap(m_what, o.m_what);
    std::swap(m_error, o.m_error);
    std::swap(m_decoder, o.m_decoder);
    return *this;
}

BlobStream::~BlobStream()
{
    delete m_decoder;
}

Status BlobStream::step(size_t storedBytes)
{
    if (!m_error.empty())
        return Error{m_error};
    if (m_finished)
        return {};
    const auto failAt = [&](const std::string& why) {
        m_error = m_what + ": " + why + " (after " + std::to_string(m_decoded) + " of " + std::to_string(m_out.size()) + " decoded bytes)";
        return Status(Error{m_error});
    };
    const size_t inEnd = std::min(m_stored.size(), m_consumed + std::max<size_t>(storedBytes, 1));
    if (Status s = readStoredTo(inEnd); !s)
        return failAt(s.message());
    // The output buffer must be the same object in every call (stable); the input may grow.
    ZSTD_outBuffer out{m_out.data(), m_out.size(), m_decoded};
    ZSTD_inBuffer in{m_stored.data(), inEnd, m_consumed};
    const size_t ret = ZSTD_decompressStream(m_decoder->dctx, &out, &in);
    m_consumed = in.pos;
    m_decoded = out.pos;
    if (ZSTD_isError(ret))
        return failAt("zstd decompression failed (" + std::string(ZSTD_getErrorName(ret)) + ")");
    if (ret == 0) { // the frame is complete
        if (m_consumed != m_stored.size())
            return failAt(std::to_string(m_stored.size() - m_consumed) + " bytes of trailing data after the zstd frame");
        if (m_decoded != m_out.size())
            return failAt("zstd produced " + std::to_string(m_decoded) + " bytes, the frame declared " + std::to_string(m_out.size()));
        m_finished = true;
        m_stored = Buffer();
        return {};
    }
    if (m_consumed == m_stored.size() && in.size == m_stored.size() && out.pos == out.size)
        return failAt("zstd frame decodes to more bytes than it declares");
    if (m_consumed == m_stored.size() && in.size == m_stored.size())
        return failAt("truncated or corrupt zstd frame (the stored blob ends before the frame does)");
    return {};
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
