// SPDX-License-Identifier: MIT
#pragma once
// One interface over the two wire formats. Whatever the backend, a decoded chunk comes back
// as a verified FlatBuffer with root fbsvtx::Chunk, so everything above reads one form.

#include "vtx/base/Status.hpp"
#include "vtx/base/Types.hpp"
#include "vtx/file/BlobCodec.hpp"
#include "vtx/file/ReplayInfo.hpp"
#include "vtx/model/ReplayData.hpp"

#include <flatbuffers/flatbuffers.h>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace vtx {

/// Bounds applied while parsing; every one is enforced with an error that names it.
struct DecodeLimits {
    size_t maxTableDepth = 128; ///< FlatBuffers verifier depth (nested structs are tables)
    size_t maxEntitiesPerBucket = 1u << 20; ///< entities (and unique ids) in one bucket
    size_t maxStringBytes = 4u << 20; ///< one string: unique id, string property, array element, map key
};

struct ChunkStorage {
    std::variant<Buffer, flatbuffers::DetachedBuffer> bytes;
    const fbsvtx::Chunk* root = nullptr;
    size_t decodedBlobBytes = 0; ///< size of the decoded blob as stored (before any flattening)
    /// False: only the root and the frame offsets are verified; each frame is verified (and its
    /// DecodeLimits checked) on first access by DecodedChunk. A cold jump then pays for one
    /// frame instead of the whole chunk. `limits` and `what` are kept for that.
    bool framesVerified = true;
    /// True when the codec enforced the DecodeLimits itself while decoding (the Protobuf reader
    /// builds the FlatBuffer, so it needs neither the verifier nor the separate limits pass).
    bool limitsChecked = false;
    DecodeLimits limits;
    std::string what;
    size_t sizeBytes() const { return bytes.index() == 0 ? std::get<0>(bytes).size() : std::get<1>(bytes).size(); }
    const uint8_t* data() const { return bytes.index() == 0 ? std::get<0>(bytes).data() : std::get<1>(bytes).data(); }
};

class BackendCodec {
public:
    virtual ~BackendCodec() = default;
    virtual Backend backend() const = 0;
    virtual Result<ReplayHeader> parseHeader(std::span<const uint8_t> blob, const std::string& what) const = 0;
    virtual Result<ReplayFooter> parseFooter(std::span<const uint8_t> blob, const std::string& what) const = 0;
    /// Takes the decoded chunk blob; returns it (FlatBuffers, verified) or its flattened
    /// FlatBuffers form (Protobuf, read straight from the wire: ProtoChunkReader).
    virtual Result<ChunkStorage> parseChunk(Buffer decoded, const DecodeLimits& limits, const std::string& what) const = 0;

    virtual std::vector<uint8_t> serializeHeader(const ReplayHeader& h) const = 0;
    virtual std::vector<uint8_t> serializeFooter(const ReplayFooter& f) const = 0;
    virtual std::vector<uint8_t> serializeChunk(int32_t chunkIndex, bool isCompressedFlag, std::span<const FrameData> frames) const = 0;
};

const BackendCodec& codecFor(Backend b);

/// Builds a FlatBuffers PropertyContainer from owned data (shared by the FBS writer and tests).
flatbuffers::Offset<fbsvtx::PropertyContainer> buildContainer(flatbuffers::FlatBufferBuilder& fbb, const PropertyContainerData& c);

} // namespace vtx
