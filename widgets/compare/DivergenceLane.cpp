// SPDX-License-Identifier: MIT
#include "compare/DivergenceLane.hpp"

#include "common/ToolTips.hpp"
#include "compare/CompareSession.hpp"
#include "session/ReplaySession.hpp"
#include "timeline/TimelineScrubber.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace vtxw {

namespace {
const QColor kDiverged(0xD5, 0x5E, 0x00); // Okabe–Ito vermilion, as the diff's decreases and B
} // namespace

DivergenceLane::DivergenceLane(CompareSession* compare, ReplaySession* session, TimelineScrubber* timeline, QWidget* parent)
    : QWidget(parent), m_compare(compare), m_session(session), m_timeline(timeline)
{
    setFixedHeight(14); // like the timeline's own lanes; with it the window still fits 800×600
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
    setVisible(false);
    auto repaint = qOverload<>(&QWidget::update);
    connect(compare, &CompareSession::laneChanged, this, repaint);
    connect(compare, &CompareSession::opened, this, [this] { setVisible(true); });
    connect(compare, &CompareSession::closed, this, [this] { setVisible(false); });
    connect(session->viewState(), &ViewState::zoomChanged, this, repaint);
    connect(session->viewState(), &ViewState::requestedFrameChanged, this, repaint);
}

QRect DivergenceLane::barRect() const
{
    // The timeline's lanes start at its axis' x0 and end at x1, in its own coordinates; the
    // lane sits in the same layout column, so map them across.
    const TimelineAxis& axis = m_timeline->axis();
    const int x0 = mapFromGlobal(m_timeline->mapToGlobal(QPoint(int(axis.x0), 0))).x();
    const int x1 = mapFromGlobal(m_timeline->mapToGlobal(QPoint(int(axis.x1), 0))).x();
    return QRect(x0, 1, std::max(1, x1 - x0), height() - 2);
}

void DivergenceLane::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect r = barRect();
    const QColor dim = palette().color(QPalette::Mid);
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    p.setPen(dim);
    p.drawText(QRect(4, 0, r.left() - 8, height()), Qt::AlignVCenter | Qt::AlignLeft, tr("diverge"));
    p.fillRect(r, palette().base());
    if (!m_compare->isActive() || !m_session->isOpen())
        return;
    const TimelineAxis& axis = m_timeline->axis();
    const auto& props = m_compare->propertyCounts();
    const auto& ents = m_compare->entityCounts();
    const int frames = int(std::min(props.size(), ents.size()));
    const int known = std::min(m_compare->comparedUpTo(), frames);
    // A frame differs when properties or entities do: replays of different games share no
    // entity, "71 entities, 0 properties differ", and must not leave the lane blank (issue 26 8c).
    auto differences = [&](int f) { return std::max(props[size_t(f)], ents[size_t(f)]); };
    uint32_t peak = 1;
    for (int f = 0; f < known; ++f)
        peak = std::max(peak, differences(f));
    const double scale = std::sqrt(double(peak));
    // One column per pixel: the largest count among the frames it covers.
    const int firstX = r.left(), lastX = r.right();
    auto xOf = [&](double frame) { return r.left() + (axis.x(frame) - axis.x0); };
    auto frameAtX = [&](double x) { return axis.frameAt(x - r.left() + axis.x0); };
    for (int x = firstX; x <= lastX; ++x) {
        const int fa = std::max(0, int(std::ceil(frameAtX(x - 0.5))));
        const int fb = std::min(frames - 1, int(std::floor(frameAtX(x + 0.5))));
        if (fa > fb)
            continue;
        uint32_t most = 0;
        bool anyKnown = false, anyUnknown = false, anyUnpaired = false, anyUnreadable = false;
        for (int f = fa; f <= fb; ++f) {
            if (m_compare->isUnreadable(f)) { // known even past comparedUpTo: progress posts runs as found
                anyUnreadable = true;
                continue;
            }
            if (f >= known) {
                anyUnknown = true;
                continue;
            }
            anyKnown = true;
            if (m_compare->partnerOf(f) < 0)
                anyUnpaired = true;
            most = std::max(most, differences(f));
        }
        if (anyUnreadable) // as the timeline's failed chunks: a column holding one is not "equal"
            p.fillRect(QRect(x, r.top(), 1, r.height()), QBrush(kDiverged, Qt::DiagCrossPattern));
        if (most > 0) {
            const int h = std::max(2, int(std::lround(double(r.height()) * std::sqrt(double(most)) / scale)));
            p.fillRect(QRect(x, r.bottom() - h + 1, 1, h), kDiverged);
        } else if (anyUnknown && !anyKnown && !anyUnreadable) {
            p.fillRect(QRect(x, r.top(), 1, r.height()), QBrush(dim, Qt::BDiagPattern));
        } else if (anyUnpaired) {
            p.fillRect(QRect(x, r.center().y(), 1, 1), dim);
        }
    }
    const int cur = m_session->viewState()->requestedFrame();
    if (cur >= axis.first && cur <= axis.last) {
        const int x = int(std::lround(xOf(cur)));
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawLine(x, r.top(), x, r.bottom());
    }
    if (m_compare->isLaneComputing()) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(r.adjusted(0, 0, -4, 0), Qt::AlignVCenter | Qt::AlignRight, tr("comparing… %1 %").arg(m_compare->laneProgressPercent()));
    }
}

