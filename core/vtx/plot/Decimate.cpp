#include "vtx/plot/Decimate.hpp"

#include <algorithm>

namespace vtx {

void decimate(std::span<const int32_t> frames, std::span<const double> values, const ColumnMap& map, std::vector<PlotColumn>& out)
{
    out.clear();
    const size_t n = std::min(frames.size(), values.size());
    if (n == 0)
        return;
    // One point beyond each edge, so the line runs to the border instead of stopping short.
    auto lo = std::lower_bound(frames.begin(), frames.begin() + ptrdiff_t(n), int32_t(std::floor(map.first)));
    auto hi = std::upper_bound(lo, frames.begin() + ptrdiff_t(n), int32_t(std::ceil(map.last)));
    size_t begin = size_t(lo - frames.begin()), end = size_t(hi - frames.begin());
    if (begin > 0)
        --begin;
    if (end < n)
        ++end;
    bool previousFinite = false;
    int32_t previousFrame = 0;
    PlotColumn* col = nullptr;
    for (size_t i = begin; i < end; ++i) {
        const double v = values[i];
        const int32_t f = frames[i];
        if (!std::isfinite(v)) {
            previousFinite = false;
            continue;
        }
        const bool joined = previousFinite && f == previousFrame + 1;
        previousFinite = true;
        previousFrame = f;
        const int32_t x = map.column(f);
        if (col && col->x == x) {
            col->last = v;
            col->min = std::min(col->min, v);
            col->max = std::max(col->max, v);
            continue;
        }
        out.push_back({x, v, v, v, v, joined});
        col = &out.back();
    }
}

} // namespace vtx
