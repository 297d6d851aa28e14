// SPDX-License-Identifier: MIT
#pragma once
// Min/max-per-pixel decimation: a series of any length becomes at most one column per pixel
// with the first, last, smallest and largest value that land in it (M4). Drawing first → min
// → max → last per column looks exactly like drawing every point at that width, and no spike
// is lost however far the plot is zoomed out. Only the visible points (and one on each side, so
// the line reaches the edges) are visited.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace vtx {

/// Frame → pixel column of a plot: frames [first, last] over pixels [x0, x1).
struct ColumnMap {
    double first = 0, last = 1;
    double x0 = 0, x1 = 1;
    /// Pixels per frame; hoisted out of loops (x() multiplies by it, so a loop that hoists it
    /// gets the same bits as x()).
    double scale() const { return (x1 - x0) / std::max(1e-12, last - first); }
    double x(double frame) const { return x0 + (frame - first) * scale(); }
    /// floor(x(frame)), clamped to ±1e9 px (a far neighbour beyond an edge, never joined to
    /// anything drawn, must not overflow the int).
    int32_t column(double frame) const { return columnOfX(x(frame)); }
    static int32_t columnOfX(double x)
    {
        x = std::clamp(x, -1e9, 1e9);
        const int32_t c = int32_t(x); // truncation; one less for negative non-integers (floor without libm)
        return c - int32_t(double(c) > x);
    }
};

struct PlotColumn {
    int32_t x = 0;
    double first = 0, last = 0, min = 0, max = 0;
    /// The column's first point continues the line from the previous column's last point: their
    /// frames are adjacent. False after a frame without a value (entity absent, chunk unreadable,
    /// a non-finite value), so holes stay holes at every zoom.
    bool joined = false;
    friend bool operator==(const PlotColumn&, const PlotColumn&) = default;
};

/// Per block of kSummaryBlock points: their min and max, and whether the block is "clean" (all
/// values finite, frames consecutive), so a block that falls inside one pixel column is folded
/// in one step. Built once per series; zoomed out, decimation then reads a few points per column
/// instead of every point.
struct SeriesSummary {
    static constexpr size_t kBlock = 8;
    /// A second level: kWideBlock points (kWideBlock / kBlock blocks), for views where a pixel
    /// column holds hundreds of points (10 series × 100k frames on 1,600 px).
    static constexpr size_t kWideBlock = 64;
    struct Block {
        double min = 0, max = 0;
        bool clean = false;
    };
    std::vector<Block> blocks;
    std::vector<Block> wideBlocks;
    size_t points = 0; ///< the series length it was built for
};
SeriesSummary summarize(std::span<const int32_t> frames, std::span<const double> values);

/// Decimates the points (frames ascending, values) visible through `map` into `out` (cleared
/// first; its capacity is reused). Non-finite values are skipped and break the line. With a
/// `summary` of the same series, whole blocks inside one column are folded at once: the same
/// columns, faster.
void decimate(std::span<const int32_t> frames, std::span<const double> values, const ColumnMap& map, std::vector<PlotColumn>& out,
              const SeriesSummary* summary = nullptr);

} // namespace vtx
