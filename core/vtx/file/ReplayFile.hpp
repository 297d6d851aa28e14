// SPDX-License-Identifier: MIT
#pragma once
// An open VTX replay: header, footer, schema and seek table decoded at open; chunks decoded on
// demand. Thread-safe: any number of threads may decode chunks concurrently (reads are
// positioned, decoding is pure). Caching decoded chunks is ChunkCache's job, not this class's.

#include "vtx/file/ByteSource.hpp"
#include "vtx/file/ReplayInfo.hpp"
#include "vtx/integrity/HashTrust.hpp"
#include "vtx/model/DecodedChunk.hpp"
#include "vtx/model/Schema.hpp"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace vtx {

/// Resource limits for hostile input; each violation is an error that names the limit
/// (docs/FORMAT-NOTES.md lists them).
struct ReaderOptions {
    size_t maxHeaderBytes = 64u << 20; ///< decoded header blob
    size_t maxFooterBytes = 256u << 20; ///< decoded footer blob (seek table, times, events)
    size_t maxChunkBytes = 1024u << 20; ///< decoded chunk blob (zstd bomb bound)
    size_t maxSchemaBytes = 16u << 20; ///< embedded schema JSON
    DecodeLimits decode;
    /// A missing, truncated or corrupt footer opens in recovery mode (chunk records walked from
    /// the header) instead of failing.
    bool recover = true;
    /// Every decoded chunk has its first, middle and last frames' stored hashes checked against
    /// both variants (HashTrust). Off: no type is trusted, every diff compares values.
    bool sampleHashes = true;
};

/// What recovery mode found. Chunk records are self-delimiting (spec §1.2), so without a usable
/// footer the reader walks them from the end of the header and rebuilds the seek table; the
/// frame times, events, gaps and segments lived in the footer and are lost.
struct RecoveryReport {
    struct CorruptRecord {
        uint64_t offset = 0;
        uint64_t bytes = 0; ///< size prefix included
        std::string error;
    };
    bool recovered = false;
    std::string reason; ///< why the footer could not be used
    size_t chunks = 0; ///< chunks recovered
    int32_t frames = 0; ///< frames recovered
    uint64_t resumeOffset = 0; ///< just past the last complete record: where a re-scan resumes
    uint64_t lostBytes = 0; ///< unusable bytes from resumeOffset to the end of the file
    std::string lostWhat; ///< what those bytes are, empty when there are none
    std::vector<CorruptRecord> corruptRecords; ///< complete records that failed to decode: their frames are lost
    std::string summary() const;
};

/// How a streamed chunk decode (ReplayFile::decodeChunkStreaming) hands out frames while their
/// chunk is still decoding. Protobuf chunks hold their frames in order, so frame k is whole once
/// the decode passes its end; a FlatBuffers chunk is laid out back to front and every frame
/// reaches into its last bytes (docs/PERFORMANCE.md, "Streaming decode"), so its frames come only
/// with the whole chunk.
///
/// A frame handed out early lives in a chunk of its own: FrameHandle::chunk() then holds just that
/// frame (startFrame() is the frame, frameCount() 1) and its index() is kPartialChunk, so nothing
/// that looks a chunk up by its index takes it for the whole chunk.
struct FrameStream {
    /// Asked on the decoding thread for each frame as soon as its bytes are decoded: true to have
    /// it read now and handed to `ready`.
    std::function<bool(int32_t frame)> wants;
    std::function<void(int32_t frame, const Result<FrameHandle>& handle)> ready;
    /// Test hook: after each step of the decode, the chunk's decoded and total bytes.
    std::function<void(size_t decodedBytes, size_t totalBytes)> progress;
};

class ReplayFile {
public:
    /// DecodedChunk::index() of a chunk that holds one frame handed out early (FrameStream).
    static constexpr size_t kPartialChunk = size_t(-1);

    static Result<std::shared_ptr<ReplayFile>> open(const std::string& path, const ReaderOptions& options = {});
    static Result<std::shared_ptr<ReplayFile>> open(std::shared_ptr<const ByteSource> source, const ReaderOptions& options = {});
    /// Re-reads the file from disk for a replay that is still being written. Returns null when
    /// its size has not changed. Otherwise a new ReplayFile: when the file still has no usable
    /// footer, the chunk walk resumes where this one stopped (chunks already found are not
    /// read again); when a footer has appeared, the file as the footer describes it.
    Result<std::shared_ptr<ReplayFile>> refresh() const;

    const std::string& path() const { return m_source->name(); }
    uint64_t fileSize() const { return m_source->size(); }
    Backend backend() const { return m_backend; }
    const ReplayHeader& header() const { return m_header; }
    const ReplayFooter& footer() const { return m_footer; }
    const BlobInfo& headerBlob() const { return m_headerBlob; }
    const BlobInfo& footerBlob() const { return m_footerBlob; }
    /// Empty when the embedded schema is missing or invalid (see problems()).
    const Schema& schema() const { return m_schema; }
    /// Strict-mode findings at open (spec §8.4) and schema issues; the file is still usable.
    const std::vector<Problem>& problems() const { return m_problems; }
    /// Set when the footer was unusable and the chunks were recovered by walking the records.
    const RecoveryReport& recovery() const { return m_recovery; }
    bool isRecovered() const { return m_recovery.recovered; }

