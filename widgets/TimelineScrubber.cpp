#include "vtxwidgets/TimelineScrubber.hpp"

#include "vtxwidgets/ReplaySession.hpp"

#include <QDateTime>
#include <QTimeZone>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace vtxw {

namespace {
constexpr int kLaneHeights[] = {18, 18, 12, 14, 22};
constexpr int kLabelWidth = 56;

QColor eventColour(const QString& type)
{
    // Okabe–Ito palette: distinguishable with common colour-vision deficiencies.
    static const QColor palette[] = {QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x00, 0x9E, 0x73),
                                     QColor(0xF0, 0xE4, 0x42), QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00),
                                     QColor(0xCC, 0x79, 0xA7)};
    return palette[qHash(type) % 7];
}
} // namespace

TimelineScrubber::TimelineScrubber(ReplaySession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus); // the window starts here: single-key shortcuts act
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFixedHeight(10 + kLaneHeights[0] + kLaneHeights[1] + kLaneHeights[2] + kLaneHeights[3] + kLaneHeights[4] + 8 + 18); // + hover label
    connect(session, &ReplaySession::opened, this, &TimelineScrubber::reload);
    connect(session, &ReplaySession::closed, this, &TimelineScrubber::reload);
    connect(session, &ReplaySession::currentFrameChanged, this, qOverload<>(&QWidget::update));
    connect(session, &ReplaySession::frameReady, this, qOverload<>(&QWidget::update));
    m_cachePoll.setInterval(150);
    connect(&m_cachePoll, &QTimer::timeout, this, &TimelineScrubber::refreshCacheState);
    m_cachePoll.start();
    reload();
}

void TimelineScrubber::reload()
{
    m_events.clear();
    m_gaps.clear();
    m_segments.clear();
    m_chunkRanges.clear();
    m_chunkStates.clear();
    m_axis.frameCount = std::max(1, m_session->frameCount());
    m_axis.showAll();
    announceRange();
    if (const auto& f = m_session->file()) {
        for (const auto& e : f->footer().events) {
            const int frame = m_session->frameAtGameTime(int64_t(double(e.gameTimeSeconds) * 1e7));
            m_events.push_back({frame, QString::fromStdString(e.type), QString::fromStdString(e.label), QString::fromStdString(e.entityUniqueId)});
        }
        std::stable_sort(m_events.begin(), m_events.end(), [](const EventMark& a, const EventMark& b) { return a.frame < b.frame; });
        for (uint32_t g : f->footer().times.gaps)
            m_gaps.push_back(int(g) - 1);
        for (uint32_t s : f->footer().times.segments)
            m_segments.push_back(int(s) - 1);
        for (const auto& c : f->chunks())
            m_chunkRanges.push_back({c.startFrame, c.endFrame});
    }
    resizeEvent(nullptr);
    refreshCacheState();
    update();
}

void TimelineScrubber::extend()
{
    const bool showingAll = m_axis.first <= 0 && m_axis.last >= m_axis.frameCount - 1;
    const double first = m_axis.first, last = m_axis.last;
    reload();
    if (!showingAll) {
        m_axis.first = first;
        m_axis.last = last;
        announceRange();
        update();
    }
}

void TimelineScrubber::refreshCacheState()
{
    if (!m_session->cache() || !isVisible())
        return;
    auto states = m_session->cache()->chunkStates();
    if (states != m_chunkStates) {
        m_chunkStates = std::move(states);
        update(laneRect(ChunksLane));
    }
}

void TimelineScrubber::setMarkers(int a, int b)
{
    m_markerA = a;
    m_markerB = b;
    update();
}

QRect TimelineScrubber::laneRect(Lane lane) const
{
    int y = 4;
    for (int l = 0; l < lane; ++l)
        y += kLaneHeights[l] + 2;
    return QRect(kLabelWidth, y, width() - kLabelWidth - 8, kLaneHeights[lane]);
}

int TimelineScrubber::laneAt(int y) const
{
    for (int l = 0; l < LaneCount; ++l) {
        const QRect r = laneRect(Lane(l));
        if (y >= r.top() - 1 && y <= r.bottom() + 1)
            return l;
    }
    return -1;
}

int TimelineScrubber::scrubLaneY() const { return laneRect(ScrubLane).center().y(); }

void TimelineScrubber::resizeEvent(QResizeEvent*)
{
    m_axis.x0 = kLabelWidth;
    m_axis.x1 = std::max(kLabelWidth + 10, width() - 8);
}

void TimelineScrubber::zoomIn(double factor, int anchorFrame)
{
    m_axis.zoom(factor, anchorFrame);
    announceRange();
    update();
}

void TimelineScrubber::showAll()
{
    m_axis.showAll();
    announceRange();
    update();
}

void TimelineScrubber::announceRange()
{
    if (m_axis.first == m_announcedFirst && m_axis.last == m_announcedLast)
        return;
    m_announcedFirst = m_axis.first;
    m_announcedLast = m_axis.last;
    emit visibleRangeChanged(m_axis.first, m_axis.last);
}

