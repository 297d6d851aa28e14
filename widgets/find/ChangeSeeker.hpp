// SPDX-License-Identifier: MIT
#pragma once
// Seek by change for the GUI: scans for the next / previous frame where an entity's property
// changes or where a query expression becomes true for the frame, on a worker thread, with
// progress and cancel.
// A new seek cancels the running one (latest wins); results arrive on the UI thread.

#include "entities/EntityTreeModel.hpp"
#include "session/JobTracker.hpp"
#include "vtx/diff/FrameScan.hpp"

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
    /// Next or previous frame where `expression` ("Player.Health < 20", README "Query
    /// language") becomes true for the frame (some entity matches there and none did in the
    /// frame before). One that does not compile fails at once through finished(), with its
    /// column and a "did you mean".
    void seekCondition(const QString& expression, bool forward);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void started(const QString& description);
    void progress(int percent);
    /// frame < 0: not found (message says why) or cancelled.
    void finished(int frame, const QString& message);

private:
    void start(const EntityKey& entity, const QString& what, bool forward, bool condition);
    void run(vtx::FrameScanRequest request, const QString& description);
    ReplaySession* m_session;
    JobTracker m_jobs{this};
};

} // namespace vtxw
