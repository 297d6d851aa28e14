// SPDX-License-Identifier: MIT
#include "vtx/file/ReplayFile.hpp"

#include "vtx/file/backend/ChunkLimits.hpp"
#include "vtx/file/backend/ProtoChunkReader.hpp"

#include "vtx_generated.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <spdlog/spdlog.h>

namespace vtx {
namespace {

std::string hex4(const uint8_t* p)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < 4; ++i) {
        if (i)
            out += ' ';
        out += digits[p[i] >> 4];
        out += digits[p[i] & 15];
    }
    return out;
}

uint32_t le32(const uint8_t* p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

} // namespace

Result<std::shared_ptr<ReplayFile>> ReplayFile::open(const std::string& path, const ReaderOptions& options)
{
    auto src = openFileSource(path);
    if (!src)
        return src.error();
    return open(std::move(*src), options);
}

Result<std::shared_ptr<ReplayFile>> ReplayFile::open(std::shared_ptr<const ByteSource> source, const ReaderOptions& options)
{
    std::shared_ptr<ReplayFile> f(new ReplayFile);
    f->m_source = std::move(source);
    if (Status s = f->load(options, nullptr); !s)
        return Error{s.message()};
    return f;
}

Result<std::shared_ptr<ReplayFile>> ReplayFile::refresh() const
{
    auto src = openFileSource(m_source->name());
    if (!src)
        return src.error();
    if ((*src)->size() == m_source->size())
        return std::shared_ptr<ReplayFile>();
    std::shared_ptr<ReplayFile> f(new ReplayFile);
    f->m_source = std::move(*src);
    if (Status s = f->load(m_options, this); !s)
        return Error{s.message()};
    return f;
}