QString TimelineScrubber::frameLabel(int frame) const
{
    const double s = double(m_session->gameTimeTicks(frame)) / 1e7;
    QString text = tr("frame %1 · game %2 s").arg(frame).arg(s, 0, 'f', 3);
    if (const auto& f = m_session->file()) {
        int64_t utc = f->createdUtcTicks(frame);
        if (utc >= 621355968000000000LL)
            utc -= 621355968000000000LL; // .NET epoch → Unix epoch
        if (utc > 0)
            text += tr(" · UTC %1").arg(QDateTime::fromMSecsSinceEpoch(utc / 10000, QTimeZone::utc()).toString("yyyy-MM-dd HH:mm:ss.zzz"));
    }
    return text;
}

void TimelineScrubber::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QColor text = palette().color(QPalette::WindowText);
    const QColor dim = palette().color(QPalette::Mid);
    static const char* laneNames[] = {"", QT_TR_NOOP("events"), QT_TR_NOOP("gaps"), QT_TR_NOOP("chunks"), QT_TR_NOOP("scrub")};
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    for (int l = 1; l < LaneCount; ++l) {
        const QRect r = laneRect(Lane(l));
        p.setPen(dim);
        p.drawText(QRect(4, r.top(), kLabelWidth - 8, r.height()), Qt::AlignVCenter | Qt::AlignLeft, tr(laneNames[l]));
        p.fillRect(r, palette().base());
    }
    if (!m_session->isOpen())
        return;
    const double firstVisible = m_axis.first, lastVisible = m_axis.last;

    // Ruler: 1-2-5 steps, labels every ~90 px.
    const QRect ruler = laneRect(RulerLane);
    const double step = m_axis.labelStep(90);
    p.setPen(text);
    for (double f = std::ceil(firstVisible / step) * step; f <= lastVisible; f += step) {
        const int x = int(m_axis.x(f));
        p.drawLine(x, ruler.bottom() - 4, x, ruler.bottom());
        p.drawText(QRect(x + 2, ruler.top(), 90, ruler.height()), Qt::AlignVCenter | Qt::AlignLeft, QString::number(qint64(f)));
    }

    // Events: binary search the visible range; markers landing on the same pixel fold.
    const QRect ev = laneRect(EventsLane);
    auto lo = std::lower_bound(m_events.begin(), m_events.end(), int(std::floor(firstVisible)), [](const EventMark& e, int f) { return e.frame < f; });
    int lastX = INT_MIN;
    for (auto it = lo; it != m_events.end() && it->frame <= lastVisible; ++it) {
        const int x = int(m_axis.x(it->frame));
        if (x == lastX)
            continue;
        lastX = x;
        p.setPen(Qt::NoPen);
        p.setBrush(eventColour(it->type));
        const QPoint tri[3] = {{x, ev.top() + 2}, {x - 4, ev.bottom() - 1}, {x + 4, ev.bottom() - 1}};
        p.drawPolygon(tri, 3);
    }

    // Gaps (hatched) and segment boundaries.
    const QRect gr = laneRect(GapsLane);
    p.setBrush(QBrush(dim, Qt::BDiagPattern));
    p.setPen(Qt::NoPen);
    for (int g : m_gaps) {
        if (g < firstVisible - 1 || g > lastVisible + 1)
            continue;
        const int x = int(m_axis.x(g));
        p.drawRect(QRect(x - 6, gr.top(), 6, gr.height()));
    }
    p.setPen(QPen(text, 1, Qt::DashLine));
    for (int s : m_segments)
        if (s >= firstVisible && s <= lastVisible) {
            const int x = int(m_axis.x(s));
            p.drawLine(x, gr.top(), x, laneRect(ScrubLane).bottom());
        }

    // Chunks: cached / decoding / queued / not loaded / failed.
    const QRect cr = laneRect(ChunksLane);
    for (size_t c = 0; c < m_chunkRanges.size(); ++c) {
        const auto [s, e] = m_chunkRanges[c];
        if (e < firstVisible || s > lastVisible)
            continue;
        const int xa = std::max(cr.left(), int(m_axis.x(s))), xb = std::min(cr.right(), int(m_axis.x(e + 1)) - 1);
        const vtx::ChunkState st = c < m_chunkStates.size() ? m_chunkStates[c] : vtx::ChunkState::NotLoaded;
        QColor fill = palette().color(QPalette::Midlight);
        Qt::BrushStyle style = Qt::SolidPattern;
        switch (st) {
        case vtx::ChunkState::Cached: fill = QColor(0x00, 0x9E, 0x73); break;
        case vtx::ChunkState::Decoding: fill = QColor(0xE6, 0x9F, 0x00); break;
        case vtx::ChunkState::Queued: fill = QColor(0xE6, 0x9F, 0x00); style = Qt::Dense5Pattern; break;
        case vtx::ChunkState::Failed: fill = QColor(0xD5, 0x5E, 0x00); style = Qt::DiagCrossPattern; break;
        case vtx::ChunkState::NotLoaded: break;
        }
        p.fillRect(QRect(xa, cr.top() + 2, std::max(1, xb - xa), cr.height() - 4), QBrush(fill, style));
    }

    // Scrub bar, A/B markers and the playhead.
    const QRect sr = laneRect(ScrubLane);
    p.fillRect(sr.adjusted(0, sr.height() / 2 - 2, 0, -(sr.height() / 2 - 2)), dim);
    auto marker = [&](int frame, const QString& label, const QColor& c) {
        if (frame < firstVisible || frame > lastVisible)
            return;
        const int x = int(m_axis.x(frame));
        p.setPen(QPen(c, 2));
        p.drawLine(x, sr.top(), x, sr.bottom());
        p.drawText(QRect(x + 3, sr.top(), 20, sr.height()), Qt::AlignTop | Qt::AlignLeft, label);
    };
    marker(m_markerA, "A", QColor(0x00, 0x72, 0xB2));
    marker(m_markerB, "B", QColor(0xD5, 0x5E, 0x00));
    const int cur = m_session->currentFrame();
    if (cur >= firstVisible && cur <= lastVisible) {
        const int x = int(m_axis.x(cur));
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawLine(x, ruler.top(), x, sr.bottom());
        p.setBrush(palette().color(QPalette::Highlight));
        p.setPen(Qt::NoPen);
        p.drawEllipse(QPoint(x, sr.center().y()), 5, 5);
        if (m_session->isLoading()) { // thin "loading" mark, not a spinner
            p.setPen(QPen(QColor(0xE6, 0x9F, 0x00), 2));
            p.drawLine(x - 6, sr.bottom(), x + 6, sr.bottom());
        }
    }
    if (m_hoverX >= m_axis.x0 && m_hoverX <= m_axis.x1) {
        p.setPen(QPen(dim, 1, Qt::DotLine));
        p.drawLine(m_hoverX, ruler.top(), m_hoverX, sr.bottom());
        p.setPen(text);
        p.drawText(QRect(kLabelWidth, sr.bottom() + 1, width() - kLabelWidth - 8, 14), Qt::AlignLeft | Qt::AlignVCenter,
                   frameLabel(m_axis.frameIndexAt(m_hoverX)));
    }
}

