#pragma once
// Min/max-per-pixel decimation: a series of any length becomes at most one column per pixel
// with the first, last, smallest and largest value that land in it (M4). Drawing first → min
// → max → last per column looks exactly like drawing every point at that width, and no spike
// is lost however far the plot is zoomed out. Only the visible points (and one on each side, so
// the line reaches the edges) are visited.

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace vtx {

/// Frame → pixel column of a plot: frames [first, last] over pixels [x0, x1).
struct ColumnMap {
    double first = 0, last = 1;
    double x0 = 0, x1 = 1;
    double x(double frame) const { return x0 + (frame - first) / std::max(1e-12, last - first) * (x1 - x0); }
    int32_t column(double frame) const { return int32_t(std::floor(x(frame))); }
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

/// Decimates the points (frames ascending, values) visible through `map` into `out` (cleared
/// first; its capacity is reused). Non-finite values are skipped and break the line.
void decimate(std::span<const int32_t> frames, std::span<const double> values, const ColumnMap& map, std::vector<PlotColumn>& out);

} // namespace vtx
