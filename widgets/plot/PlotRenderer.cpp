// SPDX-License-Identifier: MIT
#include "plot/PlotRenderer.hpp"

#include "shell/Theme.hpp"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPolygon>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace vtxw {

namespace {
constexpr int kLeft = 64, kTop = 4, kRight = 12, kBottom = 19;
constexpr int kMinLeft = 30; ///< px: the y labels' margin is never narrower (own margins)
constexpr int kLaneGap = 4; ///< px between stacked lanes
constexpr int kMinAligned = 60; ///< px: a narrower aligned data area is not worth it
const QColor kWarning(0xD5, 0x5E, 0x00);

TextWidth widthOf(const QFontMetrics& fm)
{
    return [&fm](std::string_view s) { return double(fm.horizontalAdvance(QString::fromUtf8(s.data(), qsizetype(s.size())))); };
}

/// The y range of `axis` over the visible columns (padded), or the manual one.
void fitAxis(const PlotScene& scene, const PlotLayout& L, PlotYAxis& axis)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i : axis.series)
        for (const vtx::PlotColumn& c : L.columns[i]) {
            if (c.x < L.plot.left() || c.x > L.plot.right())
                continue; // the points beyond the edges only steer the line
            lo = std::min(lo, c.min);
            hi = std::max(hi, c.max);
        }
    if (!scene.fitY) {
        lo = scene.yMin;
        hi = scene.yMax;
    } else if (lo > hi) {
        lo = 0, hi = 1;
    } else {
        const double pad = (hi - lo) * 0.05;
        lo -= pad, hi += pad;
    }
    if (!(hi - lo > 1e-12 * std::max(1.0, std::abs(hi)))) {
        const double half = std::max(0.5, std::abs(hi) * 0.05);
        lo -= half, hi += half;
    }
    axis.lo = lo;
    axis.hi = hi;
}
} // namespace

QRect plotArea(QSize size)
{
    return QRect(QPoint(0, 0), size).adjusted(kLeft, kTop, -kRight, -kBottom);
}

PlotReadout plotReadout(const PlotScene& scene, const PlotLayout& L, int frame, int lines)
{
    const size_t n = scene.series.size();
    std::vector<double> values(n, std::numeric_limits<double>::quiet_NaN());
    std::vector<char> present(n, 0); // a recorded NaN reads "nan", no value at the frame "—"
    for (size_t i = 0; i < n; ++i) {
        const auto& d = scene.series[i].data;
        if (!d)
            continue;
        auto it = std::lower_bound(d->frames.begin(), d->frames.end(), frame);
        if (it != d->frames.end() && *it == frame) {
            values[i] = d->values[size_t(it - d->frames.begin())];
            present[i] = 1;
        }
    }
    PlotReadout out;
    out.series.resize(n);
    std::iota(out.series.begin(), out.series.end(), size_t(0));
    if (n + 1 > size_t(std::max(lines, 0))) {
        // Room for the frame line, `keep` series and the "+N more" line: the series drawn nearest
        // the pointer (those without a value at this frame last), then back in series order.
        const size_t keep = size_t(std::max(lines - 2, 0));
        auto distance = [&](size_t i) {
            if (!std::isfinite(values[i]) || scene.hoverY < 0 || i >= L.placements.size())
                return std::numeric_limits<double>::infinity();
            return std::abs(L.yOf(i, values[i]) - scene.hoverY);
        };
        std::stable_sort(out.series.begin(), out.series.end(), [&](size_t a, size_t b) { return distance(a) < distance(b); });
        out.series.resize(std::min(keep, n));
        std::sort(out.series.begin(), out.series.end());
        out.hidden = int(n - out.series.size());
    }
    out.lines << (scene.frameText ? scene.frameText(frame) : QCoreApplication::translate("PlotRenderer", "frame %1").arg(frame));
    for (size_t i : out.series)
        out.lines << QStringLiteral("%1: %2").arg(scene.series[i].name, present[i] ? QString::number(values[i], 'g', 8) : QStringLiteral("—"));
    if (out.hidden > 0)
        out.lines << QCoreApplication::translate("PlotRenderer", "+%n more (nearest the pointer shown)", nullptr, out.hidden);
    return out;
}

