// SPDX-License-Identifier: MIT
#include "session/ReplaySession.hpp"

#include "vtx/cache/CachePolicy.hpp"

#include "vtx/base/LargeAlloc.hpp"

#include <QPointer>
#include <QThreadPool>
#include <algorithm>
#include <cmath>

namespace vtxw {

namespace {
/// Destroying a cache joins its decode workers (a decode in flight can take a while on a
/// 90 MB file) and frees every chunk it holds: done on a pool thread, never on the UI thread.
/// Answers still in flight find their job cancelled and are dropped.
void retireOffUiThread(std::unique_ptr<vtx::ChunkCache> cache, bool releaseMemory)
{
    if (!cache)
        return;
    detail::startOnPool([cache = std::shared_ptr<vtx::ChunkCache>(std::move(cache)), releaseMemory]() mutable {
        cache.reset();
        if (releaseMemory)
            vtx::releaseRecycledBlocks(); // the freed chunks' memory, kept for the next decode, goes back now
    });
}
} // namespace

ReplaySession::ReplaySession(ViewState* view, QObject* parent) : QObject(parent), m_view(view)
{
    view->setFrameSource(this);
    m_clock.start();
    connect(&m_followTimer, &QTimer::timeout, this, &ReplaySession::pollFollowedFile);
    connect(&m_diskWatch, &QFileSystemWatcher::fileChanged, this, [this](const QString& path) {
        if (m_file && path == m_path && !isFollowing())
            setChangedOnDisk(true);
    });
}

void ReplaySession::setChangedOnDisk(bool changed)
{
    if (changed == m_changedOnDisk)
        return;
    m_changedOnDisk = changed;
    emit changedOnDiskChanged(changed);
}

void ReplaySession::setFollowing(bool on, int intervalMs)
{
    m_followTimer.setInterval(intervalMs);
    if (on == isFollowing())
        return;
    if (on) {
        m_followTimer.start();
        setChangedOnDisk(false); // following reads what changed
    } else {
        m_followTimer.stop();
    }
    emit followingChanged(on);
}

void ReplaySession::pollFollowedFile()
{
    if (!m_file || m_refreshJobs.isRunning())
        return;
    std::shared_ptr<const vtx::ReplayFile> file = m_file;
    // Disk reads and the decode of new chunks stay off the UI thread. close() and a new open
    // cancel the job; stopping following is checked on delivery.
    m_refreshJobs.runLatest([file](const JobToken&) { return file->refresh(); },
                            [this, file](auto result) {
                                if (m_file != file || !isFollowing())
                                    return;
                                if (!result) {
                                    emit followFailed(QString::fromStdString(result.message()));
                                    return;
                                }
                                if (*result)
                                    adoptRefreshed(std::move(*result));
                            });
}

void ReplaySession::adoptRefreshed(std::shared_ptr<const vtx::ReplayFile> file)
{
    const int before = frameCount();
    const int requested = m_view->requestedFrame();
    const bool tailing = requested >= before - 1;
    if (!m_cache->extendTo(file)) {
        // Rewritten rather than grown: decoded chunks no longer match the file.
        m_playheadJobs.cancel();
        for (JobTracker& jobs : m_channelJobs)
            jobs.cancel();
        retireOffUiThread(std::exchange(m_cache, watchedCache(file)), false);
    }
    m_file = std::move(file);
    updateClock();
    m_view->setFrameCount(frameCount());
    emit rereadFromDisk(before, frameCount());
    // Like `tail -f`: a playhead on the last frame moves to the new last frame, and so does one
    // the file no longer reaches (it shrank: the frame asked for is gone, not failing).
    const bool gone = requested >= frameCount();
    if (const int target = tailing || gone ? std::max(0, frameCount() - 1) : requested; target != m_view->requestedFrame())
        m_view->setRequestedFrame(target);
    else
        m_view->requestAgain();
}

ReplaySession::~ReplaySession() = default;

void ReplaySession::setCacheBudget(size_t bytes)
{
    m_cacheOptions.budgetBytes = bytes > 0 ? bytes : vtx::defaultCacheBudget();
    if (m_cache)
        m_cache->setBudget(m_cacheOptions.budgetBytes);
}

bool ReplaySession::setCachePolicy(const QString& spec)
{
    if (m_cache ? !m_cache->setPolicy(spec.toStdString()) : !vtx::makeCachePolicy(spec.toStdString()))
        return false;
    m_cacheOptions.policy = spec.toStdString();
    return true;
}

void ReplaySession::openAsync(const QString& path)
{
    m_opening = true;
    emit opening(path);
    // A newer open supersedes this one (its answer arrives as Superseded and is dropped).
    m_openJobs.runLatest([path](const JobToken&) { return vtx::ReplayFile::open(path.toStdString()); },
                         [this, path](auto result) {
                             m_opening = false;
                             if (!result) {
                                 emit openFailed(path, QString::fromStdString(result.message()));
                                 return;
                             }
                             close();
                             m_path = path;
                             m_file = std::move(*result);
                             m_diskWatch.addPath(path);
                             updateClock();
                             m_cache = watchedCache(m_file);
                             m_view->setFrameCount(frameCount());
                             m_view->setReplayOpen(true);
                             m_view->showAll();
                             // Frame 0 is asked for before opened(): listeners may seek elsewhere.
                             if (m_view->requestedFrame() != 0)
                                 m_view->setRequestedFrame(0);
                             else
                                 m_view->requestAgain();
                             emit opened();
                         });
}

void ReplaySession::close()
{
    if (!m_file)
        return;
    m_playheadJobs.cancel();
    m_refreshJobs.cancel();
    m_failureWatch.cancel();
    for (JobTracker& jobs : m_channelJobs)
        jobs.cancel();
    setFollowing(false);
    if (!m_diskWatch.files().isEmpty())
        m_diskWatch.removePaths(m_diskWatch.files());
    setChangedOnDisk(false);
    retireOffUiThread(std::move(m_cache), true);
    m_file.reset();
    updateClock();
    m_path.clear();
    m_view->reset();
    emit closed();
}

std::unique_ptr<vtx::ChunkCache> ReplaySession::watchedCache(std::shared_ptr<const vtx::ReplayFile> file)
{
    auto cache = std::make_unique<vtx::ChunkCache>(std::move(file), m_cacheOptions);
    const JobToken watch = m_failureWatch.start(); // the older cache's reports are dropped from here on
    cache->setFailureReport(
        [watch](size_t chunk) { watch.postIfCurrent([watch, chunk] { static_cast<ReplaySession*>(watch.owner())->onChunkFailed(chunk); }); });
    return cache;
}

void ReplaySession::onChunkFailed(size_t chunk)
{
    if (!m_file)
        return;
    // The playhead's frame may have been shown from this chunk before its damage was known.
    if (const auto c = m_file->chunkForFrame(m_view->requestedFrame()); c && *c == chunk)
        m_view->requestAgain();
    emit chunkFailed(int(chunk));
}

void ReplaySession::requestFromSource(int32_t frame, vtx::ChunkCache::Callback done, vtx::RequestOptions options)
{
    if (m_requester)
        m_requester(frame, std::move(done), options);
    else
        m_cache->request(frame, std::move(done), options);
}

void ReplaySession::fetchRequestedFrame(int frame)
{
    if (!m_cache)
        return;
    if (m_recorder)
        m_recorder->record(frame);
    const qint64 requested = m_clock.nsecsElapsed();
    const JobToken job = m_playheadJobs.start();
    // The callback runs inline (a hit, or a superseded older request inside a newer call) or
    // on a decode worker; either way the tracker, on the UI thread, judges the answer by its
    // job id — never by which cache it came from (a reopened file can reuse the address).
    requestFromSource(frame,
                      [job, frame, requested](const vtx::Result<vtx::FrameHandle>& r) {
                          job.post([job, frame, requested, r](JobOutcome outcome) {
                              auto* self = static_cast<ReplaySession*>(job.owner());
                              self->deliver(outcome, job.id(), frame, r, requested);
                          });
                      },
                      {});
    if (m_playheadJobs.isRunning())
        m_view->setLoading(true);
}

void ReplaySession::requestFrame(int frame, Channel channel, std::function<void(const vtx::Result<vtx::FrameHandle>&)> done)
{
    if (!m_cache)
        return;
    JobTracker& jobs = m_channelJobs[int(channel)];
    const JobToken job = jobs.start();
    if (frame < 0 || frame >= frameCount()) { // answered like any other, after this call returns
        const QString why =
            frameCount() == 0 ? tr("the replay has no frames") : tr("frame %1 is not in this replay (0–%2)").arg(frame).arg(frameCount() - 1);
        QMetaObject::invokeMethod(
            this,
            [job, done = std::move(done), why] {
                job.finishWith([done, why] { done(vtx::Result<vtx::FrameHandle>(vtx::Error{why.toStdString()})); });
            },
            Qt::QueuedConnection);
        return;
    }
    // Observed like the playhead: A/B toggling is a pattern the adaptive policy protects.
    requestFromSource(frame,
                      [job, done = std::move(done)](const vtx::Result<vtx::FrameHandle>& r) {
                          if (!r && r.code() == vtx::Errc::Superseded)
                              return; // a newer request on this channel answers instead
                          job.finishWith([done, r] { done(r); });
                      },
                      {true, int(channel)});
}

void ReplaySession::deliver(JobOutcome outcome, uint64_t job, int frame, const vtx::Result<vtx::FrameHandle>& r, qint64 requestedNs)
{
    // Cancelled: the replay was closed or reopened after the request. Superseded answers may
    // still be shown while the playhead's own frame decodes, but only if they are newer than
    // what is on screen: an older answer that was held up never replaces a newer one.
    if (outcome == JobOutcome::Cancelled || job <= m_shownJob)
        return;
    const bool current = outcome == JobOutcome::Current;
    if (!r) {
        if (!current)
            return; // a superseded request's error (Errc::Superseded or a real one) says nothing about the playhead
        m_playheadJobs.finish(job);
        m_view->setLoading(false);
        m_view->setFrameFailed(frame, QString::fromStdString(r.message()));
        return;
    }
    if (current)
        m_playheadJobs.finish(job);
    m_lastLatencyMs = double(m_clock.nsecsElapsed() - requestedNs) / 1e6;
    m_shownJob = job;
    if (current)
        m_view->setLoading(false);
    m_view->setShownFrame(*r, &m_file->schema());
}

void ReplaySession::updateClock()
{
    if (!m_file) {
        m_gameClock = {};
        return;
    }
    const auto& times = m_file->footer().times.gameTime;
    const int frames = m_file->frameCount();
    m_gameClock = times.size() == size_t(frames) ? vtx::GameClock(times) : vtx::GameClock::nominal(frames);
}

int ReplaySession::frameAtGameTime(int64_t ticks) const
{
    return std::max(0, m_gameClock.frameAt(ticks));
}

ReplaySession::EventPlace ReplaySession::placeEvent(double seconds) const
{
    const auto ticks = int64_t(seconds * 1e7);
    const int frame = frameAtGameTime(ticks);
    // Event times are float seconds, frame times exact ticks: an event recorded at the last
    // frame (12.983333 s) is stored a few ticks past it about half the time. Within half a
    // step of its frame it is that frame's.
    const bool near = std::abs(ticks - gameTimeTicks(frame)) <= gameStepAfter(frame) / 2;
    return {frame, near || spansGameTime(ticks)};
}

QString ReplaySession::offClockNote(const EventPlace& place) const
{
    if (place.onClock)
        return {};
    if (place.frame >= frameCount() - 1)
        return tr("past the end");
    if (place.frame == 0)
        return tr("before the start");
    return tr("off the clock");
}

int ReplaySession::frameAfterGameTime(int from, int64_t ticks) const
{
    return m_gameClock.frameAfter(from, ticks);
}

int64_t ReplaySession::gameStepAfter(int frame) const
{
    return m_gameClock.stepAfter(frame);
}

void ReplaySession::setTraceRecording(bool on)
{
    if (on && !m_recorder)
        m_recorder = std::make_unique<vtx::TraceRecorder>();
    else if (!on)
        m_recorder.reset();
}

vtx::AccessTrace ReplaySession::recordedTrace() const
{
    return m_recorder ? m_recorder->trace() : vtx::AccessTrace{};
}

} // namespace vtxw
