// SPDX-License-Identifier: MIT
#include "plot/PlotPanel.hpp"
#include "common/CsvFile.hpp"
#include "common/Prompts.hpp"
#include "session/JobProgress.hpp"
#include "vtx/plot/ExpressionSeries.hpp"

#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "timeline/TimeFormat.hpp"
#include "timeline/TimelineScrubber.hpp"
#include "vtx/analysis/Analyses.hpp"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cmath>
#include <sstream>

namespace vtxw {

namespace {
constexpr int kDragThreshold = 4; ///< px: below this a press-release is a click (seek)
constexpr double kMinSpan = 20; ///< frames: the timeline's smallest zoom, so linking never fights
constexpr int kLegendRows = 2; ///< the legend row grows to this many lines, then scrolls

/// The legend as a row above the plot (series flow left to right and wrap): beside the plot it
/// would take the width the x axis needs to line up with the timeline's.
class LegendRow : public QListView {
public:
    explicit LegendRow(QWidget* parent) : QListView(parent)
    {
        setFlow(QListView::LeftToRight);
        setWrapping(true);
        setResizeMode(QListView::Adjust);
        setSpacing(1);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setFrameShape(QFrame::NoFrame);
        setIconSize(QSize(10, 10)); // the series' colour: a swatch, not a tile
    }
    QSize sizeHint() const override
    {
        // As many lines as the series need (where the last one lands), at most kLegendRows.
        const int line = std::max(iconSize().height(), fontMetrics().height()) + 2 * spacing() + 2;
        int rows = 1;
        if (model() && model()->rowCount() > 0) {
            const QRect last = rectForIndex(model()->index(model()->rowCount() - 1, 0));
            rows = std::clamp(last.bottom() / std::max(1, line) + 1, 1, kLegendRows);
        }
        return {200, rows * line + 2 * frameWidth()};
    }
    QSize minimumSizeHint() const override { return {60, fontMetrics().height() + 4}; }

protected:
    void updateGeometries() override
    {
        QListView::updateGeometries();
        updateGeometry(); // the rows the series need now
    }
};
} // namespace

PlotCanvas::PlotCanvas(ReplaySession* session, PlotSeriesModel* model, QWidget* parent) : QWidget(parent), m_session(session), m_model(model)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus);
    m_scene.emptyText = tr("Right-click a numeric property in the inspector, or a watch, and choose Plot.\n"
                           "Wheel: zoom · drag: pan · double-click: whole replay · Shift+wheel: zoom y · click: seek");
    auto openState = [this] {
        m_scene.hasFrames = m_session->isOpen() && m_session->frameCount() > 0;
        m_scene.noFramesText = m_session->isOpen() ? tr("This replay has no frames to plot.") : tr("No replay open.");
        update();
    };
    openState();
    connect(session, &ReplaySession::opened, this, openState);
    connect(session, &ReplaySession::closed, this, openState);
    connect(session, &ReplaySession::rereadFromDisk, this, openState); // a followed recording's first chunk
    auto restale = [this] {
        rebuildSeries();
        update();
    };
    connect(model, &QAbstractItemModel::dataChanged, this, restale);
    connect(model, &QAbstractItemModel::rowsInserted, this, restale);
    connect(model, &QAbstractItemModel::rowsRemoved, this, restale);
    connect(model, &QAbstractItemModel::modelReset, this, restale);
    connect(session->viewState(), &ViewState::requestedFrameChanged, this, [this](int f) {
        m_scene.playhead = f;
        update();
    });
    // The x axis reads like the timeline's ruler: round values of the time unit (FrameClock),
    // frame numbers with a note when the file has no such times.
    m_scene.xTicks = [this](double first, double last, double pixels, const QFont& font) {
        const QFontMetrics fm(font);
        std::vector<PlotXTick> out;
        for (const FrameClock::Tick& t : m_clock.ticks(first, last, pixels, [&fm](std::string_view s) {
                 return double(fm.horizontalAdvance(QString::fromUtf8(s.data(), qsizetype(s.size()))));
             }))
            out.push_back({t.frame, t.label});
        return out;
    };
    m_scene.frameText = [this](int frame) {
        const auto& file = m_session->file();
        QString t = tr("frame %1").arg(frame);
        if (file && m_unit != TimeUnit::Frame)
            t += QStringLiteral(" · %1").arg(rulerLabel(*file, frame, m_unit, 0.001));
        return t;
    };
}

