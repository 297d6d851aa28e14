// SPDX-License-Identifier: MIT
#pragma once
// Which y axis each plot series is drawn against, so series of very different ranges can be
// compared (issue 26: Health 0–100 lay flat under positions around 1200 on one shared axis).
// Series whose ranges are comparable share an axis; the others get their own. Stacked (the
// default): one lane per group of comparable series, one above the other on the shared x axis
// (PlotJuggler, Foxglove). Not stacked: two groups to a lane, the first on the left axis and
// the second on the right; a third group opens a second lane (sharing the right axis, it read
// as a flat line). No Qt: tested on its own.

#include <span>
#include <vector>

namespace vtxw {

/// A series' values over the whole replay (not the visible part: lanes must not jump while
/// the user pans). `lo > hi` for a series without values yet.
struct SeriesExtent {
    double lo = 0, hi = 0;
    bool empty() const { return !(hi >= lo); }
};

struct AxisSlot {
    int lane = 0; ///< top to bottom
    int axis = 0; ///< 0: the lane's left axis, 1: its right axis
    friend bool operator==(const AxisSlot&, const AxisSlot&) = default;
};

struct PlotArrangement {
    int lanes = 1;
    std::vector<AxisSlot> placements; ///< one per series, in order
};

/// The fraction of an axis' span a series must cover to share that axis: below it the series
/// would be a flat line (a quarter of a lane's height is still readable).
constexpr double kShareAxisFraction = 0.25;

/// Whether `a` and `b` read well on one axis: each covers at least kShareAxisFraction of the
/// range of both together. A constant series (no span) fits any axis whose range already
/// reaches it within that fraction.
bool sharesAxis(const SeriesExtent& a, const SeriesExtent& b);

/// Groups the series by comparable range in order (a series joins the first group it shares
/// an axis with every member of) and places the groups: stacked, one lane each; else two to a
/// lane, even groups left and odd ones right. Series without values join group 0.
PlotArrangement arrangeSeries(std::span<const SeriesExtent> series, bool stacked);

} // namespace vtxw
