#include "vtx/plot/Decimate.hpp"

#include <algorithm>

namespace vtx {

SeriesSummary summarize(std::span<const int32_t> frames, std::span<const double> values)
{
    SeriesSummary s;
    const size_t n = std::min(frames.size(), values.size());
    s.points = n;
    s.blocks.resize((n + SeriesSummary::kBlock - 1) / SeriesSummary::kBlock);
    for (size_t b = 0; b < s.blocks.size(); ++b) {
        const size_t begin = b * SeriesSummary::kBlock, end = std::min(n, begin + SeriesSummary::kBlock);
        SeriesSummary::Block& block = s.blocks[b];
        block.min = block.max = values[begin];
        block.clean = true;
        for (size_t i = begin; i < end; ++i) {
            block.clean = block.clean && std::isfinite(values[i]) && (i == begin || frames[i] == frames[i - 1] + 1);
            block.min = std::min(block.min, values[i]);
            block.max = std::max(block.max, values[i]);
        }
    }
    return s;
}

void decimate(std::span<const int32_t> frames, std::span<const double> values, const ColumnMap& map, std::vector<PlotColumn>& out,
              const SeriesSummary* summary)
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
    // Locals, so the compiler keeps them in registers across the push_backs.
    const double x0 = map.x0, first = map.first, scale = map.scale();
    bool previousFinite = false;
    int32_t previousFrame = 0;
    PlotColumn* col = nullptr;
    const bool useSummary = summary && summary->points == n;
    constexpr size_t B = SeriesSummary::kBlock;
    for (size_t i = begin; i < end; ++i) {
        // Fast path: at a block boundary, with the point before it in the current column, a
        // clean block that ends in that column too changes only min, max and last.
        if (useSummary && col && i % B == 0 && i + B <= end && previousFinite) {
            const SeriesSummary::Block& block = summary->blocks[i / B];
            if (block.clean && frames[i] == previousFrame + 1 &&
                ColumnMap::columnOfX(x0 + (double(frames[i + B - 1]) - first) * scale) == col->x &&
                ColumnMap::columnOfX(x0 + (double(frames[i]) - first) * scale) == col->x) {
                col->min = std::min(col->min, block.min);
                col->max = std::max(col->max, block.max);
                col->last = values[i + B - 1];
                previousFrame = frames[i + B - 1];
                i += B - 1;
                continue;
            }
        }
        const double v = values[i];
        const int32_t f = frames[i];
        if (!std::isfinite(v)) {
            previousFinite = false;
            continue;
        }
        const bool joined = previousFinite && f == previousFrame + 1;
        previousFinite = true;
        previousFrame = f;
        const int32_t x = ColumnMap::columnOfX(x0 + (double(f) - first) * scale);
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
