// SPDX-License-Identifier: MIT
// vtxscope-bench map-paint: one paint of the Map dock's scene, as the widget paints it, into a
// 1600 × 1000 image: 1,000 entities of 8 types with heading ticks, and a trail of 2 s at 64 Hz
// (128 points) behind each, moving along gentle curves over a 20,000-unit square (what a
// 64-player match looks like zoomed to fit). Offscreen platform; median of --rounds paints.

#include "MapPaint.hpp"

#include "map/MapRenderer.hpp"
#include "vtx/export/JsonExport.hpp"

#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>
#include <time.h>

int mapPaint(int argc, char** argv, int entities, double trailSeconds, int rounds)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    using namespace vtxw;
    MapScene scene;
    scene.palette = mapPalette();
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> where(-10000, 10000), angle(-M_PI, M_PI), turn(-0.6, 0.6);
    const int points = int(std::lround(trailSeconds * 64));
    for (int i = 0; i < entities; ++i) {
        MapGlyph g;
        g.key = {0, QStringLiteral("entity_%1").arg(i)};
        g.name = g.key.uniqueId;
        g.colour = i % 8;
        double x = where(rng), y = where(rng), heading = angle(rng);
        const double rate = turn(rng), speed = 250.0 / 64; // units per frame
        MapTrail t;
        t.glyph = i;
        for (int k = 0; k < points; ++k) {
            t.points.emplace_back(x, y);
            t.ages.push_back(float(points - 1 - k) / float(std::max(1, points - 1)));
            t.breaks.push_back(0);
            heading += rate / 64;
            x += std::cos(heading) * speed;
            y += std::sin(heading) * speed;
        }
        g.world = QPointF(x, y);
        g.heading = heading;
        scene.glyphs.push_back(std::move(g));
        scene.trails.push_back(std::move(t));
    }
    for (int c = 0; c < 8; ++c)
        scene.legend.push_back({QStringLiteral("Type %1").arg(c), c});
    scene.selected = 3;
    scene.hovered = 5;
    scene.unplaced = 12;
    MapViewport vp;
    vp.size = QSizeF(1600, 1000);
    vp.fit(scene.worldBounds());
    QImage img(1600, 1000, QImage::Format_ARGB32_Premultiplied);
    MapRenderer renderer;
    const QPalette palette;
    // Wall time, and the painting thread's CPU time: on a machine shared with other work the
    // wall time includes waiting for a core, the CPU time is what one paint costs.
    auto cpuMs = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    };
    std::vector<double> ms, cpu;
    for (int r = 0; r < rounds + 3; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpuMs();
        {
            QPainter p(&img);
            renderer.paint(p, scene, vp, palette);
        }
        const double d = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (r >= 3) { // the first paints build the glyph sprites and warm the font cache
            ms.push_back(d);
            cpu.push_back(cpuMs() - c0);
        }
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    size_t segments = 0;
    for (const MapTrail& t : scene.trails)
        segments += t.points.size() - 1;
    std::cout << vtx::Json{{"bench", "map-paint"},
                           {"entities", entities},
                           {"trail_seconds", trailSeconds},
                           {"trail_segments", segments},
                           {"width", 1600},
                           {"height", 1000},
                           {"rounds", rounds},
                           {"median_ms", ms[ms.size() / 2]},
                           {"p90_ms", ms[ms.size() * 9 / 10]},
                           {"min_ms", ms.front()},
                           {"cpu_median_ms", cpu[cpu.size() / 2]}}
                     .dump()
              << '\n';
    return 0;
}