void TimelineScrubber::mousePressEvent(QMouseEvent* e)
{
    if (!m_session->isOpen())
        return;
    const int lane = laneAt(int(e->position().y()));
    if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && lane == RulerLane)) {
        m_drag = Drag::Pan;
        m_panStartX = int(e->position().x());
        m_panStartFrame = m_axis.first;
        return;
    }
    if (e->button() != Qt::LeftButton)
        return;
    if (lane == EventsLane) {
        // Click on an event seeks to it.
        const int x = int(e->position().x());
        for (const auto& ev : m_events)
            if (std::abs(int(m_axis.x(ev.frame)) - x) <= 4) {
                emit seekRequested(ev.frame);
                return;
            }
    }
    m_drag = Drag::Seek;
    emit seekRequested(m_axis.frameIndexAt(e->position().x()));
}

void TimelineScrubber::mouseMoveEvent(QMouseEvent* e)
{
    m_hoverX = int(e->position().x());
    if (m_drag == Drag::Seek) {
        emit seekRequested(m_axis.frameIndexAt(e->position().x()));
    } else if (m_drag == Drag::Pan) {
        const double framesPerPixel = 1.0 / std::max(1e-9, m_axis.pixelsPerFrame());
        const double target = m_panStartFrame - (e->position().x() - m_panStartX) * framesPerPixel;
        m_axis.pan(target - m_axis.first);
        announceRange();
    }
    emit hoverChanged(m_axis.frameIndexAt(e->position().x()));
    update();
}

void TimelineScrubber::mouseReleaseEvent(QMouseEvent*) { m_drag = Drag::None; }

void TimelineScrubber::leaveEvent(QEvent*)
{
    m_hoverX = -1;
    update();
}

void TimelineScrubber::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (e->modifiers() & Qt::ControlModifier)
        m_axis.zoom(std::pow(1.25, steps), m_axis.frameAt(e->position().x()));
    else
        m_axis.pan(-steps * m_axis.span() * 0.1);
    announceRange();
    update();
    e->accept();
}

bool TimelineScrubber::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        if (laneAt(he->pos().y()) == EventsLane) {
            QStringList lines;
            for (const auto& ev : m_events)
                if (std::abs(int(m_axis.x(ev.frame)) - he->pos().x()) <= 4)
                    lines << QStringLiteral("<b>%1</b> %2<br>%3 · frame %4").arg(ev.type.toHtmlEscaped(), ev.label.toHtmlEscaped(), ev.entity.toHtmlEscaped()).arg(ev.frame);
            if (!lines.isEmpty()) {
                QToolTip::showText(he->globalPos(), lines.mid(0, 8).join("<hr>"), this);
                return true;
            }
        }
        QToolTip::showText(he->globalPos(), frameLabel(m_axis.frameIndexAt(he->pos().x())), this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace vtxw