void PlotCanvas::rebuildSeries()
{
    m_scene.series.clear();
    for (const PlotSeriesEntry& e : m_model->entries())
        if (e.visible && e.data)
            m_scene.series.push_back({e.shownName, e.colour, e.data, e.summary, extentOf(*e.data, e.summary.get())});
    m_stale = true;
    // A new lane squeezes the others (six series in a 140 px dock were 24 px lanes with one
    // label each): ask for room, once per lane added, so a dock the user shrank stays so. An
    // empty plot has no lane to read: the first series asks too (counted as a lane while none
    // was computed, the first plot at 1024 × 700 stayed an 18 px strip).
    const int lanes = m_scene.series.empty() ? 0 : m_scene.stacked ? laneCountOf(m_scene) : 1;
    if (lanes > m_lanes) {
        const int extra = readableHeightFor(lanes, font()) - height();
        if (extra > 0)
            emit heightWanted(extra);
    }
    m_lanes = lanes;
}

const PlotLayout& PlotCanvas::layout()
{
    // Asked at every layout: the timeline may have moved or resized without this widget
    // resizing (a dock dragged, the window's other column resized).
    const auto [x0, x1] = m_alignTo ? m_alignTo() : std::pair<double, double>(-1, -1);
    if (x0 != m_scene.alignX0 || x1 != m_scene.alignX1) {
        m_scene.alignX0 = x0;
        m_scene.alignX1 = x1;
        m_stale = true;
    }
    m_clock.set(m_session->file(), m_unit);
    const QString note = m_clock.note();
    if (note != m_scene.xNote) {
        m_scene.xNote = note;
        m_stale = true;
    }
    if (m_stale || m_scene.size != size() || m_scene.font != font()) {
        m_scene.size = size();
        m_scene.font = font();
        switch (m_clock.shownUnit()) {
        case TimeUnit::GameTime: m_scene.xUnit = tr("game"); break;
        case TimeUnit::Utc: m_scene.xUnit = tr("UTC"); break;
        case TimeUnit::Frame: m_scene.xUnit = tr("frame"); break;
        }
        layoutPlot(m_scene, m_layout);
        m_stale = false;
    }
    return m_layout;
}

QString PlotCanvas::xNote()
{
    layout();
    return m_scene.xNote;
}

void PlotCanvas::setStacked(bool stacked)
{
    if (stacked == m_scene.stacked)
        return;
    m_scene.stacked = stacked;
    rebuildSeries(); // stacked again: its lanes may want room
    update();
}

void PlotCanvas::setAlignment(std::function<std::pair<double, double>()> edges)
{
    m_alignTo = std::move(edges);
    m_stale = true;
    update();
}

void PlotCanvas::setXRange(double first, double last)
{
    const double end = std::max(1.0, double(m_frameCount - 1));
    const double span = std::clamp(last - first, std::min(kMinSpan, end), end);
    first = std::clamp(first, 0.0, end - span);
    if (first == m_scene.first && first + span == m_scene.last)
        return;
    m_scene.first = first;
    m_scene.last = first + span;
    m_stale = true;
    update();
}

void PlotCanvas::userRange(double first, double last)
{
    setXRange(first, last);
    emit xRangeChanged(m_scene.first, m_scene.last);
}

void PlotCanvas::setFrameCount(int frames)
{
    m_frameCount = std::max(1, frames);
    m_scene.first = 0;
    m_scene.last = std::max(1.0, double(m_frameCount - 1));
    m_stale = true;
    update();
}

void PlotCanvas::setFailed(std::vector<vtx::FrameSpan> failed)
{
    m_scene.failed = std::move(failed);
    update();
}

void PlotCanvas::setFitY(bool fit)
{
    if (!fit) { // keep what is on screen as the manual range
        m_scene.yMin = layout().yMin;
        m_scene.yMax = layout().yMax;
    }
    m_scene.fitY = fit;
    m_stale = true;
    update();
}

void PlotCanvas::setYRange(double lo, double hi)
{
    if (!(hi > lo))
        return;
    m_scene.yMin = lo;
    m_scene.yMax = hi;
    m_stale = true;
    update();
}

void PlotCanvas::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    m_stale = true;
    update();
}

void PlotCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    m_scene.palette = palette();
    paintPlot(p, m_scene, layout());
}

void PlotCanvas::resizeEvent(QResizeEvent*)
{
    m_stale = true;
}

void PlotCanvas::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    m_pressed = true;
    m_dragging = false;
    m_pressPos = e->position().toPoint();
    m_pressFirst = m_scene.first;
    m_pressLast = m_scene.last;
}

