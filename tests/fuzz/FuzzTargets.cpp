// SPDX-License-Identifier: MIT
#include "FuzzTargets.hpp"

#include "ProtoReference.hpp"
#include "vtx/diff/DiffExport.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/backend/ChunkLimits.hpp"
#include "vtx/file/backend/FrameVerifier.hpp"
#include "vtx/file/backend/ProtoChunkReader.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/integrity/Validate.hpp"
#include "vtx/model/PropertyPath.hpp"
#include "vtx/model/PropertyTree.hpp"
#include "vtxgen/Generator.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace vtxfuzz {
namespace {

using namespace vtx;

// The open target is about the container (header, footer, schema, seek table, recovery): chunk
// contents are the chunk target's job, so a few chunks and a strict pass on small files keep
// executions per second up.
constexpr size_t kValidateMaxBytes = 32u << 10;
constexpr size_t kOpenMaxChunks = 4;

// The work per input is bounded by the decoded size: every pass (zstd, the Protobuf reader and
// libprotobuf's reference parse, the FlatBuffers verifier, the frame walk) is linear in it.
// Under ASan the chunk target costs ~0.5 s of CPU per decoded MiB of an RL-like Protobuf chunk
// (the reference parse is most of it) and ~0.1 s per MiB of a FlatBuffers one (docs/TESTING.md),
// so a decoded chunk is capped at 1 MiB: ~0.5 s for the chunk target, ~1 s for the diff (two
// chunks). A zstd frame that inflates beyond the cap is rejected by the same check as the
// product's 1 GiB bound (that path stays covered); the old 32 MiB cap let an 86 KB input cost
// 5.5 s, and 28 s under load (issue 29). Past 1 MiB no code runs that a smaller chunk does not
// reach (under ASan large blocks come from malloc too, LargeAlloc.hpp), so the entity and
// string limits are scaled down with it to stay reachable.
constexpr size_t kFuzzMaxChunkBytes = 1u << 20;

ReaderOptions fuzzLimits()
{
    ReaderOptions o;
    o.maxHeaderBytes = 1u << 20;
    o.maxFooterBytes = 2u << 20;
    o.maxChunkBytes = kFuzzMaxChunkBytes;
    o.decode.maxEntitiesPerBucket = 16u << 10;
    o.decode.maxStringBytes = 64u << 10;
    return o;
}

const Schema& generatorSchema()
{
    static const Schema schema = [] {
        auto s = Schema::parse(vtxgen::schemaJson(vtxgen::Kind::Cs2));
        return s ? std::move(*s) : Schema{};
    }();
    return schema;
}

void walkContainer(ContainerView c, const Schema& schema)
{
    (void)computeContentHash(c);
    (void)buildPropertyTree(c, schema);
    (void)containerJson(c, schema).dump();
    static const std::array<std::string_view, 4> paths = {"Health", "Position.x", "Inventory[0]", "RoundStats[round_1].Kills"};
    for (std::string_view p : paths)
        if (auto path = PropertyPath::parse(p))
            (void)path->evaluate(c, schema);
}

void walkFrame(FrameView f, const Schema& schema)
{
    for (size_t b = 0; b < f.bucketCount(); ++b) {
        BucketView bucket = f.bucket(b);
        for (size_t e = 0; e < bucket.entityCount(); ++e) {
            (void)bucket.uniqueId(e);
            walkContainer(bucket.entity(e), schema);
        }
        if (bucket.entityCount())
            (void)findEntity(f, uint32_t(b), bucket.uniqueId(0));
    }
}

/// The direct Protobuf reader against libprotobuf (tst_protoreader's rule on every fuzz input):
/// it may reject more (the fuzz limits are tighter than libprotobuf's, groups are not part of
/// the format), never accept what libprotobuf rejects or read other values.
void checkAgainstLibprotobuf(std::span<const uint8_t> wire, const DecodeLimits& limits)
{
    auto ours = flattenProtoChunk(wire, limits, "fuzz chunk");
    auto ref = vtxref::flattenWithLibprotobuf(wire, int(limits.maxTableDepth));
    std::string problem;
    if (ours && !ref)
        problem = "ProtoChunkReader accepts what libprotobuf rejects";
    else if (!ours && ref && ours.message().find("(max") == std::string::npos && ours.message().find("group") == std::string::npos)
        problem = "ProtoChunkReader rejects what libprotobuf accepts: " + ours.message();
    else if (ours && ref)
        if (std::string d =
                vtxref::chunkDifference(*flatbuffers::GetRoot<fbsvtx::Chunk>(ours->data()), *flatbuffers::GetRoot<fbsvtx::Chunk>(ref->data()));
            !d.empty())
            problem = "the readers disagree at " + d;
    if (!problem.empty()) {
        std::fprintf(stderr, "fuzz_chunk: %s\n", problem.c_str());
        std::abort();
    }
}

/// The fused frame verifier against flatbuffers::Verifier + checkFrameLimits, frame by frame:
/// the same verdict on every input (tst_frameverifier's rule).
void checkFrameVerifier(const ChunkStorage& storage, const DecodeLimits& limits)
{
    const auto* frames = storage.root->frames();
    if (!frames)
        return;
    const uint8_t* base = storage.data();
    const size_t size = storage.sizeBytes();
    flatbuffers::Verifier::Options opts;
    opts.max_depth = flatbuffers::uoffset_t(std::max<size_t>(limits.maxTableDepth, 2) - 1);
    opts.max_tables = flatbuffers::uoffset_t(std::max<size_t>(size / 4, 1024));
    for (flatbuffers::uoffset_t i = 0; i < frames->size(); ++i) {
        const fbsvtx::Frame* f = frames->Get(i);
        const bool fused = frameIsValid(base, size, size_t(reinterpret_cast<const uint8_t*>(f) - base), limits, opts.max_depth, opts.max_tables);
        flatbuffers::Verifier v(base, size, opts);
        const bool reference = v.VerifyTable(f) && checkFrameLimits(*f, limits, "frame").isOk();
        if (fused != reference) {
            std::fprintf(stderr, "fuzz_chunk: frame %u: FrameVerifier says %d, flatbuffers::Verifier + limits say %d\n", i, int(fused),
                         int(reference));
            std::abort();
        }
    }
}

std::shared_ptr<const DecodedChunk> decodeStoredChunk(Backend backend, std::span<const uint8_t> stored)
{
    Buffer blob(stored.size());
    if (!stored.empty())
        std::copy(stored.begin(), stored.end(), blob.data());
    const ReaderOptions limits = fuzzLimits();
    auto decoded = decodeBlob(std::move(blob), limits.maxChunkBytes, "fuzz chunk");
    if (!decoded)
        return nullptr;
    if (backend == Backend::Protobuf)
        checkAgainstLibprotobuf(decoded->span(), limits.decode);
    auto storage = codecFor(backend).parseChunk(std::move(*decoded), limits.decode, "fuzz chunk");
    if (!storage || (storage->framesVerified && !storage->limitsChecked && !checkChunkLimits(*storage->root, limits.decode, "fuzz chunk")))
        return nullptr; // FlatBuffers frames are verified one by one as the walk asks for them
    if (!storage->framesVerified)
        checkFrameVerifier(*storage, limits.decode);
    return std::make_shared<DecodedChunk>(0, 0, std::move(*storage));
}

} // namespace

