// vtxscope-bench: whole-file measurements on real-sized replays, JSON on stdout.
//
//   vtxscope-bench read-all FILE [--threads N]   decode every chunk, read every property of
//                                                every frame; wall time and peak RSS
//   vtxscope-bench open FILE                     open -> first frame decoded
//   vtxscope-bench cold-jumps FILE [--jumps N] [--seed S]
//                                                N seeded random frames, each decoded cold
//   vtxscope-bench zstd FILE                     decompression-only speed of the chunks (limit)

#include "PropertyWalk.hpp"
#include "vtx/JsonExport.hpp"
#include "vtx/ReplayFile.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <sys/resource.h>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
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

int readAll(const std::string& path, unsigned threads)
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
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(worker, i);
    worker(0);
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
    std::cout << vtx::Json{{"bench", "read-all"},       {"file", path},
                           {"backend", vtx::backendName(f.backend())},
                           {"threads", threads},        {"frames", f.frameCount()},
                           {"values", sum.values},      {"decoded_bytes", bytes},
                           {"ms", ms},                  {"ns_per_value", ms * 1e6 / double(std::max<uint64_t>(sum.values, 1))},
                           {"peak_rss_mb", peakRssMb()}, {"checksum", sum.checksum}}
                     .dump()
              << '\n';
    return 0;
}

int openFirst(const std::string& path)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    const double openMs = msSince(t0);
    auto frame = (*file)->frame(0);
    if (!frame)
        return fail(frame.message());
    const double ms = msSince(t0);
    std::cout << vtx::Json{{"bench", "open"}, {"file", path}, {"open_ms", openMs}, {"first_frame_ms", ms}, {"peak_rss_mb", peakRssMb()}}.dump()
              << '\n';
    return 0;
}

int coldJumps(const std::string& path, int jumps, unsigned seed)
{
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return fail(file.message());
    std::mt19937 rng(seed);
    std::vector<double> times;
    const auto t0 = Clock::now();
    for (int i = 0; i < jumps; ++i) {
        const int32_t target = int32_t(rng() % uint32_t((*file)->frameCount()));
        const auto t = Clock::now();
        auto frame = (*file)->frame(target);
        if (!frame)
            return fail(frame.message());
        times.push_back(msSince(t));
    }
    const double total = msSince(t0);
    std::sort(times.begin(), times.end());
    std::cout << vtx::Json{{"bench", "cold-jumps"}, {"file", path},  {"jumps", jumps},
                           {"total_ms", total},     {"p50_ms", times[times.size() / 2]},
                           {"max_ms", times.back()}, {"peak_rss_mb", peakRssMb()}}
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
    double ms = 0;
    for (size_t ci = 0; ci < (*file)->chunks().size(); ++ci) {
        auto blob = (*file)->readChunkBlob(ci);
        if (!blob)
            return fail(blob.message());
        const auto t = Clock::now();
        auto decoded = vtx::decodeBlob(std::move(*blob), size_t(1) << 31, "bench");
        ms += msSince(t);
        if (!decoded)
            return fail(decoded.message());
        out += decoded->size();
    }
    std::cout << vtx::Json{{"bench", "zstd"}, {"file", path}, {"decoded_bytes", out}, {"ms", ms}, {"mb_per_s", double(out) / 1e3 / ms}}.dump()
              << '\n';
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() < 2)
        return fail("usage: vtxscope-bench read-all|open|cold-jumps|zstd FILE [options]");
    const std::string& cmd = args[0];
    const std::string& file = args[1];
    if (cmd == "read-all")
        return readAll(file, unsigned(std::stoul(option(args, "--threads", "1"))));
    if (cmd == "open")
        return openFirst(file);
    if (cmd == "cold-jumps")
        return coldJumps(file, std::stoi(option(args, "--jumps", "50")), unsigned(std::stoul(option(args, "--seed", "1"))));
    if (cmd == "zstd")
        return zstdOnly(file);
    return fail("unknown bench '" + cmd + "'");
}