void PlotCanvas::mouseMoveEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    m_scene.hoverX = pos.x();
    m_scene.hoverY = pos.y();
    if (m_pressed && (e->buttons() & Qt::LeftButton)) {
        if (!m_dragging && (pos - m_pressPos).manhattanLength() >= kDragThreshold)
            m_dragging = true;
        if (m_dragging) {
            const double framesPerPx = (m_pressLast - m_pressFirst) / std::max(1, layout().plot.width());
            const double shift = -(pos.x() - m_pressPos.x()) * framesPerPx;
            userRange(m_pressFirst + shift, m_pressLast + shift);
        }
    }
    update();
}

void PlotCanvas::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    if (!m_dragging && m_session->isOpen() && layout().plot.contains(e->position().toPoint()))
        emit seekRequested(frameAtX(e->position().toPoint().x()));
    m_dragging = false;
}

void PlotCanvas::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton)
        userRange(0, double(m_frameCount - 1));
}

void PlotCanvas::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    const double factor = std::pow(1.25, steps);
    const PlotLayout& L = layout();
    if (e->modifiers() & Qt::ShiftModifier) {
        const double anchor = L.yMin + (L.plot.bottom() + 1 - e->position().y()) / std::max(1, L.plot.height()) * (L.yMax - L.yMin);
        const double lo = anchor - (anchor - L.yMin) / factor, hi = anchor + (L.yMax - anchor) / factor;
        m_scene.fitY = false;
        setYRange(lo, hi);
        emit yRangeChanged(lo, hi);
    } else {
        const double anchor = L.map.first + (e->position().x() - L.map.x0) / std::max(1e-9, L.map.x1 - L.map.x0) * (L.map.last - L.map.first);
        const double span = (m_scene.last - m_scene.first) / factor;
        const double t = (anchor - m_scene.first) / std::max(1e-9, m_scene.last - m_scene.first);
        userRange(anchor - t * span, anchor - t * span + span);
    }
    e->accept();
}

void PlotCanvas::leaveEvent(QEvent*)
{
    m_scene.hoverX = -1;
    m_scene.hoverY = -1;
    update();
}

