#include "vtxwidgets/ReplaySession.hpp"

#include "vtx/LargeAlloc.hpp"

#include <QPointer>
#include <QThreadPool>
#include <algorithm>

namespace vtxw {

ReplaySession::ReplaySession(QObject* parent) : QObject(parent)
{
    m_clock.start();
    connect(&m_followTimer, &QTimer::timeout, this, &ReplaySession::pollFollowedFile);
}

void ReplaySession::setFollowing(bool on, int intervalMs)
{
    m_followTimer.setInterval(intervalMs);
    if (on == isFollowing())
        return;
    if (on)
        m_followTimer.start();
    else
        m_followTimer.stop();
    emit followingChanged(on);
}

void ReplaySession::pollFollowedFile()
{
    if (!m_file || m_refreshing)
        return;
    m_refreshing = true;
    QPointer<ReplaySession> self(this);
    std::shared_ptr<const vtx::ReplayFile> file = m_file;
    // Disk reads and the decode of new chunks stay off the UI thread.
    QThreadPool::globalInstance()->start([self, file] {
        auto result = file->refresh();
        QMetaObject::invokeMethod(
            self.data(),
            [self, file, result = std::move(result)]() mutable {
                if (!self)
                    return;
                self->m_refreshing = false;
                if (self->m_file != file || !self->isFollowing())
                    return; // closed, reopened or no longer following meanwhile
                if (!result) {
                    emit self->followFailed(QString::fromStdString(result.message()));
                    return;
                }
                if (*result)
                    self->adoptRefreshed(std::move(*result));
            },
            Qt::QueuedConnection);
    });
}

void ReplaySession::adoptRefreshed(std::shared_ptr<const vtx::ReplayFile> file)
{
    const int before = frameCount();
    const bool tailing = m_current >= before - 1;
    if (!m_cache->extendTo(file)) {
        // Rewritten rather than grown: decoded chunks no longer match the file.
        m_displayed = {};
        m_cache = std::make_unique<vtx::ChunkCache>(file);
    }
    m_file = std::move(file);
    emit grew(before, frameCount());
    setCurrentFrame(tailing ? frameCount() - 1 : m_current);
}

ReplaySession::~ReplaySession() = default;

void ReplaySession::openAsync(const QString& path)
{
    const uint64_t generation = ++m_openGeneration;
    m_opening = true;
    emit opening(path);
    QPointer<ReplaySession> self(this);
    QThreadPool::globalInstance()->start([self, path, generation] {
        auto result = vtx::ReplayFile::open(path.toStdString());
        QMetaObject::invokeMethod(
            self.data(),
            [self, path, generation, result = std::move(result)]() mutable {
                if (!self || generation != self->m_openGeneration)
                    return; // a newer open or a close happened meanwhile
                self->m_opening = false;
                if (!result) {
                    emit self->openFailed(path, QString::fromStdString(result.message()));
                    return;
                }
                self->close();
                self->m_path = path;
                self->m_file = std::move(*result);
                self->m_cache = std::make_unique<vtx::ChunkCache>(self->m_file);
                self->m_current = 0;
                self->setCurrentFrame(0); // before opened(): listeners may seek elsewhere
                emit self->opened();
            },
            Qt::QueuedConnection);
    });
}

void ReplaySession::close()
{
    if (!m_file)
        return;
    m_displayed = {};
    m_frameError.clear();
    setFollowing(false);
    m_cache.reset(); // joins the decode workers; pending callbacks find no session work
    m_file.reset();
    vtx::releaseRecycledBlocks(); // the freed chunks' memory, kept for the next decode, goes back now
    m_path.clear();
    m_loading = false;
    emit closed();
}

void ReplaySession::setCurrentFrame(int frame)
{
    if (!m_cache)
        return;
    frame = std::clamp(frame, 0, std::max(0, frameCount() - 1));
    const bool moved = frame != m_current;
    m_current = frame;
    if (moved)
        emit currentFrameChanged(frame);
    if (m_recorder)
        m_recorder->record(frame);
    const qint64 requested = m_clock.nsecsElapsed();
    const uint64_t serial = ++m_requestSerial;
    QPointer<ReplaySession> self(this);
    vtx::ChunkCache* cache = m_cache.get();
    QThread* uiThread = thread();
    // The callback runs inline (a hit, or a superseded older request) or on a decode worker.
    // It captures nothing that can dangle: older requests' callbacks may run during a newer call.
    m_cache->request(frame, [self, frame, requested, cache, serial, uiThread](const vtx::Result<vtx::FrameHandle>& r) {
        if (QThread::currentThread() == uiThread) {
            if (self && self->m_cache.get() == cache)
                self->deliver(frame, r, requested, serial);
            return;
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, frame, requested, cache, r, serial] {
                if (self && self->m_cache.get() == cache)
                    self->deliver(frame, r, requested, serial);
            },
            Qt::QueuedConnection);
    });
    if (m_deliveredSerial != serial && !m_loading) {
        m_loading = true;
        emit loadingChanged(true);
    }
}

