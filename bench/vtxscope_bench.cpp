// SPDX-License-Identifier: MIT
// vtxscope-bench: whole-file measurements on real-sized replays, JSON on stdout.
//
//   vtxscope-bench plot-series FILE [--series N] [--rounds R]
//                                                N plot series over the whole replay in one pass
//                                                vs one full read in the same run (ratio)
//   vtxscope-bench plot-paint [--series N] [--points P] [--width W] [--height H] [--rounds R]
//                                                one Plot dock repaint into an offscreen image
//   vtxscope-bench read-all FILE [--threads N]   decode every chunk, read every property of
//                                                every frame; wall time and peak RSS
//   vtxscope-bench open FILE [--via-cache] [--cache-workers N]
//                                                open -> first frame decoded (through a ChunkCache:
//                                                what the viewer does; N workers, 0: one per
//                                                hardware thread), against zstd up to frame 0
//   vtxscope-bench gui-open FILE                 open -> frame 0 on screen in the app's window
//                                                (offscreen; run with a scratch HOME), and ->
//                                                the Map's up axis chosen; against zstd to frame 0
//   vtxscope-bench cold-jumps FILE [--jumps N] [--seed S]
//                                                N seeded random frames, each decoded cold, against
//                                                zstd up to each jumped-to frame (ratios)
//   vtxscope-bench zstd FILE                     decompression-only speed of the chunks (limit)
//   vtxscope-bench first-frames FILE [--frames N] open, then read every property of frames [0, N)
//   vtxscope-bench property-read FILE [--rounds R]
//                                                typed reads of a few scalar properties of every
//                                                entity of every frame of a decoded chunk
//                                                (realistic loop: frame resident, and frames streamed
//                                                from memory) and of one property (isolated)
//   vtxscope-bench membw                         memory read bandwidth of this machine (limit)
//   vtxscope-bench refault [--mb N] [--rounds R] [--idle-ms T]
//                                                ms per MB to touch fresh memory: first, right
//                                                after freeing it, after it stayed free a while
//                                                (what the host's free page reporting costs)
//   vtxscope-bench write FILE OUT [--frames N]   writer throughput: the first N frames of FILE
//                                                (copied out first) written to OUT with the SDK's
//                                                defaults (1,000 frames per chunk, zstd 10)
//   vtxscope-bench decode-phases FILE            per chunk: read, zstd, parse (Protobuf: and flatten),
//                                                whole-chunk limit checks (Protobuf), frame ranges,
//                                                verifying one frame / every frame (FlatBuffers)
//                                                (median ms): what a cold jump spends its time on
//   vtxscope-bench hash-sampling FILE            per chunk: what HashTrust's sampling adds to a decode
//   vtxscope-bench lengthen FILE OUT [--frames N]
//                                                FILE's frames repeated to N (10,656) frames, same hash
//                                                variant: the SDK's short samples at full match length
//   vtxscope-bench diff FILE [--pairs N] [--consecutive-only]
//                                                consecutive-frame and first-vs-last frame diffs
//                                                (median µs), with and without the hash short-circuit
//   vtxscope-bench perturb FILE OUT [--from N] [--delta D]
//                                                FILE copied chunk by chunk to OUT (same backend, chunk
//                                                size and game times) with the first vector (else float)
//                                                of bucket 0's first entity moved by D (0.5) from frame N
//                                                (6000) on: the second run for diverge
//   vtxscope-bench diverge A B [--epsilon E] [--every-chunk]
//                                                vtx::diverge(A, B) and, in the same run, one full read
//                                                of A (read-all's single-threaded walk); their ratio.
//                                                --every-chunk: without the identical-chunk fast path
//   vtxscope-bench read-cpu FILE [--rounds N]    CPU time and page faults (getrusage) of zstd of every
//                                                chunk, a decode-only pass and the full read with 1 and
//                                                2 threads, rounds interleaved; CPU ratios to zstd
//   vtxscope-bench query FILE [--expr E] [--rounds N]
//                                                a query over every frame (QueryScan, entities listed)
//                                                against a full read and a decode-only pass in the
//                                                same run (median of N rounds); their ratios
//   vtxscope-bench make-traces DIR [--frames N] [--fps F]
//                                                write the deterministic access-trace suite
//   vtxscope-bench map-paint [--entities N] [--trail-seconds S] [--rounds R]
//                                                one paint of the Map dock (N entities, S s trails at
//                                                64 Hz) at 1600 × 1000, median ms (GUI builds only)
//   vtxscope-bench replay-trace FILE TRACE... --policy P [--policy P2 ...] [--sweep]
//                  [--budget-mb MB] [--workers N] [--repeat R]
//                                                replay traces against a fresh cache per run,
//                                                honouring the trace timing; --sweep adds none,
//                                                fixed:k,k for k = 0..20 and adaptive
//
// Every measuring command ends with a {"bench": "host"} line: CPU model, cores, memory read
// bandwidth, the 1-minute load average of the machine that ran it, and whether it hands freed
// memory back to a hypervisor (free page reporting: then fresh memory costs far more to touch).

#include "BenchClock.hpp"
#include "HostMemory.hpp"
#include "PlotBench.hpp"
#include "PropertyWalk.hpp"
#include "ProtoReference.hpp"
#include "QueryBench.hpp"
#include "ScanBench.hpp"
#include "TraceSuite.hpp"
#ifdef VTXSCOPE_BENCH_MAP
#include "GuiOpen.hpp"
#include "MapPaint.hpp"
#endif
#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/cache/ChunkCache.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/ReplayWriter.hpp"
#include "vtx/file/backend/ChunkLimits.hpp"
#include "vtx/file/backend/FrameVerifier.hpp"
#include "vtx/file/backend/ProtoChunkReader.hpp"
#include "vtx/file/backend/ProtoWire.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"
#include "vtx/model/ReplayData.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <sys/resource.h>
#include <thread>

using vtxbench::Clock;
using vtxbench::median;
using vtxbench::msSince;

namespace {

double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

/// CPU time of this process so far (user + system, every thread): on a shared machine the wall
/// time of a parallel job says more about the neighbours than about the job.
double cpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(u.ru_utime) + ms(u.ru_stime);
}

/// Reads the file once before anything is timed: the figures are about decoding, not the disk.
/// (This VM keeps only ~300 MB of page cache, so the fixtures evict one another between runs, and
/// a replay-trace run that started cold once took 5x its warm time.)
void warmPageCache(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return; // the command itself reports the error
    std::vector<char> block(size_t(4) << 20);
    while (std::fread(block.data(), 1, block.size(), f) == block.size()) { }
    std::fclose(f);
}

int fail(const std::string& m)
{
    std::fprintf(stderr, "vtxscope-bench: %s\n", m.c_str());
    return 1;
}

std::string option(const std::vector<std::string>& args, const std::string& name, const std::string& def)
{
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == name)
            return args[i + 1];
    return def;
}