PlotPanel::PlotPanel(ReplaySession* session, ViewState* view, QWidget* parent)
    : QWidget(parent), m_session(session), m_view(view), m_model(new PlotSeriesModel(this))
{
    auto* layout = new QVBoxLayout(this);
    // Small margins and one toolbar row (the status line sits in it): the window must fit
    // 800 × 600 with every dock open.
    layout->setContentsMargins(2, 1, 2, 1);
    layout->setSpacing(1);
    auto* top = new QHBoxLayout;
    m_link = new QCheckBox(tr("Link to timeline"), this);
    m_link->setToolTip(tr("The plot shows the timeline's visible range; zooming or panning either moves both"));
    m_link->setChecked(QSettings().value("plot/linkTimeline", true).toBool());
    m_stack = new QCheckBox(tr("Stack lanes"), this);
    m_stack->setObjectName("plotStackLanes");
    m_stack->setToolTip(tr("Series of very different ranges each get a lane of their own (series of comparable ranges share one); "
                           "off: one lane, with a second y axis at the right for the series that do not fit the first"));
    // On by default: Health (0–100) and Money (0–16000) are both readable without doing anything.
    m_stack->setChecked(QSettings().value("plot/stackLanes", true).toBool());
    m_fitY = new QCheckBox(tr("Fit Y"), this);
    m_fitY->setChecked(true);
    m_fitY->setToolTip(tr("Y follows the visible data; uncheck to set the range (or Shift+wheel on the plot)"));
    m_yMin = new QDoubleSpinBox(this);
    m_yMax = new QDoubleSpinBox(this);
    for (QDoubleSpinBox* s : {m_yMin, m_yMax}) {
        s->setRange(-1e12, 1e12);
        s->setDecimals(3);
        s->setEnabled(false);
        s->setVisible(false); // only while the range is manual: the row must fit 1024 px
        s->setKeyboardTracking(false);
        s->setMaximumWidth(110);
        s->setMinimumWidth(50); // the ±1e12 range would ask for 150 px each
    }
    m_yMin->setToolTip(tr("Y minimum"));
    m_yMax->setToolTip(tr("Y maximum"));
    auto* csv = m_csv = new QToolButton(this);
    csv->setText(tr("CSV…"));
    csv->setObjectName("plotExportCsv");
    auto* png = m_png = new QToolButton(this);
    png->setText(tr("PNG…"));
    png->setObjectName("plotExportPng");
    auto* expression = m_expression = new QToolButton(this);
    expression->setText(tr("Expression…"));
    expression->setObjectName("plotExpression");
    expression->setToolTip(tr("Plot how many entities match a query expression, frame by frame"));
    connect(expression, &QToolButton::clicked, this, &PlotPanel::expressionWanted);
    auto* clearAll = m_clear = new QToolButton(this);
    clearAll->setText(tr("Clear"));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setVisible(false);
    top->addWidget(m_link);
    top->addWidget(m_stack);
    top->addWidget(m_fitY);
    top->addWidget(m_yMin);
    top->addWidget(m_yMax);
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // elided by the row, full text in the tooltip
    top->addWidget(m_status, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancelButton);
    top->addWidget(expression);
    top->addWidget(csv);
    top->addWidget(png);
    top->addWidget(clearAll);
    layout->addLayout(top);

    m_legend = new LegendRow(this);
    m_legend->setModel(m_model);
    m_legend->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* remove = new QAction(tr("Remove series"), m_legend);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    m_legend->addAction(remove);
    m_legend->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(remove, &QAction::triggered, this, [this] {
        QList<quint64> ids;
        for (const QModelIndex& i : m_legend->selectionModel()->selectedIndexes())
            ids << i.data(PlotSeriesModel::IdRole).toULongLong();
        for (quint64 id : ids)
            removeSeries(id);
    });
    connect(m_legend, &QListView::customContextMenuRequested, this, [this, remove](const QPoint& pos) {
        // A vector's series offer the other way to plot it (x / y / z ↔ length).
        QMenu menu(m_legend);
        menu.addAction(remove);
        const int row = m_legend->indexAt(pos).row();
        if (row >= 0 && size_t(row) < m_model->entries().size() && !m_model->entries()[size_t(row)].vectorPath.isEmpty()) {
            const PlotSeriesEntry& e = m_model->entries()[size_t(row)];
            const EntityKey entity{e.bucket, e.uniqueId};
            const QString vector = e.vectorPath;
            menu.addSeparator();
            menu.addAction(tr("Plot %1 as x / y / z").arg(vector), this,
                           [this, entity, vector] { addVectorSeries(entity, vector, VectorPlot::Components); });
            menu.addAction(tr("Plot the length of %1").arg(vector), this,
                           [this, entity, vector] { addVectorSeries(entity, vector, VectorPlot::Length); });
        }
        menu.exec(m_legend->viewport()->mapToGlobal(pos));
    });
    m_canvas = new PlotCanvas(session, m_model, this);
    m_canvas->setStacked(m_stack->isChecked());
    m_canvas->setAlignment([this] { return timelineEdges(); });
    layout->addWidget(m_legend);
    layout->addWidget(m_canvas, 1);
    // No series, no legend row: its height goes to the plot.
    auto showLegend = [this] { m_legend->setVisible(m_model->rowCount() > 0); };
    showLegend();
    connect(m_model, &QAbstractItemModel::rowsInserted, m_legend, showLegend);
    connect(m_model, &QAbstractItemModel::rowsRemoved, m_legend, showLegend);
    connect(m_model, &QAbstractItemModel::modelReset, m_legend, showLegend);
    updateStatus();

    connect(m_cancelButton, &QPushButton::clicked, this, &PlotPanel::cancel);
    connect(clearAll, &QToolButton::clicked, this, &PlotPanel::clear);
    connect(m_canvas, &PlotCanvas::seekRequested, this, &PlotPanel::seekRequested);
    connect(m_canvas, &PlotCanvas::heightWanted, this, &PlotPanel::heightWanted);
    connect(m_canvas, &PlotCanvas::xRangeChanged, this, [this](double first, double last) {
        if (isLinked())
            m_view->setZoom(first, last); // the timeline and every linked panel follow
    });
    connect(m_canvas, &PlotCanvas::yRangeChanged, this, [this](double lo, double hi) {
        m_fitY->setChecked(false);
        const QSignalBlocker a(m_yMin), b(m_yMax);
        m_yMin->setValue(lo);
        m_yMax->setValue(hi);
    });
    connect(view, &ViewState::zoomChanged, this, [this](double first, double last) {
        if (isLinked() && last > first)
            m_canvas->setXRange(first, last);
    });
    connect(m_link, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("plot/linkTimeline", on);
        m_canvas->update(); // lined up with the timeline, or back to its own margins
        if (on && m_view->zoomLast() > m_view->zoomFirst())
            m_canvas->setXRange(m_view->zoomFirst(), m_view->zoomLast());
    });
    connect(m_stack, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("plot/stackLanes", on);
        m_canvas->setStacked(on);
    });
    connect(m_fitY, &QCheckBox::toggled, this, [this](bool fit) {
        m_canvas->setFitY(fit);
        for (QDoubleSpinBox* s : {m_yMin, m_yMax}) {
            s->setEnabled(!fit);
            s->setVisible(!fit);
        }
        if (!fit) {
            const QSignalBlocker a(m_yMin), b(m_yMax);
            m_yMin->setValue(m_canvas->yMin());
            m_yMax->setValue(m_canvas->yMax());
        }
    });
    auto manualY = [this] { m_canvas->setYRange(m_yMin->value(), m_yMax->value()); };
    connect(m_yMin, &QDoubleSpinBox::valueChanged, this, manualY);
    connect(m_yMax, &QDoubleSpinBox::valueChanged, this, manualY);
    connect(csv, &QToolButton::clicked, this, [this] {
        const QString path = prompts().saveFilePath(this, tr("Export plot as CSV"), QStringLiteral("plot.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            m_status->setText(error);
    });
    connect(png, &QToolButton::clicked, this, [this] {
        const QString path = prompts().saveFilePath(this, tr("Export plot as PNG"), QStringLiteral("plot.png"), tr("PNG (*.png)"));
        if (!path.isEmpty() && !exportPng(path))
            m_status->setText(tr("Could not write %1").arg(path));
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &PlotPanel::updateStatus);
    connect(view, &ViewState::shownFrameChanged, this, &PlotPanel::updateSeriesNames);
    connect(view, &ViewState::entityLabelsChanged, this, &PlotPanel::updateSeriesNames);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &PlotPanel::updateStatus);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &PlotPanel::updateStatus);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PlotPanel::updateStatus);
    connect(session, &ReplaySession::opened, this, &PlotPanel::onOpened);
    connect(session, &ReplaySession::rereadFromDisk, this, [this](int, int frames) { m_canvas->setFrameCount(frames); });
    connect(session, &ReplaySession::closed, this, [this] {
        m_jobs.cancel();
        m_progress->setVisible(false);
        m_cancelButton->setVisible(false);
        m_model->clear(); // the series name entities of the closed replay
        m_failed.clear();
        m_canvas->setFailed({});
        updateStatus();
    });
    if (session->isOpen())
        onOpened();
}

