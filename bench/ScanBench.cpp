// SPDX-License-Identifier: MIT
#include "ScanBench.hpp"
#include "BenchClock.hpp"

#include "PropertyWalk.hpp"

#include "vtx/analysis/Analyses.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/BlobCodec.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/query/QueryScan.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace vtxbench {

namespace {

/// CPU time of the whole process (every thread), to tell waiting for a core from working.
double cpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(u.ru_utime) + ms(u.ru_stime);
}

/// Minor page faults of the process so far: fresh memory touched (or mapped pages first read).
double minorFaults()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_minflt);
}

int fail(const std::string& m)
{
    std::fprintf(stderr, "vtxscope-bench: %s\n", m.c_str());
    return 1;
}

/// zstd alone over every chunk, one thread (the stored blobs read first, not timed).
vtx::Result<double> zstdAll(const vtx::ReplayFile& f)
{
    double ms = 0;
    for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
        auto blob = f.readChunkBlob(ci);
        if (!blob)
            return vtx::Error{blob.message()};
        const auto t = Clock::now();
        auto decoded = vtx::decodeBlob(std::move(*blob), size_t(1) << 31, "bench");
        ms += msSince(t);
        if (!decoded)
            return vtx::Error{decoded.message()};
    }
    return ms;
}

/// zstd alone over every chunk on `threads` threads at once, chunk i on thread i % threads: the
/// limit of a scan with that many decoders on this host, measured instead of assumed (zstd ÷ 2
/// assumes two decodes at once run each as fast as one alone; on a VM whose cores share caches,
/// memory bandwidth or a physical core they do not). The stored blobs are read first, not timed.
vtx::Result<double> zstdAllThreads(const vtx::ReplayFile& f, unsigned threads)
{
    std::vector<vtx::Buffer> blobs;
    for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
        auto blob = f.readChunkBlob(ci);
        if (!blob)
            return vtx::Error{blob.message()};
        blobs.push_back(std::move(*blob));
    }
    std::vector<std::string> errors(threads);
    const auto t = Clock::now();
    {
        std::vector<std::jthread> workers;
        for (unsigned w = 0; w < threads; ++w)
            workers.emplace_back([&, w] {
                for (size_t ci = w; ci < blobs.size(); ci += threads) {
                    auto decoded = vtx::decodeBlob(std::move(blobs[ci]), size_t(1) << 31, "bench");
                    if (!decoded && errors[w].empty())
                        errors[w] = decoded.message();
                }
            });
    }
    const double ms = msSince(t);
    for (const std::string& e : errors)
        if (!e.empty())
            return vtx::Error{e};
    return ms;
}

/// Open, then every property of every frame through walkReplay with `threads`.
vtx::Result<double> engineRead(const std::string& path, unsigned threads, uint64_t& checksum)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return vtx::Error{file.message()};
    const PropertyWalk walk((*file)->schema());
    WalkTotals t;
    vtx::WalkControl control;
    control.threads = threads;
    const vtx::WalkResult r =
        vtx::walkReplay(**file, control, [&](int32_t, const vtx::FrameView& fv, const vtx::DecodedChunk&) { walk.frame(fv, t); });
    if (!r.failed.empty())
        return vtx::Error{r.failed.front().reason};
    checksum += t.checksum;
    return msSince(t0);
}

/// Open, then every chunk through walkReplay with `threads` and every frame taken (verified),
/// no value read: the decode side of the full read.
vtx::Result<double> engineDecode(const std::string& path, unsigned threads, uint64_t& checksum)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return vtx::Error{file.message()};
    vtx::WalkControl control;
    control.threads = threads;
    const vtx::WalkResult r =
        vtx::walkReplay(**file, control, [&](int32_t f, const vtx::FrameView&, const vtx::DecodedChunk&) { checksum += uint64_t(f); });
    if (!r.failed.empty())
        return vtx::Error{r.failed.front().reason};
    return msSince(t0);
}