void fuzzOpen(std::span<const uint8_t> data)
{
    auto file = ReplayFile::open(memorySource({data.begin(), data.end()}, "fuzz.vtx"), fuzzLimits());
    if (!file)
        return;
    const ReplayFile& f = **file;
    (void)infoJson(f).dump();
    for (size_t ci = 0; ci < std::min(f.chunks().size(), kOpenMaxChunks); ++ci) {
        auto chunk = f.decodeChunk(ci);
        if (!chunk)
            continue;
        // First and last frame: every frame of a chunk runs the same code, and executions per
        // second are what finds bugs.
        const size_t n = (*chunk)->frameCount();
        for (size_t lf : {size_t(0), n - 1})
            if (lf < n)
                (void)frameJson(f, FrameHandle(*chunk, (*chunk)->startFrame() + int32_t(lf))).dump();
    }
    if (data.size() <= kValidateMaxBytes)
        (void)validationJson(validate(f)).dump();
}

void fuzzChunk(std::span<const uint8_t> data)
{
    if (data.empty())
        return;
    const Backend backend = data[0] & 1 ? Backend::Protobuf : Backend::FlatBuffers;
    auto chunk = decodeStoredChunk(backend, data.subspan(1));
    if (!chunk)
        return;
    const size_t n = chunk->frameCount();
    for (size_t lf = 0; lf < n; lf = lf < 3 ? lf + 1 : std::max(lf + 1, n - 1))
        walkFrame(chunk->frame(lf), generatorSchema());
}