PlotPanel::~PlotPanel()
{
    m_jobs.cancel();
}

void PlotPanel::onOpened()
{
    m_canvas->setFrameCount(m_session->frameCount());
    if (isLinked() && m_view->zoomLast() > m_view->zoomFirst())
        m_canvas->setXRange(m_view->zoomFirst(), m_view->zoomLast());
    updateStatus(); // the x axis' note, when the file has no times of the unit
}

void PlotPanel::setTimeUnit(TimeUnit unit)
{
    m_canvas->setTimeUnit(unit);
    updateStatus();
}

bool PlotPanel::isLinked() const
{
    return m_link->isChecked();
}
void PlotPanel::setLinked(bool linked)
{
    m_link->setChecked(linked);
}

void PlotPanel::setTimeline(const TimelineScrubber* timeline)
{
    m_timeline = timeline;
    m_canvas->update();
}

void PlotPanel::setStacked(bool stacked)
{
    m_stack->setChecked(stacked);
}

bool PlotPanel::isStacked() const
{
    return m_canvas->isStacked();
}

std::pair<double, double> PlotPanel::timelineEdges() const
{
    constexpr std::pair<double, double> kOwnMargins{-1, -1};
    if (!isLinked())
        return kOwnMargins;
    // The main window hands its timeline over (setTimeline); until it does, its first one.
    const TimelineScrubber* timeline = m_timeline ? m_timeline.data() : window()->findChild<const TimelineScrubber*>();
    if (!timeline || !timeline->isVisible() || timeline->window() != window())
        return kOwnMargins;
    const TimelineAxis& axis = timeline->axis();
    const double offset = m_canvas->mapFromGlobal(timeline->mapToGlobal(QPoint(0, 0))).x();
    const double x0 = offset + axis.x0, x1 = offset + axis.x1;
    // Only when the timeline's whole span lies inside the plot with room for the y labels at
    // its left (a plot docked beside the timeline keeps its own margins).
    if (x0 < 24 || x1 > m_canvas->width())
        return kOwnMargins;
    return {x0, x1};
}

