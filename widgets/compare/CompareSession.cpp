// SPDX-License-Identifier: MIT
#include "compare/CompareSession.hpp"

#include "session/ReplaySession.hpp"

#include <QSettings>
#include <algorithm>

namespace vtxw {

CompareSession::CompareSession(ViewState* view, QObject* parent) : QObject(parent), m_view(view)
{
    view->setComparePairing(ComparePairing::load());
    connect(view, &ViewState::comparePairingChanged, this, &CompareSession::onPairingChanged);
    // B is a replay like A: opened, cached and fetched by a session of its own, whose view state
    // (B's playhead) this comparison moves. B's frames are a side view: half the default budget,
    // so two files open never ask for more than the one did plus a half.
    m_sessionB = new ReplaySession(&m_viewB, this);
    m_sessionB->setCacheBudget(vtx::defaultCacheBudget() / 2);
    connect(m_sessionB, &ReplaySession::opened, this, &CompareSession::onOpenedB);
    connect(m_sessionB, &ReplaySession::openFailed, this, [this](const QString& path, const QString& message) {
        m_openingPath.clear();
        emit openFailed(path, message);
    });
    connect(&m_viewB, &ViewState::shownFrameChanged, this, [this] {
        const vtx::FrameHandle& shown = m_viewB.shownFrame();
        if (m_wantB < 0 || shown.isNull() || int(shown.index()) != m_wantB)
            return; // an older answer shown while the wanted one decodes
        m_frameB = shown;
        m_frameBError.clear();
        emit frameBReady();
    });
    connect(&m_viewB, &ViewState::frameFailed, this, [this](int frame, const QString& message) {
        if (frame != m_wantB)
            return;
        m_frameBError = message;
        emit frameBReady();
    });
}

CompareSession::~CompareSession()
{
    m_laneJobs.cancel();
}

void CompareSession::setFileA(std::shared_ptr<const vtx::ReplayFile> a)
{
    if (a == m_a)
        return;
    close();
    m_a = std::move(a);
}

void CompareSession::openAsync(const QString& path)
{
    if (!m_a) {
        emit openFailed(path, tr("Open a replay first: the second file is compared with it."));
        return;
    }
    m_openingPath = path;
    emit opening(path);
    m_sessionB->openAsync(path);
}

void CompareSession::onOpenedB()
{
    const QString path = m_openingPath;
    m_openingPath.clear();
    if (!m_a) {
        m_sessionB->close();
        emit openFailed(path, tr("The replay to compare with was closed."));
        return;
    }
    resetComparison();
    m_path = m_sessionB->path();
    m_b = m_sessionB->file();
    m_sameLayout = vtx::sameLayout(m_a->schema(), m_b->schema());
    repair();
    m_view->setComparing(true);
    emit opened();
    startLane();
}

void CompareSession::resetComparison()
{
    m_laneJobs.cancel();
    m_b.reset();
    m_path.clear();
    m_partner.clear();
    m_frameB = {};
    m_wantA = m_wantB = -1;
    m_frameBError.clear();
    m_entityCounts.clear();
    m_propertyCounts.clear();
    m_comparedUpTo = 0;
    m_pairsDone = m_pairsTotal = 0;
    m_firstDivergence = -1;
    m_laneComplete = false;
    m_laneError.clear();
}

void CompareSession::close()
{
    if (!m_b)
        return;
    resetComparison();
    m_sessionB->close();
    m_view->setComparing(false);
    emit closed();
}

void CompareSession::onPairingChanged()
{
    pairing().save();
    if (m_b)
        repair(); // before repaired(): partnerOf() answers with the new pairing
    emit repaired();
    if (!m_b)
        return;
    if (m_wantA >= 0)
        requestFrameFor(m_wantA);
    startLane();
}

void CompareSession::repair()
{
    m_partner.assign(size_t(m_a->frameCount()), -1);
    for (const vtx::FramePair& p : vtx::pairFrames(*m_a, *m_b, pairing().alignment, pairing().offset))
        m_partner[size_t(p.frameA)] = p.frameB;
}

int CompareSession::partnerOf(int frameA) const
{
    return frameA >= 0 && size_t(frameA) < m_partner.size() ? m_partner[size_t(frameA)] : -1;
}

void CompareSession::requestFrameFor(int frameA)
{
    if (!m_b)
        return;
    m_wantA = frameA;
    const int want = partnerOf(frameA);
    const bool changed = want != m_wantB;
    m_wantB = want;
    m_frameBError.clear();
    if (want < 0 || (!m_frameB.isNull() && m_frameB.index() == want)) {
        emit frameBRequested();
        emit frameBReady();
        return;
    }
    // A frame in the chunk on hand needs no request (scrubbing frame by frame mostly is).
    if (const auto& c = m_frameB.chunk(); c && want >= c->startFrame() && want < c->startFrame() + int(c->frameCount())) {
        m_frameB = vtx::FrameHandle(c, want);
        emit frameBRequested();
        emit frameBReady();
        return;
    }
    if (changed)
        emit frameBRequested();
    // B's session fetches it (latest wins) and shows it in B's view state: frameBReady then.
    if (m_viewB.requestedFrame() != want)
        m_viewB.setRequestedFrame(want);
    else
        m_viewB.requestAgain();
}

int CompareSession::laneProgressPercent() const
{
    if (m_laneComplete)
        return 100;
    return m_pairsTotal ? int(m_pairsDone * 100 / m_pairsTotal) : 0;
}

void CompareSession::cancelLane()
{
    if (m_laneJobs.cancel())
        emit laneFinished();
}

void CompareSession::recomputeLane()
{
    startLane();
}

void CompareSession::startLane()
{
    if (!m_a || !m_b)
        return;
    m_entityCounts.assign(size_t(m_a->frameCount()), 0);
    m_propertyCounts.assign(size_t(m_a->frameCount()), 0);
    m_unreadable.assign(size_t(m_a->frameCount()), 0);
    m_unreadableRuns.clear();
    m_unreadableCount = 0;
    m_comparedUpTo = 0;
    m_pairsDone = 0;
    m_pairsTotal = 0;
    m_firstDivergence = -1;
    m_laneComplete = false;
    m_laneError.clear();
    vtx::DivergeOptions options;
    options.alignment = pairing().alignment;
    options.offset = pairing().offset;
    options.tolerance.absolute = pairing().epsilon;
    options.maxFirstChanges = 0; // the lane needs counts; the diff panel shows the properties
    // A damaged chunk in A or B must not hide the rest of the comparison (review 5 #4): its
    // pairs are hatched as unreadable and the lane goes on, as Find all and the plot do.
    options.skipUnreadable = true;
    std::vector<int32_t> pairedFrames; // A's frames that have a partner, in order: pairs done → frames done
    for (size_t f = 0; f < m_partner.size(); ++f)
        if (m_partner[f] >= 0)
            pairedFrames.push_back(int32_t(f));
    auto paired = std::make_shared<const std::vector<int32_t>>(std::move(pairedFrames));
    auto a = m_a, b = m_b;
    const int framesA = m_a->frameCount();
    auto applyCounts = [framesA, paired](CompareSession* self, uint64_t done, uint64_t total, const std::vector<vtx::PairDivergence>& pairs,
                                         const std::vector<vtx::UnreadablePairs>& unreadable) {
        for (const vtx::UnreadablePairs& run : unreadable) {
            // The run's pairs are consecutive in A's order: A's paired frames from first to last.
            for (int32_t f = std::max(0, run.first.frameA); f <= run.last.frameA && size_t(f) < self->m_unreadable.size(); ++f)
                if (self->partnerOf(f) >= 0 && !self->m_unreadable[size_t(f)]) {
                    self->m_unreadable[size_t(f)] = 1;
                    ++self->m_unreadableCount;
                }
            self->m_unreadableRuns.push_back(run);
        }
        for (const vtx::PairDivergence& p : pairs) {
            const size_t f = size_t(p.frames.frameA);
            if (f < self->m_entityCounts.size()) {
                self->m_entityCounts[f] = p.entities;
                self->m_propertyCounts[f] = p.properties;
                if (self->m_firstDivergence < 0 || p.frames.frameA < self->m_firstDivergence)
                    self->m_firstDivergence = p.frames.frameA;
            }
        }
        self->m_pairsDone = done;
        self->m_pairsTotal = total;
        self->m_comparedUpTo = done >= paired->size() ? framesA : (*paired)[size_t(done)];
    };
    m_laneJobs.runLatest(
        [a, b, options, applyCounts](const JobToken& token) mutable {
            options.cancel = token.flag();
            options.progress = [token, applyCounts](const vtx::DivergeProgress& progress) {
                token.postIfCurrent([token, applyCounts, done = progress.pairsDone, total = progress.pairsTotal,
                                     pairs = std::vector<vtx::PairDivergence>(progress.divergent.begin(), progress.divergent.end()),
                                     unreadable = std::vector<vtx::UnreadablePairs>(progress.unreadable.begin(), progress.unreadable.end())] {
                    auto* self = static_cast<CompareSession*>(token.owner());
                    applyCounts(self, done, total, pairs, unreadable);
                    emit self->laneChanged();
                });
            };
            auto r = vtx::diverge(*a, *b, options);
            // The report's copy of every pair is not needed: the progress posts carried them.
            return r ? vtx::Status::ok() : vtx::Status(vtx::Error{r.message(), r.code()});
        },
        [this](const vtx::Status& status) {
            if (status) {
                m_laneComplete = true;
                m_comparedUpTo = int(m_entityCounts.size());
            } else {
                m_laneError = QString::fromStdString(status.message());
            }
            emit laneChanged();
            emit laneFinished();
        });
    emit laneChanged();
}

QString CompareSession::unreadableReasonAt(int frameA) const
{
    if (!isUnreadable(frameA))
        return {};
    // The last run starting at or before the frame (runs come in A's order).
    auto it = std::upper_bound(m_unreadableRuns.begin(), m_unreadableRuns.end(), frameA,
                               [](int f, const vtx::UnreadablePairs& run) { return f < run.first.frameA; });
    return it == m_unreadableRuns.begin() ? QString() : QString::fromStdString(std::prev(it)->reason);
}

int CompareSession::nextDivergence(int frame, bool forward) const
{
    const int known = std::min(m_comparedUpTo, int(m_entityCounts.size()));
    if (forward) {
        for (int f = std::max(0, frame + 1); f < known; ++f)
            if (m_entityCounts[size_t(f)] > 0)
                return f;
    } else {
        for (int f = std::min(frame - 1, known - 1); f >= 0; --f)
            if (m_entityCounts[size_t(f)] > 0)
                return f;
    }
    return -1;
}

} // namespace vtxw
