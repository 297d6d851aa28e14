// SPDX-License-Identifier: MIT
#include "find/ChangeSeeker.hpp"

#include "session/ReplaySession.hpp"
#include "vtx/diff/FrameScan.hpp"

#include <QPointer>
#include <QThreadPool>

namespace vtxw {

ChangeSeeker::ChangeSeeker(ReplaySession* session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(session, &ReplaySession::closed, this, &ChangeSeeker::cancel);
}

ChangeSeeker::~ChangeSeeker()
{
    m_jobs.cancel();
}

void ChangeSeeker::cancel()
{
    if (m_jobs.cancel())
        emit finished(-1, tr("Search cancelled"));
}

void ChangeSeeker::seekChange(const EntityKey& entity, const QString& path, bool forward)
{
    start(entity, path, forward, false);
}

void ChangeSeeker::seekCondition(const QString& expression, bool forward)
{
    cancel();
    auto file = m_session->file();
    if (!file) {
        emit finished(-1, tr("Open a replay first"));
        return;
    }
    vtx::query::ExpressionError error;
    auto e = vtx::query::Expression::compile(expression.toStdString(), file->schema(), &error);
    if (!e) {
        emit finished(-1, QString::fromStdString(error.text()));
        return;
    }
    vtx::FrameScanRequest req;
    req.mode = vtx::FrameScanRequest::Mode::ConditionBecomesTrue;
    req.condition = std::move(*e);
    req.from = m_session->viewState()->requestedFrame();
    req.forward = forward;
    run(std::move(req), tr("Searching for the %1 frame where %2").arg(forward ? tr("next") : tr("previous"), expression));
}

void ChangeSeeker::start(const EntityKey& entity, const QString& what, bool forward, bool)
{
    cancel();
    auto file = m_session->file();
    if (!file || !entity.isValid() || what.isEmpty()) {
        emit finished(-1, tr("Select an entity and a property first"));
        return;
    }
    vtx::FrameScanRequest req;
    req.entity = {uint32_t(entity.bucket), entity.uniqueId.toStdString()};
    req.from = m_session->viewState()->requestedFrame();
    req.forward = forward;
    req.mode = vtx::FrameScanRequest::Mode::NextChange;
    req.path = what.toStdString();
    run(std::move(req), tr("Searching %1.%2 for the %3 change").arg(entity.uniqueId, what, forward ? tr("next") : tr("previous")));
}

void ChangeSeeker::run(vtx::FrameScanRequest req, const QString& description)
{
    auto file = m_session->file();
    const bool forward = req.forward;
    QPointer<ChangeSeeker> self(this);
    // The scan starts in the chunk on screen, which is already decoded.
    std::shared_ptr<const vtx::DecodedChunk> shown = m_session->viewState()->shownFrame().chunk();
    auto work = [self, file, req = std::move(req), shown](const JobToken& job) {
        vtx::FrameScanControl ctl;
        ctl.cancel = job.flag();
        ctl.decoded = {shown};
        ctl.progress = [self, job](int64_t done, int64_t total) {
            const int percent = total > 0 ? int(done * 100 / total) : 100;
            job.postIfCurrent([self, percent] { emit self->progress(percent); });
        };
        return vtx::scanFrames(*file, req, ctl);
    };
    // Superseded: the newer seek reports itself; cancelled: cancel() reported it.
    m_jobs.runLatest(std::move(work), [self, forward](vtx::Result<vtx::FrameScanResult> r) {
        if (!r) {
            emit self->finished(-1, QString::fromStdString(r.message()));
            return;
        }
        if (r->cancelled)
            return;
        if (!r->frame) {
            emit self->finished(-1, forward ? tr("No later frame found") : tr("No earlier frame found"));
            return;
        }
        emit self->finished(*r->frame, tr("Found at frame %1").arg(*r->frame));
    });
    emit started(description);
}

} // namespace vtxw
