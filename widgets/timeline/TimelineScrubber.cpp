// SPDX-License-Identifier: MIT
#include "timeline/TimelineScrubber.hpp"

#include "shell/Theme.hpp"

#include "common/ToolTips.hpp"
#include "session/ViewState.hpp"

#include "session/ReplaySession.hpp"
#include "shell/Theme.hpp"
#include "timeline/TimeFormat.hpp"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTimeZone>
#include <QToolTip>
#include <QWheelEvent>

namespace vtxw {

namespace {
// overview, ruler, events, bookmarks, matches, comparison, gaps, chunks, scrub (the matches lane
// took its 14 px from events, chunks and scrub: the window must still fit 800 × 600; the overview,
// bookmarks, matches and comparison lanes show only when they have something to show)
constexpr int kLaneHeights[] = {8, 18, 14, 12, 12, 14, 12, 10, 20};
constexpr int kFoldPixels = 6; ///< events closer than this share one marker with a count
const QColor kBookmarkColour(0xCC, 0x79, 0xA7);
constexpr int kLabelWidth = 64; ///< the lane names' column ("bookmarks" in the small font)

QColor eventColour(const QString& type)
{
    // Okabe–Ito palette: distinguishable with common colour-vision deficiencies.
    static const QColor palette[] = {QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x00, 0x9E, 0x73), QColor(0xF0, 0xE4, 0x42),
                                     QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7)};
    return palette[qHash(type) % 7];
}
} // namespace

TimelineScrubber::TimelineScrubber(ReplaySession* session, QWidget* parent) : QWidget(parent), m_session(session), m_view(session->viewState())
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus); // the window starts here: single-key shortcuts act
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    fitHeightToLanes();
    connect(session, &ReplaySession::opened, this, &TimelineScrubber::reload);
    connect(session, &ReplaySession::closed, this, &TimelineScrubber::reload);
    // Everything the scrub lane shows of the view comes from the view state.
    connect(m_view, &ViewState::requestedFrameChanged, this, [this] {
        followPlayhead();
        update();
    });
    connect(m_view, &ViewState::shownFrameChanged, this, qOverload<>(&QWidget::update));
    connect(m_view, &ViewState::loadingChanged, this, qOverload<>(&QWidget::update));
    connect(m_view, &ViewState::diffFramesChanged, this, qOverload<>(&QWidget::update));
    connect(m_view, &ViewState::loopChanged, this, qOverload<>(&QWidget::update));
    connect(m_view, &ViewState::zoomChanged, this, [this](double first, double last) {
        m_axis.first = first;
        m_axis.last = last;
        relayLanes(); // the overview lane shows while zoomed
        update();
    });
    m_cachePoll.setInterval(150);
    connect(&m_cachePoll, &QTimer::timeout, this, &TimelineScrubber::refreshCacheState);
    m_cachePoll.start();
    reload();
}

void TimelineScrubber::reload()
{
    m_events.clear();
    m_gaps.clear();
    m_matches.clear(); // another file: its matches are not this one's
    m_matchExpression.clear();
    m_matchesPartial = false;
    m_segments.clear();
    m_chunkRanges.clear();
    m_chunkStates.clear();
    m_damagedFrames.clear();
    m_axis.frameCount = std::max(1, m_session->frameCount());
    m_axis.first = m_view->zoomFirst(); // the view state keeps the zoom across growth
    m_axis.last = std::max(m_axis.first + 1, m_view->zoomLast());
    if (const auto& f = m_session->file()) {
        for (const auto& e : f->footer().events) {
            const ReplaySession::EventPlace place = m_session->placeEvent(double(e.gameTimeSeconds));
            m_events.push_back({place.frame, QString::fromStdString(e.type), QString::fromStdString(e.label),
                                QString::fromStdString(e.entityUniqueId), m_session->offClockNote(place)});
        }
        std::stable_sort(m_events.begin(), m_events.end(), [](const EventMark& a, const EventMark& b) { return a.frame < b.frame; });
        for (uint32_t g : f->footer().times.gaps)
            m_gaps.push_back(int(g) - 1);
        for (uint32_t s : f->footer().times.segments)
            m_segments.push_back(int(s) - 1);
        for (const auto& c : f->chunks())
            m_chunkRanges.push_back({c.startFrame, c.endFrame});
    }
    relayLanes();
    resizeEvent(nullptr);
    refreshCacheState();
    update();
}

bool TimelineScrubber::laneShown(Lane lane) const
{
    // Empty lanes collapse (UX.md): a replay without events or clock gaps, or before any Find
    // all, gives their room to the panels above (at 800 × 600 the diff had no row left).
    switch (lane) {
    case OverviewLane: return zoomed();
    case EventsLane: return !m_events.empty();
    case BookmarksLane: return !m_bookmarks.empty() && m_session->isOpen();
    case ComparisonLane: return m_hostedLane && !m_hostedLane->isHidden();
    case GapsLane: return !m_gaps.empty() || !m_segments.empty();
    case MatchesLane: return !m_matchExpression.isEmpty();
    default: return true;
    }
}

bool TimelineScrubber::zoomed() const
{
    return m_session->isOpen() && (m_axis.first > 0.5 || m_axis.last < double(m_axis.frameCount) - 1.5);
}