QColor DivergenceLane::divergedColour()
{
    return kDiverged;
}

QString DivergenceLane::toolTipAt(const QPoint& pos) const
{
    const QRect r = barRect();
    if (pos.x() < r.left())
        return tr("<b>Divergence</b> from the compared replay: bar height = differing properties or entities at the frame, whichever is more (√ "
                  "scale); "
                  "<span style='color:%1'>■</span> differs, <span style='color:%1'>▨</span> cross-hatched: not compared, a frame could not be read, "
                  "hatched: not compared yet, dotted: the other replay has no frame here. "
                  "Go ▸ Next / Previous divergence jump between them.")
            .arg(kDiverged.name());
    if (!m_compare->isActive())
        return {};
    const TimelineAxis& axis = m_timeline->axis();
    const int frame = axis.frameIndexAt(pos.x() - r.left() + axis.x0);
    const int partner = m_compare->partnerOf(frame);
    if (partner < 0)
        return tr("Frame %1: the compared replay has no frame here").arg(frame);
    if (m_compare->isUnreadable(frame))
        return tr("Frame %1 ↔ frame %2: not compared, unreadable: %3")
            .arg(frame)
            .arg(partner)
            .arg(m_compare->unreadableReasonAt(frame).toHtmlEscaped());
    if (frame >= m_compare->comparedUpTo())
        return tr("Frame %1 ↔ frame %2: not compared yet").arg(frame).arg(partner);
    const uint32_t e = m_compare->entityCounts()[size_t(frame)], pr = m_compare->propertyCounts()[size_t(frame)];
    if (e == 0)
        return tr("Frame %1 ↔ frame %2: identical within tolerance").arg(frame).arg(partner);
    return tr("Frame %1 ↔ frame %2: <b>%3</b> entities, <b>%4</b> properties differ").arg(frame).arg(partner).arg(e).arg(pr);
}

void DivergenceLane::mousePressEvent(QMouseEvent* e)
{
    const QRect r = barRect();
    if (e->button() != Qt::LeftButton || e->position().x() < r.left() || !m_compare->isActive())
        return;
    const TimelineAxis& axis = m_timeline->axis();
    emit seekRequested(axis.frameIndexAt(e->position().x() - r.left() + axis.x0));
}

bool DivergenceLane::event(QEvent* e)
{
    if (showPositionToolTip(this, e, [this](const QPoint& p) { return toolTipAt(p); }))
        return true;
    return QWidget::event(e);
}

} // namespace vtxw
