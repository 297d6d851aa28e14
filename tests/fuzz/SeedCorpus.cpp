// SPDX-License-Identifier: MIT
// vtxfuzz-seeds OUTDIR [SAMPLES_DIR]: writes a seed corpus per fuzz target. Seeds are small
// generated replays in both backends (compressed and raw, plus truncated copies that exercise
// recovery), their chunk blobs, pairs of chunks for the diff, and the schemas; with a samples
// folder, also the SDK samples' schemas and their smaller chunk blobs. Nothing here is committed:
// the corpus is rebuilt from these sources on every scripts/fuzz run.

#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/ReplayWriter.hpp"
#include "vtxgen/Generator.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;
using namespace vtx;

namespace {

std::vector<uint8_t> readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void write(const fs::path& dir, const std::string& name, const std::vector<uint8_t>& bytes)
{
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<uint8_t> chunkSeed(Backend b, std::span<const uint8_t> blob)
{
    std::vector<uint8_t> out{uint8_t(b == Backend::Protobuf ? 1 : 0)};
    out.insert(out.end(), blob.begin(), blob.end());
    return out;
}

std::vector<uint8_t> diffSeed(Backend b, uint8_t mode, std::span<const uint8_t> x, std::span<const uint8_t> y)
{
    std::vector<uint8_t> out{uint8_t((mode & ~1u) | (b == Backend::Protobuf ? 1 : 0))};
    for (int i = 0; i < 4; ++i)
        out.push_back(uint8_t(x.size() >> (8 * i)));
    out.insert(out.end(), x.begin(), x.end());
    out.insert(out.end(), y.begin(), y.end());
    return out;
}

/// Adds seeds for every target from one replay file; `maxBlob` skips chunk blobs larger than that.
void seedFrom(const fs::path& out, const std::string& tag, const std::vector<uint8_t>& bytes, size_t maxBlob, bool wholeFile)
{
    auto f = ReplayFile::open(memorySource(bytes, tag));
    if (!f) {
        std::cerr << "vtxfuzz-seeds: " << f.message() << "\n";
        return;
    }
    if (wholeFile) {
        write(out / "open", tag, bytes);
        // A recorder that crashed mid-chunk: no footer, the last record cut.
        if (!(*f)->chunks().empty()) {
            const ChunkEntry& last = (*f)->chunks().back();
            write(out / "open", tag + "-cut", {bytes.begin(), bytes.begin() + long(last.fileOffset + last.chunkSizeBytes / 2)});
        }
    }
    write(out / "schema", tag + ".json", {(*f)->header().schemaJson.begin(), (*f)->header().schemaJson.end()});
    std::vector<std::vector<uint8_t>> raw;
    for (size_t i = 0; i < (*f)->chunks().size() && i < 4; ++i) {
        auto blob = (*f)->readChunkBlob(i);
        if (!blob || blob->size() > maxBlob)
            continue;
        write(out / "chunk", tag + "-chunk" + std::to_string(i), chunkSeed((*f)->backend(), blob->span()));
        auto decoded = decodeBlob(std::move(*blob), maxBlob * 64, tag);
        if (decoded && decoded->size() <= maxBlob) {
            raw.emplace_back(decoded->span().begin(), decoded->span().end());
            write(out / "chunk", tag + "-raw" + std::to_string(i), chunkSeed((*f)->backend(), raw.back()));
        }
    }
    for (size_t i = 0; i + 1 < raw.size(); ++i)
        for (uint8_t mode : {0x02, 0x0e, 0x34})
            write(out / "diff", tag + "-pair" + std::to_string(i) + "-m" + std::to_string(mode), diffSeed((*f)->backend(), mode, raw[i], raw[i + 1]));
}

/// A small replay of `kind` re-written with the given backend and compression.
std::vector<uint8_t> smallReplay(const fs::path& tmp, vtxgen::Kind kind, Backend backend, bool compress)
{
    vtxgen::GeneratorOptions o;
    o.kind = kind;
    o.backend = backend;
    o.frames = 6;
    o.chunkFrames = 2;
    const fs::path generated = tmp / "generated.vtx";
    if (auto r = vtxgen::generateReplay(generated.string(), o); !r) {
        std::cerr << "vtxfuzz-seeds: " << r.message() << "\n";
        return {};
    }
    if (compress)
        return readAll(generated);
    auto src = ReplayFile::open(generated.string());
    WriterOptions wo;
    wo.backend = backend;
    wo.compress = false;
    wo.chunkMaxFrames = 2;
    const fs::path rewritten = tmp / "raw.vtx";
    auto w = ReplayWriter::create(rewritten.string(), (*src)->header(), wo);
    if (!src || !w)
        return {};
    for (int32_t i = 0; i < (*src)->frameCount(); ++i)
        if (auto fr = (*src)->frame(i))
            (void)(*w)->addFrame(toData(fr->view()), (*src)->gameTimeTicks(i), (*src)->createdUtcTicks(i) + i);
    if (!(*w)->finish())
        return {};
    return readAll(rewritten);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: vtxfuzz-seeds OUTDIR [SAMPLES_DIR]\n";
        return 2;
    }
    const fs::path out = argv[1];
    const fs::path tmp = out / ".tmp";
    fs::create_directories(tmp);
    for (vtxgen::Kind kind : {vtxgen::Kind::Demo, vtxgen::Kind::Cs2, vtxgen::Kind::Rl}) {
        const std::string k = vtxgen::kindName(kind);
        const std::string schema = vtxgen::schemaJson(kind);
        write(out / "schema", "gen-" + k + ".json", {schema.begin(), schema.end()});
        for (Backend b : {Backend::FlatBuffers, Backend::Protobuf})
            for (bool compress : {true, false}) {
                const std::string tag = "gen-" + k + (b == Backend::Protobuf ? "-proto" : "-fbs") + (compress ? "-zstd" : "-raw");
                seedFrom(out, tag, smallReplay(tmp, kind, b, compress), 128u << 10, true);
            }
    }
    if (argc > 2) {
        for (const auto& entry : fs::directory_iterator(argv[2]))
            if (entry.path().extension() == ".vtx")
                seedFrom(out, "sample-" + entry.path().stem().string(), readAll(entry.path()), 128u << 10, false);
    }
    fs::remove_all(tmp);
    return 0;
}