void TimelineScrubber::relayLanes()
{
    fitHeightToLanes();
    if (m_hostedLane && !m_hostedLane->isHidden()) {
        const QRect r = laneRect(ComparisonLane);
        m_hostedLane->setGeometry(0, r.top(), width(), r.height());
    }
}

void TimelineScrubber::hostComparisonLane(QWidget* lane)
{
    m_hostedLane = lane;
    lane->setParent(this);
    lane->installEventFilter(this); // shown and hidden with the comparison
    relayLanes();
}

void TimelineScrubber::fitHeightToLanes()
{
    // The lanes shown (4 px top margin, 2 px between), then the hover label's line: every pixel
    // counts towards the window's minimum height (it must fit 800 × 600).
    int lanesBottom = 4;
    for (int l = 0; l < LaneCount; ++l)
        if (laneShown(Lane(l)))
            lanesBottom += kLaneHeights[l] + 2;
    setFixedHeight(lanesBottom + 16);
}

void TimelineScrubber::extend()
{
    reload();
}

void TimelineScrubber::refreshCacheState()
{
    if (!m_session->cache() || !isVisible())
        return;
    auto states = m_session->cache()->chunkStates();
    const bool statesChanged = states != m_chunkStates;
    m_chunkStates = std::move(states);
    // Damage is found by whatever decodes a chunk (the cache, Find all, a plot's scan) or reads
    // a frame of it, so it is asked for at every poll, not only when a chunk's state changes.
    auto damaged = foundDamage();
    if (statesChanged || damaged != m_damagedFrames) {
        m_damagedFrames = std::move(damaged);
        update(laneRect(ChunksLane));
    }
}

std::vector<vtx::FrameSpan> TimelineScrubber::foundDamage() const
{
    std::vector<vtx::FrameSpan> spans;
    const auto& f = m_session->file();
    if (!f)
        return spans;
    for (size_t c = 0; c < m_chunkRanges.size(); ++c)
        if (const std::optional<vtx::ChunkDamage> d = chunkDamage(c))
            spans.push_back({d->firstFrame, d->laterFramesLost ? m_chunkRanges[c].second : d->firstFrame, d->reason});
    return spans;
}

std::optional<vtx::ChunkDamage> TimelineScrubber::chunkDamage(size_t c) const
{
    const auto& f = m_session->file();
    if (!f || c >= m_chunkRanges.size())
        return std::nullopt;
    // Damage in the stream, found by any decode of the chunk (the cache's, a scan's) ...
    if (std::optional<vtx::ChunkDamage> d = f->knownDamage(c))
        return d;
    // ... or a frame that failed its check when the viewer read it from the cached chunk
    // (FlatBuffers frames are checked as they are first read).
    if (c < m_chunkStates.size() && m_chunkStates[c] == vtx::ChunkState::Cached && m_session->cache())
        if (const std::optional<vtx::FrameHandle> h = m_session->cache()->peek(m_chunkRanges[c].first))
            return h->chunk()->damage();
    return std::nullopt;
}

const vtx::FrameSpan* TimelineScrubber::damagedFramesIn(size_t c) const
{
    for (const vtx::FrameSpan& d : m_damagedFrames)
        if (d.first >= m_chunkRanges[c].first && d.first <= m_chunkRanges[c].second)
            return &d;
    return nullptr;
}

void TimelineScrubber::setBookmarks(const QList<Bookmark>& bookmarks)
{
    m_bookmarks = bookmarks;
    relayLanes(); // the lane appears with the first bookmark, goes with the last
    update();
}

double TimelineScrubber::overviewX(double frame) const
{
    return m_axis.x0 + frame / std::max(1.0, m_axis.frameCount - 1) * (m_axis.x1 - m_axis.x0);
}

int TimelineScrubber::overviewFrameAt(int x) const
{
    const double t = (x - m_axis.x0) / std::max(1e-9, m_axis.x1 - m_axis.x0);
    return int(std::clamp(std::lround(t * (m_axis.frameCount - 1)), 0L, long(std::max(0.0, m_axis.frameCount - 1))));
}

void TimelineScrubber::centreViewOn(int frame)
{
    m_axis.pan(frame - (m_axis.first + m_axis.span() / 2));
    announceRange();
    update();
}

void TimelineScrubber::followPlayhead()
{
    const int cur = m_view->requestedFrame();
    if (m_drag == Drag::Seek || (m_axis.first <= 0 && m_axis.last >= m_axis.frameCount - 1))
        return;
    if (cur >= m_axis.first && cur <= m_axis.last)
        return;
    // Page along: the playhead re-enters a tenth of the view from the edge it moves towards,
    // so playing forward shows what comes next.
    const double margin = m_axis.span() * 0.1;
    const double target = cur > m_axis.last ? cur - margin : cur + margin - m_axis.span();
    m_axis.pan(target - m_axis.first);
    announceRange();
}

std::vector<std::pair<int, int>> TimelineScrubber::eventMarkers() const
{
    std::vector<std::pair<int, int>> out;
    auto lo =
        std::lower_bound(m_events.begin(), m_events.end(), int(std::floor(m_axis.first)), [](const EventMark& e, int f) { return e.frame < f; });
    int groupX = INT_MIN;
    for (auto it = lo; it != m_events.end() && it->frame <= m_axis.last; ++it) {
        const int x = int(m_axis.x(it->frame));
        if (!out.empty() && x - groupX < kFoldPixels) {
            ++out.back().second;
            continue;
        }
        groupX = x;
        out.push_back({it->frame, 1});
    }
    return out;
}