quint64 PlotPanel::addPropertySeries(const EntityKey& entity, const QString& path)
{
    const uint32_t bucket = uint32_t(std::max(0, entity.bucket));
    const std::string id = entity.uniqueId.toStdString(), p = path.toStdString();
    if (!m_session->isOpen())
        return 0;
    // A vector (or a transform) in the frame on screen plots as its components in one go.
    const vtx::FrameHandle& shown = m_view->shownFrame();
    if (auto parsed = vtx::PropertyPath::parse(p); parsed && !shown.isNull() && size_t(bucket) < shown->bucketCount()) {
        const vtx::Value v = parsed->evaluate(vtx::findEntity(shown.view(), bucket, id), m_session->file()->schema());
        if (const QString vector = vectorPathOf(v, path); !vector.isEmpty())
            return addVectorSeries(entity, vector, VectorPlot::Components);
    }
    const quint64 series = m_model->addProperty(entity.bucket, entity.uniqueId, path, [bucket, id, p](const vtx::ReplayFile& file) {
        return vtx::propertySampler(file.schema(), bucket, id, p);
    });
    updateSeriesNames();
    startScan();
    return series;
}

quint64 PlotPanel::addVectorSeries(const EntityKey& entity, const QString& vectorPath, VectorPlot how)
{
    if (!m_session->isOpen())
        return 0;
    const uint32_t bucket = uint32_t(std::max(0, entity.bucket));
    const std::string id = entity.uniqueId.toStdString(), vector = vectorPath.toStdString();
    quint64 first = 0;
    if (how == VectorPlot::Length) {
        first = m_model->addProperty(
            entity.bucket, entity.uniqueId, vectorLengthName(vectorPath),
            [bucket, id, vector](const vtx::ReplayFile& file) { return vectorLengthSampler(file.schema(), bucket, id, vector); }, vectorPath);
    } else {
        for (const QString& component : vectorComponentPaths(vectorPath)) {
            const std::string p = component.toStdString();
            const quint64 added = m_model->addProperty(
                entity.bucket, entity.uniqueId, component,
                [bucket, id, p](const vtx::ReplayFile& file) { return vtx::propertySampler(file.schema(), bucket, id, p); }, vectorPath);
            first = first ? first : added;
        }
    }
    updateSeriesNames();
    startScan(); // one pass reads all three
    return first;
}

void PlotPanel::updateSeriesNames()
{
    // The entity's label in the frame on screen (a name can change during a replay; the
    // tooltip and the CSV keep the id).
    const vtx::FrameHandle& shown = m_view->shownFrame();
    m_model->setEntityLabels([&](int bucket, const QString& uniqueId) {
        if (shown.isNull() || bucket < 0 || size_t(bucket) >= shown->bucketCount())
            return QString();
        return m_view->entityLabel(vtx::findEntity(shown.view(), uint32_t(bucket), uniqueId.toStdString()));
    });
}

quint64 PlotPanel::addExpressionSeries(const QString& text, QString* error)
{
    const auto file = m_session->file();
    if (!file)
        return 0;
    const std::string t = text.trimmed().toStdString();
    // Compiled here once to say what is wrong at once (cheap: no frame is read); the scan
    // compiles its own copy, as evaluation keeps per-frame state.
    vtx::query::ExpressionError compileError;
    const auto compiled = vtx::query::Expression::compile(t, file->schema(), &compileError);
    // "Player.Health" is no condition to count: it plots for each Player (review item 10: it
    // was refused with "expected a comparison").
    if (!compiled)
        if (const auto typed = vtx::typedPropertyPath(file->schema(), t))
            return addPropertyOfEach(QString::fromStdString(typed->type), QString::fromStdString(typed->path), error);
    auto probe = vtx::expressionSampler(file->schema(), t);
    if (!compiled || !probe) {
        const QString why = QString::fromStdString(compiled ? probe.message() : "expression " + compileError.text());
        m_status->setText(why);
        if (error)
            *error = why;
        return 0;
    }
    const QString name = compiled->perEntity() ? QStringLiteral("count(%1)").arg(text.trimmed()) : text.trimmed();
    return addSeries(name, [t](const vtx::ReplayFile& f) { return vtx::expressionSampler(f.schema(), t); });
}

