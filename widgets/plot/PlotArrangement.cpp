// SPDX-License-Identifier: MIT
#include "plot/PlotArrangement.hpp"

#include <algorithm>

namespace vtxw {

bool sharesAxis(const SeriesExtent& a, const SeriesExtent& b)
{
    if (a.empty() || b.empty())
        return true;
    const double lo = std::min(a.lo, b.lo), hi = std::max(a.hi, b.hi);
    const double span = hi - lo;
    if (span <= 0)
        return true; // both the same constant
    const double need = kShareAxisFraction * span;
    auto fits = [&](const SeriesExtent& s, const SeriesExtent& other) {
        if (s.hi - s.lo >= need)
            return true;
        // A constant (or nearly): readable where it sits as long as it does not stretch the
        // other's axis by more than the fraction.
        const double otherSpan = other.hi - other.lo;
        return otherSpan > 0 && s.hi - s.lo <= 0 && span - otherSpan <= kShareAxisFraction * otherSpan;
    };
    return fits(a, b) && fits(b, a);
}

PlotArrangement arrangeSeries(std::span<const SeriesExtent> series, bool stacked)
{
    PlotArrangement out;
    out.placements.resize(series.size());
    std::vector<std::vector<size_t>> groups;
    std::vector<int> groupOf(series.size(), 0);
    for (size_t i = 0; i < series.size(); ++i) {
        if (series[i].empty())
            continue; // placed with group 0 below, once there is one
        int joined = -1;
        for (size_t g = 0; g < groups.size() && joined < 0; ++g)
            if (std::all_of(groups[g].begin(), groups[g].end(), [&](size_t m) { return sharesAxis(series[i], series[m]); }))
                joined = int(g);
        if (joined < 0) {
            joined = int(groups.size());
            groups.emplace_back();
        }
        groups[size_t(joined)].push_back(i);
        groupOf[i] = joined;
    }
    // Overlaid: two groups to a lane, left and right; a third range on the right axis with
    // the second read as a flat line (z from -5 to 7 beside y down to -300, review item 6),
    // so it opens the next lane.
    const int groupCount = std::max(1, int(groups.size()));
    out.lanes = stacked ? groupCount : (groupCount + 1) / 2;
    for (size_t i = 0; i < series.size(); ++i)
        out.placements[i] = stacked ? AxisSlot{groupOf[i], 0} : AxisSlot{groupOf[i] / 2, groupOf[i] % 2};
    return out;
}

} // namespace vtxw