    int32_t frameCount() const { return m_footer.totalFrames; }
    const std::vector<ChunkEntry>& chunks() const { return m_footer.chunks; }
    /// Index of the seek entry covering `frame`, or nullopt.
    std::optional<size_t> chunkForFrame(int32_t frame) const;

    /// Reads and decodes chunk `i` (no caching). Errors name the file, chunk and offset.
    Result<std::shared_ptr<const DecodedChunk>> decodeChunk(size_t i) const;
    /// decodeChunk(), decoding as a stream: each frame `stream.wants` is handed to `stream.ready`
    /// as soon as its bytes are decoded (Protobuf), while the rest of the chunk keeps decoding.
    /// When the data is damaged, the result is the error and the damage is remembered
    /// (knownDamage): a frame handed out once it is known is an error from the first damaged
    /// frame on, and before it carries the damage (DecodedChunk::damage()). Frames handed out
    /// before the decode reached the damage carry nothing: whoever shows them hears of the
    /// failure from the result and asks again.
    Result<std::shared_ptr<const DecodedChunk>> decodeChunkStreaming(size_t i, const FrameStream& stream) const;
    /// Stored (compressed) blob of chunk `i` as read from disk.
    Result<Buffer> readChunkBlob(size_t i) const;
    /// Decodes the chunk holding `frame` and returns a handle to it (no caching). In a Protobuf
    /// file the decode stops at the frame, and the handle's chunk holds only it (FrameStream);
    /// damage further on in the chunk is then unknown unless an earlier decode found it.
    Result<FrameHandle> frame(int32_t frame) const;
    /// frame(), after decoding and verifying the whole chunk, so the handle's chunk carries any
    /// damage in it (DecodedChunk::damage()) and a frame lost to it is the error: for answers
    /// that must hold for the whole chunk (vtxscope-cli frame).
    Result<FrameHandle> frameCheckingChunk(int32_t frame) const;
    /// The damage a decode of chunk `i` found so far (any thread), or nullopt.
    std::optional<ChunkDamage> knownDamage(size_t i) const;

    /// Per struct type, whether stored content hashes may stand in for values; shared with
    /// every chunk this file decodes (and with the file a refresh() returns).
    const std::shared_ptr<HashTrust>& hashTrust() const { return m_hashTrust; }
    /// Decodes up to `maxChunks` chunks spread over the file (first, middle, last, ...) so that
    /// hashTrust() has evidence without a caller reading frames (vtxscope-cli info).
    void gatherHashEvidence(size_t maxChunks = 3) const;

    int64_t gameTimeTicks(int32_t frame) const; ///< 0 when unknown
    int64_t createdUtcTicks(int32_t frame) const; ///< 0 when unknown

private:
    ReplayFile() = default;
    Status load(const ReaderOptions& options, const ReplayFile* previous);
    Status loadHeader();
    Status loadFooter();
    /// Reads, decodes and checks the footer blob of `z` bytes at `footerOffset`.
    Status parseFooter(uint64_t footerOffset, uint32_t z);
    /// The seek table lists the chunk records exactly as they lie: contiguous from the header,
    /// size prefixes matching, the last ending where the footer starts.
    bool seekTableMatchesRecords() const;
    Status parseSchema();
    void recoverFromChunks(std::string reason, const ReplayFile* previous);
    /// Stored blob -> verified chunk within every limit.
    Result<ChunkStorage> decodeStored(Buffer blob, const std::string& what) const;
    void checkSeekTable();
    /// decodeChunkStreaming; with `stopAfterReady`, stops after handing out one frame and
    /// returns a null chunk.
    Result<std::shared_ptr<const DecodedChunk>> streamChunk(size_t i, const FrameStream& stream, bool stopAfterReady) const;
    /// The checked storage of a whole decoded chunk, as a DecodedChunk with hash sampling.
    Result<std::shared_ptr<const DecodedChunk>> finishChunk(size_t i, Buffer decoded, const std::string& what) const;
    std::string where(const std::string& what) const;
    /// Where a Protobuf chunk that failed to decode went wrong: its frames [begin, end) in
    /// `decoded`, the decode's error, and whether the bytes after the damage are decoded too.
    ChunkDamage locateDamage(size_t i, std::span<const uint8_t> decoded, const std::vector<std::pair<size_t, size_t>>& frames, int32_t chunkIndex,
                             bool decodedWhole, bool compressed, const std::string& error, const std::string& what) const;
    void noteDamage(ChunkDamage damage) const;

    std::shared_ptr<const ByteSource> m_source;
    ReaderOptions m_options;
    Backend m_backend = Backend::FlatBuffers;
    ReplayHeader m_header;
    ReplayFooter m_footer;
    BlobInfo m_headerBlob;
    BlobInfo m_footerBlob;
    Schema m_schema;
    std::vector<Problem> m_problems;
    RecoveryReport m_recovery;
    std::shared_ptr<HashTrust> m_hashTrust;
    std::vector<uint8_t> m_headerStored; ///< compared by refresh() to tell a grown file from a replaced one
    mutable std::mutex m_damageMutex;
    mutable std::map<size_t, ChunkDamage> m_damage; ///< per chunk, what its decodes found
};

} // namespace vtx