void ReplaySession::requestFrame(int frame, Channel channel, std::function<void(const vtx::FrameHandle&)> done)
{
    if (!m_cache || frame < 0 || frame >= frameCount())
        return;
    QPointer<ReplaySession> self(this);
    vtx::ChunkCache* cache = m_cache.get();
    QThread* uiThread = thread();
    auto deliverOnUi = [self, cache, done = std::move(done)](const vtx::FrameHandle& h) {
        if (self && self->m_cache.get() == cache)
            done(h);
    };
    // Observed like the playhead: A/B toggling is a pattern the adaptive policy protects.
    m_cache->request(
        frame,
        [self, uiThread, deliverOnUi](const vtx::Result<vtx::FrameHandle>& r) {
            if (!r)
                return;
            if (QThread::currentThread() == uiThread) {
                deliverOnUi(*r);
                return;
            }
            QMetaObject::invokeMethod(self.data(), [deliverOnUi, h = *r] { deliverOnUi(h); }, Qt::QueuedConnection);
        },
        {true, int(channel)});
}

void ReplaySession::deliver(int frame, const vtx::Result<vtx::FrameHandle>& r, qint64 requestedNs, uint64_t serial)
{
    if (!r) {
        if (r.message() == "superseded" || frame != m_current)
            return;
        if (m_loading) {
            m_loading = false;
            emit loadingChanged(false);
        }
        m_frameError = QString::fromStdString(r.message());
        emit frameFailed(frame, m_frameError);
        return;
    }
    if (frame == m_current)
        m_frameError.clear();
    m_lastLatencyMs = double(m_clock.nsecsElapsed() - requestedNs) / 1e6;
    m_deliveredSerial = serial;
    // Show the newest frame that arrived; an older answer never replaces a newer one.
    m_displayed = *r;
    if (frame == m_current && m_loading) {
        m_loading = false;
        emit loadingChanged(false);
    }
    emit frameReady();
}

int ReplaySession::frameAtGameTime(int64_t ticks) const
{
    if (!m_file || m_file->frameCount() == 0)
        return 0;
    const auto& t = m_file->footer().times.gameTime;
    if (t.size() != size_t(m_file->frameCount()))
        return std::clamp(int(double(ticks) / 1e7 * 60), 0, m_file->frameCount() - 1);
    auto it = std::lower_bound(t.begin(), t.end(), ticks);
    if (it == t.end())
        return int(t.size()) - 1;
    if (it != t.begin() && (ticks - *(it - 1)) < (*it - ticks))
        --it;
    return int(it - t.begin());
}

void ReplaySession::setTraceRecording(bool on)
{
    if (on && !m_recorder)
        m_recorder = std::make_unique<vtx::TraceRecorder>();
    else if (!on)
        m_recorder.reset();
}

vtx::AccessTrace ReplaySession::recordedTrace() const { return m_recorder ? m_recorder->trace() : vtx::AccessTrace{}; }

} // namespace vtxw
