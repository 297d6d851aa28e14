// SPDX-License-Identifier: MIT
#pragma once
// What the plot dock paints, apart from the widget (like MapRenderer): a scene (series, x range,
// y mode, failed spans, playhead, hover) → a layout computed when the range, the size or the
// data change (decimated columns, y range) → the painting, which visits only the columns. The
// bench paints the same scene offscreen.

#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/plot/Decimate.hpp"
#include "vtx/plot/SeriesScan.hpp"

#include <QColor>
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
};

struct PlotScene {
    QSize size{600, 200};
    double first = 0, last = 1; ///< visible frames
    bool fitY = true; ///< y range from the visible data; else [yMin, yMax]
    double yMin = 0, yMax = 1;
    std::vector<PlotSeriesView> series; ///< the shown ones, drawn in order
    std::vector<vtx::FrameSpan> failed; ///< frames no series could read: hatched
    int playhead = -1;
    int hoverX = -1; ///< pixel; -1: no readout
    /// Axis label of `frame` when labels are `stepFrames` apart (frame / game time / UTC).
    std::function<QString(int frame, double stepFrames)> xLabel;
    /// The hover readout's frame line ("frame 120 · 2.000 s").
    std::function<QString(int frame)> frameText;
    QString emptyText;
    QPalette palette;
};

struct PlotLayout {
    QRect plot; ///< the data area inside the axes
    vtx::ColumnMap map;
    std::vector<std::vector<vtx::PlotColumn>> columns; ///< per scene series
    double yMin = 0, yMax = 1;
    double y(double v) const { return plot.bottom() + 1 - (v - yMin) / std::max(1e-300, yMax - yMin) * plot.height(); }
};

/// The data area for a widget of `size`.
QRect plotArea(QSize size);
/// Decimates every series to the pixel columns and settles the y range.
void layoutPlot(const PlotScene& scene, PlotLayout& layout);
void paintPlot(QPainter& p, const PlotScene& scene, const PlotLayout& layout);
/// A "nice" step (1-2-5 × 10^k) of at least `raw`.
double niceStep(double raw);
/// The frame under pixel x of the layout, clamped to the visible range.
int frameAtPixel(const PlotLayout& layout, double x);

} // namespace vtxw
