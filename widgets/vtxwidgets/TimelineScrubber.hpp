#pragma once
// The timeline across the bottom of the window: lanes for events, gaps, segments, chunk cache
// state and the scrub bar with the playhead and A/B markers. Click or drag the scrub lane to
// seek, Ctrl+wheel to zoom around the cursor, drag the ruler (or wheel) to pan. Painting only
// touches what is visible; layout is computed on resize/zoom, not while painting.

#include "vtxwidgets/TimelineAxis.hpp"

#include "vtx/cache/ChunkCache.hpp"

#include <QTimer>
#include <QWidget>

namespace vtxw {

class ReplaySession;

class TimelineScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimelineScrubber(ReplaySession* session, QWidget* parent = nullptr);

    const TimelineAxis& axis() const { return m_axis; }
    void setMarkers(int a, int b);
    QSize sizeHint() const override { return {800, 120}; }
    QSize minimumSizeHint() const override { return {200, 100}; }
    /// Frame under pixel x (for tests and tooltips).
    int frameAtX(int x) const { return m_axis.frameIndexAt(x); }
    int xOfFrame(int frame) const { return int(std::lround(m_axis.x(frame))); }
    /// The vertical centre of the scrub lane (where a click seeks).
    int scrubLaneY() const;
    void zoomIn(double factor, int anchorFrame);
    void showAll();
    int frameCount() const { return int(m_axis.frameCount); }
    /// The followed file grew: new chunks join the lanes; a view showing everything keeps
    /// showing everything, a zoomed view stays where it is.
    void extend();

signals:
    void seekRequested(int frame);
    void hoverChanged(int frame);
    /// The visible frame range changed (zoom, pan, show all, the file grew).
    void visibleRangeChanged(double first, double last);

protected:
    void announceRange();
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    bool event(QEvent*) override;
    void leaveEvent(QEvent*) override;

private:
    double m_announcedFirst = -1, m_announcedLast = -1;
    enum Lane { RulerLane, EventsLane, GapsLane, ChunksLane, ScrubLane, LaneCount };
    QRect laneRect(Lane lane) const;
    int laneAt(int y) const;
    void reload();
    void refreshCacheState();
    QString frameLabel(int frame) const;

    struct EventMark {
        int frame;
        QString type, label, entity;
    };
    ReplaySession* m_session;
    TimelineAxis m_axis;
    std::vector<EventMark> m_events; ///< sorted by frame
    std::vector<int> m_gaps, m_segments;
    std::vector<std::pair<int, int>> m_chunkRanges;
    std::vector<vtx::ChunkState> m_chunkStates;
    int m_markerA = -1, m_markerB = -1;
    int m_hoverX = -1;
    enum class Drag { None, Seek, Pan } m_drag = Drag::None;
    double m_panStartFrame = 0;
    int m_panStartX = 0;
    QTimer m_cachePoll;
};

} // namespace vtxw