/// Every chunk decoded and every property of every frame read. Through the scan engine
/// (walkReplay with `threads`: workers decode, this thread walks), or with `split` as before
/// it: each of `threads` threads decodes and walks its share of the chunks.
int readAll(const std::string& path, unsigned threads, bool split)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    vtxbench::PropertyWalk walk(f.schema());
    std::atomic<size_t> next{0};
    std::vector<vtxbench::WalkTotals> totals(threads);
    std::vector<uint64_t> decodedBytes(threads, 0);
    std::atomic<bool> failed{false};
    std::string error;
    if (!split) {
        vtx::WalkControl control;
        control.threads = threads;
        // Summed per chunk, as the split read does: the checksum is the same for both.
        vtxbench::WalkTotals inChunk;
        size_t current = std::numeric_limits<size_t>::max();
        auto fold = [&] {
            totals[0].values += inChunk.values;
            totals[0].checksum += inChunk.checksum;
            inChunk = {};
        };
        const vtx::WalkResult w = vtx::walkReplay(f, control, [&](int32_t, const vtx::FrameView& fv, const vtx::DecodedChunk& chunk) {
            if (chunk.index() != current) {
                fold();
                current = chunk.index();
                decodedBytes[0] += chunk.decodedBlobBytes();
            }
            walk.frame(fv, inChunk);
        });
        fold();
        if (!w.failed.empty())
            return fail(w.failed.front().reason);
    }
    auto worker = [&](unsigned id) {
        for (size_t ci; (ci = next.fetch_add(1)) < f.chunks().size();) {
            auto chunk = f.decodeChunk(ci);
            if (!chunk) {
                if (!failed.exchange(true))
                    error = chunk.message();
                return;
            }
            decodedBytes[id] += (*chunk)->decodedBlobBytes();
            vtxbench::WalkTotals t;
            for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                walk.frame((*chunk)->frame(lf), t);
            // Summed per chunk so the checksum does not depend on the thread count.
            totals[id].values += t.values;
            totals[id].checksum += t.checksum;
        }
    };
    std::vector<std::thread> pool;
    if (split) {
        for (unsigned i = 1; i < threads; ++i)
            pool.emplace_back(worker, i);
        worker(0);
    }
    for (auto& t : pool)
        t.join();
    if (failed)
        return fail(error);
    const double ms = msSince(t0);
    vtxbench::WalkTotals sum;
    uint64_t bytes = 0;
    for (unsigned i = 0; i < threads; ++i) {
        sum.values += totals[i].values;
        sum.checksum += totals[i].checksum;
        bytes += decodedBytes[i];
    }
    std::cout << vtx::Json{{"bench", "read-all"},
                           {"file", path},
                           {"file_bytes", f.fileSize()},
                           {"backend", vtx::backendName(f.backend())},
                           {"threads", threads},
                           {"engine", split ? "split" : "pipeline"},
                           {"frames", f.frameCount()},
                           {"values", sum.values},
                           {"decoded_bytes", bytes},
                           {"ms", ms},
                           {"ns_per_value", ms * 1e6 / double(std::max<uint64_t>(sum.values, 1))},
                           {"peak_rss_mb", peakRssMb()},
                           {"checksum", sum.checksum}}
                     .dump()
              << '\n';
    return 0;
}

double percentile(std::vector<double> v, double q);

/// How many decoded bytes of its chunk frame `local` needs before it can be read: Protobuf, the
/// end of its `frames` field; FlatBuffers, the smallest prefix in which it verifies (see
/// frame-layout: nearly the whole chunk, as the frames lie back to front around shared vtables).
size_t bytesNeededFor(vtx::Backend backend, std::span<const uint8_t> decoded, size_t local)
{
    if (backend == vtx::Backend::Protobuf) {
        vtx::ProtoFrameLocator frames;
        frames.advance(decoded);
        return local < frames.frames().size() ? frames.frames()[local].second : decoded.size();
    }
    const auto* fv = flatbuffers::GetRoot<fbsvtx::Chunk>(decoded.data())->frames();
    if (!fv || local >= fv->size())
        return decoded.size();
    const size_t table = size_t(reinterpret_cast<const uint8_t*>(fv->Get(flatbuffers::uoffset_t(local))) - decoded.data());
    size_t lo = table + 1, hi = decoded.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (vtx::frameIsValid(decoded.data(), mid, table, vtx::DecodeLimits{}, 127, UINT32_MAX))
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

/// The limit for a jump to `frame`: zstd decompressing its chunk from the start until the frame's
/// last needed byte is decoded (streamed in 4 KB steps of stored input, so it stops within a
/// zstd block of that byte), in ms; median of `rounds`. Memory already touched (a previous
/// decode's block): the decompression alone.
double zstdUpToFrameMs(const vtx::ReplayFile& f, int32_t frame, int rounds = 3)
{
    const auto ci = f.chunkForFrame(frame);
    if (!ci)
        return 0;
    const size_t local = size_t(frame - f.chunks()[*ci].startFrame);
    auto whole = f.readChunkBlob(*ci);
    if (!whole)
        return 0;
    auto decoded = vtx::decodeBlob(std::move(*whole), size_t(1) << 31, "bench");
    if (!decoded)
        return 0;
    const size_t needed = bytesNeededFor(f.backend(), decoded->span(), local);
    std::vector<double> ms;
    for (int r = 0; r < rounds; ++r) {
        auto blob = f.readChunkBlob(*ci);
        if (!blob)
            return 0;
        const auto t = Clock::now();
        auto stream = vtx::BlobStream::open(std::move(*blob), size_t(1) << 31, "bench");
        while (stream && !stream->finished() && stream->decodedBytes() < needed)
            if (!stream->step(4096))
                break;
        ms.push_back(msSince(t));
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

int openFirst(const std::string& path, bool viaCache, unsigned cacheWorkers)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const double openMs = msSince(t0);
    double ms = 0;
    {
        // viaCache: what the viewer does (a chunk cache with its workers, frame 0 requested).
        std::optional<vtx::ChunkCache> cache;
        if (viaCache) {
            vtx::CacheOptions options;
            options.workers = cacheWorkers;
            cache.emplace(*file, options);
        }
        auto frame = viaCache ? cache->get(0) : (*file)->frame(0);
        if (!frame)
            return fail(frame.message());
        ms = msSince(t0);
    }
    // Measured after, in the same process: the limit does not pay for fresh memory.
    const double limitMs = zstdUpToFrameMs(**file, 0);
    std::cout << vtx::Json{{"bench", "open"},
                           {"file", path},
                           {"via", viaCache ? "cache" : "file"},
                           {"cache_workers", viaCache ? vtx::Json(cacheWorkers) : vtx::Json(nullptr)},
                           {"open_ms", openMs},
                           {"first_frame_ms", ms},
                           {"zstd_to_frame0_ms", limitMs},
                           {"ratio_to_limit", ms / limitMs},
                           {"peak_rss_mb", peakRssMb()}}
                     .dump()
              << '\n';
    return 0;
}

int coldJumps(const std::string& path, int jumps, unsigned seed)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    std::mt19937 rng(seed);
    std::vector<double> times, limits, ratios;
    std::vector<int32_t> targets;
    const auto t0 = Clock::now();
    for (int i = 0; i < jumps; ++i) {
        const int32_t target = int32_t(rng() % uint32_t((*file)->frameCount()));
        const auto t = Clock::now();
        auto frame = (*file)->frame(target);
        if (!frame)
            return fail(frame.message());
        times.push_back(msSince(t));
        targets.push_back(target);
    }
    const double total = msSince(t0);
    // The limit of each jump, after all of them (same memory state: blocks recycled).
    for (size_t i = 0; i < targets.size(); ++i) {
        limits.push_back(zstdUpToFrameMs(**file, targets[i]));
        ratios.push_back(times[i] / limits.back());
    }
    std::cout << vtx::Json{{"bench", "cold-jumps"},
                           {"file", path},
                           {"jumps", jumps},
                           {"total_ms", total},
                           {"p50_ms", percentile(times, 0.5)},
                           {"max_ms", percentile(times, 1)},
                           {"zstd_to_frame_p50_ms", percentile(limits, 0.5)},
                           {"ratio_p50_to_limit_p50", percentile(times, 0.5) / percentile(limits, 0.5)},
                           {"ratio_per_jump_p50", percentile(ratios, 0.5)},
                           {"peak_rss_mb", peakRssMb()}}
                     .dump()
              << '\n';
    return 0;
}

int zstdOnly(const std::string& path)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    uint64_t out = 0;
    double ms = 0, streamMs = 0;
    std::vector<double> perChunk, perChunkStream;
    for (size_t ci = 0; ci < (*file)->chunks().size(); ++ci) {
        auto blob = (*file)->readChunkBlob(ci);
        if (!blob)
            return fail(blob.message());
        const auto t = Clock::now();
        auto decoded = vtx::decodeBlob(std::move(*blob), size_t(1) << 31, "bench");
        perChunk.push_back(msSince(t));
        ms += perChunk.back();
        if (!decoded)
            return fail(decoded.message());
        out += decoded->size();
        // The same chunk as the streamed decode does it (BlobStream's default steps): what the
        // cache's decode pays for handing frames out early.
        auto again = (*file)->readChunkBlob(ci);
        if (!again)
            return fail(again.message());
        const auto ts = Clock::now();
        auto stream = vtx::BlobStream::open(std::move(*again), size_t(1) << 31, "bench");
        if (!stream)
            return fail(stream.message());
        while (!stream->finished())
            if (vtx::Status st = stream->step(); !st)
                return fail(st.message());
        perChunkStream.push_back(msSince(ts));
        streamMs += perChunkStream.back();
    }
    std::sort(perChunk.begin(), perChunk.end());
    std::sort(perChunkStream.begin(), perChunkStream.end());
    std::cout << vtx::Json{{"bench", "zstd"},
                           {"file", path},
                           {"decoded_bytes", out},
                           {"ms", ms},
                           {"mb_per_s", double(out) / 1e3 / ms},
                           {"chunks", perChunk.size()},
                           {"chunk_p50_ms", perChunk.empty() ? 0.0 : perChunk[perChunk.size() / 2]},
                           {"stream_ms", streamMs},
                           {"stream_chunk_p50_ms", perChunkStream.empty() ? 0.0 : perChunkStream[perChunkStream.size() / 2]},
                           {"stream_ratio", streamMs / ms}}
                     .dump()
              << '\n';
    return 0;
}