/// The full read `read-all --threads 2` did before the engine: each thread decodes and walks
/// its share of the chunks.
vtx::Result<double> splitRead(const std::string& path, unsigned threads, uint64_t& checksum)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return vtx::Error{file.message()};
    const vtx::ReplayFile& f = **file;
    const PropertyWalk walk(f.schema());
    std::atomic<size_t> next{0};
    std::vector<WalkTotals> totals(threads);
    std::atomic<bool> failed{false};
    auto worker = [&](unsigned id) {
        for (size_t ci; (ci = next.fetch_add(1)) < f.chunks().size();) {
            auto chunk = f.decodeChunk(ci);
            if (!chunk) {
                failed = true;
                return;
            }
            for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                walk.frame((*chunk)->frame(lf), totals[id]);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(worker, i);
    worker(0);
    for (auto& t : pool)
        t.join();
    if (failed)
        return vtx::Error{"a chunk failed to decode"};
    for (const WalkTotals& t : totals)
        checksum += t.values;
    return msSince(t0);
}

vtx::Result<double> queryRun(const std::string& path, const std::string& expression, unsigned threads, int64_t& matches)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return vtx::Error{file.message()};
    vtx::query::ExpressionError error;
    auto e = vtx::query::Expression::compile(expression, (*file)->schema(), &error);
    if (!e)
        return vtx::Error{"expression: " + error.text()};
    vtx::query::QueryScanOptions opt;
    opt.threads = threads;
    auto r = vtx::query::scanQuery(**file, *e, opt);
    if (!r)
        return vtx::Error{r.message()};
    matches = r->entityMatches;
    return msSince(t0);
}

vtx::Result<double> lifetimesRun(const std::string& path, unsigned threads, size_t& entities)
{
    const auto t0 = Clock::now();
    auto file = vtx::ReplayFile::open(path);
    if (!file)
        return vtx::Error{file.message()};
    vtx::WalkControl control;
    control.threads = threads;
    const vtx::LifetimesResult r = vtx::entityLifetimes(**file, control);
    entities = r.entities.size();
    return msSince(t0);
}

vtx::Result<double> divergeRun(const std::string& a, const std::string& b, bool ahead, uint64_t& pairs)
{
    const auto t0 = Clock::now();
    auto fa = vtx::ReplayFile::open(a);
    if (!fa)
        return vtx::Error{fa.message()};
    auto fb = vtx::ReplayFile::open(b);
    if (!fb)
        return vtx::Error{fb.message()};
    vtx::DivergeOptions opt;
    opt.threads = ahead ? vtx::kScanThreads : 1;
    auto r = vtx::diverge(**fa, **fb, opt);
    if (!r)
        return vtx::Error{r.message()};
    pairs = r->pairsCompared + r->identicalChunks * 1000000; // an identical chunk would make this no test of decoding
    return msSince(t0);
}

} // namespace

int scanBench(const std::string& path, const std::string& other, const std::string& expression, int rounds)
{
    auto opened = vtx::ReplayFile::open(path);
    if (!opened)
        return fail(opened.message());
    std::map<std::string, std::vector<double>> ms, cpu;
    uint64_t checksum = 0, pairs = 0;
    int64_t matches = 0;
    size_t entities = 0;
    double cpuBefore = cpuMs();
    auto record = [&](const std::string& name, vtx::Result<double> r) {
        const double cpuNow = cpuMs();
        cpu[name].push_back(cpuNow - cpuBefore);
        cpuBefore = cpuNow;
        if (!r) {
            std::fprintf(stderr, "vtxscope-bench: %s: %s\n", name.c_str(), r.message().c_str());
            return false;
        }
        ms[name].push_back(*r);
        return true;
    };
    std::shared_ptr<vtx::ReplayFile> otherFile;
    if (!other.empty()) {
        auto o = vtx::ReplayFile::open(other);
        if (!o)
            return fail(o.message());
        otherFile = *o;
    }
    // Rounds interleave every measure so drift on a shared machine hits them alike.
    for (int r = 0; r < std::max(rounds, 1); ++r) {
        bool ok = record("zstd", zstdAll(**opened));
        ok = ok && record("zstd_2", zstdAllThreads(**opened, 2));
        ok = ok && record("read_1", engineRead(path, 1, checksum));
        ok = ok && record("read_2", engineRead(path, 2, checksum));
        ok = ok && record("read_split_2", splitRead(path, 2, checksum));
        ok = ok && record("query_1", queryRun(path, expression, 1, matches));
        ok = ok && record("query_2", queryRun(path, expression, 2, matches));
        ok = ok && record("lifetimes_1", lifetimesRun(path, 1, entities));
        ok = ok && record("lifetimes_2", lifetimesRun(path, 2, entities));
        if (otherFile) {
            ok = ok && record("other_zstd", zstdAll(*otherFile));
            ok = ok && record("other_read_1", engineRead(other, 1, checksum));
            ok = ok && record("diverge_on_caller", divergeRun(path, other, false, pairs));
            ok = ok && record("diverge", divergeRun(path, other, true, pairs));
        }
        if (!ok)
            return 1;
    }
    vtx::Json medians = vtx::Json::object();
    for (const auto& [name, v] : ms)
        medians[name] = median(v);
    vtx::Json cpuMedians = vtx::Json::object();
    for (const auto& [name, v] : cpu)
        cpuMedians[name] = median(v);
    vtx::Json all = vtx::Json::object();
    for (const auto& [name, v] : ms)
        all[name] = v;
    auto m = [&](const char* n) { return median(ms[n]); };
    vtx::Json ratios{{"read_1_to_zstd", m("read_1") / m("zstd")},
                     {"read_2_to_zstd_half", m("read_2") / (m("zstd") / 2)},
                     {"read_2_to_read_1", m("read_2") / m("read_1")},
                     {"zstd_2_to_zstd_half", m("zstd_2") / (m("zstd") / 2)},
                     {"read_2_to_zstd_2", m("read_2") / m("zstd_2")},
                     {"read_split_2_to_zstd_half", m("read_split_2") / (m("zstd") / 2)},
                     {"query_1_to_read_1", m("query_1") / m("read_1")},
                     {"query_2_to_read_2", m("query_2") / m("read_2")},
                     {"lifetimes_1_to_read_1", m("lifetimes_1") / m("read_1")},
                     {"lifetimes_2_to_read_2", m("lifetimes_2") / m("read_2")}};
    if (otherFile) {
        const double slower = std::max(m("read_1"), m("other_read_1"));
        ratios["diverge_to_slower_read_1"] = m("diverge") / slower;
        ratios["diverge_on_caller_to_slower_read_1"] = m("diverge_on_caller") / slower;
    }
    if (checksum == 42)
        std::fprintf(stderr, "checksum 42\n");
    std::cout << vtx::Json{{"bench", "scan"},
                           {"file", path},
                           {"other", other},
                           {"backend", vtx::backendName((*opened)->backend())},
                           {"frames", (*opened)->frameCount()},
                           {"chunks", (*opened)->chunks().size()},
                           {"rounds", rounds},
                           {"expression", expression},
                           {"query_entity_matches", matches},
                           {"lifetimes", entities},
                           {"diverge_pairs", pairs},
                           {"median_ms", medians},
                           {"median_cpu_ms", cpuMedians},
                           {"ratios", ratios},
                           {"runs_ms", all}}
                     .dump()
              << '\n';
    return 0;
}