quint64 PlotPanel::addPropertyOfEach(const QString& type, const QString& path, QString* error)
{
    const vtx::Schema& schema = m_session->file()->schema();
    const vtx::FrameHandle& shown = m_view->shownFrame();
    const vtx::StructDef* def = schema.structByName(type.toStdString());
    auto fail = [&](const QString& why) -> quint64 {
        m_status->setText(why);
        if (error)
            *error = why;
        return 0;
    };
    if (shown.isNull() || !def)
        return fail(tr("%1.%2: wait for the frame to show, then plot again").arg(type, path));
    // The entities of the type in the frame on screen, up to MaxEachSeries: a series each
    // (a vector as its components, as from the inspector).
    const auto parsed = vtx::PropertyPath::parse(path.toStdString());
    if (!parsed)
        return fail(tr("%1.%2: not a property path").arg(type, path));
    std::vector<EntityKey> keys;
    int ofType = 0;
    for (size_t b = 0; b < shown->bucketCount(); ++b) {
        const vtx::BucketView bucket = shown->bucket(b);
        for (size_t e = 0; e < bucket.entityCount(); ++e) {
            if (bucket.entity(e).typeId() != def->typeId)
                continue;
            ++ofType;
            const vtx::Value value = parsed->evaluate(bucket.entity(e), schema);
            if (!value.isNumber() && vectorPathOf(value, path).isEmpty())
                continue;
            if (int(keys.size()) < MaxEachSeries) {
                const auto id = bucket.uniqueId(e);
                keys.push_back({int(b), QString::fromUtf8(id.data(), qsizetype(id.size()))});
            }
        }
    }
    const int frame = shown.index();
    if (ofType == 0)
        return fail(tr("No %1 in frame %2: plot %1.%3 from a frame where one is").arg(type).arg(frame).arg(path));
    if (keys.empty())
        return fail(tr("%1.%2 is not a number or a vector in frame %3").arg(type, path).arg(frame));
    quint64 first = 0;
    for (const EntityKey& k : keys) {
        const quint64 added = addPropertySeries(k, path);
        first = first ? first : added;
    }
    m_status->setText(int(keys.size()) < ofType
                          ? tr("%1 of each %2 in frame %3: the first %4 of %5").arg(path, type).arg(frame).arg(keys.size()).arg(ofType)
                          : tr("%1 of each %2 in frame %3 (%4)").arg(path, type).arg(frame).arg(keys.size()));
    return first;
}

quint64 PlotPanel::addSeries(const QString& name, SamplerFactory factory)
{
    if (!m_session->isOpen())
        return 0; // nothing to read: a series would wait forever
    const quint64 id = m_model->add(name, std::move(factory));
    startScan();
    return id;
}

void PlotPanel::removeSeries(quint64 id)
{
    m_model->remove(id);
    if (m_jobs.isRunning()) {
        if (m_model->hasPending())
            startScan(); // what is left to compute, without the removed one
        else
            cancel();
    }
}

void PlotPanel::clear()
{
    m_jobs.cancel();
    m_progress->setVisible(false);
    m_cancelButton->setVisible(false);
    m_model->clear();
}

void PlotPanel::cancel()
{
    m_jobs.cancel();
    m_progress->setVisible(false);
    m_cancelButton->setVisible(false);
    // The series being computed go: a cancelled computation never leaves a partial curve.
    std::vector<quint64> pending;
    for (const PlotSeriesEntry& e : m_model->entries())
        if (!e.data && e.error.isEmpty())
            pending.push_back(e.id);
    for (quint64 id : pending)
        m_model->remove(id);
    updateStatus();
}

void PlotPanel::startScan()
{
    auto file = m_session->file();
    if (!file)
        return;
    // One pass computes every series still pending: a series added while another computes
    // supersedes that job and the new one reads them all, so N series cost one read.
    std::vector<std::pair<quint64, SamplerFactory>> todo;
    for (const PlotSeriesEntry& e : m_model->entries())
        if (!e.data && e.error.isEmpty())
            todo.emplace_back(e.id, e.factory);
    if (todo.empty())
        return;
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancelButton->setVisible(true);
    struct Answer {
        std::vector<quint64> ids;
        std::vector<std::shared_ptr<const vtx::SeriesData>> data;
        std::vector<std::shared_ptr<const vtx::SeriesSummary>> summaries;
        std::vector<std::pair<quint64, QString>> errors;
        std::vector<vtx::FrameSpan> failed;
        bool cancelled = false;
    };
    QPointer<PlotPanel> self(this);
    m_jobs.runLatest(
        [file, todo, self, bar = QPointer<QProgressBar>(m_progress)](const JobToken& job) {
            Answer a;
            std::vector<std::unique_ptr<vtx::SeriesSampler>> samplers;
            for (const auto& [id, factory] : todo) {
                auto s = factory(*file);
                if (!s) {
                    a.errors.emplace_back(id, QString::fromStdString(s.message()));
                    continue;
                }
                a.ids.push_back(id);
                samplers.push_back(std::move(*s));
            }
            vtx::WalkControl control = walkControlFor(job, bar);
            vtx::SeriesScanResult r = vtx::scanSeries(*file, samplers, control);
            a.cancelled = r.cancelled;
            a.failed = std::move(r.failed);
            for (vtx::SeriesData& d : r.series) {
                a.summaries.push_back(std::make_shared<const vtx::SeriesSummary>(vtx::summarize(d.frames, d.values)));
                a.data.push_back(std::make_shared<const vtx::SeriesData>(std::move(d)));
            }
            return a;
        },
        [self](Answer a) { // superseded: a newer scan reads these too; cancelled: cancel() removed them
            if (a.cancelled)
                return;
            self->m_progress->setVisible(false);
            self->m_cancelButton->setVisible(false);
            self->m_failed = a.failed;
            self->m_canvas->setFailed(std::move(a.failed));
            for (const auto& [id, error] : a.errors)
                self->m_model->setSeriesData(id, nullptr, error);
            for (size_t i = 0; i < a.ids.size() && i < a.data.size(); ++i)
                self->m_model->setSeriesData(a.ids[i], a.data[i], {}, a.summaries[i]);
            self->updateStatus();
            emit self->finished();
        });
}