/// Makes `chunk` the decoded chunk holding `frame`, keeping it while the frames read in order stay
/// in it: ReplayFile::frame decodes the whole chunk on every call.
vtx::Status holdChunkOf(const vtx::ReplayFile& f, int32_t frame, std::shared_ptr<const vtx::DecodedChunk>& chunk)
{
    if (chunk && frame >= chunk->startFrame() && frame < chunk->startFrame() + int32_t(chunk->frameCount()))
        return {};
    const auto ci = f.chunkForFrame(frame);
    if (!ci)
        return vtx::Error{"no chunk holds frame " + std::to_string(frame)};
    auto c = f.decodeChunk(*ci);
    if (!c)
        return vtx::Error{c.message()};
    chunk = *c;
    return {};
}

int firstFrames(const std::string& path, int32_t frames)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    vtxbench::PropertyWalk walk(f.schema());
    vtxbench::WalkTotals t;
    const int32_t n = std::min(frames, f.frameCount());
    std::shared_ptr<const vtx::DecodedChunk> chunk;
    for (int32_t i = 0; i < n; ++i) {
        if (vtx::Status st = holdChunkOf(f, i, chunk); !st)
            return fail(st.message());
        walk.frame(chunk->frame(size_t(i - chunk->startFrame())), t);
    }
    const double ms = msSince(t0);
    std::cout << vtx::Json{{"bench", "first-frames"},
                           {"file", path},
                           {"backend", vtx::backendName(f.backend())},
                           {"frames", n},
                           {"values", t.values},
                           {"ms", ms},
                           {"peak_rss_mb", peakRssMb()},
                           {"checksum", t.checksum}}
                     .dump()
              << '\n';
    return 0;
}

/// Reads one scalar property by key with the typed accessor, folding it into `acc`.
inline bool readTyped(vtx::ContainerView c, const vtx::PropertyKey& k, uint64_t& acc)
{
    using vtx::FieldType;
    switch (k.type) {
    case FieldType::Bool:
        if (auto v = c.get<bool>(k))
            return acc += *v, true;
        return false;
    case FieldType::Int8:
    case FieldType::Int32:
        if (auto v = c.get<int32_t>(k))
            return acc += uint64_t(*v), true;
        return false;
    case FieldType::Int64:
        if (auto v = c.get<int64_t>(k))
            return acc += uint64_t(*v), true;
        return false;
    case FieldType::Float:
        if (auto v = c.get<float>(k))
            return acc += std::bit_cast<uint32_t>(*v), true;
        return false;
    case FieldType::Double:
        if (auto v = c.get<double>(k))
            return acc += std::bit_cast<uint64_t>(*v), true;
        return false;
    case FieldType::Vector:
        if (auto v = c.get<vtx::Vec3>(k))
            return acc += std::bit_cast<uint64_t>(v->x + v->y + v->z), true;
        return false;
    default: return false;
    }
}

/// Typed reads of every entity of one frame, the first few scalar properties of its type each
/// (keys resolved once per type, as a viewer's model does); returns the number of values read.
inline uint64_t readFrame(const vtx::FrameView& fv, const std::vector<std::vector<vtx::PropertyKey>>& keysByType, uint64_t& acc)
{
    uint64_t n = 0;
    for (const vtx::FrameEntity e : fv.entities()) {
        const size_t type = size_t(e.entity.typeId());
        if (type >= keysByType.size())
            continue;
        for (const vtx::PropertyKey& k : keysByType[type])
            n += readTyped(e.entity, k, acc);
    }
    return n;
}

/// The realistic loop of a viewer or script: every entity of a frame, a few named scalar
/// properties of each (the first four bool/int/float/double/vector fields of its type), read by
/// pre-resolved key with the typed accessor, on a decoded chunk (decoded and every frame verified
/// before timing). Two ways:
///   resident   the frame is in the CPU caches (the viewer's current frame, read on every
///              repaint): every tenth frame read once untimed, then 20 timed passes over it;
///   streaming  every frame of the chunk once, in order (a script's loop): the 33 MB CS2 chunk
///              comes from memory, so this is bound by memory bandwidth, not by the accessors.
int propertyRead(const std::string& path, int rounds)
{
    rounds = std::max(rounds, 1);
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    auto chunk = f.decodeChunk(0);
    if (!chunk)
        return fail(chunk.message());
    const vtx::DecodedChunk& c = **chunk;
    // Keys resolved once per type, indexed by type id (what a viewer's model does).
    std::vector<std::vector<vtx::PropertyKey>> keysByType;
    for (const vtx::StructDef& def : f.schema().structs()) {
        if (def.typeId < 0 || def.typeId > 4096)
            continue;
        if (size_t(def.typeId) >= keysByType.size())
            keysByType.resize(size_t(def.typeId) + 1);
        auto& keys = keysByType[size_t(def.typeId)];
        for (const vtx::FieldDef& fd : def.fields) {
            const auto t = fd.key.type;
            if (keys.size() < 4 && fd.key.container == vtx::ContainerKind::Scalar &&
                (t == vtx::FieldType::Bool || t == vtx::FieldType::Int32 || t == vtx::FieldType::Float || t == vtx::FieldType::Double ||
                 t == vtx::FieldType::Vector || t == vtx::FieldType::Int64))
                keys.push_back(fd.key);
        }
    }
    size_t frameBytes = 0;
    for (size_t fi = 0; fi < c.frameCount(); ++fi) {
        if (vtx::Status st = c.frameStatus(fi); !st)
            return fail(st.message());
        frameBytes += c.frame(fi).bytes().size();
    }
    uint64_t acc = 0, reads = 0;
    std::vector<double> streaming;
    for (int r = 0; r < rounds; ++r) {
        uint64_t n = 0;
        const auto t0 = Clock::now();
        for (size_t fi = 0; fi < c.frameCount(); ++fi)
            n += readFrame(c.frame(fi), keysByType, acc);
        streaming.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / double(std::max<uint64_t>(n, 1)));
        reads = n;
    }
    std::sort(streaming.begin(), streaming.end());
    std::vector<double> resident;
    for (size_t fi = 0; fi < c.frameCount(); fi += 10) {
        constexpr int kPasses = 20;
        const vtx::FrameView fv = c.frame(fi);
        readFrame(fv, keysByType, acc);
        uint64_t n = 0;
        const auto t0 = Clock::now();
        for (int p = 0; p < kPasses; ++p)
            n += readFrame(fv, keysByType, acc);
        if (n > 0)
            resident.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / double(n));
    }
    std::sort(resident.begin(), resident.end());
    // Isolated: one property of one entity, read over and over (hot, no lookup of the entity).
    vtx::ContainerView first;
    vtx::PropertyKey firstKey;
    for (const vtx::FrameEntity e : c.frame(0).entities())
        if (const size_t type = size_t(e.entity.typeId()); type < keysByType.size() && !keysByType[type].empty()) {
            first = e.entity, firstKey = keysByType[type].front();
            break;
        }
    double isolatedNs = 0;
    if (!first.isNull()) {
        constexpr int kReads = 10'000'000;
        const auto t0 = Clock::now();
        for (int i = 0; i < kReads; ++i) {
            asm volatile("" : "+r"(i)); // one real read per iteration: the key is "unknown" each time
            readTyped(first, firstKey, acc);
        }
        isolatedNs = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kReads;
    }
    const size_t frames = std::max<size_t>(c.frameCount(), 1);
    std::cout << vtx::Json{{"bench", "property-read"},
                           {"file", path},
                           {"backend", vtx::backendName(f.backend())},
                           {"frames", c.frameCount()},
                           {"reads_per_round", reads},
                           {"rounds", rounds},
                           {"frame_bytes_avg", double(frameBytes) / double(frames)},
                           {"reads_per_frame", double(reads) / double(frames)},
                           {"ns_per_read_resident", resident.empty() ? 0.0 : resident[resident.size() / 2]},
                           {"ns_per_read_streaming", streaming[streaming.size() / 2]},
                           {"isolated_ns_per_read", isolatedNs},
                           {"checksum", acc}}
                     .dump()
              << '\n';
    return 0;
}

