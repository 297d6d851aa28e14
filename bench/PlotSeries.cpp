// SPDX-License-Identifier: MIT
// vtxscope-bench plot-series FILE [--series 10] [--rounds 5]: the Plot dock's computation —
// N property series of different entities over the whole replay, read in one pass over the
// chunks (vtx::scanSeries, with the per-point integrity check the GUI does) — against one full
// read of the same file in the same run (every chunk decoded, every property of every entity
// read, as `read-all --threads 1`). Medians of interleaved rounds; the line is ratio ≤ 1.5.

#include "BenchClock.hpp"
#include "PlotBench.hpp"
#include "PropertyWalk.hpp"

#include "vtx/export/JsonExport.hpp"
#include "vtx/plot/SeriesScan.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <time.h>

using vtxbench::Clock;
using vtxbench::median;
using vtxbench::msSince;

namespace {

double cpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}
struct Pick {
    uint32_t bucket;
    std::string id, path;
};

/// Up to `n` numeric series of different entities of frame 0, spread like a user's picks:
/// scalars as they are, vectors by their x.
std::vector<Pick> pickSeries(const vtx::ReplayFile& file, size_t n)
{
    std::vector<std::vector<Pick>> perEntity;
    auto h = file.frame(0);
    if (!h)
        return {};
    const vtx::FrameView fv = h->view();
    for (const vtx::FrameEntity e : fv.entitiesWithIds()) {
        const vtx::StructDef* def = file.schema().structById(e.entity.typeId());
        if (!def)
            continue;
        std::vector<Pick> picks;
        for (const vtx::FieldDef& f : def->fields) {
            for (const std::string& path : {f.name, f.name + ".x", f.name + ".translation.x"}) {
                auto p = vtx::PropertyPath::parse(path);
                if (p && p->evaluate(e.entity, file.schema()).isNumber()) {
                    picks.push_back({e.bucket, std::string(e.uniqueId()), path});
                    break;
                }
            }
        }
        if (!picks.empty())
            perEntity.push_back(std::move(picks));
    }
    // Series j: entity j, its (2j + 1)-th numeric field (wrapping), so the picks mix ints,
    // floats and vector components instead of the same first field of every entity.
    std::vector<Pick> out;
    for (size_t j = 0; out.size() < n && j < n * perEntity.size(); ++j) {
        const auto& picks = perEntity[j % perEntity.size()];
        const Pick& p = picks[(2 * j + 1) % picks.size()];
        if (std::none_of(out.begin(), out.end(), [&](const Pick& o) { return o.id == p.id && o.path == p.path; }))
            out.push_back(p);
    }
    return out;
}

} // namespace

int plotSeries(const std::string& path, int series, int rounds)
{
    auto opened = vtx::ReplayFile::open(path);
    if (!opened) {
        std::fprintf(stderr, "vtxscope-bench: %s\n", opened.message().c_str());
        return 1;
    }
    const vtx::ReplayFile& file = **opened;
    const std::vector<Pick> picks = pickSeries(file, size_t(series));
    if (picks.empty()) {
        std::fprintf(stderr, "vtxscope-bench: no numeric property to plot in %s\n", path.c_str());
        return 1;
    }
    std::vector<double> readMs, plotMs, readCpu, plotCpu;
    uint64_t checksum = 0, points = 0;
    for (int r = 0; r < rounds; ++r) {
        // One full read: every chunk decoded, every property read.
        auto t0 = Clock::now();
        double c0 = cpuMs();
        vtxbench::PropertyWalk walk(file.schema());
        vtxbench::WalkTotals totals;
        for (size_t ci = 0; ci < file.chunks().size(); ++ci) {
            auto chunk = file.decodeChunk(ci);
            if (!chunk)
                continue;
            for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                walk.frame((*chunk)->frame(lf), totals);
        }
        readMs.push_back(msSince(t0));
        readCpu.push_back(cpuMs() - c0);
        checksum += totals.checksum;
        // The plot: N series in one pass.
        t0 = Clock::now();
        c0 = cpuMs();
        std::vector<std::unique_ptr<vtx::SeriesSampler>> samplers;
        for (const Pick& p : picks) {
            auto made = vtx::propertySampler(file.schema(), p.bucket, p.id, p.path);
            samplers.push_back(std::move(*made));
        }
        // One thread, as the full read above (`vtxscope-bench scan` measures both with two).
        vtx::WalkControl control;
        control.threads = 1;
        const vtx::SeriesScanResult result = vtx::scanSeries(file, samplers, control);
        plotMs.push_back(msSince(t0));
        plotCpu.push_back(cpuMs() - c0);
        points = 0;
        for (const auto& s : result.series)
            points += s.frames.size();
    }
    vtx::Json names = vtx::Json::array();
    for (const Pick& p : picks)
        names.push_back(p.id + "." + p.path);
    const double read = median(readMs), plot = median(plotMs);
    std::cout << vtx::Json{{"bench", "plot-series"},
                           {"file", path},
                           {"frames", file.frameCount()},
                           {"series", picks.size()},
                           {"names", names},
                           {"points", points},
                           {"rounds", rounds},
                           {"full_read_ms", read},
                           {"series_ms", plot},
                           {"ratio", plot / read},
                           {"full_read_cpu_ms", median(readCpu)},
                           {"series_cpu_ms", median(plotCpu)},
                           {"ratio_cpu", median(plotCpu) / median(readCpu)},
                           {"line", 1.5},
                           {"pass", plot / read <= 1.5},
                           {"checksum", checksum}}
                     .dump()
              << '\n';
    return 0;
}