QString PlotPanel::statusText() const
{
    return m_status->text();
}

QString PlotPanel::statusToolTip() const
{
    return m_status->toolTip();
}

void PlotPanel::updateStatus()
{
    QStringList parts;
    QString why; // the reason names a whole path: in the tooltip, not the one-line status (review 5 #8)
    const int n = m_model->rowCount();
    int damaged = 0;
    for (const PlotSeriesEntry& e : m_model->entries())
        damaged += e.data ? int(e.data->damagedFrames.size()) : 0;
    parts << (n == 0 ? tr("No series") : tr("%n series", nullptr, n));
    if (!m_failed.empty()) {
        int64_t frames = 0;
        for (const vtx::FrameSpan& s : m_failed)
            frames += int64_t(s.last) - s.first + 1;
        const vtx::FrameSpan& s = m_failed.front();
        QString where = s.first == s.last ? tr("frame %1").arg(s.first) : tr("frames %1–%2").arg(s.first).arg(s.last);
        parts << tr("⚠ %n frame(s) unreadable, shown as gaps (first: %1)", nullptr, int(frames)).arg(where);
        why = tr("First unreadable, %1: %2").arg(where, QString::fromStdString(s.reason));
    }
    if (damaged > 0)
        parts << tr("⚠ %n point(s) not as recorded (marked)", nullptr, damaged);
    if (const QString note = m_canvas->xNote(); !note.isEmpty())
        parts << tr("x axis in frames: %1").arg(note);
    m_status->setText(parts.join(QStringLiteral("  ·  ")));
    m_status->setToolTip(why.isEmpty() ? m_status->text() : m_status->text() + QStringLiteral("\n") + why);
    for (QToolButton* b : {m_csv, m_png, m_clear})
        b->setEnabled(n > 0);
    m_expression->setEnabled(m_session->isOpen());
}

bool PlotPanel::exportCsv(const QString& path, QString* error) const
{
    vtx::AnalysisTable t;
    t.columns = {"frame", "game time (s)"};
    std::vector<const vtx::SeriesData*> series;
    for (const PlotSeriesEntry& e : m_model->entries())
        if (e.data) {
            t.columns.push_back(e.name.toStdString());
            series.push_back(e.data.get());
        }
    std::vector<size_t> at(series.size(), 0);
    const auto& file = m_session->file();
    // A merge of the series' frames: one row per frame any series has a value in.
    while (true) {
        int32_t next = INT32_MAX;
        for (size_t i = 0; i < series.size(); ++i)
            if (at[i] < series[i]->frames.size())
                next = std::min(next, series[i]->frames[at[i]]);
        if (next == INT32_MAX)
            break;
        std::vector<vtx::AnalysisTable::Cell> row{int64_t(next), file ? double(file->gameTimeTicks(next)) / vtx::kTicksPerSecond : 0.0};
        for (size_t i = 0; i < series.size(); ++i) {
            if (at[i] < series[i]->frames.size() && series[i]->frames[at[i]] == next)
                row.emplace_back(series[i]->values[at[i]++]);
            else
                row.emplace_back(std::monostate{});
        }
        t.rows.push_back(std::move(row));
    }
    return saveCsvFile(t, path, error);
}

bool PlotPanel::exportPng(const QString& path) const
{
    return m_canvas->grab().save(path, "PNG");
}

} // namespace vtxw