/// Options that write a file like `f`: its backend and, where its evidence shows the SDK v0.2.0
/// hash variant, that variant (so a copy keeps what the SDK writes).
vtx::WriterOptions writerOptionsLike(const vtx::ReplayFile& f)
{
    f.gatherHashEvidence(f.chunks().size());
    vtx::WriterOptions wo;
    wo.backend = f.backend();
    for (const vtx::StructDef& d : f.schema().structs())
        if (f.hashTrust()->verdict(d.typeId) == vtx::HashVerdict::SdkVariant)
            wo.hashVariant = vtx::HashVariant::SdkTail;
    return wo;
}

/// A second run of FILE for diverge: the same frames, game times, backend and chunk size, except
/// one value of one entity moved from `from` on. Streamed chunk by chunk: a CS2-length replay's
/// frames as owned data would not fit the memory budget.
int perturb(const std::string& path, const std::string& out, int32_t from, double delta)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    vtx::WriterOptions wo = writerOptionsLike(f);
    if (!f.chunks().empty())
        wo.chunkMaxFrames = int32_t(f.chunks().front().frameCount());
    auto w = vtx::ReplayWriter::create(out, f.header(), wo);
    if (!w)
        return fail(w.message());
    std::string moved = "nothing";
    for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
        auto chunk = f.decodeChunk(ci);
        if (!chunk)
            return fail(chunk.message());
        for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf) {
            const int32_t i = (*chunk)->startFrame() + int32_t(lf);
            const vtx::FrameHandle h(*chunk, i);
            if (h.view().isNull())
                return fail((*chunk)->frameStatus(lf).message());
            vtx::FrameData data = vtx::toData(h.view());
            if (i >= from && !data.buckets.empty() && !data.buckets[0].entities.empty()) {
                vtx::PropertyContainerData& e = data.buckets[0].entities[0];
                if (!e.vectors.empty()) {
                    e.vectors[0].x += delta;
                    moved = "vector 0 of " + data.buckets[0].uniqueIds[0];
                } else if (!e.floats.empty()) {
                    e.floats[0] += float(delta);
                    moved = "float 0 of " + data.buckets[0].uniqueIds[0];
                }
            }
            if (vtx::Status st = (*w)->addFrame(std::move(data), f.gameTimeTicks(i), f.createdUtcTicks(i)); !st)
                return fail(st.message());
        }
    }
    auto stats = (*w)->finish();
    if (!stats)
        return fail(stats.message());
    std::cout << vtx::Json{{"bench", "perturb"},
                           {"file", path},
                           {"out", out},
                           {"from", from},
                           {"delta", delta},
                           {"moved", moved},
                           {"frames", stats->frames},
                           {"chunks", stats->chunks},
                           {"bytes", stats->bytes}}
                     .dump()
              << '\n';
    return 0;
}

/// diverge(A, B) against one full read of A (decode every chunk, read every property of every
/// frame, one thread: read-all's loop) in the same process: the line is ratio <= 1.5.
int divergeBench(const std::string& pathA, const std::string& pathB, double epsilon, bool skipIdenticalChunks)
{
    auto readOnce = [&]() -> vtx::Result<double> {
        const auto t0 = Clock::now();
        auto file = vtx::ReplayFile::open(pathA);
        if (!file)
            return vtx::Error{file.message()};
        vtxbench::PropertyWalk walk((*file)->schema());
        vtxbench::WalkTotals t;
        for (size_t ci = 0; ci < (*file)->chunks().size(); ++ci) {
            auto chunk = (*file)->decodeChunk(ci);
            if (!chunk)
                return vtx::Error{chunk.message()};
            for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                walk.frame((*chunk)->frame(lf), t);
        }
        if (t.checksum == 42) // keeps the walk from being optimized away
            std::fprintf(stderr, "checksum 42\n");
        return msSince(t0);
    };
    const double cpu0 = cpuMs();
    auto read = readOnce();
    if (!read)
        return fail(read.message());
    const double readCpu = cpuMs() - cpu0;
    const double cpu1 = cpuMs();
    const auto t0 = Clock::now();
    auto a = vtx::ReplayFile::open(pathA);
    if (!a)
        return fail(a.message());
    auto b = vtx::ReplayFile::open(pathB);
    if (!b)
        return fail(b.message());
    vtx::DivergeOptions opt;
    opt.tolerance.absolute = epsilon;
    opt.skipIdenticalChunks = skipIdenticalChunks;
    auto report = vtx::diverge(**a, **b, opt);
    if (!report)
        return fail(report.message());
    const double ms = msSince(t0);
    const double divergeCpu = cpuMs() - cpu1;
    std::cout << vtx::Json{{"bench", "diverge"},
                           {"a", pathA},
                           {"b", pathB},
                           {"frames_a", report->framesA},
                           {"pairs", report->pairsCompared},
                           {"compared_by", report->byName ? "name" : "layout"},
                           {"first_divergence", report->firstDivergence ? report->firstDivergence->frameA : -1},
                           {"divergent_frames", report->divergentPairs.size()},
                           {"identical_chunks", report->identicalChunks},
                           {"diverge_ms", ms},
                           {"read_all_ms", *read},
                           {"ratio", ms / *read},
                           {"diverge_cpu_ms", divergeCpu},
                           {"read_all_cpu_ms", readCpu},
                           {"cpu_ratio", divergeCpu / readCpu},
                           {"threads_available", std::thread::hardware_concurrency()},
                           {"peak_rss_mb", peakRssMb()}}
                     .dump()
              << '\n';
    return 0;
}

/// The first `n` frames of `f` as owned data (one decode per chunk).
vtx::Result<std::vector<vtx::FrameData>> copyFramesOut(const vtx::ReplayFile& f, int32_t n)
{
    std::vector<vtx::FrameData> data;
    data.reserve(size_t(std::max(n, 0)));
    std::shared_ptr<const vtx::DecodedChunk> chunk;
    for (int32_t i = 0; i < n; ++i) {
        if (vtx::Status st = holdChunkOf(f, i, chunk); !st)
            return vtx::Error{st.message()};
        const vtx::FrameHandle h(chunk, i);
        if (h.view().isNull())
            return vtx::Error{chunk->frameStatus(size_t(i - chunk->startFrame())).message()};
        data.push_back(vtx::toData(h.view()));
    }
    return data;
}

int writeThroughput(const std::string& path, const std::string& out, int32_t frames)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    const int32_t n = std::min(frames, f.frameCount());
    auto copied = copyFramesOut(f, n);
    if (!copied)
        return fail(copied.message());
    std::vector<vtx::FrameData> data = std::move(*copied);
    vtx::WriterOptions wo;
    wo.backend = f.backend();
    const auto t0 = Clock::now();
    auto w = vtx::ReplayWriter::create(out, f.header(), wo);
    if (!w)
        return fail(w.message());
    for (int32_t i = 0; i < n; ++i)
        if (vtx::Status st = (*w)->addFrame(std::move(data[size_t(i)]), f.gameTimeTicks(i), f.createdUtcTicks(i)); !st)
            return fail(st.message());
    auto stats = (*w)->finish();
    if (!stats)
        return fail(stats.message());
    const double ms = msSince(t0);
    std::cout << vtx::Json{{"bench", "write"},
                           {"file", path},
                           {"backend", vtx::backendName(f.backend())},
                           {"frames", n},
                           {"chunks", stats->chunks},
                           {"bytes", stats->bytes},
                           {"ms", ms},
                           {"frames_per_s", double(n) / (ms / 1e3)},
                           {"mb_per_s", double(stats->bytes) / 1e3 / ms},
                           {"peak_rss_mb", peakRssMb()}}
                     .dump()
              << '\n';
    return 0;
}

