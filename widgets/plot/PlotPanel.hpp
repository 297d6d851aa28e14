// SPDX-License-Identifier: MIT
#pragma once
// The Plot dock: several series, each over the whole replay, computed on a worker in one pass
// over the chunks (progress, cancel); a legend with show/hide; axes in the timeline's time unit;
// x zoom (wheel) and pan (drag) linked to the timeline's visible range (a toggle); y fit or
// manual; a hover readout of every series; click to seek; CSV and PNG export. Painting is
// PlotRenderer's: decimated to min/max per pixel column, so its cost follows the width, not
// the number of points.

#include "entities/EntityTreeModel.hpp"
#include "plot/PlotRenderer.hpp"
#include "plot/PlotSeriesModel.hpp"
#include "session/JobTracker.hpp"
#include "shell/UserSettings.hpp"

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QListView;
class QProgressBar;
class QPushButton;

namespace vtxw {

class ReplaySession;
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
    bool m_stale = true;
    int m_frameCount = 1;
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

    /// Plots entity.path (the inspector's path syntax) over the whole replay.
    quint64 addPropertySeries(const EntityKey& entity, const QString& path);
    /// Plots a query expression over the whole replay: per frame, how many entities match it
    /// ("count(Player.Health < 20)"), or 1/0 for an expression about the frame (any/all). An
    /// expression that does not compile adds nothing; its error (column, what was expected, a
    /// "did you mean") goes to `*error` and the status line.
    quint64 addExpressionSeries(const QString& text, QString* error = nullptr);
    /// Asks for an expression (the last one offered again) and plots it.
    void askForExpression();
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
    const std::vector<vtx::FrameSpan>& failed() const { return m_failed; }

    void setLinked(bool linked);
    bool isLinked() const;
    void setTimeUnit(TimeUnit unit) { m_canvas->setTimeUnit(unit); }

    /// Every computed series by frame (frame, game time, one column per series; empty where a
    /// series has no value). False with `error` set when the file cannot be written.
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportPng(const QString& path) const;

signals:
    void seekRequested(int frame);
    /// A computation finished and its series are on screen.
    void finished();

private:
    void startScan();
    void updateStatus();
    void updateSeriesNames();
    void onOpened();
    ReplaySession* m_session;
    ViewState* m_view;
    PlotSeriesModel* m_model;
    PlotCanvas* m_canvas;
    QListView* m_legend;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    QCheckBox* m_link;
    QCheckBox* m_fitY;
    QDoubleSpinBox* m_yMin;
    QDoubleSpinBox* m_yMax;
    std::vector<vtx::FrameSpan> m_failed;
    JobTracker m_jobs{this};
};

} // namespace vtxw
