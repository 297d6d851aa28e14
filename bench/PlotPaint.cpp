// SPDX-License-Identifier: MIT
// vtxscope-bench plot-paint [--series 10] [--points 100000] [--width 1600] [--height 600]
// [--rounds 200]: one repaint of the Plot dock as the widget paints it (PlotRenderer), into an
// offscreen QImage: random-walk series with spikes, the hover readout on. Two figures: a
// repaint after a zoom or resize (decimation of every series + painting) and a repaint that
// reuses the layout (hover, playhead). Medians and 95th percentiles; the line is 8 ms.

#include "BenchClock.hpp"
#include "PlotBench.hpp"

#include "plot/PlotRenderer.hpp"
#include "vtx/export/JsonExport.hpp"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <time.h>

using vtxbench::Clock;
using vtxbench::median;
using vtxbench::msSince;

namespace {
/// This thread's CPU time: the machine is shared, and waiting for a core is not painting.
double cpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}
double quantile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}
} // namespace

int plotPaint(int argc, char** argv, int series, int points, int width, int height, int rounds)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    using namespace vtxw;
    PlotScene scene;
    scene.size = QSize(width, height);
    scene.first = 0;
    scene.last = points - 1;
    scene.playhead = points / 3;
    scene.hoverX = width / 2;
    std::mt19937 rng(18);
    std::normal_distribution<double> step(0, 1);
    const QColor colours[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x8C564B, 0x7F7F7F, 0xBCBD22, 0x9467BD};
    for (int s = 0; s < series; ++s) {
        auto d = std::make_shared<vtx::SeriesData>();
        double v = 100.0 * s;
        for (int i = 0; i < points; ++i) {
            if (i % 5000 == 4999)
                continue; // an absent frame now and then: the line breaks there
            v += step(rng) + (i % 20011 == 17 ? 400 : 0);
            d->frames.push_back(i);
            d->values.push_back(v);
        }
        // The summary is made once, on the worker, when a series arrives: not part of a repaint.
        auto summary = std::make_shared<const vtx::SeriesSummary>(vtx::summarize(d->frames, d->values));
        scene.series.push_back({QStringLiteral("entity_%1.Value").arg(s), colours[s % 10], d, summary});
    }
    scene.failed.push_back({points / 2, points / 2 + 800, "chunk 7: bad zstd frame"});
    QImage image(scene.size, QImage::Format_ARGB32_Premultiplied);
    PlotLayout layout;
    std::vector<double> full, paintOnly, fullCpu, paintOnlyCpu;
    for (int r = 0; r < rounds + 5; ++r) {
        // Each round a slightly different x range, as when zooming: the layout is redone.
        scene.first = (r % 7) * 3;
        auto t0 = Clock::now();
        double c0 = cpuMs();
        {
            layoutPlot(scene, layout);
            QPainter p(&image);
            paintPlot(p, scene, layout);
        }
        const double a = msSince(t0), ac = cpuMs() - c0;
        t0 = Clock::now();
        c0 = cpuMs();
        {
            QPainter p(&image);
            paintPlot(p, scene, layout);
        }
        const double b = msSince(t0), bc = cpuMs() - c0;
        if (r >= 5) { // the first rounds warm fonts and caches
            full.push_back(a);
            paintOnly.push_back(b);
            fullCpu.push_back(ac);
            paintOnlyCpu.push_back(bc);
        }
    }
    if (qEnvironmentVariableIsSet("VTXSCOPE_BENCH_PLOT_PNG"))
        image.save(qEnvironmentVariable("VTXSCOPE_BENCH_PLOT_PNG"));
    std::cout << vtx::Json{{"bench", "plot-paint"},
                           {"series", series},
                           {"points_per_series", points},
                           {"image", std::to_string(width) + "x" + std::to_string(height)},
                           {"rounds", rounds},
                           {"repaint_after_zoom_ms_median", quantile(full, 0.5)},
                           {"repaint_after_zoom_ms_p95", quantile(full, 0.95)},
                           {"repaint_same_range_ms_median", quantile(paintOnly, 0.5)},
                           {"repaint_same_range_ms_p95", quantile(paintOnly, 0.95)},
                           {"repaint_after_zoom_cpu_ms_median", quantile(fullCpu, 0.5)},
                           {"repaint_same_range_cpu_ms_median", quantile(paintOnlyCpu, 0.5)},
                           {"line_ms", 8},
                           {"pass_wall", quantile(full, 0.5) <= 8},
                           {"pass_cpu", quantile(fullCpu, 0.5) <= 8}}
                     .dump()
              << '\n';
    return 0;
}