int TimelineScrubber::laneCentreY(const QString& lane) const
{
    static const char* names[] = {"overview", "ruler", "events", "bookmarks", "matches", "comparison", "gaps", "chunks", "scrub"};
    for (int l = 0; l < LaneCount; ++l)
        if (lane == QLatin1String(names[l]))
            return laneShown(Lane(l)) ? laneRect(Lane(l)).center().y() : -1;
    return -1;
}

QString TimelineScrubber::legend(Lane lane) const
{
    switch (lane) {
    case OverviewLane:
        return tr("<b>Overview</b>: the whole replay; the frame shows the part on screen when zoomed. Click or drag to move the view.");
    case RulerLane:
        return tr("<b>Ruler</b> in the time unit chosen in Settings%1. Drag to pan.")
            .arg(clock().note().isEmpty() ? QString() : QStringLiteral(" (%1)").arg(clock().note().toHtmlEscaped()));
    case BookmarksLane:
        return tr("<b>Bookmarks</b> <span style='color:%1'>▼</span> of this replay (Ctrl+B adds, ' and Shift+' jump). Click one to seek.")
            .arg(kBookmarkColour.name());
    case ComparisonLane: return {}; // the hosted lane answers for itself
    case EventsLane: return tr("<b>Events</b> from the footer, coloured by type; a number counts events folded into one marker.");
    case GapsLane:
        return tr("<b>Gaps</b> (hatched): the wall clock jumped before the next frame. <b>Segments</b> (dashed lines): the game clock changed "
                  "direction or a mark was set.");
    case MatchesLane:
        return m_matchExpression.isEmpty() ? tr("<b>Matches</b> of an expression over the whole replay: Go ▸ Find all frames where… (Ctrl+Shift+E).")
                                           : tr("<b>Matches</b> of <tt>%1</tt>: %2 frames%3. Click a mark to seek.%4")
                                                 .arg(m_matchExpression.toHtmlEscaped())
                                                 .arg(m_matches.size())
                                                 .arg(m_matchesPartial ? tr(" so far") : QString())
                                                 .arg(m_unsearched.empty() ? QString()
                                                                           : tr(" <span style='color:#D55E00'>▨</span> not searched: "
                                                                                "the frames could not be read."));
    case ChunksLane:
        return tr("<b>Chunks</b>: <span style='color:#009E73'>■</span> cached, <span style='color:#E69F00'>■</span> decoding (dotted: queued), grey "
                  "not loaded, <span style='color:#D55E00'>▨</span> failed to decode, or frames found damaged in a chunk that "
                  "decoded.");
    case ScrubLane:
        return tr("<b>Scrub</b>: click or drag to seek. <span style='color:#0072B2'>A</span> and <span style='color:#D55E00'>B</span> are the diff's "
                  "frames; the shaded band is the A–B loop.");
    case LaneCount: break;
    }
    return {};
}

