#include "compare/CompareSession.hpp"


#include <QSettings>
#include <algorithm>

namespace vtxw {

CompareOptions CompareOptions::load()
{
    QSettings s;
    CompareOptions o;
    o.alignment = s.value("compare/alignment").toString() == QLatin1String("time") ? vtx::Alignment::Time : vtx::Alignment::Frame;
    o.offset = s.value("compare/offset", 0).toLongLong();
    o.epsilon = std::max(0.0, s.value("compare/epsilon", 0.0).toDouble());
    return o;
}

void CompareOptions::save() const
{
    QSettings s;
    s.setValue("compare/alignment", QString::fromLatin1(vtx::alignmentName(alignment)));
    s.setValue("compare/offset", qlonglong(offset));
    s.setValue("compare/epsilon", epsilon);
}

CompareSession::CompareSession(QObject* parent) : QObject(parent), m_options(CompareOptions::load()) {}

CompareSession::~CompareSession()
{
    m_laneJobs.cancel();
    m_frameJobs.cancel();
}

namespace {
/// B's cache is destroyed on a pool thread: joining its decoders may take a while.
void retire(std::unique_ptr<vtx::ChunkCache> cache)
{
    if (!cache)
        return;
    detail::startOnPool([cache = std::shared_ptr<vtx::ChunkCache>(std::move(cache))]() mutable { cache.reset(); });
}
} // namespace

void CompareSession::setFileA(std::shared_ptr<const vtx::ReplayFile> a)
{
    if (a == m_a)
        return;
    close();
    m_openJobs.cancel();
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
    m_openJobs.run([path](const JobToken&) { return vtx::ReplayFile::open(path.toStdString()); },
                   [this, path](JobOutcome outcome, auto result) {
                       if (outcome != JobOutcome::Current)
                           return;
                       m_openJobs.finish(m_openJobs.currentId());
                       m_openingPath.clear();
                       if (!result) {
                           emit openFailed(path, QString::fromStdString(result.message()));
                           return;
                       }
                       if (!m_a) {
                           emit openFailed(path, tr("The replay to compare with was closed."));
                           return;
                       }
                       close();
                       m_path = path;
                       m_b = std::move(*result);
                       m_sameLayout = vtx::sameLayout(m_a->schema(), m_b->schema());
                       // B's frames are a side view: half the default budget, so two files
                       // open never ask for more than the one did plus a half.
                       vtx::CacheOptions co;
                       co.budgetBytes = vtx::defaultCacheBudget() / 2;
                       m_cacheB = std::make_unique<vtx::ChunkCache>(m_b, co);
                       repair();
                       emit opened();
                       startLane();
                   });
}

void CompareSession::close()
{
    if (!m_b)
        return;
    m_laneJobs.cancel();
    m_frameJobs.cancel();
    retire(std::move(m_cacheB));
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
    emit closed();
}

void CompareSession::setOptions(const CompareOptions& options)
{
    if (options == m_options)
        return;
    m_options = options;
    m_options.save();
    if (m_b)
        repair(); // before anyone hears of the change: partnerOf() answers with the new pairing
    emit optionsChanged();
    if (!m_b)
        return;
    if (m_wantA >= 0)
        requestFrameFor(m_wantA);
    startLane();
}

void CompareSession::repair()
{
    m_partner.assign(size_t(m_a->frameCount()), -1);
    for (const vtx::FramePair& p : vtx::pairFrames(*m_a, *m_b, m_options.alignment, m_options.offset))
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
        m_frameJobs.cancel();
        emit frameBRequested();
        emit frameBReady();
        return;
    }
    // A frame in the chunk on hand needs no request (scrubbing frame by frame mostly is).
    if (const auto& c = m_frameB.chunk(); c && want >= c->startFrame() && want < c->startFrame() + int(c->frameCount())) {
        m_frameJobs.cancel();
        m_frameB = vtx::FrameHandle(c, want);
        emit frameBRequested();
        emit frameBReady();
        return;
    }
    const JobToken job = m_frameJobs.start();
    m_cacheB->request(
        want,
        [job, want](const vtx::Result<vtx::FrameHandle>& r) {
            job.post([job, want, r](JobOutcome outcome) {
                if (outcome != JobOutcome::Current)
                    return;
                auto* self = static_cast<CompareSession*>(job.owner());
                self->m_frameJobs.finish(job.id());
                if (self->m_wantB != want)
                    return;
                if (r)
                    self->m_frameB = *r;
                else
                    self->m_frameBError = QString::fromStdString(r.message());
                emit self->frameBReady();
            });
        },
        {true, 0});
    if (changed)
        emit frameBRequested();
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

void CompareSession::recomputeLane() { startLane(); }

void CompareSession::startLane()
{
    if (!m_a || !m_b)
        return;
    m_entityCounts.assign(size_t(m_a->frameCount()), 0);
    m_propertyCounts.assign(size_t(m_a->frameCount()), 0);
    m_comparedUpTo = 0;
    m_pairsDone = 0;
    m_pairsTotal = 0;
    m_firstDivergence = -1;
    m_laneComplete = false;
    m_laneError.clear();
    vtx::DivergeOptions options;
    options.alignment = m_options.alignment;
    options.offset = m_options.offset;
    options.tolerance.absolute = m_options.epsilon;
    options.maxFirstChanges = 0; // the lane needs counts; the diff panel shows the properties
    std::vector<int32_t> pairedFrames; // A's frames that have a partner, in order: pairs done → frames done
    for (size_t f = 0; f < m_partner.size(); ++f)
        if (m_partner[f] >= 0)
            pairedFrames.push_back(int32_t(f));
    auto paired = std::make_shared<const std::vector<int32_t>>(std::move(pairedFrames));
    auto a = m_a, b = m_b;
    const int framesA = m_a->frameCount();
    auto applyCounts = [framesA, paired](CompareSession* self, uint64_t done, uint64_t total, const std::vector<vtx::PairDivergence>& pairs) {
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
    m_laneJobs.run(
        [a, b, options, applyCounts](const JobToken& token) mutable {
            options.cancel = token.flag();
            options.progress = [token, applyCounts](uint64_t done, uint64_t total, const vtx::PairDivergence* fresh, size_t n) {
                token.post([token, applyCounts, done, total, pairs = std::vector<vtx::PairDivergence>(fresh, fresh + n)](JobOutcome outcome) {
                    if (outcome != JobOutcome::Current)
                        return;
                    auto* self = static_cast<CompareSession*>(token.owner());
                    applyCounts(self, done, total, pairs);
                    emit self->laneChanged();
                });
            };
            auto r = vtx::diverge(*a, *b, options);
            // The report's copy of every pair is not needed: the progress posts carried them.
            return r ? vtx::Status::ok() : vtx::Status(vtx::Error{r.message(), r.code()});
        },
        [this](JobOutcome outcome, vtx::Status status) {
            if (outcome != JobOutcome::Current)
                return;
            m_laneJobs.finish(m_laneJobs.currentId());
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
