#pragma once
// An open VTX replay: header, footer, schema and seek table decoded at open; chunks decoded on
// demand. Thread-safe: any number of threads may decode chunks concurrently (reads are
// positioned, decoding is pure). Caching decoded chunks is ChunkCache's job, not this class's.

#include "vtx/ByteSource.hpp"
#include "vtx/DecodedChunk.hpp"
#include "vtx/ReplayInfo.hpp"
#include "vtx/Schema.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vtx {

/// Resource limits for hostile input; each violation is an error that names the limit.
struct ReaderOptions {
    size_t maxHeaderBytes = 64u << 20;   ///< decoded header blob
    size_t maxFooterBytes = 256u << 20;  ///< decoded footer blob (seek table, times, events)
    size_t maxChunkBytes = 1024u << 20;  ///< decoded chunk blob (zstd bomb bound)
    DecodeLimits decode;
};

class ReplayFile {
public:
    static Result<std::shared_ptr<ReplayFile>> open(const std::string& path, const ReaderOptions& options = {});
    static Result<std::shared_ptr<ReplayFile>> open(std::shared_ptr<const ByteSource> source, const ReaderOptions& options = {});

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

    int32_t frameCount() const { return m_footer.totalFrames; }
    const std::vector<ChunkEntry>& chunks() const { return m_footer.chunks; }
    /// Index of the seek entry covering `frame`, or nullopt.
    std::optional<size_t> chunkForFrame(int32_t frame) const;

    /// Reads and decodes chunk `i` (no caching). Errors name the file, chunk and offset.
    Result<std::shared_ptr<const DecodedChunk>> decodeChunk(size_t i) const;
    /// Stored (compressed) blob of chunk `i` as read from disk.
    Result<Buffer> readChunkBlob(size_t i) const;
    /// Decodes the chunk holding `frame` and returns a handle to it (no caching).
    Result<FrameHandle> frame(int32_t frame) const;

    int64_t gameTimeTicks(int32_t frame) const;  ///< 0 when unknown
    int64_t createdUtcTicks(int32_t frame) const; ///< 0 when unknown

private:
    ReplayFile() = default;
    Status load(const ReaderOptions& options);
    Status loadHeader();
    Status loadFooter();
    void checkSeekTable();
    std::string where(const std::string& what) const;

    std::shared_ptr<const ByteSource> m_source;
    ReaderOptions m_options;
    Backend m_backend = Backend::FlatBuffers;
    ReplayHeader m_header;
    ReplayFooter m_footer;
    BlobInfo m_headerBlob;
    BlobInfo m_footerBlob;
    Schema m_schema;
    std::vector<Problem> m_problems;
};

} // namespace vtx
