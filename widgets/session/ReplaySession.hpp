// SPDX-License-Identifier: MIT
#pragma once
// The open replay as the GUI sees it: the file and its chunk cache, and the frame source of the
// view state: it hears of every requested frame, asks the cache for it (latest wins) and
// publishes what it shows — loading, the shown frame or why it failed — back into the view
// state, which panels observe. Opening runs on a worker thread; frames arrive on the UI thread.
// The UI thread never decodes.

#include "session/JobTracker.hpp"
#include "session/ViewState.hpp"
#include "vtx/cache/AccessTrace.hpp"
#include "vtx/cache/ChunkCache.hpp"
#include "vtx/file/GameClock.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <QElapsedTimer>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>

namespace vtxw {

class ReplaySession : public QObject, public FrameSource {
    Q_OBJECT
public:
    /// Becomes `view`'s frame source: the requested frame is `view`'s, the shown one goes there.
    explicit ReplaySession(ViewState* view, QObject* parent = nullptr);
    ~ReplaySession() override;

    /// Opens on a worker thread; emits opened() or openFailed().
    void openAsync(const QString& path);
    void close();

    bool isOpen() const { return bool(m_file); }
    bool isOpening() const { return m_opening; }
    QString path() const { return m_path; }
    const std::shared_ptr<const vtx::ReplayFile>& file() const { return m_file; }
    vtx::ChunkCache* cache() const { return m_cache.get(); }
    int frameCount() const { return m_file ? m_file->frameCount() : 0; }

    ViewState* viewState() const { return m_view; }
    /// From the playhead's request to its frame on screen, for the last frame shown.
    double lastLatencyMs() const { return m_lastLatencyMs; }

    /// Loads a frame that is not the playhead (the diff's pinned A, the previous frame) on its
    /// own latest-wins channel; `done` runs on the UI thread with the frame or why it cannot be
    /// read (a chunk that fails to decode, a frame that fails verification, a frame the replay
    /// does not have), or not at all when superseded or the replay was closed meanwhile.
    enum class Channel { DiffA = 1, DiffB = 2, Previous = 3 };
    void requestFrame(int frame, Channel channel, std::function<void(const vtx::Result<vtx::FrameHandle>&)> done);

    /// How the session asks for a frame: the cache by default. Tests replace it to decide when,
    /// and on which thread, each answer arrives. Survives close() and reopening.
    using FrameRequester = std::function<void(int32_t frame, vtx::ChunkCache::Callback done, vtx::RequestOptions options)>;
    void setFrameRequester(FrameRequester requester) { m_requester = std::move(requester); }

    /// The frame shown at game time `ticks` (vtx::GameClock::frameAt: run by run, so a clock
    /// that restarts maps each time the same way).
    int frameAtGameTime(int64_t ticks) const;
    /// Whether a frame's game time reaches `ticks` (no: frameAtGameTime gave the nearest end).
    bool spansGameTime(int64_t ticks) const { return m_gameClock.spans(ticks); }
    /// Where a footer event at `seconds` of game time is shown: its frame, and whether a
    /// frame's time reaches it. One rule for the events table, the timeline and the map: the
    /// SDK's events can lie past the last frame (allkinds: 13.5 s and 14.5 s, the last frame at
    /// 12.983 s), and such an event shown at frame 899 with nothing said looked recorded there.
    /// An event within half a step of its frame's time is that frame's (float seconds against
    /// exact ticks: one stored at the last frame often lies a few ticks past it).
    struct EventPlace {
        int frame = 0;
        bool onClock = true;
    };
    EventPlace placeEvent(double seconds) const;
    /// What to say of an event no frame reaches ("past the end", "before the start", "off the
    /// clock"), empty for one that a frame does.
    QString offClockNote(const EventPlace& place) const;
    /// The frame `ticks` of game time after `from` (before it when negative), along the frames
    /// in order: across a restart of the clock it goes on into the new run.
    int frameAfterGameTime(int from, int64_t ticks) const;
    /// Game time from `frame` to the next frame (the usual step where the clock restarts).
    int64_t gameStepAfter(int frame) const;
    int64_t gameTimeTicks(int frame) const { return m_file ? m_file->gameTimeTicks(frame) : 0; }