/// A full-length replay shaped exactly like FILE: its frames repeated in order up to `frames`,
/// game time continuing, written with the content-hash variant FILE's writer used (the SDK
/// v0.2.0 one when any type carries it). Turns the SDK's 400-frame CS-like sample into a
/// 10,656-frame file like the one the SDK writes from a whole match.
int lengthen(const std::string& path, const std::string& out, int32_t frames)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    if (f.frameCount() < 2)
        return fail("lengthen needs a file of at least two frames");
    auto copied = copyFramesOut(f, f.frameCount());
    if (!copied)
        return fail(copied.message());
    const std::vector<vtx::FrameData> data = std::move(*copied);
    const vtx::WriterOptions wo = writerOptionsLike(f);
    auto w = vtx::ReplayWriter::create(out, f.header(), wo);
    if (!w)
        return fail(w.message());
    const int32_t n = f.frameCount();
    const int64_t step = f.gameTimeTicks(1) - f.gameTimeTicks(0);
    const int64_t period = f.gameTimeTicks(n - 1) - f.gameTimeTicks(0) + step;
    for (int32_t i = 0; i < frames; ++i) {
        const int32_t src = i % n;
        const int64_t shift = int64_t(i / n) * period;
        if (vtx::Status st = (*w)->addFrame(data[size_t(src)], f.gameTimeTicks(src) + shift, f.createdUtcTicks(src) + shift); !st)
            return fail(st.message());
    }
    auto stats = (*w)->finish();
    if (!stats)
        return fail(stats.message());
    std::cout << vtx::Json{{"bench", "lengthen"},
                           {"file", path},
                           {"out", out},
                           {"frames", frames},
                           {"chunks", stats->chunks},
                           {"bytes", stats->bytes},
                           {"hashes", wo.hashVariant == vtx::HashVariant::SdkTail ? "sdk" : "spec"}}
                     .dump()
              << '\n';
    return 0;
}

/// Median read bandwidth (GB/s) over `rounds` sums of a `bytes` buffer, far larger than the
/// caches (the limit for whole-file reads of decoded chunks). `sum` keeps the loads alive.
double measureReadBandwidth(size_t bytes, int rounds, uint64_t& sum)
{
    std::vector<uint64_t> buf(bytes / 8, 1);
    std::vector<double> gbps;
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = Clock::now();
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (size_t i = 0; i + 4 <= buf.size(); i += 4)
            s0 += buf[i], s1 += buf[i + 1], s2 += buf[i + 2], s3 += buf[i + 3];
        sum += s0 + s1 + s2 + s3;
        gbps.push_back(double(bytes) / 1e9 / (msSince(t0) / 1e3));
    }
    std::sort(gbps.begin(), gbps.end());
    return gbps[gbps.size() / 2];
}

/// The CPU model as /proc/cpuinfo names it ("model name"; other architectures: "Processor" or
/// "cpu model"), "unknown" when it does not.
std::string cpuModel()
{
    std::FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (!f)
        return "unknown";
    std::string model = "unknown";
    char line[512];
    while (std::fgets(line, sizeof line, f)) {
        const std::string l(line);
        const size_t colon = l.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = l.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t'))
            key.pop_back();
        if (key == "model name" || key == "Processor" || key == "cpu model") {
            model = l.substr(colon + 1);
            while (!model.empty() && (model.front() == ' ' || model.front() == '\t'))
                model.erase(model.begin());
            while (!model.empty() && (model.back() == '\n' || model.back() == ' '))
                model.pop_back();
            break;
        }
    }
    std::fclose(f);
    return model;
}

/// The 1-minute load average: how busy the neighbours were while the figures were taken.
double loadAverage1m()
{
    double load[1] = {0};
    return getloadavg(load, 1) == 1 ? load[0] : -1;
}

/// This machine's memory read bandwidth (limit), median of 5 sums over 512 MB.
int memoryBandwidth()
{
    uint64_t sum = 0;
    const double gbps = measureReadBandwidth(size_t(512) << 20, 5, sum);
    std::cout << vtx::Json{{"bench", "membw"},
                           {"read_gb_per_s", gbps},
                           {"cpu_model", cpuModel()},
                           {"cores", std::thread::hardware_concurrency()},
                           {"checksum", sum}}
                     .dump()
              << '\n';
    return 0;
}

/// Every run ends with the machine it ran on (issue 28: a figure without its host cannot be
/// compared): CPU model, cores, memory bandwidth (median of 3 sums over 256 MB, measured after
/// the command so its allocation cannot warm pages the command then reuses), the load and the
/// host's free page reporting.
void printHost(const std::string& command)
{
    uint64_t sum = 0;
    const double load = loadAverage1m();
    const double gbps = measureReadBandwidth(size_t(256) << 20, 3, sum);
    std::cout << vtx::Json{{"bench", "host"},
                           {"after", command},
                           {"cpu_model", cpuModel()},
                           {"cores", std::thread::hardware_concurrency()},
                           {"membw_gb_per_s", gbps},
                           {"load_1m", load},
                           {"freed_memory_return", vtxbench::freedMemoryReturn()},
                           {"checksum", sum}}
                     .dump()
              << '\n';
}

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(std::lround(q * double(v.size() - 1))))];
}

int decodePhases(const std::string& path)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    std::vector<double> read, zstd, parse, limits, ranges, firstFrame, allFrames, libprotobuf, walkMs;
    vtxbench::PropertyWalk walk(f.schema());
    uint64_t checksum = 0;
    for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
        auto t = Clock::now();
        auto blob = f.readChunkBlob(ci);
        if (!blob)
            return fail(blob.message());
        read.push_back(msSince(t));
        t = Clock::now();
        auto decoded = vtx::decodeBlob(std::move(*blob), size_t(1) << 31, "bench");
        if (!decoded)
            return fail(decoded.message());
        zstd.push_back(msSince(t));
        if (f.backend() == vtx::Backend::Protobuf) {
            // Baseline in the same run: libprotobuf parse + copy into FlatBuffers (the reader
            // ProtoChunkReader replaced, tests/reference).
            t = Clock::now();
            if (!vtxref::flattenWithLibprotobuf(decoded->span(), int(vtx::DecodeLimits{}.maxTableDepth)))
                return fail("libprotobuf rejects chunk " + std::to_string(ci));
            libprotobuf.push_back(msSince(t));
        }
        t = Clock::now();
        auto storage = vtx::codecFor(f.backend()).parseChunk(std::move(*decoded), vtx::DecodeLimits{}, "bench");
        if (!storage)
            return fail(storage.message());
        parse.push_back(msSince(t));
        t = Clock::now();
        if (storage->framesVerified && !storage->limitsChecked)
            if (vtx::Status st = vtx::checkChunkLimits(*storage->root, vtx::DecodeLimits{}, "bench"); !st)
                return fail(st.message());
        limits.push_back(msSince(t));
        t = Clock::now();
        vtx::DecodedChunk chunk(ci, 0, std::move(*storage));
        ranges.push_back(msSince(t));
        // FlatBuffers: each frame is verified and limit-checked on first access.
        t = Clock::now();
        if (vtx::Status st = chunk.frameStatus(chunk.frameCount() / 2); !st)
            return fail(st.message());
        firstFrame.push_back(msSince(t));
        t = Clock::now();
        for (size_t i = 0; i < chunk.frameCount(); ++i)
            if (vtx::Status st = chunk.frameStatus(i); !st)
                return fail(st.message());
        allFrames.push_back(msSince(t));
        // Reading every property of every frame (read-all's per-chunk work after the decode).
        t = Clock::now();
        vtxbench::WalkTotals totals;
        for (size_t i = 0; i < chunk.frameCount(); ++i)
            walk.frame(chunk.frame(i), totals);
        walkMs.push_back(msSince(t));
        checksum += totals.checksum;
    }
    auto med = [](std::vector<double> v) { return percentile(std::move(v), 0.5); };
    std::cout << vtx::Json{{"bench", "decode-phases"},
                           {"file", path},
                           {"backend", vtx::backendName(f.backend())},
                           {"chunks", f.chunks().size()},
                           {"read_ms", med(read)},
                           {"zstd_ms", med(zstd)},
                           {"parse_ms", med(parse)},
                           {"limits_ms", med(limits)},
                           {"frame_ranges_ms", med(ranges)},
                           {"one_frame_verify_ms", med(firstFrame)},
                           {"all_frames_verify_ms", med(allFrames)},
                           {"parse_libprotobuf_ms", libprotobuf.empty() ? vtx::Json() : vtx::Json(med(libprotobuf))},
                           {"walk_ms", med(walkMs)},
                           {"checksum", checksum}}
                     .dump()
              << '\n';
    return 0;
}

