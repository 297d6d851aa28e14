// SPDX-License-Identifier: MIT
#include "find/MatchFinder.hpp"

#include "session/ReplaySession.hpp"
#include "vtx/query/QueryScan.hpp"

#include <QPointer>

namespace vtxw {

MatchFinder::MatchFinder(ReplaySession* session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(session, &ReplaySession::closed, this, &MatchFinder::cancel);
}

MatchFinder::~MatchFinder()
{
    m_jobs.cancel();
}

void MatchFinder::cancel()
{
    if (m_jobs.cancel())
        emit failed(tr("Find all cancelled"));
}

void MatchFinder::findAll(const QString& expression)
{
    cancel();
    auto file = m_session->file();
    if (!file) {
        emit failed(tr("Open a replay first"));
        return;
    }
    vtx::query::ExpressionError error;
    auto e = vtx::query::Expression::compile(expression.toStdString(), file->schema(), &error);
    if (!e) {
        emit failed(QString::fromStdString(error.text()));
        return;
    }
    QPointer<MatchFinder> self(this);
    std::shared_ptr<const vtx::DecodedChunk> shown = m_session->viewState()->shownFrame().chunk();
    auto work = [self, file, expr = std::move(*e), shown](const JobToken& job) {
        vtx::query::QueryScanOptions opt;
        opt.listEntities = false; // the lane needs frames only
        opt.cancel = job.flag();
        opt.decoded = {shown};
        opt.progress = [self, job](int64_t done, int64_t total) {
            const int percent = total > 0 ? int(done * 100 / total) : 100;
            job.postIfCurrent([self, percent] { emit self->progress(percent); });
        };
        return vtx::query::scanQuery(*file, expr, opt);
    };
    // Superseded: the newer search reports; cancelled: cancel() reported it.
    m_jobs.runLatest(std::move(work), [self, expression](vtx::Result<vtx::query::QueryScanResult> r) {
        if (!r) {
            emit self->failed(QString::fromStdString(r.message()));
            return;
        }
        if (r->cancelled)
            return;
        std::vector<int> frames;
        frames.reserve(r->frames.size());
        for (const auto& m : r->frames)
            frames.push_back(m.frame);
        QString message = tr("%n frame(s) where %1", nullptr, int(frames.size())).arg(expression);
        // The count, not the reason: the reason names the whole path and ran into the frame
        // counter at 1366 px (review 5 #8); the matches lane's tooltip gives each one.
        if (r->framesUnreadable > 0)
            message += tr(" — %n unreadable frame(s) not searched (hatched on the matches lane)", nullptr, int(r->framesUnreadable));
        emit self->found(expression, frames, r->unreadable, message);
    });
    emit started(tr("Finding every frame where %1").arg(expression));
}

} // namespace vtxw
