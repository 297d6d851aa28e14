// SPDX-License-Identifier: MIT
#include "session/JobTracker.hpp"

#include <QThreadPool>

#ifdef __linux__
#include <sys/resource.h>
#endif

#if defined(__SANITIZE_THREAD__)
#define VTXW_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VTXW_TSAN 1
#endif
#endif
#ifdef VTXW_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace vtxw::detail {

void handOff([[maybe_unused]] const void* object)
{
#ifdef VTXW_TSAN
    __tsan_release(const_cast<void*>(object));
#endif
}

void takeOver([[maybe_unused]] const void* object)
{
#ifdef VTXW_TSAN
    __tsan_acquire(const_cast<void*>(object));
#endif
}

namespace {
class PoolTask final : public QRunnable {
public:
    explicit PoolTask(std::function<void()> f) : m_f(std::move(f)) { }
    void run() override
    {
        takeOver(this);
#ifdef __linux__
        // Jobs (trails, plots, scans) yield to the UI thread like the cache's decoders do: on
        // Linux nice applies per thread, and with two cores a job at equal priority took half
        // of the CPU the UI needed to paint while scrubbing.
        static thread_local const bool lowered = (setpriority(PRIO_PROCESS, 0, 5), true);
        (void)lowered;
#endif
        m_f();
        m_f = nullptr; // destroyed here, on this thread, not inside Qt's pool code
    }

private:
    std::function<void()> m_f;
};

const QEvent::Type kDeliveryEvent = QEvent::Type(QEvent::registerEventType());

class Delivery final : public QEvent {
public:
    explicit Delivery(std::function<void()> f) : QEvent(kDeliveryEvent), m_f(std::move(f)) { }
    // A delivery Qt discards unrun (still queued when the application exits, or removed with
    // removePostedEvents) is destroyed on the UI thread without passing through event(): the
    // hand-off is taken over here too, or ThreadSanitizer sees the worker's writes and this
    // destruction unordered (CI, tst_diffpanel at exit: a map job's answer queued after the
    // last test).
    ~Delivery() override { takeOver(this); }
    Delivery(const Delivery&) = delete;
    Delivery& operator=(const Delivery&) = delete;
    void run()
    {
        takeOver(this);
        m_f();
        m_f = nullptr;
    }

private:
    std::function<void()> m_f;
};

class DeliveryReceiver final : public QObject {
public:
    bool event(QEvent* e) override
    {
        // Taken over before anything of it is read, its type included: a delivery is built on a
        // worker (ThreadSanitizer flagged the type() read as a race when this came after it).
        takeOver(e);
        if (e->type() != kDeliveryEvent)
            return QObject::event(e);
        static_cast<Delivery*>(e)->run();
        return true;
    }
};

QObject* receiver()
{
    // Created once and kept for the process (a posted delivery may outlive any other object);
    // it lives on the application's thread wherever it was first asked for.
    static QObject* r = [] {
        auto* o = new DeliveryReceiver;
        o->moveToThread(QCoreApplication::instance()->thread());
        return o;
    }();
    return r;
}
} // namespace

void ensureDeliveryReceiver()
{
    if (QCoreApplication::instance())
        receiver();
}

namespace {
// The application's jobs run on a pool of their own, never on QThreadPool::globalInstance():
// Qt's raster engine splits large fills into segments on the global pool and the painting
// thread waits for them (QT_THREAD_PARALLEL_FILLS), so a job holding a global-pool thread —
// the map's trails decoding a 33 MB chunk — stalled every paint of the window for as long as
// that job ran.
QThreadPool* jobPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setObjectName(QStringLiteral("vtxscope jobs"));
        // Like the global pool, finished before the application object is gone: a job still
        // running then could post to a receiver that no longer has an event loop.
        qAddPostRoutine([] { jobPool()->waitForDone(); });
        return p;
    }();
    return pool;
}
} // namespace

void waitForPoolJobs()
{
    jobPool()->waitForDone();
}

void startOnPool(std::function<void()> f)
{
    auto* task = new PoolTask(std::move(f)); // complete before the hand-off
    handOff(task);
    jobPool()->start(task);
}

void postToUiThread(std::function<void()> f)
{
    auto* delivery = new Delivery(std::move(f)); // complete before the hand-off
    handOff(delivery);
    QCoreApplication::postEvent(receiver(), delivery);
}

} // namespace vtxw::detail