/// Where each frame of a chunk lies in the chunk's decoded bytes, the order zstd produces them
/// in: how much of a chunk must be decompressed before frame k can be handed out.
/// FlatBuffers: the smallest prefix of the decoded chunk in which frame k passes the verifier
/// (every table, vtable, vector and string it reaches lies inside; validity only grows with the
/// prefix, so a binary search finds it). Protobuf: the end of frame k's `frames` field.
int frameLayout(const std::string& path)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    std::vector<double> prefix; // needed prefix / chunk size, every frame of every chunk
    size_t framesAscending = 0, framesDescending = 0, wholeChunk = 0, frames = 0;
    for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
        auto blob = f.readChunkBlob(ci);
        if (!blob)
            return fail(blob.message());
        auto decoded = vtx::decodeBlob(std::move(*blob), size_t(1) << 31, "frame-layout");
        if (!decoded)
            return fail(decoded.message());
        const uint8_t* b = decoded->data();
        const size_t n = decoded->size();
        std::vector<size_t> ends; // per frame: bytes needed
        std::vector<size_t> starts;
        if (f.backend() == vtx::Backend::FlatBuffers) {
            const auto* chunk = flatbuffers::GetRoot<fbsvtx::Chunk>(b);
            const auto* fv = chunk->frames();
            for (flatbuffers::uoffset_t i = 0; fv && i < fv->size(); ++i) {
                const size_t table = size_t(reinterpret_cast<const uint8_t*>(fv->Get(i)) - b);
                size_t lo = table + 1, hi = n; // hi always suffices (the file's frames verify)
                while (lo < hi) {
                    const size_t mid = lo + (hi - lo) / 2;
                    if (vtx::frameIsValid(b, mid, table, vtx::DecodeLimits{}, 127, UINT32_MAX))
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                starts.push_back(table);
                ends.push_back(hi);
            }
        } else {
            vtx::wire::Cursor c(b, b + n);
            while (!c.atEnd()) {
                uint32_t field;
                vtx::wire::WireType type;
                if (!c.tag(field, type))
                    return fail("chunk " + std::to_string(ci) + ": bad tag");
                if (field == 4 && type == vtx::wire::WireType::Len) {
                    const uint8_t* p;
                    size_t len;
                    if (!c.bytes(p, len))
                        return fail("chunk " + std::to_string(ci) + ": bad frame");
                    starts.push_back(size_t(p - b));
                    ends.push_back(size_t(p - b) + len);
                } else if (!c.skip(type)) {
                    return fail("chunk " + std::to_string(ci) + ": bad field");
                }
            }
        }
        for (size_t i = 0; i + 1 < starts.size(); ++i) {
            framesAscending += starts[i] < starts[i + 1];
            framesDescending += starts[i] > starts[i + 1];
        }
        for (size_t e : ends) {
            prefix.push_back(double(e) / double(n));
            wholeChunk += e == n;
        }
        frames += ends.size();
    }
    std::cout << vtx::Json{{"bench", "frame-layout"},
                           {"file", path},
                           {"backend", f.backend() == vtx::Backend::FlatBuffers ? "flatbuffers" : "protobuf"},
                           {"frames", frames},
                           {"frame_starts_ascending", framesAscending},
                           {"frame_starts_descending", framesDescending},
                           {"frames_needing_whole_chunk", wholeChunk},
                           {"needed_prefix_min", percentile(prefix, 0)},
                           {"needed_prefix_p50", percentile(prefix, 0.5)},
                           {"needed_prefix_max", percentile(prefix, 1)},
                           {"needed_prefix_mean", prefix.empty() ? 0.0 : std::accumulate(prefix.begin(), prefix.end(), 0.0) / double(prefix.size())}}
                     .dump()
              << '\n';
    return 0;
}

int makeTraces(const std::vector<std::string>& args)
{
    vtxbench::TraceSuiteParams p;
    p.frames = std::stoi(option(args, "--frames", "10600"));
    p.fps = std::stod(option(args, "--fps", "64"));
    for (const auto& t : vtxbench::makeTraceSuite(p)) {
        const std::string path = args[1] + "/" + t.name + ".trace";
        if (vtx::Status st = t.save(path); !st)
            return fail(st.message());
        std::cout << vtx::Json{{"trace", t.name}, {"path", path}, {"requests", t.entries.size()}}.dump() << '\n';
    }
    return 0;
}

vtx::Json replayOnce(const std::shared_ptr<const vtx::ReplayFile>& file, const vtx::AccessTrace& trace, const std::string& policy, size_t budget,
                     unsigned workers)
{
    vtx::ChunkCache cache(file, {budget, workers, policy});
    std::vector<double> latencies;
    latencies.reserve(trace.entries.size());
    size_t errors = 0;
    const auto start = Clock::now();
    for (const vtx::TraceEntry& e : trace.entries) {
        const auto due = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(e.timeMs));
        if (Clock::now() < due)
            std::this_thread::sleep_until(due);
        const auto t = Clock::now();
        auto h = cache.get(e.frame);
        latencies.push_back(msSince(t));
        if (!h)
            ++errors;
    }
    const double total = msSince(start);
    const vtx::CacheStats st = cache.stats();
    double stall = 0;
    for (double l : latencies)
        stall += l;
    return vtx::Json{{"trace", trace.name},
                     {"policy", policy},
                     {"requests", trace.entries.size()},
                     {"errors", errors},
                     {"trace_ms", trace.entries.empty() ? 0.0 : trace.entries.back().timeMs},
                     {"total_ms", total},
                     {"stall_ms", stall},
                     {"p50_ms", percentile(latencies, 0.50)},
                     {"p95_ms", percentile(latencies, 0.95)},
                     {"p99_ms", percentile(latencies, 0.99)},
                     {"hit_rate", st.hitRate()},
                     {"decodes", st.decodes},
                     {"bytes_decoded", st.bytesDecoded},
                     {"prefetch_decodes", st.prefetchDecodes},
                     {"prefetch_wasted_bytes", st.prefetchWastedBytes},
                     {"peak_cache_bytes", st.peakResidentBytes},
                     {"budget_bytes", budget}};
}