QString TimelineScrubber::toolTipAt(const QPoint& pos) const
{
    const int lane = laneAt(pos.y());
    if (lane < 0)
        return {};
    if (pos.x() < kLabelWidth)
        return legend(Lane(lane));
    const auto& f = m_session->file();
    if (!f)
        return {};
    const int x = pos.x();
    switch (Lane(lane)) {
    case RulerLane:
    case ComparisonLane: break; // the ruler's labels say it; the hosted lane answers for itself
    case OverviewLane: return tr("Overview: %1").arg(frameLabel(overviewFrameAt(x)));
    case BookmarksLane:
        if (const Bookmark* b = bookmarkAt(x))
            return tr("<b>Bookmark</b> %1<br>%2").arg(b->name.toHtmlEscaped(), frameLabel(b->frame));
        break;
    case EventsLane: {
        QStringList lines;
        int more = 0;
        for (const auto& ev : m_events)
            if (std::abs(int(m_axis.x(ev.frame)) - x) <= kFoldPixels) {
                if (lines.size() < 8)
                    lines << QStringLiteral("<b>%1</b> %2<br>%3 · frame %4")
                                 .arg(ev.type.toHtmlEscaped(), ev.label.toHtmlEscaped(), ev.entity.toHtmlEscaped())
                                 .arg(ev.offClock.isEmpty() ? QString::number(ev.frame)
                                                            : tr("%1, the nearest: no frame's time reaches it (%2)").arg(ev.frame).arg(ev.offClock));
                else
                    ++more;
            }
        if (more > 0)
            lines << tr("and %1 more").arg(more);
        if (!lines.isEmpty())
            return lines.join("<hr>");
        break;
    }
    case GapsLane: {
        for (int g : m_gaps) {
            const int gx = int(m_axis.x(g));
            if (x >= gx - 7 && x <= gx + 1) {
                const int before = std::max(0, g - 1);
                const int64_t a = utcMsOfFrame(*f, before), b = utcMsOfFrame(*f, g);
                const QString clock = a < 0 || b < 0 ? tr("unknown") : tr("%1 s").arg(double(b - a) / 1000.0, 0, 'f', 3);
                return tr("<b>Gap</b> before frame %1<br>wall clock jumped %2<br>game time +%3 s")
                    .arg(g)
                    .arg(clock)
                    .arg(double(f->gameTimeTicks(g) - f->gameTimeTicks(before)) / 1e7, 0, 'f', 3);
            }
        }
        std::vector<int> starts{0};
        for (int s2 : m_segments)
            if (s2 > 0)
                starts.push_back(s2);
        std::sort(starts.begin(), starts.end());
        starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
        const int frame = m_axis.frameIndexAt(x);
        const auto it = std::upper_bound(starts.begin(), starts.end(), frame);
        const int index = int(it - starts.begin()) - 1;
        const int first = starts[size_t(index)], last = it == starts.end() ? int(m_axis.frameCount) - 1 : *it - 1;
        return tr("<b>Segment %1</b> of %2: frames %3–%4 (%5 → %6)")
            .arg(index + 1)
            .arg(starts.size())
            .arg(first)
            .arg(last)
            .arg(gameTimeText(f->gameTimeTicks(first)), gameTimeText(f->gameTimeTicks(last)));
    }
    case MatchesLane:
        if (const int m = nearestMatch(x); m >= 0)
            return tr("<b>Match</b> of <tt>%1</tt><br>%2").arg(m_matchExpression.toHtmlEscaped(), frameLabel(m));
        if (const vtx::FrameSpan* s = unsearchedAt(m_axis.frameIndexAt(x)))
            return tr("<b>Not searched</b>: frames %1–%2 could not be read: %3<br>%4")
                .arg(s->first)
                .arg(s->last)
                .arg(QString::fromStdString(s->reason).toHtmlEscaped(), frameLabel(m_axis.frameIndexAt(x)));
        break;
    case ChunksLane: {
        const int frame = m_axis.frameIndexAt(x);
        for (size_t c = 0; c < m_chunkRanges.size(); ++c)
            if (frame >= m_chunkRanges[c].first && frame <= m_chunkRanges[c].second) {
                static const char* names[] = {QT_TR_NOOP("not loaded"), QT_TR_NOOP("queued"), QT_TR_NOOP("decoding"), QT_TR_NOOP("cached"),
                                              QT_TR_NOOP("failed to decode")};
                const vtx::ChunkState st = c < m_chunkStates.size() ? m_chunkStates[c] : vtx::ChunkState::NotLoaded;
                const auto& chunks = f->chunks();
                const double kb = c < chunks.size() ? double(chunks[c].chunkSizeBytes) / 1024.0 : 0;
                QString damage;
                if (const std::optional<vtx::ChunkDamage> d = chunkDamage(c)) {
                    damage = (d->laterFramesLost ? tr("<br><span style='color:#D55E00'>▨</span> damaged: frames %1–%2 cannot be read: %3")
                                                       .arg(d->firstFrame)
                                                       .arg(m_chunkRanges[c].second)
                                                 : tr("<br><span style='color:#D55E00'>▨</span> damaged: frame %1 cannot be read (the first "
                                                      "found): %3")
                                                       .arg(d->firstFrame))
                                 .arg(QString::fromStdString(d->reason).toHtmlEscaped());
                    if (d->laterFramesLost && d->firstFrame > m_chunkRanges[c].first)
                        damage += tr("<br>frames %1–%2, before the damage, can be read").arg(m_chunkRanges[c].first).arg(d->firstFrame - 1);
                }
                return tr("<b>Chunk %1</b>: frames %2–%3 (%4 frames)<br>%5 KB in the file · %6%7")
                    .arg(c)
                    .arg(m_chunkRanges[c].first)
                    .arg(m_chunkRanges[c].second)
                    .arg(m_chunkRanges[c].second - m_chunkRanges[c].first + 1)
                    .arg(kb, 0, 'f', 1)
                    .arg(tr(names[int(st)]), damage);
            }
        break;
    }
    case ScrubLane:
        if (m_view->loopFirst() >= 0 && m_axis.frameIndexAt(x) >= m_view->loopFirst() && m_axis.frameIndexAt(x) <= m_view->loopLast())
            return tr("%1<br>A–B loop: frames %2–%3").arg(frameLabel(m_axis.frameIndexAt(x))).arg(m_view->loopFirst()).arg(m_view->loopLast());
        break;
    case LaneCount: break;
    }
    return frameLabel(m_axis.frameIndexAt(x));
}

void TimelineScrubber::setMatches(const QString& expression, std::vector<int> frames, bool partial, std::vector<vtx::FrameSpan> unsearched)
{
    m_matchExpression = expression;
    m_matches = std::move(frames);
    m_unsearched = std::move(unsearched);
    m_matchesPartial = partial;
    relayLanes(); // the lane appears with the first expression, goes with the last
    update();
}

const vtx::FrameSpan* TimelineScrubber::unsearchedAt(int frame) const
{
    auto it = std::upper_bound(m_unsearched.begin(), m_unsearched.end(), frame, [](int f, const vtx::FrameSpan& s) { return f < s.first; });
    if (it == m_unsearched.begin())
        return nullptr;
    --it;
    return frame <= it->last ? &*it : nullptr;
}

int TimelineScrubber::nearestMatch(int x) const
{
    // The match nearest to x within 4 px, else -1.
    const int frame = m_axis.frameIndexAt(x);
    auto it = std::lower_bound(m_matches.begin(), m_matches.end(), frame);
    int best = -1, bestDistance = 5;
    for (auto c : {it, it == m_matches.begin() ? it : std::prev(it)})
        if (c != m_matches.end()) {
            const int d = std::abs(int(m_axis.x(*c)) - x);
            if (d < bestDistance) {
                bestDistance = d;
                best = *c;
            }
        }
    return best;
}

