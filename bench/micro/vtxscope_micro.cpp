// SPDX-License-Identifier: MIT
// vtxscope-micro: Google Benchmark micro-benchmarks of the pieces the whole-file figures of
// vtxscope-bench are made of, on the replays given on the command line (scripts/bench passes the
// CS2-like and RL-like fixtures in both backends):
//
//   vtxscope-micro FILE... [--benchmark_format=json ...]
//
// Per file: zstd of one chunk, the chunk decode (FlatBuffers: root check; Protobuf: the direct
// wire reader and, as the baseline, libprotobuf + FlatBufferBuilder), verifying one frame, a typed
// property read (isolated and over every entity of a frame that is in cache), and a
// consecutive-frame diff.

#include "ProtoReference.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/file/BlobCodec.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/backend/ProtoChunkReader.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

using vtx::ContainerView;
using vtx::PropertyKey;

/// One replay and its first chunk, decoded once; the benchmarks only read it.
struct Fixture {
    std::string name;
    std::shared_ptr<vtx::ReplayFile> file;
    std::vector<uint8_t> stored; ///< the first chunk's blob as stored (zstd)
    std::vector<uint8_t> decoded; ///< ... and decompressed
    std::shared_ptr<const vtx::DecodedChunk> chunk;
    /// Entities of frame 0 with the first scalar float/double/int/vector key of their type.
    std::vector<std::pair<ContainerView, PropertyKey>> reads;
};

std::unique_ptr<Fixture> load(const std::string& path)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file) {
        std::fprintf(stderr, "vtxscope-micro: %s\n", file.message().c_str());
        return nullptr;
    }
    auto fx = std::make_unique<Fixture>();
    fx->name = std::filesystem::path(path).stem().string();
    fx->file = std::move(*file);
    auto blob = fx->file->readChunkBlob(0);
    auto chunk = fx->file->decodeChunk(0);
    if (!blob || !chunk)
        return nullptr;
    fx->stored.assign(blob->data(), blob->data() + blob->size());
    auto decoded = vtx::decodeBlob(std::move(*blob), size_t(1) << 31, path);
    if (!decoded)
        return nullptr;
    fx->decoded.assign(decoded->data(), decoded->data() + decoded->size());
    fx->chunk = *chunk;
    const vtx::FrameView f = fx->chunk->frame(0);
    for (const vtx::FrameEntity e : f.entities()) {
        const vtx::StructDef* def = fx->file->schema().structById(e.entity.typeId());
        if (!def)
            continue;
        for (const vtx::FieldDef& field : def->fields)
            if (field.key.container == vtx::ContainerKind::Scalar &&
                (field.key.type == vtx::FieldType::Float || field.key.type == vtx::FieldType::Double || field.key.type == vtx::FieldType::Int32 ||
                 field.key.type == vtx::FieldType::Vector)) {
                fx->reads.emplace_back(e.entity, field.key);
                break;
            }
    }
    return fx;
}

double readOne(ContainerView c, const PropertyKey& k)
{
    switch (k.type) {
    case vtx::FieldType::Float: return c.get<float>(k).value_or(0);
    case vtx::FieldType::Double: return c.get<double>(k).value_or(0);
    case vtx::FieldType::Int32: return c.get<int32_t>(k).value_or(0);
    case vtx::FieldType::Vector: return c.get<vtx::Vec3>(k).value_or(vtx::Vec3{}).x;
    default: return 0;
    }
}

void zstdChunk(benchmark::State& state, const Fixture* fx)
{
    for (auto _ : state) {
        vtx::Buffer b(fx->stored.size());
        std::copy(fx->stored.begin(), fx->stored.end(), b.data());
        auto d = vtx::decodeBlob(std::move(b), size_t(1) << 31, "micro");
        benchmark::DoNotOptimize(d.isOk());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(fx->decoded.size()));
}

