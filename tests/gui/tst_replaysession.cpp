// SPDX-License-Identifier: MIT
// ReplaySession's delivery rules, made deterministic: the test replaces the session's frame
// source and decides when, in which order and on which thread every answer arrives. No sleeps:
// a "decode worker" is a std::thread the test joins, so its queued delivery is pending before
// the next step, and QCoreApplication::sendPostedEvents() plays the busy UI thread catching up.

#include "ControlledSource.hpp"
#include "TestSupport.hpp"
#include "session/JobTracker.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"

#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace vtxw;
using vtxtest::ControlledSource;
using vtxtest::openControlled;
using vtxtest::openSession;

namespace {
QString demoPath()
{
    return QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx");
}

} // namespace

class TestReplaySession : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Qt's raster engine splits large fills into tasks on QThreadPool::globalInstance() and the
    // painting thread waits for them: a job of ours on that pool (the map's trails decoding a
    // 33 MB chunk) stalled every paint while it ran. Jobs run on a pool of their own, so while
    // one is held inside its work, the global pool has no thread busy and a task started there
    // runs at once.
    void jobsLeaveQtsGlobalPoolFree()
    {
        QObject owner;
        JobTracker jobs(&owner);
        std::mutex m;
        std::condition_variable cv;
        bool started = false, release = false;
        bool delivered = false;
        // Whatever fails below, the held job is let go (else the pool waits for it at exit).
        const auto letGo = [&] {
            {
                std::lock_guard lock(m);
                release = true;
            }
            cv.notify_all();
        };
        struct LetGoAtExit {
            std::function<void()> f;
            ~LetGoAtExit() { f(); }
        } guard{letGo};
        jobs.run(
            [&](const JobToken&) {
                std::unique_lock lock(m);
                started = true;
                cv.notify_all();
                cv.wait(lock, [&] { return release; });
                return 1;
            },
            [&](JobOutcome, int) { delivered = true; });
        {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return started; });
        }
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
        // A task on the global pool finishes while our job is still held (it would wait behind
        // the job if both shared the pool's threads on a one-thread pool).
        const int maxThreads = QThreadPool::globalInstance()->maxThreadCount();
        QThreadPool::globalInstance()->setMaxThreadCount(1);
        std::atomic<bool> ran{false};
        QThreadPool::globalInstance()->start([&] { ran = true; });
        QVERIFY(QThreadPool::globalInstance()->waitForDone(60000));
        QVERIFY(ran);
        QThreadPool::globalInstance()->setMaxThreadCount(maxThreads);
        letGo();
        QTRY_VERIFY_WITH_TIMEOUT(delivered, 60000);
    }

    // The defect from issue 16: a miss for N whose answer is held up on a busy UI thread, then a
    // hit for M. M must stay on screen and "loading" must stay off when N's answer lands.
    void olderAnswerNeverReplacesNewer_data()
    {
        QTest::addColumn<int>("older");
        QTest::addColumn<int>("newer");
        QTest::addColumn<bool>("olderFromWorker");
        QTest::addColumn<bool>("olderFails");
        QTest::newRow("worker answer after a hit") << 1000 << 200 << true << false;
        QTest::newRow("worker answer, same chunk") << 201 << 200 << true << false;
        QTest::newRow("worker error after a hit") << 1000 << 200 << true << true;
        QTest::newRow("inline answer after a hit") << 1500 << 10 << false << false;
    }
    void olderAnswerNeverReplacesNewer()
    {
        QFETCH(int, older);
        QFETCH(int, newer);
        QFETCH(bool, olderFromWorker);
        QFETCH(bool, olderFails);
        ViewState view;
        ReplaySession s(&view);
        ControlledSource src;
        QVERIFY(openControlled(s, src, demoPath()));
        QCOMPARE(src.pending.size(), size_t(1)); // the open's request for frame 0
        src.answerInline(0, src.decoded(0));
        QCOMPARE(view.shownFrame().index(), 0);

        QSignalSpy failed(&view, &ViewState::frameFailed);
        view.setRequestedFrame(older);
        QVERIFY(view.isLoading());
        const vtx::Result<vtx::FrameHandle> olderAnswer =
            olderFails ? vtx::Result<vtx::FrameHandle>(vtx::Error{"chunk 3: bad zstd frame"}) : src.decoded(older);
        if (olderFromWorker)
            src.answerFromWorker(1, olderAnswer); // queued behind the busy UI thread
        view.setRequestedFrame(newer);
        src.answerInline(2, src.decoded(newer)); // the hit
        QCOMPARE(view.shownFrame().index(), newer);
        QVERIFY(!view.isLoading());
        if (!olderFromWorker)
            src.answerInline(1, olderAnswer); // a late inline answer of the older request
        QCoreApplication::sendPostedEvents(); // the UI thread catches up
        QCOMPARE(view.requestedFrame(), newer);
        QCOMPARE(view.shownFrame().index(), newer);
        QVERIFY(!view.isLoading());
        QVERIFY(view.frameError().isEmpty());
        QCOMPARE(failed.count(), 0);
    }

    // While the playhead's own frame decodes, an answer newer than the one on screen may show
    // (scrubbing keeps moving), and "loading" stays on until the playhead's frame arrives.
    void newerSupersededAnswerShowsWhileLoading()
    {
        ViewState view;
        ReplaySession s(&view);
        ControlledSource src;
        QVERIFY(openControlled(s, src, demoPath()));
        src.answerInline(0, src.decoded(0));
        view.setRequestedFrame(300);
        view.setRequestedFrame(900);
        src.answerFromWorker(1, src.decoded(300));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(view.shownFrame().index(), 300);
        QVERIFY(view.isLoading());
        src.answerFromWorker(2, src.decoded(900));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(view.shownFrame().index(), 900);
        QVERIFY(!view.isLoading());
    }

    // An answer for the previous file (closed, then the same path reopened: the new cache may
    // sit at the old one's address) is dropped.
    void answerForAClosedFileIsDropped()
    {
        ViewState view;
        ReplaySession s(&view);
        ControlledSource src;
        QVERIFY(openControlled(s, src, demoPath()));
        src.answerInline(0, src.decoded(0));
        view.setRequestedFrame(1200);
        const auto stale = src.decoded(1200);
        s.close();
        QVERIFY(openSession(s, demoPath()));
        QCOMPARE(src.pending.size(), size_t(3));
        src.answerFromWorker(1, stale);
        QCoreApplication::sendPostedEvents();
        QVERIFY(view.shownFrame().isNull());
        src.answerInline(2, src.decoded(0));
        QCOMPARE(view.shownFrame().index(), 0);
        QCOMPARE(view.requestedFrame(), 0);
        QVERIFY(!view.isLoading());
    }

    // A failure of the playhead's own frame is reported once; the last good frame stays.
    void currentFailureIsReported()
    {
        ViewState view;
        ReplaySession s(&view);
        ControlledSource src;
        QVERIFY(openControlled(s, src, demoPath()));
        src.answerInline(0, src.decoded(0));
        QSignalSpy failed(&view, &ViewState::frameFailed);
        view.setRequestedFrame(700);
        src.answerFromWorker(1, vtx::Error{"chunk 2: bad zstd frame"});
        QCoreApplication::sendPostedEvents();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toInt(), 700);
        QCOMPARE(view.shownFrame().index(), 0);
        QVERIFY(!view.isLoading());
        QVERIFY(view.frameError().contains("bad zstd"));
    }

    // The side channels (diff A / B, previous frame) are latest-wins too.
    void channelAnswersAreLatestWins()
    {
        ViewState view;
        ReplaySession s(&view);
        ControlledSource src;
        QVERIFY(openControlled(s, src, demoPath()));
        src.answerInline(0, src.decoded(0));
        QList<int> got;
        s.requestFrame(400, ReplaySession::Channel::DiffA, [&](const vtx::Result<vtx::FrameHandle>& h) { got << int(h->index()); });
        s.requestFrame(800, ReplaySession::Channel::DiffA, [&](const vtx::Result<vtx::FrameHandle>& h) { got << int(h->index()); });
        src.answerFromWorker(1, src.decoded(400));
        src.answerFromWorker(2, src.decoded(800));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(got, QList<int>{800});
    }

    // The real cache end to end: requests settle on the playhead's frame.
    void realCacheSettlesOnThePlayhead()
    {
        ViewState view;
        ReplaySession s(&view);
        QVERIFY(openSession(s, demoPath()));
        for (int f : {1700, 5, 900, 901, 1799, 0, 1234})
            view.setRequestedFrame(f);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading(), 20000);
        QCOMPARE(view.shownFrame().index(), 1234);
    }
};

QTEST_MAIN(TestReplaySession)
#include "tst_replaysession.moc"
