#pragma once
// Seek by change for the GUI: scans for the next / previous frame where an entity's property
// changes or where a condition becomes true, on a worker thread, with progress and cancel.
// A new seek cancels the running one (latest wins); results arrive on the UI thread.

#include "vtxwidgets/EntityTreeModel.hpp"
#include "vtxwidgets/JobTracker.hpp"

#include <QObject>
#include <atomic>
#include <memory>

namespace vtxw {

class ReplaySession;

class ChangeSeeker : public QObject {
    Q_OBJECT
public:
    explicit ChangeSeeker(ReplaySession* session, QObject* parent = nullptr);
    ~ChangeSeeker() override;

    /// Next (forward) or previous frame where `path` of `entity` changes.
    void seekChange(const EntityKey& entity, const QString& path, bool forward);
    /// Next or previous frame where `condition` ("Health < 20") on `entity` becomes true.
    /// A malformed condition fails at once through finished().
    void seekCondition(const EntityKey& entity, const QString& condition, bool forward);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void started(const QString& description);
    void progress(int percent);
    /// frame < 0: not found (message says why) or cancelled.
    void finished(int frame, const QString& message);

private:
    void start(const EntityKey& entity, const QString& what, bool forward, bool condition);
    ReplaySession* m_session;
    JobTracker m_jobs{this};
};

} // namespace vtxw