void parseChunk(benchmark::State& state, const Fixture* fx)
{
    for (auto _ : state) {
        state.PauseTiming(); // the codec takes ownership of a fresh copy; copying is not parsing
        vtx::Buffer b(fx->decoded.size());
        std::copy(fx->decoded.begin(), fx->decoded.end(), b.data());
        state.ResumeTiming();
        auto s = vtx::codecFor(fx->file->backend()).parseChunk(std::move(b), {}, "micro");
        benchmark::DoNotOptimize(s.isOk());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(fx->decoded.size()));
}

void parseChunkLibprotobuf(benchmark::State& state, const Fixture* fx)
{
    for (auto _ : state) {
        auto out = vtxref::flattenWithLibprotobuf(fx->decoded, 128);
        benchmark::DoNotOptimize(out.has_value());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(fx->decoded.size()));
}

void verifyFrame(benchmark::State& state, const Fixture* fx)
{
    // A fresh chunk per batch of frames: each frame is verified once, on first access.
    size_t next = fx->chunk->frameCount();
    std::shared_ptr<const vtx::DecodedChunk> chunk;
    for (auto _ : state) {
        if (next == fx->chunk->frameCount()) {
            state.PauseTiming();
            chunk = *fx->file->decodeChunk(0);
            next = 0;
            state.ResumeTiming();
        }
        benchmark::DoNotOptimize(chunk->frameStatus(next++).isOk());
    }
}

void propertyReadIsolated(benchmark::State& state, const Fixture* fx)
{
    if (fx->reads.empty())
        return state.SkipWithError("no scalar property in frame 0");
    const auto& [c, k] = fx->reads.front();
    for (auto _ : state) {
        PropertyKey key = k;
        benchmark::DoNotOptimize(key); // resolved once by the caller, but not a constant here
        benchmark::DoNotOptimize(readOne(c, key));
    }
}

void propertyReadFrame(benchmark::State& state, const Fixture* fx)
{
    for (auto _ : state)
        for (const auto& [c, k] : fx->reads)
            benchmark::DoNotOptimize(readOne(c, k));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(fx->reads.size()));
}

void diffConsecutive(benchmark::State& state, const Fixture* fx)
{
    vtx::FrameDiff d;
    vtx::DiffOptions opt;
    opt.hashTrust = fx->file->hashTrust().get(); // the shortcut where the file's hashes cover a container
    const size_t n = fx->chunk->frameCount();
    size_t i = 0;
    for (auto _ : state) {
        vtx::diffFrames(fx->chunk->frame(i), fx->chunk->frame(i + 1), fx->file->schema(), opt, d);
        benchmark::DoNotOptimize(d.changes.size());
        i = i + 2 < n ? i + 1 : 0;
    }
}

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    std::vector<std::unique_ptr<Fixture>> fixtures;
    for (int i = 1; i < argc; ++i) {
        auto fx = load(argv[i]);
        if (!fx)
            return 1;
        fixtures.push_back(std::move(fx));
    }
    if (fixtures.empty()) {
        std::fprintf(stderr, "usage: vtxscope-micro FILE... [--benchmark_...]\n");
        return 2;
    }
    for (const auto& owned : fixtures) {
        const Fixture* fx = owned.get();
        const std::string n = fx->name + "/";
        benchmark::RegisterBenchmark((n + "zstd_chunk").c_str(), zstdChunk, fx)->Unit(benchmark::kMillisecond);
        if (fx->file->backend() == vtx::Backend::Protobuf) { // FlatBuffers chunks are read in place
            benchmark::RegisterBenchmark((n + "parse_chunk").c_str(), parseChunk, fx)->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark((n + "parse_chunk_libprotobuf").c_str(), parseChunkLibprotobuf, fx)->Unit(benchmark::kMillisecond);
        }
        if (fx->file->backend() == vtx::Backend::FlatBuffers)
            benchmark::RegisterBenchmark((n + "verify_frame").c_str(), verifyFrame, fx)->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((n + "property_read_isolated").c_str(), propertyReadIsolated, fx);
        benchmark::RegisterBenchmark((n + "property_read_frame_in_cache").c_str(), propertyReadFrame, fx);
        benchmark::RegisterBenchmark((n + "diff_consecutive").c_str(), diffConsecutive, fx)->Unit(benchmark::kMicrosecond);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
