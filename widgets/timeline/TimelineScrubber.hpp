// SPDX-License-Identifier: MIT
#pragma once
// The timeline across the bottom of the window: an overview strip of the whole file (with the
// visible range when zoomed), the ruler (frames, game time or UTC) with bookmarks, lanes for
// events (folded with a count where they crowd), gaps, segments, chunk cache state and the scrub
// bar with the playhead, A/B markers and the A–B loop. Click or drag the scrub lane to seek,
// Ctrl+wheel to zoom around the cursor, drag the ruler (or wheel) to pan, click or drag the
// overview to move the view. While zoomed, the view follows the playhead. Every lane has a
// tooltip (its legend over the lane name). Painting only touches what is visible.

#include "shell/Bookmarks.hpp"
#include "shell/UserSettings.hpp"
#include "timeline/TimeFormat.hpp"
#include "timeline/TimelineAxis.hpp"

#include "vtx/base/FrameSpan.hpp"
#include "vtx/cache/ChunkCache.hpp"

#include <QPainter>
#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace vtxw {

class ReplaySession;
class ViewState;

class TimelineScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimelineScrubber(ReplaySession* session, QWidget* parent = nullptr);

    const TimelineAxis& axis() const { return m_axis; }
    void setBookmarks(const QList<Bookmark>& bookmarks);
    /// The tooltip text at a point of the widget (for tests; the ToolTip event shows it).
    QString toolTipAt(const QPoint& pos) const;
    /// The matches lane: the frames where `expression` holds (sorted), with their count;
    /// `partial` while Find all is still scanning; `unsearched`: frames that could not be read,
    /// hatched (not searched is not "no match", review 5 #5). An empty expression clears the lane.
    void setMatches(const QString& expression, std::vector<int> frames, bool partial = false, std::vector<vtx::FrameSpan> unsearched = {});
    const std::vector<int>& matches() const { return m_matches; }
    const std::vector<vtx::FrameSpan>& unsearched() const { return m_unsearched; }
    /// Frames found damaged inside chunks that decoded (ReplayFile::knownDamage: the rest of a
    /// chunk after damage in its stream, or the first frame that failed its check), hatched on
    /// the chunks lane as a failed chunk is (review 5 #5); in frame order, one span per chunk.
    const std::vector<vtx::FrameSpan>& damagedFrames() const { return m_damagedFrames; }
    /// The vertical centre of a lane, by name ("overview", "ruler", "events", "bookmarks",
    /// "matches", "comparison", "gaps", "chunks", "scrub"), for tests; -1 for a lane collapsed
    /// because it has nothing to show.
    int laneCentreY(const QString& lane) const;
    /// `lane` (the divergence lane while comparing) becomes a child of the timeline, laid on
    /// the comparison lane's row (UX.md: after matches, before gaps) while it is not hidden; it
    /// shares the timeline's x axis and draws its own name in the label column.
    void hostComparisonLane(QWidget* lane);
    /// Events folded into one marker: the markers as painted (frame of the first, count).
    std::vector<std::pair<int, int>> eventMarkers() const;
    QSize sizeHint() const override { return {800, 124}; }
    QSize minimumSizeHint() const override { return {200, 100}; }
    /// Frame under pixel x (for tests and tooltips).
    int frameAtX(int x) const { return m_axis.frameIndexAt(x); }
    int xOfFrame(int frame) const { return int(std::lround(m_axis.x(frame))); }
    /// The vertical centre of the scrub lane (where a click seeks).
    int scrubLaneY() const;
    void zoomIn(double factor, int anchorFrame);
    void showAll();
    int frameCount() const { return int(m_axis.frameCount); }
    /// The followed file was read again: its chunks are the lanes' again; a view showing everything keeps
    /// showing everything, a zoomed view stays where it is.
    void extend();
    /// The ruler's labels: frame numbers, game time or UTC (Settings ▸ Time display).
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }
    /// The ruler label of `frame` in the current unit, `stepSeconds` apart from the next one.
    QString rulerText(int frame, double stepSeconds = 1.0) const;
    /// The ruler's ticks as painted (frame, label) for the visible range and the current unit.
    std::vector<FrameClock::Tick> rulerTicks();
    /// Why the ruler reads in frames although another unit was chosen (no such times in the
    /// file), or empty.
    QString rulerNote() const { return clock().note(); }

