// SPDX-License-Identifier: MIT
#pragma once
// The Plot dock: several series, each over the whole replay, computed on a worker in one pass
// over the chunks (progress, cancel); a legend row with show/hide; series of different ranges
// on their own axes (stacked lanes by default, or a second axis); a vector as x / y / z or its
// length; the x axis in the timeline's time unit at round values; x zoom (wheel) and pan (drag)
// linked to the timeline's visible range (a toggle), and then lined up with the timeline's
// pixels; y fit or manual; a hover readout of every series; click to seek; CSV and PNG export.
// Painting is PlotRenderer's: decimated to min/max per pixel column, so its cost follows the
// width, not the number of points.

#include "entities/EntityTreeModel.hpp"
#include "plot/PlotRenderer.hpp"
#include "plot/PlotSeriesModel.hpp"
#include "plot/VectorSeries.hpp"
#include "session/JobTracker.hpp"
#include "shell/UserSettings.hpp"
#include "timeline/TimeFormat.hpp"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <utility>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QListView;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace vtxw {

class ReplaySession;
class TimelineScrubber;
class ViewState;

class PlotCanvas : public QWidget {
    Q_OBJECT
public:
    PlotCanvas(ReplaySession* session, PlotSeriesModel* model, QWidget* parent = nullptr);
    /// Shows frames [first, last] (no signal: this is the caller's range).
    void setXRange(double first, double last);
    double xFirst() const { return m_scene.first; }
    double xLast() const { return m_scene.last; }
    void setFrameCount(int frames);
    void setFailed(std::vector<vtx::FrameSpan> failed);
    void setFitY(bool fit);
    void setYRange(double lo, double hi);
    /// The y range on screen (fitted or manual).
    double yMin() { return layout().yMin; }
    double yMax() { return layout().yMax; }
    void setTimeUnit(TimeUnit unit);
    /// Stacked lanes (each group of comparable series its own lane) or one lane with a second
    /// y axis for the series that do not fit the first.
    void setStacked(bool stacked);
    bool isStacked() const { return m_scene.stacked; }
    /// The data area's left and right edges in this widget's pixels, asked for at each layout;
    /// (-1, -1): the plot's own margins. The panel points it at the timeline when linked.
    void setAlignment(std::function<std::pair<double, double>()> edges);
    /// Why the x axis reads in frames although another unit was chosen, or empty.
    QString xNote();
    int frameAtX(int x) { return frameAtPixel(layout(), x); }
    int xOfFrame(double frame) { return int(layout().map.x(frame)); }
    /// The layout as painted (decimated columns per shown series), recomputed when stale.
    const PlotLayout& layout();
    const PlotScene& scene() const { return m_scene; }
    QSize sizeHint() const override { return {600, 180}; }
    QSize minimumSizeHint() const override { return {120, 18}; }

signals:
    void seekRequested(int frame);
    /// The user zoomed or panned (wheel, drag, double-click).
    void xRangeChanged(double first, double last);
    /// The user zoomed y (Shift+wheel): the plot is in manual y now.
    void yRangeChanged(double lo, double hi);
    /// The series now take more lanes than before and the canvas is too short to read them
    /// (readableHeightFor): `extra` more pixels would do.
    void heightWanted(int extra);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void leaveEvent(QEvent*) override;

private:
    void rebuildSeries();
    void userRange(double first, double last);
    ReplaySession* m_session;
    PlotSeriesModel* m_model;
    PlotScene m_scene;
    PlotLayout m_layout;
    FrameClock m_clock; ///< the x axis' frames in the time unit
    std::function<std::pair<double, double>()> m_alignTo;
    bool m_stale = true;
    int m_frameCount = 1;
    int m_lanes = 0; ///< lanes at the last rebuild: more lanes ask for height, once
    TimeUnit m_unit = TimeUnit::Frame;
    QPoint m_pressPos;
    double m_pressFirst = 0, m_pressLast = 1;
    bool m_pressed = false, m_dragging = false;
};

class PlotPanel : public QWidget {
    Q_OBJECT
public:
    PlotPanel(ReplaySession* session, ViewState* view, QWidget* parent = nullptr);
    ~PlotPanel() override;