void fuzzSchema(std::span<const uint8_t> data)
{
    std::vector<Problem> warnings;
    auto schema = Schema::parse(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()), &warnings);
    if (!schema)
        return;
    for (int32_t t = -1; t <= int32_t(schema->structs().size()); ++t)
        if (const StructDef* s = schema->structById(t))
            for (const FieldDef& field : s->fields)
                (void)schema->structByName(field.structType);
}

void fuzzDiff(std::span<const uint8_t> data)
{
    if (data.size() < 5)
        return;
    const uint8_t mode = data[0];
    const Backend backend = mode & 1 ? Backend::Protobuf : Backend::FlatBuffers;
    const uint32_t lenA = uint32_t(data[1]) | uint32_t(data[2]) << 8 | uint32_t(data[3]) << 16 | uint32_t(data[4]) << 24;
    const auto rest = data.subspan(5);
    if (lenA > rest.size())
        return;
    auto a = decodeStoredChunk(backend, rest.first(lenA));
    auto b = decodeStoredChunk(backend, rest.subspan(lenA));
    if (!a || !b)
        return;
    DiffOptions options;
    options.useContentHash = (mode & 2) != 0;
    options.tolerance.absolute = mode & 4 ? 1e-3 : 0;
    options.tolerance.relative = mode & 8 ? 1e-6 : 0;
    options.maxChangesPerProperty = mode & 16 ? 3 : 1000;
    if (mode & 32)
        options.ignore = {"Health", "Position"};
    const Schema& schema = generatorSchema();
    // Hash trust from hostile frames: sampled the way a file samples its chunks (both hash
    // variants recomputed for every container), then used by the diff's shortcut.
    HashTrust trust(schema.structs().size());
    trust.observeChunk(*a);
    trust.observeChunk(*b);
    options.hashTrust = &trust;
    const size_t n = std::min<size_t>(std::min(a->frameCount(), b->frameCount()), 8);
    FrameDiff d;
    for (size_t i = 0; i < n; ++i) {
        diffFrames(a->frame(i), b->frame(i), schema, options, d);
        const FrameView fa = a->frame(i);
        for (size_t bi = 0; bi < fa.bucketCount(); ++bi)
            for (size_t e = 0; e < std::min<size_t>(fa.bucket(bi).entityCount(), 4); ++e)
                (void)unnamedJson(fa.bucket(bi).entity(e), schema);
        (void)diffJson(d, schema, options).dump();
        (void)diffCsv(d, schema);
    }
}

std::span<const Target> targets()
{
    static const std::array<Target, 4> all = {{
        {"open", fuzzOpen},
        {"chunk", fuzzChunk},
        {"schema", fuzzSchema},
        {"diff", fuzzDiff},
    }};
    return all;
}

} // namespace vtxfuzz