signals:
    void seekRequested(int frame);
    void hoverChanged(int frame);

protected:
    void announceRange();
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    bool event(QEvent*) override;
    bool eventFilter(QObject* watched, QEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    // In UX.md's order (the ruler under the overview): the comparison lane is a hosted widget.
    enum Lane { OverviewLane, RulerLane, EventsLane, BookmarksLane, MatchesLane, ComparisonLane, GapsLane, ChunksLane, ScrubLane, LaneCount };
    /// Zoomed in: the overview lane shows (UX.md: "overview (when zoomed)").
    bool zoomed() const;
    /// The lanes' height, and the hosted lane on its row, after lanes appeared or collapsed.
    void relayLanes();
    /// Brings a playhead that left the zoomed view back into it.
    void followPlayhead();
    double overviewX(double frame) const;
    int overviewFrameAt(int x) const;
    void centreViewOn(int frame);
    QString legend(Lane lane) const;
    /// Where a label `textWidth` px wide starts beside a mark at `x`, `gap` px from it.
    int labelLeftOf(int x, int gap, int textWidth) const;
    QRect laneRect(Lane lane) const; ///< zero height when the lane is collapsed
    int laneAt(int y) const;
    bool laneShown(Lane lane) const;
    void fitHeightToLanes();
    void reload();
    void refreshCacheState();
    QString frameLabel(int frame) const;
    QString rulerUnitName() const;

    struct EventMark {
        int frame;
        QString type, label, entity;
        QString offClock; ///< ReplaySession::offClockNote: drawn hollow, said in the tooltip
    };
    ReplaySession* m_session;
    ViewState* m_view; ///< the playhead, zoom, A/B markers and loop it shows (and moves)
    TimelineAxis m_axis;
    std::vector<EventMark> m_events; ///< sorted by frame
    std::vector<int> m_gaps, m_segments;
    QString m_matchExpression;
    std::vector<int> m_matches;
    std::vector<vtx::FrameSpan> m_unsearched; ///< in frame order
    bool m_matchesPartial = false;
    /// The unsearched span holding `frame`, or null.
    const vtx::FrameSpan* unsearchedAt(int frame) const;
    void paintMatches(QPainter& p) const;
    int nearestMatch(int x) const;
    /// The bookmark whose flag is at x (within its half-width), or null.
    const Bookmark* bookmarkAt(int x) const;
    std::vector<std::pair<int, int>> m_chunkRanges;
    std::vector<vtx::ChunkState> m_chunkStates;
    std::vector<vtx::FrameSpan> m_damagedFrames;
    /// What the file's decodes have found damaged so far, as damagedFrames() gives it.
    std::vector<vtx::FrameSpan> foundDamage() const;
    /// The damage known in chunk `c`: in its stream (any decode), or a frame of the cached
    /// chunk that failed its check when read.
    std::optional<vtx::ChunkDamage> chunkDamage(size_t c) const;
    /// The span of damagedFrames() in chunk `c`, or null.
    const vtx::FrameSpan* damagedFramesIn(size_t c) const;
    QList<Bookmark> m_bookmarks;
    TimeUnit m_unit = TimeUnit::Frame;
    /// The file's frames in m_unit, for the ruler's ticks: a cache, rebuilt when the file or
    /// the unit changes (clock()).
    mutable FrameClock m_clock;
    const FrameClock& clock() const;
    int m_hoverX = -1;
    enum class Drag { None, Seek, Pan, Overview } m_drag = Drag::None;
    double m_panStartFrame = 0;
    int m_panStartX = 0;
    QTimer m_cachePoll;
    QPointer<QWidget> m_hostedLane; ///< the comparison lane's widget (hostComparisonLane)
};

} // namespace vtxw
