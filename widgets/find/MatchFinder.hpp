// SPDX-License-Identifier: MIT
#pragma once
// Find all: every frame of the replay where a query expression holds (README "Query
// language"), scanned on a worker (chunk by chunk, the chunk on screen reused) with progress
// and cancel; latest wins. The answer feeds the timeline's matches lane.

#include "session/JobTracker.hpp"
#include "vtx/base/FrameSpan.hpp"

#include <QObject>
#include <QString>
#include <vector>

namespace vtxw {

class ReplaySession;

class MatchFinder : public QObject {
    Q_OBJECT
public:
    explicit MatchFinder(ReplaySession* session, QObject* parent = nullptr);
    ~MatchFinder() override;

    /// Scans the whole replay for `expression`; one that does not compile fails at once through
    /// failed() with its column and a "did you mean".
    void findAll(const QString& expression);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void started(const QString& description);
    void progress(int percent);
    /// The matching frames (sorted); `unsearched`: frames that could not be read (so not
    /// searched), also said in the message.
    void found(const QString& expression, const std::vector<int>& frames, const std::vector<vtx::FrameSpan>& unsearched, const QString& message);
    void failed(const QString& message);

private:
    ReplaySession* m_session;
    JobTracker m_jobs{this};
};

} // namespace vtxw