int frameAtPixel(const PlotLayout& layout, double x)
{
    const vtx::ColumnMap& m = layout.map;
    const double f = m.first + (x - m.x0) / std::max(1e-9, m.x1 - m.x0) * (m.last - m.first);
    return int(std::lround(std::clamp(f, m.first, m.last)));
}

SeriesExtent extentOf(const vtx::SeriesData& data, const vtx::SeriesSummary* summary)
{
    SeriesExtent e{INFINITY, -INFINITY};
    auto scan = [&](size_t from, size_t to) {
        for (size_t k = from; k < to; ++k)
            if (const double v = data.values[k]; std::isfinite(v)) {
                e.lo = std::min(e.lo, v);
                e.hi = std::max(e.hi, v);
            }
    };
    const size_t n = data.values.size();
    if (!summary || summary->points != n) {
        scan(0, n);
        return e;
    }
    // The summary's wide blocks: their min and max where every value is finite, else a scan
    // of that block (a series of a million points costs 16k steps).
    constexpr size_t kWide = vtx::SeriesSummary::kWideBlock;
    for (size_t b = 0; b < summary->wideBlocks.size(); ++b) {
        const auto& block = summary->wideBlocks[b];
        if (block.clean) {
            e.lo = std::min(e.lo, block.min);
            e.hi = std::max(e.hi, block.max);
        } else {
            scan(b * kWide, std::min(n, (b + 1) * kWide));
        }
    }
    scan(std::min(n, summary->wideBlocks.size() * kWide), n); // the tail no block covers
    return e;
}

namespace {
PlotArrangement arrangementOf(const PlotScene& scene)
{
    const size_t n = scene.series.size();
    std::vector<SeriesExtent> extents(n);
    for (size_t i = 0; i < n; ++i) {
        extents[i] = scene.series[i].extent;
        if (extents[i].empty() && scene.series[i].data)
            extents[i] = extentOf(*scene.series[i].data, scene.series[i].summary.get());
    }
    return arrangeSeries(extents, scene.stacked);
}
} // namespace

int laneCountOf(const PlotScene& scene)
{
    return arrangementOf(scene).lanes;
}

std::vector<YLabel> yLabels(const PlotLane& lane, const PlotYAxis& axis, int lineHeight)
{
    std::vector<YLabel> out;
    const QRect& lr = lane.rect;
    int lastTop = INT_MAX; // labels go up the axis
    for (const AxisTick& t : axis.ticks.ticks) {
        const int y = int(std::lround(lane.y(axis, t.value)));
        // Inside the lane: the first and last ones may sit on its edge, and are pushed in (in a
        // lane shorter than a line, to its top).
        const int top = std::max(lr.top(), std::min(y - lineHeight / 2, lr.bottom() + 1 - lineHeight));
        if (top + lineHeight + kYLabelGap > lastTop)
            continue;
        lastTop = top;
        out.push_back({&t, top});
    }
    return out;
}

int readableHeightFor(int lanes, const QFont& font)
{
    const int lane = 4 * QFontMetrics(font).height();
    return kTop + kBottom + lanes * lane + std::max(0, lanes - 1) * kLaneGap;
}

