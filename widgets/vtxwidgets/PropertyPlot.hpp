#pragma once
// Plots one numeric property (or vector component) of one entity over a frame range. The series
// is computed on a worker thread, chunk by chunk, with progress and cancel; the UI only paints.
// Clicking the plot seeks there.

#include "vtxwidgets/EntityTreeModel.hpp"
#include "vtxwidgets/JobTracker.hpp"
#include "vtxwidgets/UserSettings.hpp"

#include <QPointer>
#include <QWidget>
#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;

namespace vtxw {

class ReplaySession;

struct PlotSeries {
    std::vector<int> frames;
    std::vector<double> values;
    /// Frames (ascending) where the entity's stored hash disagrees with its values: their points
    /// are not what was recorded (FrameIntegrity), marked on the plot.
    std::vector<int> damagedFrames;
};

/// The painted curve.
class PlotCanvas : public QWidget {
    Q_OBJECT
public:
    explicit PlotCanvas(ReplaySession* session, QWidget* parent = nullptr);
    void setSeries(PlotSeries s, int firstFrame, int lastFrame);
    const PlotSeries& series() const { return m_series; }
    int frameAtX(int x) const;
    QSize sizeHint() const override { return {600, 140}; }
    /// How the hover label names the frame (Settings ▸ Time display).
    void setTimeUnit(TimeUnit unit);

signals:
    void seekRequested(int frame);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

private:
    QRect plotRect() const;
    ReplaySession* m_session;
    PlotSeries m_series;
    int m_first = 0, m_last = 1;
    double m_min = 0, m_max = 1;
    int m_hoverX = -1;
    TimeUnit m_unit = TimeUnit::Frame;
};

class PropertyPlot : public QWidget {
    Q_OBJECT
public:
    explicit PropertyPlot(ReplaySession* session, QWidget* parent = nullptr);
    ~PropertyPlot() override;
    /// Starts computing the series of entity.path over [first, last] (cancels a running one).
    void plot(const EntityKey& entity, const QString& path, int firstFrame, int lastFrame);
    void cancel();
    bool isComputing() const { return m_jobs.isRunning(); }
    PlotCanvas* canvas() const { return m_canvas; }
    void setTimeUnit(TimeUnit unit) { m_canvas->setTimeUnit(unit); }
    /// The title: what the curve on screen shows (or what is being computed).
    QString title() const;

signals:
    void seekRequested(int frame);
    void finished();

private:
    ReplaySession* m_session;
    PlotCanvas* m_canvas;
    QLabel* m_title;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    QString m_shownTitle; ///< the title of the curve on screen, restored when a new plot is cancelled
    JobTracker m_jobs{this};
};

} // namespace vtxw