void TimelineScrubber::paintMatches(QPainter& p) const
{
    // Runs of matching frames, merged per pixel so a million matches paint as fast as ten; a
    // single frame is at least 2 px wide to stay visible.
    const QRect mr = laneRect(MatchesLane);
    const QColor fill(0x56, 0xB4, 0xE9);
    const double first = m_axis.first, last = m_axis.last;
    // Frames not searched (unreadable) are hatched as the chunks lane hatches a failed chunk,
    // at least 2 px wide: an empty lane there would read as "no match".
    for (const vtx::FrameSpan& s : m_unsearched) {
        if (s.last < first || s.first > last)
            continue;
        const int xa = std::max(mr.left(), int(m_axis.x(s.first))), xb = std::min(mr.right(), int(m_axis.x(s.last + 1)));
        p.fillRect(QRect(xa, mr.top() + 1, std::max(2, xb - xa), mr.height() - 2), QBrush(QColor(0xD5, 0x5E, 0x00), Qt::DiagCrossPattern));
    }
    auto it = std::lower_bound(m_matches.begin(), m_matches.end(), int(std::floor(first)));
    int runStart = -1, runEnd = -1;
    auto flush = [&] {
        if (runStart >= 0)
            p.fillRect(QRect(runStart, mr.top() + 1, std::max(2, runEnd - runStart), mr.height() - 2), fill);
    };
    for (; it != m_matches.end() && *it <= last; ++it) {
        const int xa = std::max(mr.left(), int(m_axis.x(*it))), xb = std::min(mr.right(), int(m_axis.x(*it + 1)));
        if (runStart >= 0 && xa <= runEnd + 1) {
            runEnd = std::max(runEnd, xb);
            continue;
        }
        flush();
        runStart = xa;
        runEnd = xb;
    }
    flush();
    if (!m_matchExpression.isEmpty()) {
        // The count replaces the lane's name (a box over the lane would hide the last marks).
        p.save();
        const QRect label(4, mr.top() - 1, kLabelWidth - 8, mr.height() + 2);
        p.fillRect(label, palette().window());
        QFont bold = p.font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(palette().color(QPalette::WindowText));
        // "720 hits": the count of matching frames, said as one (a bare "720" read as nothing).
        const QString count = tr("%1 hits").arg(m_matches.size()) + (m_matchesPartial ? QStringLiteral("…") : QString());
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft, p.fontMetrics().elidedText(count, Qt::ElideRight, label.width()));
        p.restore();
    }
}

int TimelineScrubber::labelLeftOf(int x, int gap, int textWidth) const
{
    // Right of its mark, or left of it where the widget's edge would cut it (the last ruler
    // label, a B marker at the last frame, the last event count).
    return x + gap + textWidth <= width() - 2 ? x + gap : x - gap - textWidth;
}

QRect TimelineScrubber::laneRect(Lane lane) const
{
    int y = 4;
    for (int l = 0; l < lane; ++l)
        if (laneShown(Lane(l)))
            y += kLaneHeights[l] + 2;
    return QRect(kLabelWidth, y, width() - kLabelWidth - 8, laneShown(lane) ? kLaneHeights[lane] : 0);
}

int TimelineScrubber::laneAt(int y) const
{
    for (int l = 0; l < LaneCount; ++l) {
        const QRect r = laneRect(Lane(l));
        if (laneShown(Lane(l)) && y >= r.top() - 1 && y <= r.bottom() + 1)
            return l;
    }
    return -1;
}

int TimelineScrubber::scrubLaneY() const
{
    return laneRect(ScrubLane).center().y();
}

void TimelineScrubber::resizeEvent(QResizeEvent*)
{
    m_axis.x0 = kLabelWidth;
    m_axis.x1 = std::max(kLabelWidth + 10, width() - 8);
    relayLanes();
}

const Bookmark* TimelineScrubber::bookmarkAt(int x) const
{
    // The nearest flag within its half-width.
    const Bookmark* best = nullptr;
    int bestDistance = 6;
    for (const Bookmark& b : m_bookmarks)
        if (const int d = std::abs(int(m_axis.x(b.frame)) - x); d < bestDistance && b.frame >= m_axis.first && b.frame <= m_axis.last) {
            best = &b;
            bestDistance = d;
        }
    return best;
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
    relayLanes(); // the overview lane shows while zoomed
    m_view->setZoom(m_axis.first, m_axis.last);
}

QString TimelineScrubber::frameLabel(int frame) const
{
    const auto& f = m_session->file();
    if (!f)
        return tr("frame %1").arg(frame);
    QString text = tr("frame %1 · game %2").arg(frame).arg(frameGameTimeText(*f, frame));
    if (utcMsOfFrame(*f, frame) >= 0)
        text += tr(" · UTC %1").arg(QDateTime::fromMSecsSinceEpoch(utcMsOfFrame(*f, frame), QTimeZone::utc()).toString("yyyy-MM-dd HH:mm:ss.zzz"));
    return text;
}

void TimelineScrubber::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    update();
}

const FrameClock& TimelineScrubber::clock() const
{
    m_clock.set(m_session->file(), m_unit);
    return m_clock;
}

QString TimelineScrubber::rulerUnitName() const
{
    switch (clock().shownUnit()) {
    case TimeUnit::GameTime: return tr("game");
    case TimeUnit::Utc: return tr("UTC");
    case TimeUnit::Frame: break;
    }
    return m_clock.note().isEmpty() ? tr("frame") : tr("frame ⚠");
}