void layoutPlot(const PlotScene& scene, PlotLayout& L)
{
    const QFontMetrics fm(scene.font);
    const size_t n = scene.series.size();
    const PlotArrangement arrangement = arrangementOf(scene);
    L.placements = arrangement.placements;
    L.lanes.assign(size_t(arrangement.lanes), {});
    for (size_t i = 0; i < n; ++i) {
        PlotLane& lane = L.lanes[size_t(L.placements[i].lane)];
        while (lane.axes.size() <= size_t(L.placements[i].axis))
            lane.axes.push_back({});
        lane.axes[size_t(L.placements[i].axis)].series.push_back(i);
    }
    for (PlotLane& lane : L.lanes) {
        if (lane.axes.empty())
            lane.axes.push_back({});
        for (size_t a = 0; a < lane.axes.size(); ++a)
            lane.axes[a].right = a > 0;
    }

    // Vertical: lanes share the height between the top margin and the x axis.
    const int top = kTop, bottom = scene.size.height() - kBottom;
    const int lanes = int(L.lanes.size());
    const int laneHeight = std::max(8, (bottom - top - kLaneGap * (lanes - 1)) / std::max(1, lanes));
    const int legendHeight = fm.height() + 2;

    // Horizontal: the timeline's edges when aligned, else a margin as wide as the y labels
    // (found in a second pass when the first one's labels do not fit).
    L.aligned = scene.alignX0 >= 0 && scene.alignX1 - scene.alignX0 >= kMinAligned && scene.alignX1 <= scene.size.width();
    double x0 = L.aligned ? scene.alignX0 : kLeft;
    const double x1 = L.aligned ? scene.alignX1 : std::max(x0 + 10, double(scene.size.width() - kRight));
    L.columns.resize(n);
    double widest = 0;
    for (int pass = 0; pass < 2; ++pass) {
        L.map = {scene.first, std::max(scene.first + 1e-9, scene.last), x0, x1};
        L.plot = QRect(QPoint(int(std::floor(x0)), top), QPoint(int(std::ceil(x1)) - 1, std::max(top, bottom - 1)));
        for (size_t i = 0; i < n; ++i) {
            const auto& d = scene.series[i].data;
            if (d)
                vtx::decimate(d->frames, d->values, L.map, L.columns[i], scene.series[i].summary.get());
            else
                L.columns[i].clear();
        }
        widest = 0;
        for (int l = 0; l < lanes; ++l) {
            PlotLane& lane = L.lanes[size_t(l)];
            const int laneTop = top + l * (laneHeight + kLaneGap);
            const int height = l + 1 == lanes ? bottom - laneTop : laneHeight;
            // A legend line when there are lanes or axes to tell apart, if the lane keeps four
            // lines for its data under it (a scale of several values); a shorter lane has its
            // legend see-through over the data's top instead.
            const bool legend = (lanes > 1 || lane.axes.size() > 1) && height - legendHeight >= 4 * fm.height();
            lane.legendTop = legend ? laneTop : -1;
            lane.rect = QRect(L.plot.left(), laneTop + (legend ? legendHeight : 0), L.plot.width(), height - (legend ? legendHeight : 0));
            for (PlotYAxis& axis : lane.axes) {
                fitAxis(scene, L, axis);
                // Vertical spacing: a label's "width" along the axis is the line height.
                const auto lineHeight = [&fm](std::string_view) { return double(fm.height()); };
                axis.ticks = axisTicks(AxisUnit::Number, axis.lo, axis.hi, lane.rect.height(), lineHeight, 6);
                // A label on the lane's edge is pushed inside it by up to half a line, towards
                // its neighbour ("1.0" a pixel from "0.8" at the top of a 100 px lane; review 4,
                // item 15): where that would leave one out, a step that keeps the pushed labels
                // apart, so they stay evenly spaced.
                // Two ticks on both edges are both pushed: a line's gap then.
                for (const double gap : {6.0 + fm.height() / 2.0, 6.0 + fm.height()}) {
                    if (yLabels(lane, axis, fm.height()).size() == axis.ticks.ticks.size())
                        break;
                    AxisTickSet apart = axisTicks(AxisUnit::Number, axis.lo, axis.hi, lane.rect.height(), lineHeight, gap);
                    if (apart.ticks.size() < 2)
                        break;
                    axis.ticks = std::move(apart);
                }
                // One label says no scale (a 49 px lane's "7.5e16"): labels a line apart, no gap,
                // when that gives two.
                if (axis.ticks.ticks.size() == 1)
                    if (AxisTickSet closer = axisTicks(AxisUnit::Number, axis.lo, axis.hi, lane.rect.height(), lineHeight, 0);
                        closer.ticks.size() >= 2)
                        axis.ticks = std::move(closer);
                if (!axis.right)
                    for (const AxisTick& t : axis.ticks.ticks)
                        widest = std::max(widest, widthOf(fm)(t.label));
            }
        }
        const double need = std::max<double>(kMinLeft, std::ceil(widest) + 10);
        if (L.aligned || need == x0)
            break;
        x0 = need;
    }
    L.yLabelsInside = L.aligned && widest + 8 > x0;
    L.yMin = L.lanes.front().axes.front().lo;
    L.yMax = L.lanes.front().axes.front().hi;

    L.xTicks.clear();
    const double pixels = L.map.x1 - L.map.x0;
    if (scene.xTicks) {
        L.xTicks = scene.xTicks(L.map.first, L.map.last, pixels, scene.font);
    } else {
        for (const AxisTick& t : axisTicks(AxisUnit::Frame, L.map.first, L.map.last, pixels, widthOf(fm), 16).ticks)
            L.xTicks.push_back({t.value, QString::fromStdString(t.label)});
    }
}

