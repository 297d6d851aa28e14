// SPDX-License-Identifier: MIT
#pragma once
// The one way the GUI runs work off the UI thread and brings its answer back (after hotspot's
// job tracker). Every job gets an id; starting a job supersedes the previous one of the same
// tracker, cancel() or the owner's death cancels it. Workers poll JobToken::isCancelled();
// answers are posted to the owner's thread with a queued call guarded by a QPointer, and the
// tracker decides there — not the worker — whether the answer is still wanted. Superseded and
// cancelled are outcomes the receiver sees, never error strings.

#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QPointer>
#include <QRunnable>
#include <QThread>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

namespace vtxw {

namespace detail {
// The two hand-offs a job makes — UI thread → pool, worker → UI thread — go through objects
// built completely before they are handed over (a QRunnable, a QEvent), and are announced to
// ThreadSanitizer around the hand-over: Debian's Qt is not built with TSan, and its queues
// synchronise with futexes TSan cannot see. Outside TSan builds the announcements are no-ops.
void handOff(const void* object);
void takeOver(const void* object);
/// Runs `f` on the global thread pool.
void startOnPool(std::function<void()> f);
/// Runs `f` on the UI thread, after the events already queued there.
void postToUiThread(std::function<void()> f);
/// Creates the UI thread's receiver of posted deliveries; call once on the UI thread early.
void ensureDeliveryReceiver();
/// Blocks until every job started so far has finished its work (its delivery may still be
/// queued on the UI thread). For tests that must see a cancelled job's answer arrive.
void waitForPoolJobs();
} // namespace detail

enum class JobOutcome {
    Current, ///< the tracker's latest job, not cancelled: the answer is wanted
    Superseded, ///< a newer job of the same tracker started meanwhile
    Cancelled, ///< cancel() ran (or the owner went away) after this job started
};

class JobTracker;

/// A job as its worker sees it: copyable, cheap, safe to use on any thread.
class JobToken {
public:
    JobToken() = default;
    uint64_t id() const { return m_id; }
    /// The tracker's owner; only meaningful on the UI thread, inside a delivery.
    QObject* owner() const { return m_owner.data(); }
    /// True once the job was superseded or cancelled: the worker should stop early.
    bool isCancelled() const { return !m_flag || m_flag->load(std::memory_order_relaxed); }
    /// The flag itself, for core APIs that poll a `const std::atomic<bool>*`.
    const std::atomic<bool>* flag() const { return m_flag.get(); }

    /// Runs `deliver(outcome)` on the UI thread: inline when called there, else through a
    /// queued call. Dropped when the owner is gone; otherwise the tracker decides there — not
    /// the worker, whose view is already stale — whether the answer is still wanted.
    template <class Deliver> void post(Deliver deliver) const;

    /// The job's final answer: `done()` runs on the UI thread only when the job is still its
    /// tracker's latest and not cancelled, after the tracker marked it finished (isRunning()
    /// reads false inside). Superseded and cancelled answers are dropped: the newer job, or
    /// whoever cancelled, reports for them.
    template <class Done> void finishWith(Done done) const;

    /// A part of the answer (progress, rows found so far): `show()` runs on the UI thread only
    /// while the job is its tracker's latest and not cancelled; the job keeps running.
    template <class Show> void postIfCurrent(Show show) const
    {
        post([show = std::move(show)](JobOutcome outcome) mutable {
            if (outcome == JobOutcome::Current)
                show();
        });
    }

private:
    friend class JobTracker;
    uint64_t m_id = 0;
    std::shared_ptr<std::atomic<bool>> m_flag;
    QPointer<QObject> m_owner; ///< created on the UI thread, only copied elsewhere
    JobTracker* m_tracker = nullptr; ///< a member of the owner: valid while m_owner is
};

/// Jobs of one kind for one owner (the playhead's frame, the plot's series, a seek). Lives on
/// the UI thread as a member of its owner; only JobToken crosses threads.
class JobTracker {
public:
    explicit JobTracker(QObject* owner) : m_owner(owner) { detail::ensureDeliveryReceiver(); }
    ~JobTracker() { cancel(); }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    /// Starts a job; the previous one is superseded (its token reads cancelled).
    JobToken start()
    {
        if (m_current.m_flag)
            m_current.m_flag->store(true, std::memory_order_relaxed);
        m_current.m_id = ++m_lastId;
        m_current.m_flag = std::make_shared<std::atomic<bool>>(false);
        m_current.m_owner = m_owner;
        m_current.m_tracker = this;
        m_running = true;
        return m_current;
    }

    /// Cancels every job started so far; their answers arrive as Cancelled. True if one ran.
    bool cancel()
    {
        const bool was = m_running;
        if (m_current.m_flag)
            m_current.m_flag->store(true, std::memory_order_relaxed);
        m_cancelledUpTo = m_lastId;
        m_running = false;
        return was;
    }

    /// The current job answered: no job runs any more (isRunning() turns false).
    void finish(uint64_t id)
    {
        if (id == m_current.m_id)
            m_running = false;
    }

    bool isRunning() const { return m_running; }
    uint64_t currentId() const { return m_current.m_id; }

    /// What an answer of job `id` is worth now.
    JobOutcome outcomeOf(uint64_t id) const
    {
        if (id <= m_cancelledUpTo)
            return JobOutcome::Cancelled;
        return id == m_current.m_id ? JobOutcome::Current : JobOutcome::Superseded;
    }

    /// Starts a job running `work(token)` on the global pool; `deliver(outcome, result)` runs on
    /// the UI thread with what `work` returned.
    template <class Work, class Deliver> JobToken run(Work work, Deliver deliver)
    {
        JobToken token = start();
        detail::startOnPool([token, work = std::move(work), deliver = std::move(deliver)]() mutable {
            auto result = work(token);
            token.post([deliver = std::move(deliver), result = std::move(result)](JobOutcome o) mutable { deliver(o, std::move(result)); });
        });
        return token;
    }

    /// Like run(), when only the latest answer matters (nearly always): `done(result)` runs on
    /// the UI thread only for the tracker's current job, after finish() (see finishWith).
    template <class Work, class Done> JobToken runLatest(Work work, Done done)
    {
        return run(std::move(work), [this, done = std::move(done)](JobOutcome outcome, auto result) mutable {
            if (outcome != JobOutcome::Current)
                return;
            finish(m_current.m_id);
            done(std::move(result));
        });
    }

private:
    QObject* m_owner;
    JobToken m_current;
    uint64_t m_lastId = 0;
    uint64_t m_cancelledUpTo = 0;
    bool m_running = false;
};

template <class Deliver> void JobToken::post(Deliver deliver) const
{
    QCoreApplication* app = QCoreApplication::instance();
    if (!app)
        return;
    if (QThread::currentThread() == app->thread()) {
        if (m_owner)
            deliver(m_tracker->outcomeOf(m_id));
        return;
    }
    // The owner is checked on the UI thread, where it can only die between events.
    detail::postToUiThread([owner = m_owner, tracker = m_tracker, id = m_id, deliver = std::move(deliver)]() mutable {
        if (owner)
            deliver(tracker->outcomeOf(id));
    });
}

template <class Done> void JobToken::finishWith(Done done) const
{
    post([token = *this, done = std::move(done)](JobOutcome outcome) mutable {
        if (outcome != JobOutcome::Current)
            return;
        token.m_tracker->finish(token.m_id);
        done();
    });
}

} // namespace vtxw