std::vector<FrameClock::Tick> TimelineScrubber::rulerTicks()
{
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    const QFontMetrics fm(small);
    return clock().ticks(
        m_axis.first, m_axis.last, m_axis.x1 - m_axis.x0,
        [&fm](std::string_view s) { return double(fm.horizontalAdvance(QString::fromUtf8(s.data(), qsizetype(s.size())))); }, 14);
}

QString TimelineScrubber::rulerText(int frame, double stepSeconds) const
{
    const auto& f = m_session->file();
    return f ? rulerLabel(*f, frame, m_unit, stepSeconds) : QString::number(frame);
}

void TimelineScrubber::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QColor text = palette().color(QPalette::WindowText);
    const QColor dim = palette().color(QPalette::Mid);
    static const char* laneNames[] = {QT_TR_NOOP("overview"), "", QT_TR_NOOP("events"), QT_TR_NOOP("bookmarks"),
                                      QT_TR_NOOP("matches"),  "", QT_TR_NOOP("gaps"),   QT_TR_NOOP("chunks"),
                                      QT_TR_NOOP("scrub")};
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    for (int l = 0; l < LaneCount; ++l) {
        if (l == RulerLane || l == ComparisonLane || !laneShown(Lane(l)))
            continue;
        const QRect r = laneRect(Lane(l));
        p.setPen(dim);
        p.drawText(QRect(4, r.top(), kLabelWidth - 8, r.height()), Qt::AlignVCenter | Qt::AlignLeft, tr(laneNames[l]));
        p.fillRect(r, palette().base());
    }
    if (!m_session->isOpen()) {
        // Said, not left as blank lanes that look like a replay still loading.
        const QRect lanes = laneRect(ChunksLane).united(laneRect(ScrubLane));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(lanes, Qt::AlignCenter, tr("No replay open."));
        return;
    }
    const double firstVisible = m_axis.first, lastVisible = m_axis.last;

    // Ruler: round values of the unit (AxisTicks), one precision for all labels, placed at the
    // frames where those values fall; a file without times of the unit reads in frames.
    const QRect ruler = laneRect(RulerLane);
    const QFontMetrics fm = p.fontMetrics();
    p.setPen(text);
    int labelEnd = INT_MIN; // a clock that runs unevenly can bunch ticks: never overlap labels
    for (const FrameClock::Tick& t : rulerTicks()) {
        const int x = int(std::lround(m_axis.x(t.frame)));
        const int advance = fm.horizontalAdvance(t.label);
        const int left = labelLeftOf(x, 2, advance);
        if (left < labelEnd + 6)
            continue;
        p.drawLine(x, ruler.bottom() - 4, x, ruler.bottom());
        p.drawText(QRect(left, ruler.top(), advance + 2, ruler.height()), Qt::AlignVCenter | Qt::AlignLeft, t.label);
        labelEnd = left + advance;
    }
    p.setPen(clock().note().isEmpty() ? dim : QColor(0xD5, 0x5E, 0x00));
    p.drawText(QRect(4, ruler.top(), kLabelWidth - 8, ruler.height()), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(rulerUnitName(), Qt::ElideRight, kLabelWidth - 8));

    // Bookmarks: a flag in their own lane with the name beside it where there is room (on the
    // ruler the names covered its labels); left of the flag where the widget's edge would cut it.
    const QRect br = laneRect(BookmarksLane);
    for (size_t i = 0; br.height() > 0 && i < size_t(m_bookmarks.size()); ++i) {
        const Bookmark& b = m_bookmarks[qsizetype(i)];
        if (b.frame < firstVisible || b.frame > lastVisible)
            continue;
        const int x = int(m_axis.x(b.frame));
        p.setPen(Qt::NoPen);
        p.setBrush(kBookmarkColour);
        const QPoint flag[3] = {{x - 5, br.top()}, {x + 5, br.top()}, {x, br.bottom()}};
        p.drawPolygon(flag, 3);
        // Room up to the next flag (or the edge); the last flag by the right edge names itself
        // on its left, up to the previous flag.
        const int nextX = i + 1 < size_t(m_bookmarks.size()) ? int(m_axis.x(m_bookmarks[qsizetype(i) + 1].frame)) : width() - 8;
        const int prevX = i > 0 ? int(m_axis.x(m_bookmarks[qsizetype(i) - 1].frame)) : kLabelWidth;
        const bool rightOfFlag = nextX - x >= 40 || i + 1 < size_t(m_bookmarks.size());
        const int room = std::min(160, (rightOfFlag ? nextX - x : x - prevX) - 12);
        if (room > 30) {
            const QString name = p.fontMetrics().elidedText(b.name, Qt::ElideRight, room);
            const int advance = p.fontMetrics().horizontalAdvance(name);
            p.setPen(kBookmarkColour);
            p.drawText(QRect(rightOfFlag ? x + 7 : x - 7 - advance, br.top() - 1, advance + 2, br.height() + 2), Qt::AlignLeft | Qt::AlignVCenter,
                       name);
        }
    }

    // Overview: the whole file, with the visible range framed when zoomed.
    const QRect ov = laneRect(OverviewLane);
    int lastOverviewX = INT_MIN; // one tick per pixel column however many events share it
    for (const auto& e : m_events)
        if (const int x = int(overviewX(e.frame)); x != lastOverviewX) {
            lastOverviewX = x;
            p.fillRect(QRect(x, ov.top() + 2, 1, ov.height() - 4), dim);
        }
    for (const Bookmark& b : m_bookmarks)
        p.fillRect(QRect(int(overviewX(b.frame)) - 1, ov.top(), 2, ov.height()), kBookmarkColour);
    p.fillRect(QRect(int(overviewX(m_view->requestedFrame())) - 1, ov.top(), 2, ov.height()), palette().color(QPalette::Highlight));
    if (firstVisible > 0 || lastVisible < m_axis.frameCount - 1) {
        const int xa = int(overviewX(firstVisible)), xb = std::max(xa + 3, int(overviewX(lastVisible)));
        QColor band = palette().color(QPalette::Highlight);
        band.setAlpha(60);
        p.fillRect(QRect(xa, ov.top(), xb - xa, ov.height()), band);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(xa, ov.top(), xb - xa, ov.height() - 1));
    }

    // Events: binary search the visible range; markers closer than kFoldPixels fold into one
    // with a count.
    const QRect ev = laneRect(EventsLane);
    for (const auto& [frame, count] : eventMarkers()) {
        const int x = int(m_axis.x(frame));
        const auto it = std::lower_bound(m_events.begin(), m_events.end(), frame, [](const EventMark& e, int f) { return e.frame < f; });
        // Hollow when every event folded here lies where no frame's time reaches (past the
        // end): shown at the nearest frame, not recorded there.
        const bool offClock = std::all_of(it, it + count, [](const EventMark& m) { return !m.offClock.isEmpty(); });
        p.setPen(offClock ? QPen(eventColour(it->type), 1.5) : QPen(Qt::NoPen));
        p.setBrush(offClock ? QBrush(Qt::NoBrush) : QBrush(eventColour(it->type)));
        const QPoint tri[3] = {{x, ev.top() + 2}, {x - 4, ev.bottom() - 1}, {x + 4, ev.bottom() - 1}};
        p.drawPolygon(tri, 3);
        if (count > 1) {
            p.setPen(text);
            const QString n = QString::number(count);
            const int advance = p.fontMetrics().horizontalAdvance(n);
            p.drawText(QRect(labelLeftOf(x, 5, advance), ev.top(), advance + 2, ev.height()), Qt::AlignLeft | Qt::AlignVCenter, n);
        }
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

    paintMatches(p);

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
        case vtx::ChunkState::Queued:
            fill = QColor(0xE6, 0x9F, 0x00);
            style = Qt::Dense5Pattern;
            break;
        case vtx::ChunkState::Failed:
            // A chunk that failed after some of its frames were whole: those read (streamed
            // out each time, not held), only the damaged span below is hatched.
            if (damagedFramesIn(c))
                break;
            fill = QColor(0xD5, 0x5E, 0x00);
            style = Qt::DiagCrossPattern;
            break;
        case vtx::ChunkState::NotLoaded: break;
        }
        p.fillRect(QRect(xa, cr.top() + 2, std::max(1, xb - xa), cr.height() - 4), QBrush(fill, style));
    }
    // Frames found damaged in a chunk that decoded, hatched as a failed chunk is, at least 2 px
    // wide: a cached chunk's colour alone would say every frame of it reads.
    for (const vtx::FrameSpan& d : m_damagedFrames) {
        if (d.last < firstVisible || d.first > lastVisible)
            continue;
        const int xa = std::max(cr.left(), int(m_axis.x(d.first))), xb = std::min(cr.right(), int(m_axis.x(d.last + 1)));
        p.fillRect(QRect(xa, cr.top() + 2, std::max(2, xb - xa), cr.height() - 4), QBrush(QColor(0xD5, 0x5E, 0x00), Qt::DiagCrossPattern));
    }

    // Scrub bar, A/B markers and the playhead.
    const QRect sr = laneRect(ScrubLane);
    p.fillRect(sr.adjusted(0, sr.height() / 2 - 2, 0, -(sr.height() / 2 - 2)), dim);
    if (m_view->loopFirst() >= 0 && m_view->loopLast() >= firstVisible && m_view->loopFirst() <= lastVisible) {
        const int xa = std::max(sr.left(), int(m_axis.x(m_view->loopFirst()))), xb = std::min(sr.right(), int(m_axis.x(m_view->loopLast())));
        // A band strong enough to see on either theme, closed by brackets at the loop's ends
        // (issue 26 8g: the faint band alone read as nothing).
        const QColor edge = palette().color(QPalette::Highlight);
        QColor band = edge;
        band.setAlpha(90);
        p.fillRect(QRect(xa, sr.top(), std::max(1, xb - xa), sr.height()), band);
        p.setPen(QPen(edge, 2));
        for (int f : {m_view->loopFirst(), m_view->loopLast()})
            if (f >= firstVisible && f <= lastVisible) {
                const int x = int(m_axis.x(f));
                const int d = f == m_view->loopFirst() ? 4 : -4;
                p.drawPolyline(
                    QPolygon({QPoint(x + d, sr.top() + 1), QPoint(x, sr.top() + 1), QPoint(x, sr.bottom() - 1), QPoint(x + d, sr.bottom() - 1)}));
            }
    }
    auto marker = [&](int frame, const QString& label, const QColor& c) {
        if (frame < firstVisible || frame > lastVisible)
            return;
        const int x = int(m_axis.x(frame));
        p.setPen(QPen(c, 2));
        p.drawLine(x, sr.top(), x, sr.bottom());
        const int advance = p.fontMetrics().horizontalAdvance(label);
        p.drawText(QRect(labelLeftOf(x, 3, advance), sr.top(), advance + 2, sr.height()), Qt::AlignTop | Qt::AlignLeft, label);
    };
    // The diff's pair, picked for the base (on the dark theme the light pair's blue A read at
    // 2.4:1 against the lane).
    const SemanticColours pair = semanticColours();
    marker(m_view->frameA(), "A", pair.increase);
    marker(m_view->frameB(), "B", pair.decrease);
    // The playhead and the hover line start under the ruler's labels, which are centred in the
    // lane and are digits (nothing under the baseline): drawn from the ruler's top, the line cut
    // through "200" (review 4, item 15). A head on the tick band marks the frame on the ruler.
    const int underLabels = std::min(ruler.top() + (ruler.height() - fm.height()) / 2 + fm.ascent() + 1, ruler.bottom() - 3);
    const int cur = m_view->requestedFrame();
    if (cur >= firstVisible && cur <= lastVisible) {
        const int x = int(m_axis.x(cur));
        // Flat caps: a square one would start the line a pixel higher, on the labels' baseline.
        p.setPen(QPen(palette().color(QPalette::Highlight), 2, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(x, underLabels, x, sr.bottom());
        p.setPen(Qt::NoPen);
        p.setBrush(palette().color(QPalette::Highlight));
        const QPoint head[3] = {{x - 5, underLabels}, {x + 5, underLabels}, {x, ruler.bottom() + 2}};
        p.drawPolygon(head, 3);
        p.drawEllipse(QPoint(x, sr.center().y()), 5, 5);
        if (m_view->isLoading()) { // thin "loading" mark, not a spinner
            p.setPen(QPen(QColor(0xE6, 0x9F, 0x00), 2));
            p.drawLine(x - 6, sr.bottom(), x + 6, sr.bottom());
        }
    }
    if (m_hoverX >= m_axis.x0 && m_hoverX <= m_axis.x1) {
        p.setPen(QPen(dim, 1, Qt::DotLine));
        p.drawLine(m_hoverX, underLabels, m_hoverX, sr.bottom());
        p.setPen(text);
        p.drawText(QRect(kLabelWidth, sr.bottom() + 1, width() - kLabelWidth - 8, 14), Qt::AlignLeft | Qt::AlignVCenter,
                   frameLabel(m_axis.frameIndexAt(m_hoverX)));
    } else if (!clock().note().isEmpty()) { // why the ruler reads in frames, where the hover text goes
        p.setPen(QColor(0xD5, 0x5E, 0x00));
        p.drawText(QRect(kLabelWidth, sr.bottom() + 1, width() - kLabelWidth - 8, 14), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("Ruler in frame numbers: %1").arg(clock().note()));
    }
}

void TimelineScrubber::mousePressEvent(QMouseEvent* e)
{
    if (!m_session->isOpen())
        return;
    const int lane = laneAt(int(e->position().y()));
    if (e->button() == Qt::LeftButton && lane == OverviewLane) {
        m_drag = Drag::Overview;
        centreViewOn(overviewFrameAt(int(e->position().x())));
        return;
    }
    if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && lane == RulerLane)) {
        m_drag = Drag::Pan;
        m_panStartX = int(e->position().x());
        m_panStartFrame = m_axis.first;
        return;
    }
    if (e->button() != Qt::LeftButton)
        return;
    if (lane == BookmarksLane) {
        if (const Bookmark* b = bookmarkAt(int(e->position().x()))) {
            emit seekRequested(b->frame);
            return;
        }
    }
    if (lane == MatchesLane) {
        if (const int m = nearestMatch(int(e->position().x())); m >= 0) {
            emit seekRequested(m);
            return;
        }
    }
    if (lane == EventsLane) {
        // Click on an event seeks to it.
        const int x = int(e->position().x());
        for (const auto& [frame, count] : eventMarkers())
            if (std::abs(int(m_axis.x(frame)) - x) <= 4) {
                emit seekRequested(frame);
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
    } else if (m_drag == Drag::Overview) {
        centreViewOn(overviewFrameAt(int(e->position().x())));
    } else if (m_drag == Drag::Pan) {
        const double framesPerPixel = 1.0 / std::max(1e-9, m_axis.pixelsPerFrame());
        const double target = m_panStartFrame - (e->position().x() - m_panStartX) * framesPerPixel;
        m_axis.pan(target - m_axis.first);
        announceRange();
    }
    emit hoverChanged(m_axis.frameIndexAt(e->position().x()));
    update();
}

void TimelineScrubber::mouseReleaseEvent(QMouseEvent*)
{
    m_drag = Drag::None;
}

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

bool TimelineScrubber::eventFilter(QObject* watched, QEvent* e)
{
    if (watched == m_hostedLane && (e->type() == QEvent::ShowToParent || e->type() == QEvent::HideToParent))
        relayLanes();
    return QWidget::eventFilter(watched, e);
}

bool TimelineScrubber::event(QEvent* e)
{
    if (showPositionToolTip(this, e, [this](const QPoint& p) { return toolTipAt(p); }))
        return true;
    return QWidget::event(e);
}

} // namespace vtxw
