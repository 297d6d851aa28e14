// SPDX-License-Identifier: MIT
#pragma once
// What the plot dock paints, apart from the widget (like MapRenderer): a scene (series, x range,
// y mode, failed spans, playhead, hover) → a layout computed when the range, the size or the
// data change (lanes and y axes, decimated columns, ticks) → the painting, which visits only
// the columns. The bench paints the same scene offscreen.
//
// Series of different ranges get their own y axis (PlotArrangement): stacked lanes on one x
// axis, or one lane with a second axis at the right. When the plot is linked to the timeline
// the data area's left and right edges are the timeline's (alignX0/alignX1), so a frame sits
// at the same screen x in both.

#include "plot/PlotArrangement.hpp"
#include "timeline/AxisTicks.hpp"
#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/plot/Decimate.hpp"
#include "vtx/plot/SeriesScan.hpp"

#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QPalette>
#include <QRect>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

class QPainter;

namespace vtxw {

struct PlotSeriesView {
    QString name;
    QColor colour;
    std::shared_ptr<const vtx::SeriesData> data;
    std::shared_ptr<const vtx::SeriesSummary> summary; ///< of `data`: speeds decimation up (optional)
    /// Its values over the whole replay (which axis it shares); from `data` when left empty.
    SeriesExtent extent{1, 0};
};

/// A tick of the x axis: where (a fractional frame) and what it says.
struct PlotXTick {
    double frame = 0;
    QString label;
};

struct PlotScene {
    QSize size{600, 200};
    double first = 0, last = 1; ///< visible frames
    bool fitY = true; ///< y range from the visible data; else [yMin, yMax] on every axis
    double yMin = 0, yMax = 1;
    bool stacked = true; ///< one lane per group of comparable series; else one lane, two axes
    std::vector<PlotSeriesView> series; ///< the shown ones, drawn in order
    std::vector<vtx::FrameSpan> failed; ///< frames no series could read: hatched
    int playhead = -1;
    int hoverX = -1; ///< pixel; -1: no readout
    int hoverY = -1; ///< pixel: with more series than the readout has lines, the nearest ones show
    /// The data area's left and right pixel edges (the timeline's, when linked); -1: the
    /// plot's own margins.
    double alignX0 = -1, alignX1 = -1;
    /// The x axis' ticks for frames [first, last] over `pixels` (frame numbers, game time or
    /// UTC at round values); frame numbers when unset.
    std::function<std::vector<PlotXTick>(double first, double last, double pixels, const QFont& font)> xTicks;
    /// The x axis' unit, under the y labels ("frame", "game", "UTC"); `xNote` says why it reads
    /// in frames although another unit was chosen.
    QString xUnit, xNote;
    /// The hover readout's frame line ("frame 120 · 2.000 s").
    std::function<QString(int frame)> frameText;
    QString emptyText;
    /// False with no replay open, or one without frames (a recording cut before its first
    /// chunk): no axes (a 0–20 or 0–1 frame axis measured nothing), only `noFramesText` in the
    /// middle.
    bool hasFrames = true;
    QString noFramesText;
    QPalette palette;
    QFont font;
};

/// One y axis of a lane: its range, ticks and the series drawn against it.
struct PlotYAxis {
    double lo = 0, hi = 1;
    AxisTickSet ticks;
    std::vector<size_t> series; ///< scene indices
    bool right = false; ///< labels at the lane's right edge
};

struct PlotLane {
    QRect rect; ///< this lane's part of the data area
    /// Top of the lane's legend line, above `rect` (the series names, and ▸ for the right
    /// axis, when there is more than one lane or axis to tell apart); -1 without one. Drawn
    /// inside the data it hid the curves' tops (a Health line at 100) under the names.
    int legendTop = -1;
    std::vector<PlotYAxis> axes; ///< one, or two when not stacked and ranges differ
    double y(const PlotYAxis& a, double v) const { return rect.bottom() + 1 - (v - a.lo) / std::max(1e-300, a.hi - a.lo) * rect.height(); }
};

struct PlotLayout {
    QRect plot; ///< the whole data area (every lane) inside the axes
    vtx::ColumnMap map;
    std::vector<std::vector<vtx::PlotColumn>> columns; ///< per scene series
    std::vector<PlotLane> lanes;
    std::vector<AxisSlot> placements; ///< per scene series: its lane and axis
    std::vector<PlotXTick> xTicks;
    bool aligned = false; ///< the data area's edges are the scene's alignX0 / alignX1
    bool yLabelsInside = false; ///< the left margin is too narrow: labels drawn over the data
    double yMin = 0, yMax = 1; ///< the first lane's left axis (the one manual y sets)
    double y(double v) const { return plot.bottom() + 1 - (v - yMin) / std::max(1e-300, yMax - yMin) * plot.height(); }
    const PlotLane& laneOf(size_t series) const { return lanes[size_t(placements[series].lane)]; }
    const PlotYAxis& axisOf(size_t series) const { return laneOf(series).axes[size_t(placements[series].axis)]; }
    /// The pixel y of `value` of scene series `series`.
    double yOf(size_t series, double value) const { return laneOf(series).y(axisOf(series), value); }
};

/// The data area for a widget of `size` with the default margins.
QRect plotArea(QSize size);
/// Pixels kept between two y labels of an axis.
constexpr int kYLabelGap = 2;
/// A y label as drawn: its tick and the top of its line.
struct YLabel {
    const AxisTick* tick;
    int top;
};
/// The labels of `axis` that are drawn, bottom up: each on its tick, pushed inside the lane at
/// its edges, and left out where it would come within kYLabelGap of the one below.
std::vector<YLabel> yLabels(const PlotLane& lane, const PlotYAxis& axis, int lineHeight);
/// Arranges the lanes, decimates every series to the pixel columns and settles the y ranges
/// and ticks.
void layoutPlot(const PlotScene& scene, PlotLayout& layout);
/// The lanes the scene's series take (PlotArrangement), without laying anything out.
int laneCountOf(const PlotScene& scene);
/// The widget height at which each of `lanes` stacked lanes reads: three y labels and the
/// lane's legend line each (`font`'s height four times), the gaps, the top margin and the x axis.
int readableHeightFor(int lanes, const QFont& font);
void paintPlot(QPainter& p, const PlotScene& scene, const PlotLayout& layout);
/// What of the empty plot's `hint` shows in a data area `plot`: all of it, its first line
/// (elided) when the whole does not fit, nothing when not even a line does.
QString emptyHintFitting(const QFontMetrics& fm, const QRect& plot, const QString& hint);
/// A series' colour as drawn on `base`: lightened on a dark base, darkened on a light one, in
/// steps until its contrast reaches 3:1 (WCAG for graphics), so no curve fades into the
/// background (the first series' blue on the dark theme's base read at 2.4:1). The model keeps
/// the colour it gave; the legend's swatch and the curve show this one.
QColor seriesColourOn(const QColor& colour, const QColor& base);
/// The hover readout at `frame`: a line per series with its value there, or, when more series
/// are shown than `lines` (the frame line included) fit, the ones drawn nearest the pointer's
/// `scene.hoverY` (in series order) and a last line saying how many more there are. With 18
/// series the box ran off the plot's bottom mid-line and nothing said 10 were missing.
struct PlotReadout {
    QStringList lines; ///< the frame line first, then one per series in `series`, then "+N more"
    std::vector<size_t> series; ///< the scene series given a line, in order
    int hidden = 0; ///< series without a line
};
PlotReadout plotReadout(const PlotScene& scene, const PlotLayout& layout, int frame, int lines);
/// The frame under pixel x of the layout, clamped to the visible range.
int frameAtPixel(const PlotLayout& layout, double x);
/// The range of a series' values (non-finite ones skipped); lo > hi when it has none. With the
/// series' summary, most values are not visited.
SeriesExtent extentOf(const vtx::SeriesData& data, const vtx::SeriesSummary* summary = nullptr);

} // namespace vtxw
