// SPDX-License-Identifier: MIT
#pragma once
// Comparing the open replay (A) with a second file (B): File ▸ Compare with… and
// `vtxscope A.vtx --compare B.vtx`. Opens B on a worker, pairs A's frames with B's (by frame or
// game time, shifted by an offset: vtx::pairFrames), loads the B frame paired with the playhead
// from B's own chunk cache (latest wins), and computes the divergence lane — per frame of A the
// number of differing entities and properties, exactly what `vtxscope-cli diverge` counts — with
// vtx::diverge on a JobTracker job that posts its counts chunk by chunk, with progress and cancel.
// The UI thread never opens, decodes or compares.

#include "session/JobTracker.hpp"
#include "session/ViewState.hpp"
#include "vtx/cache/ChunkCache.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace vtxw {

class ReplaySession;

class CompareSession : public QObject {
    Q_OBJECT
public:
    /// The pairing is `view`'s (ViewState::comparePairing), loaded from QSettings here and
    /// saved when it changes.
    explicit CompareSession(ViewState* view, QObject* parent = nullptr);
    ViewState* viewState() const { return m_view; }
    ~CompareSession() override;

    /// The replay compared against (A): the window's open file; null when none is open
    /// (closes the comparison).
    void setFileA(std::shared_ptr<const vtx::ReplayFile> a);
    /// Opens B on a worker; emits opened() or openFailed(). Needs A.
    void openAsync(const QString& path);
    void close();

    bool isActive() const { return bool(m_b); }
    bool isOpening() const { return !m_openingPath.isEmpty(); }
    QString path() const { return m_path; }
    QString openingPath() const { return m_openingPath; }
    const std::shared_ptr<const vtx::ReplayFile>& fileB() const { return m_b; }
    /// B's frames can be read through A's schema: the diff panel and the map compare them
    /// directly (otherwise only the lane, which compares by name, can).
    bool sameLayout() const { return m_sameLayout; }

    /// The view state's pairing, which this session follows: a new alignment, offset or
    /// tolerance re-pairs, reloads the B frame and recomputes the lane.
    const ComparePairing& pairing() const { return m_view->comparePairing(); }

    /// B's frame paired with A's `frameA`, or -1 when B has none there.
    int partnerOf(int frameA) const;

    /// Asks for B's frame paired with `frameA` (latest wins); frameBReady() when it is on hand.
    void requestFrameFor(int frameA);
    /// The frame of A whose partner was last asked for, and that partner (-1: none).
    int wantedFrameA() const { return m_wantA; }
    int wantedFrameB() const { return m_wantB; }
    /// The B frame on hand (may lag the wanted one while it loads; null before the first).
    const vtx::FrameHandle& frameB() const { return m_frameB; }
    /// The wanted B frame is not on hand yet.
    bool isLoadingB() const { return m_wantB >= 0 && (m_frameB.isNull() || m_frameB.index() != m_wantB); }
    /// Why the wanted B frame could not be read (empty when fine).
    const QString& frameBError() const { return m_frameBError; }

    // The divergence lane.
    /// Per frame of A: differing entities / properties (0 where equal or not yet compared).
    const std::vector<uint32_t>& entityCounts() const { return m_entityCounts; }
    const std::vector<uint32_t>& propertyCounts() const { return m_propertyCounts; }
    /// Frames of A compared so far: every frame of A before this one has its count (frames
    /// without a partner in B count as compared, with nothing to compare).
    int comparedUpTo() const { return m_comparedUpTo; }
    bool isLaneComplete() const { return m_laneComplete; }
    bool isLaneComputing() const { return m_laneJobs.isRunning(); }
    /// Why the lane stopped (B could not be paired, a read error outside any chunk), empty when
    /// fine. Frames that cannot be read do not stop it: they are unreadable().
    const QString& laneError() const { return m_laneError; }
    /// Frame `frameA` of A was not compared because its frame or its partner in B cannot be
    /// read (a damaged chunk, a frame that fails verification).
    bool isUnreadable(int frameA) const { return frameA >= 0 && size_t(frameA) < m_unreadable.size() && m_unreadable[size_t(frameA)]; }
    /// How many frames of A are unreadable() so far, and why the first of them is (the file named).
    int unreadableCount() const { return m_unreadableCount; }
    QString unreadableReason() const { return m_unreadableRuns.empty() ? QString() : QString::fromStdString(m_unreadableRuns.front().reason); }
    /// Why unreadable frame `frameA` could not be compared (the file named), empty when it is not unreadable.
    QString unreadableReasonAt(int frameA) const;
    int laneProgressPercent() const;
    /// The first divergent frame of A (-1: none known yet).
    int firstDivergence() const { return m_firstDivergence; }
    /// Stops the lane's computation (what is filled in stays).
    void cancelLane();
    /// Restarts the lane's computation.
    void recomputeLane();

    /// The next divergent frame of A after `frame` (before it when !forward) among the frames
    /// compared so far, or -1.
    int nextDivergence(int frame, bool forward) const;

signals:
    void opening(const QString& path);
    void opened();
    void openFailed(const QString& path, const QString& message);
    void closed();
    /// B's partners were worked out again for a new pairing (partnerOf() answers with it).
    void repaired();
    /// The wanted B frame arrived (or failed: frameBError()).
    void frameBReady();
    /// The wanted B frame changed (now loading unless already on hand).
    void frameBRequested();
    /// More of the lane is known (or it was reset).
    void laneChanged();
    void laneFinished();

private:
    void onPairingChanged();
    void onOpenedB();
    void resetComparison();
    void repair();
    void startLane();

    std::shared_ptr<const vtx::ReplayFile> m_a, m_b;
    QString m_path, m_openingPath;
    bool m_sameLayout = false;
    ViewState* m_view;
    std::vector<int32_t> m_partner; ///< per frame of A
    ViewState m_viewB; ///< B's own playhead and shown frame
    ReplaySession* m_sessionB = nullptr; ///< opens B, owns its cache, fetches its frames

    int m_wantA = -1, m_wantB = -1;
    vtx::FrameHandle m_frameB;
    QString m_frameBError;

    std::vector<uint32_t> m_entityCounts, m_propertyCounts;
    int m_comparedUpTo = 0;
    uint64_t m_pairsDone = 0, m_pairsTotal = 0;
    int m_firstDivergence = -1;
    std::vector<char> m_unreadable; ///< per frame of A: not compared, unreadable
    std::vector<vtx::UnreadablePairs> m_unreadableRuns; ///< as posted, in A's order
    int m_unreadableCount = 0;
    bool m_laneComplete = false;
    QString m_laneError;

    JobTracker m_laneJobs{this};
};

} // namespace vtxw