    /// Follows a file that is still being written: re-reads it on a worker every `intervalMs`
    /// and extends the replay as chunks land (rereadFromDisk()). A playhead on the last frame
    /// stays on the last frame, like `tail -f`; one past the end of a file that shrank moves to
    /// its new last frame.
    void setFollowing(bool on, int intervalMs = 250);
    bool isFollowing() const { return m_followTimer.isActive(); }
    /// The open file was written to, replaced or removed on disk after it was read, while not
    /// following it: what is shown is what was read before (review 5 #9). Following it, or
    /// closing it, clears this.
    bool hasChangedOnDisk() const { return m_changedOnDisk; }

    /// The decoded-chunk memory budget in bytes, 0 for the default (a quarter of physical
    /// memory). Applies to the open replay at once (evicting down to it) and to later ones.
    void setCacheBudget(size_t bytes);
    size_t cacheBudget() const { return m_cacheOptions.budgetBytes; }
    /// The cache policy ("adaptive", "fixed:B,F", "none"; Debug ▸ Cache policy), for the open
    /// replay and later ones. False when the spec is not a policy.
    bool setCachePolicy(const QString& spec);
    QString cachePolicy() const { return QString::fromStdString(m_cacheOptions.policy); }

    /// Records every playhead request while enabled (Debug ▸ Record access trace).
    void setTraceRecording(bool on);
    bool isTraceRecording() const { return bool(m_recorder); }
    vtx::AccessTrace recordedTrace() const;

signals:
    void opening(const QString& path);
    void opened();
    void openFailed(const QString& path, const QString& message);
    void closed();
    /// The followed file was read again after its size changed: it grew (more frames, chunks
    /// or a footer), was rewritten, or shrank (newFrameCount < oldFrameCount).
    void rereadFromDisk(int oldFrameCount, int newFrameCount);
    void followFailed(const QString& message);
    void followingChanged(bool on);
    /// hasChangedOnDisk() turned true or false.
    void changedOnDiskChanged(bool changed);
    /// Chunk `chunk` failed to decode for the first time. Frames of it shown before (handed out
    /// early, in a Protobuf file) were read before the damage was known: asked for again, they
    /// come with it (DecodedChunk::damage()) or as the error. The playhead's frame is asked for
    /// again here; other holders of frames ask for theirs.
    void chunkFailed(int chunk);

private:
    /// FrameSource: the view state's requested frame moved (or is asked for again).
    void fetchRequestedFrame(int frame) override;
    void pollFollowedFile();
    void adoptRefreshed(std::shared_ptr<const vtx::ReplayFile> file);
    void deliver(JobOutcome outcome, uint64_t job, int frame, const vtx::Result<vtx::FrameHandle>& r, qint64 requestedNs);
    void requestFromSource(int32_t frame, vtx::ChunkCache::Callback done, vtx::RequestOptions options);
    /// A cache of `file` with m_cacheOptions whose chunk failures are reported to this session
    /// (a newer cache's watch replaces the older one's).
    std::unique_ptr<vtx::ChunkCache> watchedCache(std::shared_ptr<const vtx::ReplayFile> file);
    void onChunkFailed(size_t chunk);

    QString m_path;
    bool m_opening = false;
    JobTracker m_openJobs{this}; ///< the latest open wins
    JobTracker m_refreshJobs{this}; ///< one re-read of a followed file at a time
    JobTracker m_failureWatch{this}; ///< chunk failures of the current cache
    std::shared_ptr<const vtx::ReplayFile> m_file;
    vtx::GameClock m_gameClock; ///< m_file's frames on its game clock (empty: no times in the footer)
    void updateClock();
    std::unique_ptr<vtx::ChunkCache> m_cache;
    vtx::CacheOptions m_cacheOptions; ///< for every cache this session makes
    ViewState* m_view;
    double m_lastLatencyMs = 0;
    JobTracker m_playheadJobs{this}; ///< one job per playhead request (latest wins)
    uint64_t m_shownJob = 0; ///< the job whose frame is on screen: older answers never replace it
    JobTracker m_channelJobs[4] = {JobTracker{this}, JobTracker{this}, JobTracker{this}, JobTracker{this}};
    FrameRequester m_requester;
    QElapsedTimer m_clock;
    std::unique_ptr<vtx::TraceRecorder> m_recorder;
    QTimer m_followTimer;
    /// Tells of changes to the open file without polling it (inotify; a stat on the UI thread
    /// could wait on a slow disk). Watched from the open's delivery on: a change made while the
    /// open was reading it is not told.
    QFileSystemWatcher m_diskWatch;
    bool m_changedOnDisk = false;
    void setChangedOnDisk(bool changed);
};

} // namespace vtxw