int readCpuBench(const std::string& path, int rounds)
{
    auto opened = vtx::ReplayFile::open(path);
    if (!opened)
        return fail(opened.message());
    std::map<std::string, std::vector<double>> ms, cpu, faults;
    uint64_t checksum = 0;
    for (int r = 0; r < std::max(rounds, 1); ++r) {
        auto run = [&](const std::string& name, auto&& measure) {
            const double c0 = cpuMs(), f0 = minorFaults();
            vtx::Result<double> wall = measure();
            cpu[name].push_back(cpuMs() - c0);
            faults[name].push_back(minorFaults() - f0);
            if (!wall) {
                std::fprintf(stderr, "vtxscope-bench: %s: %s\n", name.c_str(), wall.message().c_str());
                return false;
            }
            ms[name].push_back(*wall);
            return true;
        };
        bool ok = run("zstd", [&] { return zstdAll(**opened); });
        ok = ok && run("zstd_2", [&] { return zstdAllThreads(**opened, 2); });
        ok = ok && run("decode_1", [&] { return engineDecode(path, 1, checksum); });
        ok = ok && run("read_1", [&] { return engineRead(path, 1, checksum); });
        ok = ok && run("read_2", [&] { return engineRead(path, 2, checksum); });
        if (!ok)
            return 1;
    }
    auto medians = [](const std::map<std::string, std::vector<double>>& m) {
        vtx::Json j = vtx::Json::object();
        for (const auto& [name, v] : m)
            j[name] = median(v);
        return j;
    };
    auto c = [&](const char* n) { return median(cpu[n]); };
    vtx::Json runs = vtx::Json::object();
    for (const auto& [name, v] : cpu)
        runs[name] = v;
    std::cout << vtx::Json{{"bench", "read-cpu"},
                           {"file", path},
                           {"backend", vtx::backendName((*opened)->backend())},
                           {"frames", (*opened)->frameCount()},
                           {"chunks", (*opened)->chunks().size()},
                           {"rounds", rounds},
                           {"checksum", checksum},
                           {"median_cpu_ms", medians(cpu)},
                           {"median_ms", medians(ms)},
                           {"median_minor_faults", medians(faults)},
                           {"cpu_ratios",
                            {{"decode_1_to_zstd", c("decode_1") / c("zstd")},
                             {"read_1_to_zstd", c("read_1") / c("zstd")},
                             {"read_2_to_zstd", c("read_2") / c("zstd")},
                             {"zstd_2_to_zstd", c("zstd_2") / c("zstd")},
                             {"walk_1_to_zstd", (c("read_1") - c("decode_1")) / c("zstd")}}},
                           {"runs_cpu_ms", runs}}
                     .dump()
              << '\n';
    return 0;
}

} // namespace vtxbench