std::string RecoveryReport::summary() const
{
    if (!recovered)
        return {};
    auto count = [](size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
    std::string s = "recovered " + count(size_t(frames), "frame", "frames") + " in " + count(size_t(chunks), "chunk", "chunks") +
        " without a usable footer (" + reason + "); lost: the frame times, events, gaps and segments";
    for (const CorruptRecord& r : corruptRecords)
        s += "; the chunk record at offset " + std::to_string(r.offset) + " (" + std::to_string(r.bytes) +
            " bytes) is corrupt and its frames are lost, later frames are renumbered (" + r.error + ")";
    if (lostBytes)
        s += "; " + std::to_string(lostBytes) + " bytes at offset " + std::to_string(resumeOffset) + ": " + lostWhat;
    return s;
}

std::string ReplayFile::where(const std::string& what) const
{
    return m_source->name() + ": " + what;
}

Status ReplayFile::load(const ReaderOptions& options, const ReplayFile* previous)
{
    m_options = options;
    const uint64_t n = m_source->size();
    if (n < 8) {
        if (n >= 4) {
            uint8_t magic[4];
            if (Status s = m_source->readAt(0, magic); !s)
                return s;
            if (std::memcmp(magic, "VTXF", 4) != 0 && std::memcmp(magic, "VTXP", 4) != 0)
                return Error{where("unknown file format (magic " + hex4(magic) + ", expected \"VTXF\" or \"VTXP\")")};
        }
        return Error{where("file truncated: " + std::to_string(n) + " bytes is smaller than the 8-byte header preamble")};
    }
    uint8_t pre[8];
    if (Status s = m_source->readAt(0, pre); !s)
        return s;
    if (std::memcmp(pre, "VTXF", 4) == 0)
        m_backend = Backend::FlatBuffers;
    else if (std::memcmp(pre, "VTXP", 4) == 0)
        m_backend = Backend::Protobuf;
    else
        return Error{where("unknown file format (magic " + hex4(pre) + ", expected \"VTXF\" or \"VTXP\")")};
    if (Status s = loadHeader(); !s)
        return s;
    if (Status footer = loadFooter(); !footer) {
        if (!m_options.recover)
            return footer;
        recoverFromChunks(footer.message(), previous);
    }
    if (Status s = parseSchema(); !s)
        return s;
    // A grown file is the same recording: the evidence gathered so far stays valid.
    if (previous && previous->m_hashTrust && previous->m_headerStored == m_headerStored &&
        previous->m_hashTrust->typeCount() == m_schema.structs().size())
        m_hashTrust = previous->m_hashTrust;
    else
        m_hashTrust = std::make_shared<HashTrust>(m_schema.structs().size());
    if (m_recovery.recovered) // first: it is what a reader of the problems list must see
        m_problems.insert(m_problems.begin(), {Problem::Severity::Warning, m_recovery.summary()});
    else
        checkSeekTable();
    for (const auto& p : m_problems)
        spdlog::debug("{}: {}", m_source->name(), p.message);
    return {};
}

Status ReplayFile::parseSchema()
{
    if (m_header.schemaJson.empty()) {
        m_problems.push_back({Problem::Severity::Warning, "schema: the header embeds no schema; properties cannot be named"});
        return {};
    }
    if (m_header.schemaJson.size() > m_options.maxSchemaBytes) {
        m_problems.push_back({Problem::Severity::Warning,
                              "schema: " + std::to_string(m_header.schemaJson.size()) + " bytes, more than the limit of " +
                                  std::to_string(m_options.maxSchemaBytes) + " bytes (maxSchemaBytes); properties cannot be named"});
        return {};
    }
    auto schema = Schema::parse(m_header.schemaJson, &m_problems);
    if (schema)
        m_schema = std::move(*schema);
    else
        m_problems.push_back({Problem::Severity::Warning, schema.message() + "; properties cannot be named"});
    return {};
}

void ReplayFile::recoverFromChunks(std::string reason, const ReplayFile* previous)
{
    m_footer = {};
    m_recovery = {};
    m_recovery.recovered = true;
    // The report is shown beside the file name: drop the "path: " every reader error starts with.
    const std::string prefix = m_source->name() + ": ";
    m_recovery.reason = reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : std::move(reason);
    const uint64_t n = m_source->size();
    uint64_t off = 8 + m_headerBlob.storedSize;
    int64_t frame = 0;
    // A file that grew since `previous` walked it: keep what it found, resume after it.
    if (previous && previous->m_recovery.recovered && previous->m_headerStored == m_headerStored && previous->m_recovery.resumeOffset <= n) {
        m_footer.chunks = previous->m_footer.chunks;
        m_recovery.corruptRecords = previous->m_recovery.corruptRecords;
        off = previous->m_recovery.resumeOffset;
        frame = previous->m_footer.totalFrames;
    }
    // A record that does not decode is skipped only once a good record follows it: trailing
    // failures are the unusable tail (a footer being written, garbage), where a re-scan resumes.
    std::vector<RecoveryReport::CorruptRecord> pending;
    std::string tailWhat;
    while (off < n) {
        if (n - off < 4) {
            tailWhat = "an incomplete chunk size prefix";
            break;
        }
        uint8_t pre[4];
        if (!m_source->readAt(off, pre)) {
            tailWhat = "unreadable";
            break;
        }
        const uint32_t size = le32(pre);
        if (size == 0 || size > n - off - 4) {
            uint8_t tail[8];
            const bool footerShaped = n >= 8 && m_source->readAt(n - 8, tail) && uint64_t(le32(tail)) + 8 == n - off;
            if (footerShaped)
                tailWhat = "the footer, which could not be used";
            else if (size == 0)
                tailWhat = "a chunk record with a zero size prefix";
            else
                tailWhat =
                    "an incomplete chunk record (it declares " + std::to_string(size) + " bytes, " + std::to_string(n - off - 4) + " are present)";
            break;
        }
        const std::string what = where("chunk record at offset " + std::to_string(off));
        Buffer blob(size);
        Status read = m_source->readAt(off + 4, blob.span());
        auto storage = read ? decodeStored(std::move(blob), what) : Result<ChunkStorage>(read);
        const size_t frames = storage && storage->root->frames() ? storage->root->frames()->size() : 0;
        if (!storage || frames == 0 || frame + int64_t(frames) > INT32_MAX) {
            pending.push_back({off, uint64_t(size) + 4, storage ? "it holds no frames" : storage.message()});
            off += uint64_t(size) + 4;
            continue;
        }
        m_recovery.corruptRecords.insert(m_recovery.corruptRecords.end(), pending.begin(), pending.end());
        pending.clear();
        m_footer.chunks.push_back({int32_t(m_footer.chunks.size()), int32_t(frame), int32_t(frame + int64_t(frames) - 1), off, size + 4});
        frame += int64_t(frames);
        off += uint64_t(size) + 4;
    }
    if (!pending.empty()) {
        off = pending.front().offset;
        tailWhat = std::to_string(pending.size()) + " record(s) that do not decode as chunks (" + pending.front().error + ")";
    }
    m_recovery.resumeOffset = off;
    m_recovery.lostBytes = n - off;
    m_recovery.lostWhat = m_recovery.lostBytes ? tailWhat : std::string();
    m_footer.totalFrames = int32_t(frame);
    m_footerBlob = {off, 0, false, 0};
    m_recovery.chunks = m_footer.chunks.size();
    m_recovery.frames = m_footer.totalFrames;
}

Status ReplayFile::loadHeader()
{
    const uint64_t n = m_source->size();
    uint8_t sz[4];
    if (Status s = m_source->readAt(4, sz); !s)
        return s;
    const uint32_t h = le32(sz);
    if (h == 0 || h > n - 8)
        return Error{where("implausible header size " + std::to_string(h) + " at offset 4 (file is " + std::to_string(n) + " bytes)")};
    Buffer blob(h);
    if (Status s = m_source->readAt(8, blob.span()); !s)
        return s;
    m_headerStored.assign(blob.span().begin(), blob.span().end());
    m_headerBlob = {8, h, startsWithZstdMagic(blob.span()), 0};
    const std::string what = where("header at offset 8");
    auto decoded = decodeBlob(std::move(blob), m_options.maxHeaderBytes, what, "maxHeaderBytes");
    if (!decoded)
        return Error{decoded.message()};
    m_headerBlob.decodedSize = decoded->size();
    auto header = codecFor(m_backend).parseHeader(decoded->span(), what);
    if (!header)
        return Error{header.message()};
    m_header = std::move(*header);
    return {};
}

Status ReplayFile::loadFooter()
{
    const uint64_t n = m_source->size();
    uint8_t tail[8];
    if (Status s = m_source->readAt(n - 8, tail); !s)
        return s;
    const std::string magic(backendMagic(m_backend));
    if (std::memcmp(tail + 4, magic.data(), 4) != 0) {
        Status missing =
            Error{where("the trailing sentinel is " + hex4(tail + 4) + ", not the magic \"" + magic + "\" (footer missing or file truncated?)")};
        // Only the 4-byte sentinel missing: the file ends with the footer and its size. A raw
        // protobuf footer parses from almost anything, so it is used only when its seek table
        // describes the chunk records exactly as they lie in the file.
        const uint32_t z4 = le32(tail + 4);
        if (z4 == 0 || uint64_t(z4) + 4 > n || n - 4 - z4 < 8 + m_headerBlob.storedSize)
            return missing;
        if (Status s = parseFooter(n - 4 - z4, z4); !s || !seekTableMatchesRecords()) {
            m_footer = {};
            m_footerBlob = {};
            return missing;
        }
        m_problems.push_back({Problem::Severity::Warning,
                              "footer: the trailing 4-byte sentinel is missing (the writer stopped just before it); the "
                              "footer before it decodes and its seek table matches every chunk record, so it is used"});
        return {};
    }
    const uint32_t z = le32(tail);
    if (z == 0 || uint64_t(z) + 8 > n)
        return Error{
            where("implausible footer size " + std::to_string(z) + " at offset " + std::to_string(n - 8) + " (footer missing or file truncated?)")};
    const uint64_t footerOffset = n - 8 - z;
    if (footerOffset < 8 + m_headerBlob.storedSize)
        return Error{where("footer of " + std::to_string(z) + " bytes at offset " + std::to_string(footerOffset) +
                           " overlaps the header (footer missing or file truncated?)")};
    return parseFooter(footerOffset, z);
}

bool ReplayFile::seekTableMatchesRecords() const
{
    uint64_t expected = 8 + m_headerBlob.storedSize;
    for (const ChunkEntry& c : m_footer.chunks) {
        uint8_t pre[4];
        if (c.fileOffset != expected || c.chunkSizeBytes <= 4 || c.chunkSizeBytes > m_footerBlob.offset - c.fileOffset ||
            !m_source->readAt(c.fileOffset, pre) || le32(pre) != c.chunkSizeBytes - 4)
            return false;
        expected = c.fileOffset + c.chunkSizeBytes;
    }
    return expected == m_footerBlob.offset;
}

Status ReplayFile::parseFooter(uint64_t footerOffset, uint32_t z)
{
    Buffer blob(z);
    if (Status s = m_source->readAt(footerOffset, blob.span()); !s)
        return s;
    m_footerBlob = {footerOffset, z, startsWithZstdMagic(blob.span()), 0};
    const std::string what = where("footer at offset " + std::to_string(footerOffset));
    auto decoded = decodeBlob(std::move(blob), m_options.maxFooterBytes, what, "maxFooterBytes");
    if (!decoded)
        return Error{decoded.message()};
    m_footerBlob.decodedSize = decoded->size();
    auto footer = codecFor(m_backend).parseFooter(decoded->span(), what);
    if (!footer)
        return Error{footer.message()};
    m_footer = std::move(*footer);
    if (m_footer.totalFrames < 0)
        return Error{what + ": negative total_frames " + std::to_string(m_footer.totalFrames)};
    // The seek table must be sorted and non-overlapping for frame lookup (the SDK relies on it too).
    for (size_t i = 0; i < m_footer.chunks.size(); ++i) {
        const ChunkEntry& c = m_footer.chunks[i];
        if (c.startFrame < 0 || c.endFrame < c.startFrame)
            return Error{what + ": seek entry " + std::to_string(i) + " has an invalid frame range [" + std::to_string(c.startFrame) + ", " +
                         std::to_string(c.endFrame) + "]"};
        if (i > 0 && c.startFrame <= m_footer.chunks[i - 1].endFrame)
            return Error{what + ": seek entry " + std::to_string(i) + " (frames " + std::to_string(c.startFrame) + "..) overlaps or precedes entry " +
                         std::to_string(i - 1)};
    }
    return {};
}

void ReplayFile::checkSeekTable()
{
    auto warn = [&](std::string m) { m_problems.push_back({Problem::Severity::Warning, std::move(m)}); };
    const auto& chunks = m_footer.chunks;
    uint64_t expectedOffset = 8 + m_headerBlob.storedSize;
    int64_t expectedStart = 0;
    int64_t framesInChunks = 0;
    for (size_t i = 0; i < chunks.size(); ++i) {
        const ChunkEntry& c = chunks[i];
        const std::string e = "seek entry " + std::to_string(i) + ": ";
        if (c.chunkIndex != static_cast<int32_t>(i))
            warn(e + "chunk_index " + std::to_string(c.chunkIndex) + " differs from its position");
        if (c.chunkSizeBytes <= 4 || c.fileOffset > m_footerBlob.offset || c.chunkSizeBytes > m_footerBlob.offset - c.fileOffset)
            warn(e + "record [" + std::to_string(c.fileOffset) + ", +" + std::to_string(c.chunkSizeBytes) +
                 ") lies outside the chunk area; its frames are unavailable");
        else {
            uint8_t pre[4];
            if (m_source->readAt(c.fileOffset, pre) && le32(pre) != c.chunkSizeBytes - 4)
                warn(e + "size prefix " + std::to_string(le32(pre)) + " differs from chunk_size_bytes - 4 = " + std::to_string(c.chunkSizeBytes - 4));
        }
        if (c.fileOffset != expectedOffset)
            warn(e + "record at offset " + std::to_string(c.fileOffset) + " is not contiguous (expected " + std::to_string(expectedOffset) + ")");
        if (c.startFrame != expectedStart)
            warn(e + "starts at frame " + std::to_string(c.startFrame) + ", expected " + std::to_string(expectedStart));
        expectedOffset = c.fileOffset + c.chunkSizeBytes;
        expectedStart = int64_t(c.endFrame) + 1;
        framesInChunks += c.frameCount();
    }
    if (!chunks.empty() && expectedOffset != m_footerBlob.offset)
        warn("the last chunk record ends at " + std::to_string(expectedOffset) + ", the footer starts at " + std::to_string(m_footerBlob.offset));
    if (framesInChunks != m_footer.totalFrames)
        warn("total_frames is " + std::to_string(m_footer.totalFrames) + " but the seek table covers " + std::to_string(framesInChunks) + " frames");
    const auto& t = m_footer.times;
    if (t.gameTime.size() != size_t(m_footer.totalFrames) || t.createdUtc.size() != size_t(m_footer.totalFrames))
        warn("time arrays hold " + std::to_string(t.gameTime.size()) + " game times and " + std::to_string(t.createdUtc.size()) + " UTC times for " +
             std::to_string(m_footer.totalFrames) + " frames");
    if (!t.createdUtc.empty()) {
        const float expected = static_cast<float>(double(t.createdUtc.back() - t.createdUtc.front()) / 1e7);
        if (expected != m_footer.durationSeconds)
            warn("duration_seconds " + std::to_string(m_footer.durationSeconds) + " differs from the UTC span " + std::to_string(expected));
    }
}

std::optional<size_t> ReplayFile::chunkForFrame(int32_t frame) const
{
    const auto& c = m_footer.chunks;
    auto it = std::lower_bound(c.begin(), c.end(), frame, [](const ChunkEntry& e, int32_t f) { return e.endFrame < f; });
    if (it == c.end() || it->startFrame > frame)
        return std::nullopt;
    return static_cast<size_t>(it - c.begin());
}

Result<Buffer> ReplayFile::readChunkBlob(size_t i) const
{
    if (i >= m_footer.chunks.size())
        return Error{where("chunk " + std::to_string(i) + " does not exist (" + std::to_string(m_footer.chunks.size()) + " chunks)")};
    const ChunkEntry& c = m_footer.chunks[i];
    const std::string what = where("chunk " + std::to_string(i) + " at offset " + std::to_string(c.fileOffset));
    if (c.chunkSizeBytes <= 4 || c.fileOffset > m_source->size() || c.chunkSizeBytes > m_source->size() - c.fileOffset)
        return Error{what + ": record of " + std::to_string(c.chunkSizeBytes) + " bytes is out of the file's bounds"};
    Buffer blob(c.chunkSizeBytes - 4);
    if (Status s = m_source->readAt(c.fileOffset + 4, blob.span()); !s)
        return Error{what + ": " + s.message()};
    return blob;
}

Result<ChunkStorage> ReplayFile::decodeStored(Buffer blob, const std::string& what) const
{
    auto decoded = decodeBlob(std::move(blob), m_options.maxChunkBytes, what);
    if (!decoded)
        return decoded.error();
    auto storage = codecFor(m_backend).parseChunk(std::move(*decoded), m_options.decode, what);
    if (!storage)
        return storage.error();
    // Otherwise per frame, on first access (DecodedChunk), or already done by the codec.
    if (storage->framesVerified && !storage->limitsChecked)
        if (Status s = checkChunkLimits(*storage->root, m_options.decode, what); !s)
            return Error{s.message()};
    return storage;
}

Result<std::shared_ptr<const DecodedChunk>> ReplayFile::decodeChunkStreaming(size_t i, const FrameStream& stream) const
{
    return streamChunk(i, stream, false);
}

Result<std::shared_ptr<const DecodedChunk>> ReplayFile::streamChunk(size_t i, const FrameStream& stream, bool stopAfterReady) const
{
    if (m_backend != Backend::Protobuf) { // frames come with the whole chunk (see FrameStream)
        auto chunk = decodeChunk(i);
        if (chunk && stream.progress)
            stream.progress((*chunk)->decodedBlobBytes(), (*chunk)->decodedBlobBytes());
        return chunk;
    }
    if (i >= m_footer.chunks.size())
        return readChunkBlob(i).error(); // its error names the chunk count
    const ChunkEntry& c = m_footer.chunks[i];
    const std::string what = where("chunk " + std::to_string(i) + " at offset " + std::to_string(c.fileOffset));
    if (c.chunkSizeBytes <= 4 || c.fileOffset > m_source->size() || c.chunkSizeBytes > m_source->size() - c.fileOffset)
        return Error{what + ": record of " + std::to_string(c.chunkSizeBytes) + " bytes is out of the file's bounds"};
    // The stored blob is read as the decode goes: a jump reads up to its frame only.
    auto decoding = BlobStream::open(m_source, c.fileOffset + 4, c.chunkSizeBytes - 4, m_options.maxChunkBytes, what);
    if (!decoding)
        return decoding.error();
    BlobStream& bytes = *decoding;
    ProtoFrameLocator frames;
    size_t offered = 0;
    const std::optional<ChunkDamage> damage = knownDamage(i);
    // "the damage found at frame F: <why>", the file and chunk said once (review 5, #8).
    auto lostFrom = [&] {
        const std::string& why = damage->reason;
        const bool sameWhere = why.size() > what.size() + 2 && why.compare(0, what.size() + 2, what + ": ") == 0;
        return "the damage found at frame " + std::to_string(damage->firstFrame) + ": " + (sameWhere ? why.substr(what.size() + 2) : why);
    };
    while (true) {
        const Status step = bytes.step();
        // The frames whole before any damage are handed out first; the damage is the result.
        frames.advance(bytes.decoded());
        for (; offered < frames.frames().size(); ++offered) {
            const int64_t global = int64_t(c.startFrame) + int64_t(offered);
            if (global > c.endFrame || !stream.wants || !stream.wants(int32_t(global)))
                continue;
            if (damage && damage->laterFramesLost && global >= damage->firstFrame) {
                // Bytes that decode after damaged ones in the same zstd stream are not data,
                // even when they parse (review 5: frame 300 of a chunk failing at 276).
                stream.ready(int32_t(global), Result<FrameHandle>(Error{what + ": frame " + std::to_string(global) + " lies after " + lostFrom()}));
                if (stopAfterReady)
                    return std::shared_ptr<const DecodedChunk>();
                continue;
            }
            const auto [begin, end] = frames.frames()[offered];
            auto flat = flattenProtoFrame(bytes.decoded(), begin, end, frames.chunkIndex(), offered, m_options.decode, what);
            if (!flat) {
                stream.ready(int32_t(global), Result<FrameHandle>(flat.error()));
                if (stopAfterReady)
                    return std::shared_ptr<const DecodedChunk>();
                continue;
            }
            ChunkStorage one;
            one.decodedBlobBytes = end - begin;
            one.root = flatbuffers::GetRoot<fbsvtx::Chunk>(flat->data());
            one.bytes = std::move(*flat);
            one.limitsChecked = true; // by the reader, on the way
            one.limits = m_options.decode;
            one.what = what;
            auto chunk = std::make_shared<DecodedChunk>(kPartialChunk, int32_t(global), std::move(one), m_hashTrust);
            if (damage)
                chunk->setDamage(*damage);
            // The frame is evidence for the hash verdicts like any decoded chunk: a jump that
            // stops here must not leave the file's hashes unverified (the diff would then compare
            // every value where the whole-chunk path skips equal hashes).
            if (m_options.sampleHashes)
                m_hashTrust->observeChunk(*chunk);
            stream.ready(int32_t(global), FrameHandle(std::shared_ptr<const DecodedChunk>(std::move(chunk)), int32_t(global)));
            if (stopAfterReady)
                return std::shared_ptr<const DecodedChunk>();
        }
        if (stream.progress)
            stream.progress(bytes.decodedBytes(), bytes.totalBytes());
        // Asked again for a chunk known to be lost from a frame on (every frame before it has
        // been offered): the rest is not decoded again only to fail as before.
        if (damage && damage->laterFramesLost && damage->firstFrame <= c.endFrame && int64_t(c.startFrame) + int64_t(offered) >= damage->firstFrame)
            return Error{what + ": the frames from " + std::to_string(damage->firstFrame) + " on are lost to " + lostFrom()};
        if (!step) {
            noteDamage(locateDamage(i, bytes.decoded(), frames.frames(), frames.chunkIndex(), false, bytes.compressed(), step.message(), what));
            return Error{step.message()};
        }
        if (bytes.finished())
            break;
    }
    const bool compressed = bytes.compressed();
    auto chunk = finishChunk(i, bytes.take(), what);
    if (!chunk && !damage) {
        // Parsing failed, and the decoded bytes went into the parse: decode again to locate the
        // first unreadable frame (a failure path only).
        auto again = BlobStream::open(m_source, c.fileOffset + 4, c.chunkSizeBytes - 4, m_options.maxChunkBytes, what);
        if (again) {
            while (again->step() && !again->finished()) { }
            ProtoFrameLocator located;
            located.advance(again->decoded());
            noteDamage(
                locateDamage(i, again->decoded(), located.frames(), located.chunkIndex(), again->finished(), compressed, chunk.message(), what));
        }
    }
    return chunk;
}

ChunkDamage ReplayFile::locateDamage(size_t i, std::span<const uint8_t> decoded, const std::vector<std::pair<size_t, size_t>>& frames,
                                     int32_t chunkIndex, bool decodedWhole, bool compressed, const std::string& error, const std::string& what) const
{
    const ChunkEntry& c = m_footer.chunks[i];
    ChunkDamage d{i, c.startFrame, compressed, error};
    // The first frame that does not read; with every frame reading, the frame after the last one
    // found (the decode stopped there, or the chunk holds fewer frames than its entry says).
    for (size_t k = 0; k < frames.size(); ++k) {
        auto flat = flattenProtoFrame(decoded, frames[k].first, frames[k].second, chunkIndex, k, m_options.decode, what);
        if (!flat) {
            d.firstFrame = c.startFrame + int32_t(k);
            d.reason = flat.message();
            return d;
        }
    }
    // Past the chunk's last frame when every frame it holds was found whole and reads (a zstd
    // error at the end of the stream): no frame is lost, each one is suspect; readers check
    // firstFrame against the chunk's end before naming it.
    d.firstFrame = c.startFrame + int32_t(frames.size());
    // Every frame reads, and the decode went to the end: the damage is in the chunk's own
    // fields, not in a frame. Nothing places it, so no frame is vouched for.
    if (decodedWhole && d.firstFrame > c.endFrame)
        d.firstFrame = c.startFrame;
    return d;
}

void ReplayFile::noteDamage(ChunkDamage damage) const
{
    std::lock_guard lock(m_damageMutex);
    auto [it, added] = m_damage.try_emplace(damage.chunk, damage);
    if (!added && damage.firstFrame < it->second.firstFrame)
        it->second = std::move(damage);
}

std::optional<ChunkDamage> ReplayFile::knownDamage(size_t i) const
{
    std::lock_guard lock(m_damageMutex);
    auto it = m_damage.find(i);
    return it == m_damage.end() ? std::nullopt : std::optional<ChunkDamage>(it->second);
}

Result<std::shared_ptr<const DecodedChunk>> ReplayFile::finishChunk(size_t i, Buffer decoded, const std::string& what) const
{
    auto storage = codecFor(m_backend).parseChunk(std::move(decoded), m_options.decode, what);
    if (!storage)
        return storage.error();
    if (storage->framesVerified && !storage->limitsChecked)
        if (Status s = checkChunkLimits(*storage->root, m_options.decode, what); !s)
            return Error{s.message()};
    auto chunk = std::make_shared<DecodedChunk>(i, m_footer.chunks[i].startFrame, std::move(*storage), m_hashTrust);
    if (m_options.sampleHashes)
        m_hashTrust->observeChunk(*chunk);
    return std::shared_ptr<const DecodedChunk>(std::move(chunk));
}

Result<std::shared_ptr<const DecodedChunk>> ReplayFile::decodeChunk(size_t i) const
{
    auto blob = readChunkBlob(i);
    if (!blob)
        return blob.error();
    const ChunkEntry& c = m_footer.chunks[i];
    const std::string what = where("chunk " + std::to_string(i) + " at offset " + std::to_string(c.fileOffset));
    auto storage = decodeStored(std::move(*blob), what);
    if (!storage)
        return storage.error();
    auto chunk = std::make_shared<DecodedChunk>(i, c.startFrame, std::move(*storage), m_hashTrust);
    // A few frames of every chunk decoded: evidence for (or against) trusting stored hashes.
    if (m_options.sampleHashes)
        m_hashTrust->observeChunk(*chunk);
    return std::shared_ptr<const DecodedChunk>(std::move(chunk));
}

void ReplayFile::gatherHashEvidence(size_t maxChunks) const
{
    const size_t n = m_footer.chunks.size();
    if (n == 0 || maxChunks == 0)
        return;
    const size_t picks = std::min(n, maxChunks);
    size_t last = n; // decode each pick once
    for (size_t k = 0; k < picks; ++k) {
        const size_t i = picks == 1 ? 0 : k * (n - 1) / (picks - 1);
        if (i == last)
            continue;
        last = i;
        (void)decodeChunk(i); // a chunk that fails to decode gives no evidence; others still do
    }
}

Result<FrameHandle> ReplayFile::frame(int32_t f) const
{
    if (f < 0 || f >= m_footer.totalFrames)
        return Error{where("frame " + std::to_string(f) + " is out of range (" + std::to_string(m_footer.totalFrames) + " frames)")};
    auto ci = chunkForFrame(f);
    if (!ci)
        return Error{where("frame " + std::to_string(f) + " is not covered by the seek table")};
    // Protobuf: the decode stops once the frame's bytes are read (a jump pays for them alone).
    std::optional<Result<FrameHandle>> early;
    FrameStream stream;
    stream.wants = [f](int32_t g) { return g == f; };
    stream.ready = [&early](int32_t, const Result<FrameHandle>& h) { early = h; };
    auto chunk = streamChunk(*ci, stream, true);
    if (early)
        return *early;
    if (!chunk)
        return chunk.error();
    const size_t local = size_t(f - (*chunk)->startFrame());
    if (local >= (*chunk)->frameCount())
        return Error{where("frame " + std::to_string(f) + " is missing from chunk " + std::to_string(*ci) + " (it holds " +
                           std::to_string((*chunk)->frameCount()) + " frames)")};
    if (Status s = (*chunk)->frameStatus(local); !s)
        return Error{s.message()};
    return FrameHandle(std::move(*chunk), f);
}

Result<FrameHandle> ReplayFile::frameCheckingChunk(int32_t f) const
{
    auto ci = chunkForFrame(f);
    if (f < 0 || f >= m_footer.totalFrames || !ci)
        return frame(f); // its error
    if (m_backend == Backend::Protobuf) {
        // The whole chunk decodes first: a failure records where the damage is, and frame()
        // then hands out what that leaves of this frame.
        auto whole = decodeChunkStreaming(*ci, {});
        if (!whole)
            return frame(f);
        const size_t local = size_t(f - (*whole)->startFrame());
        if (local >= (*whole)->frameCount())
            return frame(f);
        return FrameHandle(std::move(*whole), f);
    }
    auto whole = decodeChunk(*ci);
    if (!whole)
        return whole.error();
    // Every frame verified, so a bad one anywhere in the chunk shows in damage().
    for (size_t k = 0; k < (*whole)->frameCount(); ++k)
        (void)(*whole)->frameStatus(k);
    const size_t local = size_t(f - (*whole)->startFrame());
    if (local >= (*whole)->frameCount())
        return Error{where("frame " + std::to_string(f) + " is missing from chunk " + std::to_string(*ci) + " (it holds " +
                           std::to_string((*whole)->frameCount()) + " frames)")};
    if (Status s = (*whole)->frameStatus(local); !s)
        return Error{s.message()};
    return FrameHandle(std::move(*whole), f);
}

int64_t ReplayFile::gameTimeTicks(int32_t f) const
{
    const auto& v = m_footer.times.gameTime;
    return f >= 0 && size_t(f) < v.size() ? v[size_t(f)] : 0;
}

int64_t ReplayFile::createdUtcTicks(int32_t f) const
{
    const auto& v = m_footer.times.createdUtc;
    return f >= 0 && size_t(f) < v.size() ? v[size_t(f)] : 0;
}

} // namespace vtx