int replayTrace(const std::vector<std::string>& args)
{
    auto file = vtx::ReplayFile::open(args[1]);
    if (!file)
        return fail(file.message());
    std::vector<vtx::AccessTrace> traces;
    std::vector<std::string> policies;
    for (size_t i = 2; i < args.size(); ++i) {
        if (args[i] == "--policy" && i + 1 < args.size()) {
            policies.push_back(args[++i]);
        } else if (args[i] == "--sweep") {
            policies.push_back("none");
            for (int k = 0; k <= 20; ++k)
                policies.push_back("fixed:" + std::to_string(k) + "," + std::to_string(k));
            policies.push_back("adaptive");
        } else if (args[i].starts_with("--")) {
            ++i; // option with a value, read below
        } else {
            auto t = vtx::AccessTrace::load(args[i]);
            if (!t)
                return fail(t.message());
            traces.push_back(std::move(*t));
        }
    }
    if (traces.empty() || policies.empty())
        return fail("replay-trace needs at least one TRACE and one --policy (or --sweep)");
    for (const auto& p : policies)
        if (!vtx::makeCachePolicy(p))
            return fail("unknown policy '" + p + "'");
    const size_t budget = size_t(std::stod(option(args, "--budget-mb", "0")) * 1024 * 1024);
    const unsigned workers = unsigned(std::stoul(option(args, "--workers", "0")));
    const int repeat = std::stoi(option(args, "--repeat", "1"));
    for (const auto& t : traces)
        for (const auto& p : policies) {
            std::vector<vtx::Json> runs;
            runs.reserve(size_t(std::max(repeat, 0)));
            for (int r = 0; r < repeat; ++r)
                runs.push_back(replayOnce(*file, t, p, budget ? budget : vtx::defaultCacheBudget(), workers));
            // Report the run with the median total time.
            std::sort(runs.begin(), runs.end(), [](const vtx::Json& a, const vtx::Json& b) { return a["total_ms"] < b["total_ms"]; });
            vtx::Json out = runs[runs.size() / 2];
            out["backend"] = vtx::backendName((*file)->backend());
            out["repeat"] = repeat;
            std::cout << out.dump() << std::endl;
        }
    return 0;
}

struct DiffTiming {
    double medianUs = 0, meanUs = 0;
    double entities = 0, changedEntities = 0, skippedByHash = 0, changedProperties = 0;
};

/// Times diffFrames over `pairs` (each diffed once per round, `rounds` rounds; the median of
/// every single call is reported), with a reused result so steady-state allocation is zero.
DiffTiming timeDiffs(const std::vector<std::pair<vtx::FrameHandle, vtx::FrameHandle>>& pairs, const vtx::Schema& schema, const vtx::DiffOptions& opt,
                     int rounds, bool framesInCache = false)
{
    vtx::FrameDiff d;
    std::vector<double> us;
    DiffTiming t;
    for (const auto& [a, b] : pairs) // warm-up: first touches of the frames, result capacity
        vtx::diffFrames(a.view(), b.view(), schema, opt, d);
    for (int r = 0; r < rounds; ++r) {
        for (const auto& [a, b] : pairs) {
            if (framesInCache) // the same pair just before: only the diff's own work is timed
                vtx::diffFrames(a.view(), b.view(), schema, opt, d);
            const auto t0 = Clock::now();
            vtx::diffFrames(a.view(), b.view(), schema, opt, d);
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
            if (r == 0) {
                const vtx::BucketDiffCounts c = d.totals();
                t.entities += c.added + c.removed + c.changed + c.unchanged;
                t.changedEntities += c.changed + c.added + c.removed;
                t.skippedByHash += c.skippedByHash;
                t.changedProperties += double(d.changes.size());
            }
        }
    }
    const double n = double(pairs.size());
    t.entities /= n, t.changedEntities /= n, t.skippedByHash /= n, t.changedProperties /= n;
    double sum = 0;
    for (double u : us)
        sum += u;
    t.meanUs = sum / double(us.size());
    std::nth_element(us.begin(), us.begin() + long(us.size() / 2), us.end());
    t.medianUs = us[us.size() / 2];
    return t;
}

vtx::Json timingJson(const DiffTiming& t)
{
    return {{"median_us", t.medianUs},
            {"mean_us", t.meanUs},
            {"entities", t.entities},
            {"changed_entities", t.changedEntities},
            {"skipped_by_hash", t.skippedByHash},
            {"changed_properties", t.changedProperties}};
}

int diffBench(const std::string& path, int pairsWanted, bool consecutiveOnly)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    std::vector<std::pair<vtx::FrameHandle, vtx::FrameHandle>> consecutive;
    auto first = f.decodeChunk(0);
    if (!first)
        return fail(first.message());
    const auto chunk = *first;
    const int32_t n = std::min<int32_t>(pairsWanted, int32_t(chunk->frameCount()) - 1);
    consecutive.reserve(size_t(std::max(n, 0)));
    for (int32_t i = 0; i < n; ++i)
        consecutive.emplace_back(vtx::FrameHandle(chunk, i), vtx::FrameHandle(chunk, i + 1));
    auto last = f.frame(f.frameCount() - 1);
    if (!last)
        return fail(last.message());
    const std::vector<std::pair<vtx::FrameHandle, vtx::FrameHandle>> firstLast(50, {vtx::FrameHandle(chunk, 0), *last});
    vtx::DiffOptions hash, noHash;
    // The file's own verdicts (sampled from the chunks decoded above): the shortcut only where
    // the stored hash covers the whole container, as every diff in the product does.
    hash.hashTrust = f.hashTrust().get();
    noHash.useContentHash = false;
    const DiffTiming c = timeDiffs(consecutive, f.schema(), hash, 5);
    if (consecutiveOnly) { // a short, single-shape run for profilers (callgrind, perf)
        std::cout
            << vtx::Json{{"bench", "diff"}, {"file", path}, {"backend", vtx::backendName(f.backend())}, {"pairs", n}, {"consecutive", timingJson(c)}}
                   .dump()
            << '\n';
        return 0;
    }
    const DiffTiming cWarm = timeDiffs(consecutive, f.schema(), hash, 5, true);
    const DiffTiming cNo = timeDiffs(consecutive, f.schema(), noHash, 5);
    const DiffTiming fl = timeDiffs(firstLast, f.schema(), hash, 5);
    std::vector<std::pair<vtx::FrameHandle, vtx::FrameHandle>> same;
    same.reserve(consecutive.size());
    for (const auto& p : consecutive)
        same.emplace_back(p.first, p.first);
    const DiffTiming identical = timeDiffs(same, f.schema(), hash, 5);
    std::cout << vtx::Json{{"bench", "diff"},
                           {"file", path},
                           {"backend", vtx::backendName(f.backend())},
                           {"pairs", n},
                           {"consecutive", timingJson(c)},
                           {"consecutive_in_cache", timingJson(cWarm)},
                           {"consecutive_no_hash", timingJson(cNo)},
                           {"frame_bytes_avg", double(chunk->frame(0).bytes().size())},
                           {"first_vs_last", timingJson(fl)},
                           {"identical", timingJson(identical)},
                           {"peak_rss_mb", peakRssMb()}}
                     .dump()
              << '\n';
    return 0;
}

} // namespace

/// What the stored-hash sampling (HashTrust::observeChunk: both hash variants recomputed for
/// every container of three frames) adds to each chunk decode: median over the file's chunks,
/// against the decode itself, both measured here.
int hashSampling(const std::string& path)
{
    vtx::ReaderOptions noSampling;
    noSampling.sampleHashes = false;
    auto file = vtx::ReplayFile::open(path, noSampling);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    std::vector<double> decodeMs, sampleMs;
    for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
        const auto t0 = Clock::now();
        auto chunk = f.decodeChunk(ci);
        const auto t1 = Clock::now();
        if (!chunk)
            return fail(chunk.message());
        for (size_t i : {size_t(0), (*chunk)->frameCount() / 2, (*chunk)->frameCount() - 1})
            (void)(*chunk)->frameStatus(i); // verified, as a viewer's first access would have done
        vtx::HashTrust trust(f.schema().structs().size());
        const auto t2 = Clock::now();
        trust.observeChunk(**chunk);
        const auto t3 = Clock::now();
        decodeMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        sampleMs.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
    }
    auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    const double d = median(decodeMs), sm = median(sampleMs);
    std::cout << vtx::Json{{"bench", "hash-sampling"},    {"file", path},   {"backend", vtx::backendName(f.backend())},
                           {"chunks", f.chunks().size()}, {"decode_ms", d}, {"sample_ms", sm},
                           {"overhead", sm / d}}
                     .dump()
              << '\n';
    return 0;
}