    /// Plots entity.path (the inspector's path syntax) over the whole replay. A vector (or a
    /// transform: its translation) plots as its x, y and z (addVectorSeries); the id of the first.
    quint64 addPropertySeries(const EntityKey& entity, const QString& path);
    /// Plots the vector at entity.vectorPath as three series (x, y, z) or as its length; the
    /// id of the first series added.
    quint64 addVectorSeries(const EntityKey& entity, const QString& vectorPath, VectorPlot how);
    /// Plots a query expression over the whole replay: per frame, how many entities match it
    /// ("count(Player.Health < 20)"), or 1/0 for an expression about the frame (any/all). An
    /// expression that does not compile adds nothing; its error (column, what was expected, a
    /// "did you mean") goes to `*error` and the status line.
    /// A type-qualified property path ("Player.Health", vtx::typedPropertyPath) plots that
    /// property for each entity of the type in the frame on screen (addPropertyOfEach).
    quint64 addExpressionSeries(const QString& text, QString* error = nullptr);
    /// `path` of each entity of `type` in the frame on screen where it is a number or a vector,
    /// up to MaxEachSeries series; the id of the first, or 0 with the reason in `*error` and the
    /// status line (no such entity on screen, not a number).
    quint64 addPropertyOfEach(const QString& type, const QString& path, QString* error = nullptr);
    static constexpr int MaxEachSeries = 16;
    /// Plots any sampler (the plug-in point for series that are not a property path); 0 and
    /// nothing added when no replay is open.
    quint64 addSeries(const QString& name, SamplerFactory factory);
    void removeSeries(quint64 id);
    void clear();
    /// Stops the computation; the series it was computing are removed (no partial curve stays).
    void cancel();
    bool isComputing() const { return m_jobs.isRunning(); }

    PlotCanvas* canvas() const { return m_canvas; }
    PlotSeriesModel* model() const { return m_model; }
    QListView* legend() const { return m_legend; }
    /// What the panel says about the data: series count, unreadable frames, damaged points.
    QString statusText() const;
    /// The status line's tooltip: its text, and the reasons it leaves out (whole paths).
    QString statusToolTip() const;
    const std::vector<vtx::FrameSpan>& failed() const { return m_failed; }

    void setLinked(bool linked);
    bool isLinked() const;
    /// The timeline whose pixels the x axis lines up with while linked (same frame, same screen
    /// x). Without one the panel uses the first timeline of its window.
    void setTimeline(const TimelineScrubber* timeline);
    void setStacked(bool stacked);
    bool isStacked() const;
    void setTimeUnit(TimeUnit unit);

    /// Every computed series by frame (frame, game time, one column per series; empty where a
    /// series has no value). False with `error` set when the file cannot be written.
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportPng(const QString& path) const;

signals:
    void seekRequested(int frame);
    /// A computation finished and its series are on screen.
    void finished();
    /// "Expression…": the window opens the query bar to plot one.
    void expressionWanted();
    /// The plot's lanes need `extra` more pixels of height to read (PlotCanvas::heightWanted).
    void heightWanted(int extra);

private:
    void startScan();
    void updateStatus();
    void updateSeriesNames();
    void onOpened();
    /// The timeline's axis edges in the canvas' pixels, or (-1, -1) when they cannot line up.
    std::pair<double, double> timelineEdges() const;
    ReplaySession* m_session;
    ViewState* m_view;
    PlotSeriesModel* m_model;
    PlotCanvas* m_canvas;
    QListView* m_legend;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    /// Greyed while they have nothing to work on: the exports and Clear with no series,
    /// Expression… with no replay open.
    QToolButton *m_csv, *m_png, *m_expression, *m_clear;
    QCheckBox* m_link;
    QCheckBox* m_stack;
    QCheckBox* m_fitY;
    QDoubleSpinBox* m_yMin;
    QDoubleSpinBox* m_yMax;
    std::vector<vtx::FrameSpan> m_failed;
    QPointer<const TimelineScrubber> m_timeline;
    JobTracker m_jobs{this};
};

} // namespace vtxw
