// SPDX-License-Identifier: MIT
#pragma once
// The divergence lane, a lane of the timeline (TimelineScrubber::hostComparisonLane) while two
// replays are compared: per frame of A how
// much differs from the paired frame of B (bar height: differing properties, on a square-root
// scale so one property still shows beside hundreds), hatched where the worker has not compared
// yet, dotted grey where B has no partner frame. It shares the timeline's axis (zoom and pan),
// so a frame is at the same x in both; click seeks, the tooltip gives the counts.

#include <QWidget>

namespace vtxw {

class CompareSession;
class ReplaySession;
class TimelineScrubber;

class DivergenceLane : public QWidget {
    Q_OBJECT
public:
    DivergenceLane(CompareSession* compare, ReplaySession* session, TimelineScrubber* timeline, QWidget* parent = nullptr);

    /// The tooltip at a point (tests; the ToolTip event shows it).
    QString toolTipAt(const QPoint& pos) const;
    /// The colour of a diverged frame's bar, and the bars' rectangle (tests).
    static QColor divergedColour();
    QRect barRect() const;
    QSize sizeHint() const override { return {800, 14}; }
    QSize minimumSizeHint() const override { return {200, 14}; }

signals:
    void seekRequested(int frame);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    bool event(QEvent*) override;

private:
    CompareSession* m_compare;
    ReplaySession* m_session;
    TimelineScrubber* m_timeline;
};

} // namespace vtxw