/// What the stored-hash check (FrameIntegrity) costs where it runs: once per frame shown or
/// exported. Against open -> first frame, a cold jump (decode one chunk, read one frame) and a
/// full read (every chunk decoded, every frame read), all measured here; also what checking
/// every frame of a full read would add, which nothing does.
int integrityCost(const std::string& path)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    auto first = (*file)->frame(0);
    if (!first)
        return fail(first.message());
    const double firstFrameMs = msSince(t0);
    const vtx::ReplayFile& f = **file;
    auto t1 = Clock::now();
    const vtx::FrameIntegrity fi = vtx::checkFrameIntegrity(first->view(), f.schema(), f.hashTrust().get());
    const double firstCheckMs = msSince(t1);

    double decodeMs = 0, checkMs = 0;
    size_t frames = 0, damaged = fi.damaged.size();
    for (size_t c = 0; c < f.chunks().size(); ++c) {
        t1 = Clock::now();
        auto chunk = f.decodeChunk(c);
        if (!chunk)
            return fail(chunk.message());
        for (size_t i = 0; i < (*chunk)->frameCount(); ++i)
            (void)(*chunk)->frame(i); // verification on first access: what a full read pays
        decodeMs += msSince(t1);
        t1 = Clock::now();
        for (size_t i = 0; i < (*chunk)->frameCount(); ++i)
            damaged += vtx::checkFrameIntegrity((*chunk)->frame(i), f.schema(), f.hashTrust().get()).damaged.size();
        checkMs += msSince(t1);
        frames += (*chunk)->frameCount();
    }
    const double perFrameUs = checkMs * 1000 / double(std::max<size_t>(frames, 1));
    const double coldJumpMs = decodeMs / double(std::max<size_t>(f.chunks().size(), 1));
    std::cout << vtx::Json{{"bench", "integrity"},
                           {"file", path},
                           {"frames", frames},
                           {"first_frame_ms", firstFrameMs},
                           {"first_frame_check_ms", firstCheckMs},
                           {"first_frame_overhead", firstCheckMs / firstFrameMs},
                           {"cold_jump_ms", coldJumpMs},
                           {"check_us_per_frame", perFrameUs},
                           {"cold_jump_overhead", perFrameUs / 1000 / coldJumpMs},
                           {"full_read_ms", decodeMs},
                           {"check_all_frames_ms", checkMs},
                           {"full_read_overhead_if_every_frame_checked", checkMs / decodeMs},
                           {"damaged", damaged}}
                     .dump()
              << '\n';
    return 0;
}

int runCommand(int argc, char** argv, const std::vector<std::string>& args)
{
    if (!args.empty() && args[0] == "membw")
        return memoryBandwidth();
    if (!args.empty() && args[0] == "refault")
        return vtxbench::refaultBench(std::stoi(option(args, "--mb", "256")), std::stoi(option(args, "--rounds", "3")),
                                      std::stoi(option(args, "--idle-ms", "2000")));
    if (!args.empty() && args[0] == "map-paint") {
#ifdef VTXSCOPE_BENCH_MAP
        return mapPaint(argc, argv, std::stoi(option(args, "--entities", "1000")), std::stod(option(args, "--trail-seconds", "2")),
                        std::stoi(option(args, "--rounds", "200")));
#else
        return fail("map-paint needs a build with the GUI (VTXSCOPE_BUILD_GUI=ON)");
#endif
    }
    if (!args.empty() && args[0] == "plot-paint") {
#ifdef VTXSCOPE_BENCH_MAP
        return plotPaint(argc, argv, std::stoi(option(args, "--series", "10")), std::stoi(option(args, "--points", "100000")),
                         std::stoi(option(args, "--width", "1600")), std::stoi(option(args, "--height", "600")),
                         std::stoi(option(args, "--rounds", "200")));
#else
        return fail("plot-paint needs a build with the GUI (VTXSCOPE_BUILD_GUI=ON)");
#endif
    }
    if (args.size() < 2)
        return fail("usage: vtxscope-bench read-all|open|cold-jumps|zstd|replay-trace FILE ... | make-traces DIR");
    const std::string& cmd = args[0];
    const std::string& file = args[1];
    if (cmd != "make-traces")
        warmPageCache(file);
    if (cmd == "plot-series")
        return plotSeries(file, std::stoi(option(args, "--series", "10")), std::stoi(option(args, "--rounds", "5")));
    if (cmd == "read-all")
        return readAll(file, unsigned(std::stoul(option(args, "--threads", "1"))), std::find(args.begin(), args.end(), "--split") != args.end());
    if (cmd == "gui-open") {
#ifdef VTXSCOPE_BENCH_MAP
        const GuiOpenTimes t = guiOpen(argc, argv, file);
        if (!t.error.empty())
            return fail(t.error);
        auto opened = vtx::ReplayFile::open(file);
        if (!opened)
            return fail(opened.message());
        // Measured after, in the same process, as for open: the limit does not pay for fresh memory.
        const double limitMs = zstdUpToFrameMs(**opened, 0);
        std::cout << vtx::Json{{"bench", "gui-open"},
                               {"file", file},
                               {"first_frame_ms", t.firstFrameMs},
                               {"up_axis_ms", t.upAxisMs},
                               {"zstd_to_frame0_ms", limitMs},
                               {"ratio_to_limit", t.firstFrameMs / limitMs},
                               {"peak_rss_mb", peakRssMb()}}
                         .dump()
                  << '\n';
        return 0;
#else
        return fail("gui-open needs a build with the GUI (VTXSCOPE_BUILD_GUI=ON)");
#endif
    }
    if (cmd == "open")
        return openFirst(file, std::find(args.begin(), args.end(), "--via-cache") != args.end(),
                         unsigned(std::stoul(option(args, "--cache-workers", "0"))));
    if (cmd == "cold-jumps")
        return coldJumps(file, std::stoi(option(args, "--jumps", "50")), unsigned(std::stoul(option(args, "--seed", "1"))));
    if (cmd == "zstd")
        return zstdOnly(file);
    if (cmd == "write" && args.size() >= 3)
        return writeThroughput(file, args[2], std::stoi(option(args, "--frames", "2000")));
    if (cmd == "decode-phases")
        return decodePhases(file);
    if (cmd == "frame-layout")
        return frameLayout(file);
    if (cmd == "hash-sampling")
        return hashSampling(file);
    if (cmd == "integrity")
        return integrityCost(file);
    if (cmd == "lengthen" && args.size() >= 3)
        return lengthen(file, args[2], std::stoi(option(args, "--frames", "10656")));
    if (cmd == "first-frames")
        return firstFrames(file, std::stoi(option(args, "--frames", "1000")));
    if (cmd == "property-read")
        return propertyRead(file, std::stoi(option(args, "--rounds", "5")));
    if (cmd == "diff")
        return diffBench(file, std::stoi(option(args, "--pairs", "500")), std::find(args.begin(), args.end(), "--consecutive-only") != args.end());
    if (cmd == "perturb" && args.size() >= 3)
        return perturb(file, args[2], std::stoi(option(args, "--from", "6000")), std::stod(option(args, "--delta", "0.5")));
    if (cmd == "diverge" && args.size() >= 3) {
        warmPageCache(args[2]);
        return divergeBench(file, args[2], std::stod(option(args, "--epsilon", "0")),
                            std::find(args.begin(), args.end(), "--every-chunk") == args.end());
    }
    if (cmd == "scan")
        return vtxbench::scanBench(file, option(args, "--other", ""), option(args, "--expr", "Player.Health < 50 && IsAlive || changed(Money)"),
                                   std::stoi(option(args, "--rounds", "3")));
    if (cmd == "read-cpu")
        return vtxbench::readCpuBench(file, std::stoi(option(args, "--rounds", "5")));
    if (cmd == "query")
        return vtxbench::queryBench(file, option(args, "--expr", "Player.Health < 50 && IsAlive || changed(Money)"),
                                    std::stoi(option(args, "--rounds", "3")));
    if (cmd == "make-traces")
        return makeTraces(args);
    if (cmd == "replay-trace")
        return replayTrace(args);
    return fail("unknown bench '" + cmd + "'");
}

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    const int rc = runCommand(argc, argv, args);
    // membw reports its host itself; the rest write files or fail, their output is not a figure.
    if (rc == 0 && !args.empty() && args[0] != "membw" && args[0] != "make-traces" && args[0] != "lengthen" && args[0] != "perturb")
        printHost(args[0]);
    return rc;
}
