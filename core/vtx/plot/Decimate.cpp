// SPDX-License-Identifier: MIT
#include "vtx/plot/Decimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
    constexpr size_t perWide = SeriesSummary::kWideBlock / SeriesSummary::kBlock;
    s.wideBlocks.resize((n + SeriesSummary::kWideBlock - 1) / SeriesSummary::kWideBlock);
    for (size_t w = 0; w < s.wideBlocks.size(); ++w) {
        SeriesSummary::Block& wide = s.wideBlocks[w];
        const size_t first = w * perWide, last = std::min(s.blocks.size(), first + perWide);
        wide = s.blocks[first];
        for (size_t b = first; b < last; ++b) {
            // Clean only if every block is and the frames run on across the blocks' seams.
            const size_t seam = b * SeriesSummary::kBlock;
            wide.clean = wide.clean && s.blocks[b].clean && (b == first || frames[seam] == frames[seam - 1] + 1);
            wide.min = std::min(wide.min, s.blocks[b].min);
            wide.max = std::max(wide.max, s.blocks[b].max);
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
    constexpr size_t B = SeriesSummary::kBlock, W = SeriesSummary::kWideBlock;
    auto columnOf = [&](int64_t frame) { return ColumnMap::columnOfX(x0 + (double(frame) - first) * scale); };
    // Zoomed out (several frames per pixel), the first frame past the current column is worked
    // out once per column: then whether a point or a block stays in the column is an integer
    // comparison, not a column computed per point. Found from the estimate and corrected by
    // columnOf itself, so it is exactly where the per-point computation would change column.
    const bool columnEnds = useSummary && scale > 0 && scale < 0.5;
    int64_t colEnd = std::numeric_limits<int64_t>::min(); // unknown: compute the column per point
    auto endOfColumn = [&](int32_t x, int32_t frame) -> int64_t {
        const double estimate = std::ceil(first + (double(x) + 1 - x0) / scale);
        if (!(std::abs(estimate) < 4e9))
            return std::numeric_limits<int64_t>::min();
        int64_t next = std::max(int64_t(estimate), int64_t(frame) + 1);
        for (int k = 0; k < 4 && next - 1 > frame && columnOf(next - 1) > x; ++k)
            --next;
        for (int k = 0; k < 4 && columnOf(next) <= x; ++k)
            ++next;
        // Still not a boundary after a few steps (rounding far out): per point, as before.
        if (columnOf(next) <= x || (next - 1 > frame && columnOf(next - 1) > x))
            return std::numeric_limits<int64_t>::min();
        return next;
    };
    auto inColumn = [&](int32_t frame) { return colEnd != std::numeric_limits<int64_t>::min() ? frame < colEnd : columnOf(frame) == col->x; };
    for (size_t i = begin; i < end; ++i) {
        // Fast path: at a block boundary, with the point before it in the current column, a
        // clean block that ends in that column too changes only min, max and last. Wide
        // blocks first, so a column of hundreds of points is folded a few blocks at a time.
        if (useSummary && col && previousFinite && i % B == 0) {
            if (i % W == 0 && i + W <= end) {
                const SeriesSummary::Block& block = summary->wideBlocks[i / W];
                if (block.clean && frames[i] == previousFrame + 1 && inColumn(frames[i + W - 1]) && inColumn(frames[i])) {
                    col->min = std::min(col->min, block.min);
                    col->max = std::max(col->max, block.max);
                    col->last = values[i + W - 1];
                    previousFrame = frames[i + W - 1];
                    i += W - 1;
                    continue;
                }
            }
            if (i + B <= end) {
                const SeriesSummary::Block& block = summary->blocks[i / B];
                if (block.clean && frames[i] == previousFrame + 1 && inColumn(frames[i + B - 1]) && inColumn(frames[i])) {
                    col->min = std::min(col->min, block.min);
                    col->max = std::max(col->max, block.max);
                    col->last = values[i + B - 1];
                    previousFrame = frames[i + B - 1];
                    i += B - 1;
                    continue;
                }
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
        if (col && colEnd != std::numeric_limits<int64_t>::min() && f < colEnd) {
            col->last = v;
            col->min = std::min(col->min, v);
            col->max = std::max(col->max, v);
            continue;
        }
        const int32_t x = columnOf(f);
        if (col && col->x == x) {
            col->last = v;
            col->min = std::min(col->min, v);
            col->max = std::max(col->max, v);
            continue;
        }
        out.push_back({x, v, v, v, v, joined});
        col = &out.back();
        colEnd = columnEnds ? endOfColumn(x, f) : std::numeric_limits<int64_t>::min();
    }
}

} // namespace vtx