QColor seriesColourOn(const QColor& colour, const QColor& base)
{
    const bool dark = base.lightness() < 128;
    QColor c = colour;
    for (int step = 0; step < 12 && contrastRatio(c, base) < 3.0; ++step)
        c = dark ? c.lighter(118) : c.darker(118);
    return c;
}

QString emptyHintFitting(const QFontMetrics& fm, const QRect& plot, const QString& hint)
{
    // drawText clips to the rectangle: in a 21 px plot (1024 × 700) the second line showed cut
    // in half over the axis. Whole lines only: the first one alone, elided, when both do not fit.
    const int flags = Qt::AlignCenter | Qt::TextWordWrap;
    if (fm.boundingRect(plot, flags, hint).height() <= plot.height())
        return hint;
    if (fm.height() > plot.height())
        return {};
    return fm.elidedText(hint.section(QLatin1Char('\n'), 0, 0), Qt::ElideRight, plot.width());
}

void paintPlot(QPainter& p, const PlotScene& scene, const PlotLayout& L)
{
    const QPalette& pal = scene.palette;
    const QRect r = L.plot;
    p.setFont(scene.font);
    p.fillRect(QRect(QPoint(0, 0), scene.size), pal.base());
    const QColor text = pal.color(QPalette::Text), dim = pal.color(QPalette::PlaceholderText);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(70);
    QColor backing = pal.color(QPalette::Base);
    backing.setAlpha(200);
    const QFontMetrics fm = p.fontMetrics();
    if (!scene.hasFrames) {
        p.setPen(dim);
        p.drawText(QRect(QPoint(0, 0), scene.size), Qt::AlignCenter | Qt::TextWordWrap, scene.noFramesText);
        return;
    }
    // Each series' colour as drawn on this base, worked out once for the curves, the axes, the
    // lane legends and the hover box.
    std::vector<QColor> drawn;
    drawn.reserve(scene.series.size());
    for (const auto& s : scene.series)
        drawn.push_back(seriesColourOn(s.colour, pal.color(QPalette::Base)));

    // Frames no series could read: hatched, so a hole is never mistaken for a flat line.
    for (const vtx::FrameSpan& s : scene.failed) {
        if (s.last < L.map.first - 1 || s.first > L.map.last + 1)
            continue;
        const double x0 = std::max<double>(r.left(), L.map.x(s.first - 0.5)), x1 = std::min<double>(r.right() + 1, L.map.x(s.last + 0.5));
        const QRectF hole(x0, r.top(), std::max(1.0, x1 - x0), r.height());
        p.fillRect(hole, QColor(0xD5, 0x5E, 0x00, 40));
        p.fillRect(hole, QBrush(QColor(0xD5, 0x5E, 0x00, 140), Qt::BDiagPattern));
        if (hole.width() > fm.horizontalAdvance(QStringLiteral("unreadable")) + 6) {
            p.setPen(kWarning);
            p.drawText(hole.adjusted(3, 2, -3, -2), Qt::AlignTop | Qt::AlignHCenter, QCoreApplication::translate("PlotRenderer", "unreadable"));
        }
    }

    // Lanes: grid, frame and y labels per axis. With two axes in a lane each axis' labels take
    // the colour of its first series, so it is clear which curve reads against which.
    const int lh = fm.height();
    for (const PlotLane& lane : L.lanes) {
        const QRect lr = lane.rect;
        for (const PlotXTick& t : L.xTicks) {
            const int x = int(std::lround(L.map.x(t.frame)));
            p.setPen(grid);
            p.drawLine(x, lr.top(), x, lr.bottom());
        }
        for (const PlotYAxis& axis : lane.axes) {
            const bool coloured = lane.axes.size() > 1 && !axis.series.empty();
            const QColor labelColour = coloured ? drawn[axis.series.front()] : text;
            if (!axis.right)
                for (const AxisTick& t : axis.ticks.ticks) {
                    const int y = int(std::lround(lane.y(axis, t.value)));
                    p.setPen(grid);
                    p.drawLine(lr.left(), y, lr.right(), y);
                }
            for (const YLabel& placed : yLabels(lane, axis, lh)) {
                const QString label = QString::fromStdString(placed.tick->label);
                const int w = fm.horizontalAdvance(label);
                const int ty = placed.top;
                QRect box;
                if (axis.right)
                    box = QRect(lr.right() - 3 - w, ty, w, lh);
                else if (L.yLabelsInside)
                    box = QRect(lr.left() + 3, ty, w, lh);
                else
                    box = QRect(lr.left() - 6 - w, ty, w, lh);
                if (axis.right || L.yLabelsInside)
                    p.fillRect(box.adjusted(-2, 0, 2, 0), backing);
                p.setPen(labelColour);
                p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, label);
            }
        }
        p.setPen(pal.color(QPalette::Mid));
        p.drawRect(lr.adjusted(0, 0, -1, -1));
    }

    // X axis under the last lane: round values of the unit, each label just right of its tick
    // as on the timeline's ruler (so the two read alike when lined up), kept inside the widget;
    // none overlaps the one before.
    int labelEnd = INT_MIN, firstLabel = INT_MAX;
    for (const PlotXTick& t : L.xTicks) {
        const int x = int(std::lround(L.map.x(t.frame)));
        p.setPen(text);
        p.drawLine(x, r.bottom() + 1, x, r.bottom() + 6);
        const int w = fm.horizontalAdvance(t.label);
        const int left = std::min(x + 3, scene.size.width() - w - 1);
        if (left < labelEnd + 8)
            continue;
        p.drawText(QRect(left, r.bottom() + 3, w + 1, kBottom - 3), Qt::AlignLeft | Qt::AlignTop, t.label);
        labelEnd = left + w;
        firstLabel = std::min(firstLabel, left);
    }
    const int unitRight = std::min(r.left() - 4, firstLabel - 8);
    if (!scene.xUnit.isEmpty() && unitRight > 12) {
        // The x axis' unit in the corner under the y labels; orange when the file has no times
        // of the chosen unit (the panel's status line says so in words).
        const QString& unit = scene.xUnit;
        p.setPen(scene.xNote.isEmpty() ? dim : kWarning);
        p.drawText(QRect(2, r.bottom() + 3, unitRight - 2, kBottom - 3), Qt::AlignRight | Qt::AlignTop,
                   fm.elidedText(unit, Qt::ElideRight, unitRight - 2));
    }

    if (scene.series.empty()) {
        if (const QString hint = emptyHintFitting(fm, r, scene.emptyText); !hint.isEmpty()) {
            p.setPen(dim);
            p.drawText(r, Qt::AlignCenter | Qt::TextWordWrap, hint);
        }
    }

    // The curves: per column first → min → max → last, one polyline per joined run, each in
    // its lane against its axis.
    // Integer points: the columns are whole pixels and the pen is not antialiased, so nothing is
    // lost, and the raster engine's integer polyline path skips the float → fixed conversion.
    QPolygon run;
    run.reserve(4 * qsizetype(std::max(1, r.width())));
    for (size_t i = 0; i < scene.series.size(); ++i) {
        const PlotLane& lane = L.laneOf(i);
        const PlotYAxis& axis = L.axisOf(i);
        p.save();
        p.setClipRect(lane.rect);
        // A cosmetic 1 px pen: the raster engine strokes it on its fast path (a wider pen goes
        // through the general stroker: 133 → 17 ms for 10 × 1600 columns in a dev build).
        QPen pen(drawn[i], 1);
        pen.setCosmetic(true);
        p.setPen(pen);
        auto flush = [&] {
            if (run.size() == 1)
                p.drawPoint(run.front());
            else if (run.size() > 1)
                p.drawPolyline(run);
            run.clear();
        };
        auto y = [&](double v) { return int(std::lround(std::clamp(lane.y(axis, v), -1e6, 1e6))); };
        for (const vtx::PlotColumn& c : L.columns[i]) {
            if (!c.joined)
                flush();
            const int x = c.x;
            // Points that land on the previous one's pixel add nothing to the stroke.
            auto add = [&](const QPoint& q) {
                if (run.isEmpty() || run.constLast() != q)
                    run.append(q);
            };
            if (!c.joined || run.isEmpty())
                run.append(QPoint(x, y(c.first))); // a run's first point, even when alone
            else
                add(QPoint(x, y(c.first)));
            if (c.min != c.max) {
                // Any order draws the same vertical stroke; keep the path monotone in time.
                add(QPoint(x, y(c.first <= c.last ? c.min : c.max)));
                add(QPoint(x, y(c.first <= c.last ? c.max : c.min)));
                add(QPoint(x, y(c.last)));
            }
        }
        flush();
        // Points not as recorded (their stored hash disagrees): a tick under the curve.
        const auto& dmg = scene.series[i].data ? scene.series[i].data->damagedFrames : std::vector<int32_t>{};
        if (!dmg.empty()) {
            p.setPen(QPen(kWarning, 2));
            int lastX = INT_MIN;
            for (auto it = std::lower_bound(dmg.begin(), dmg.end(), int32_t(std::floor(L.map.first))); it != dmg.end() && *it <= L.map.last; ++it) {
                const int x = int(L.map.x(*it));
                if (x == lastX)
                    continue;
                lastX = x;
                p.drawLine(x, lane.rect.bottom() - 6, x, lane.rect.bottom());
            }
        }
        p.restore();
    }

    // Lane legends: which series a lane (and each of its axes) holds, on the line above its
    // data (PlotLane::legendTop).
    {
        QColor see = backing; // see-through, for a legend of a lane too short for its own line
        see.setAlpha(150);
        for (const PlotLane& lane : L.lanes) {
            if (lane.legendTop < 0 && L.lanes.size() == 1 && lane.axes.size() == 1)
                continue; // one series group: the series list above names it
            int x = lane.rect.left() + (L.yLabelsInside ? 60 : 4);
            const int y = lane.legendTop >= 0 ? lane.legendTop + 1 : lane.rect.top() + 2;
            for (const PlotYAxis& axis : lane.axes)
                for (size_t i : axis.series) {
                    const int room = lane.rect.right() - 4 - x - 14;
                    if (room < 30)
                        break;
                    QString name = scene.series[i].name + (axis.right ? QStringLiteral(" ▸") : QString());
                    name = fm.elidedText(name, Qt::ElideMiddle, std::min(room, 260));
                    const int w = fm.horizontalAdvance(name);
                    if (lane.legendTop < 0)
                        p.fillRect(QRect(x - 2, y, w + 18, lh), see);
                    p.fillRect(QRect(x, y + lh / 2 - 4, 9, 9), drawn[i]);
                    p.setPen(text);
                    p.drawText(QRect(x + 13, y, w + 2, lh), Qt::AlignLeft | Qt::AlignVCenter, name);
                    x += w + 26;
                }
        }
    }

    if (scene.playhead >= L.map.first && scene.playhead <= L.map.last) {
        const int x = int(L.map.x(scene.playhead));
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.drawLine(x, r.top(), x, r.bottom());
    }

    // Hover: a cross line and every shown series' value at that frame.
    if (scene.hoverX >= r.left() && scene.hoverX <= r.right() && !scene.series.empty()) {
        const int f = frameAtPixel(L, scene.hoverX);
        const int x = int(L.map.x(f));
        p.setPen(QPen(dim, 1, Qt::DashLine));
        p.drawLine(x, r.top(), x, r.bottom());
        const PlotReadout readout = plotReadout(scene, L, f, std::max(2, (r.height() - 10) / lh));
        const QStringList& lines = readout.lines;
        int w = 0;
        for (const QString& l : lines)
            w = std::max(w, fm.horizontalAdvance(l));
        QRect box(0, r.top() + 4, w + 24, lh * int(lines.size()) + 6);
        box.moveLeft(x + 10 + box.width() < r.right() ? x + 10 : x - 10 - box.width());
        QColor bg = pal.color(QPalette::ToolTipBase);
        bg.setAlpha(230);
        p.fillRect(box, bg);
        p.setPen(pal.color(QPalette::Mid));
        p.drawRect(box.adjusted(0, 0, -1, -1));
        for (int i = 0; i < lines.size(); ++i) {
            const QRect line(box.left() + 18, box.top() + 3 + i * lh, w, lh);
            if (i > 0 && size_t(i - 1) < readout.series.size())
                p.fillRect(QRect(box.left() + 5, line.top() + lh / 2 - 4, 9, 9), drawn[readout.series[size_t(i - 1)]]);
            p.setPen(pal.color(QPalette::ToolTipText));
            p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
        }
    }
}

} // namespace vtxw
