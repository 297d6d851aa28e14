// SPDX-License-Identifier: MIT
// JobTracker's outcomes, made deterministic: a job's work runs on the jobs' pool, its answer is
// queued on the UI thread, and the tracker judges it there. The test waits for the pool
// (detail::waitForPoolJobs: every worker has posted) and then decides what happens before the
// queued answers run (QCoreApplication::sendPostedEvents). No sleeps, no timing.

#include "session/JobTracker.hpp"

#include <QtTest>
#include <memory>
#include <optional>
#include <thread>

using namespace vtxw;

namespace {
struct Owner : QObject {
    JobTracker jobs{this};
};

/// Runs whatever was posted to the UI thread so far.
void deliverPosted()
{
    QCoreApplication::sendPostedEvents(nullptr, 0);
}
} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT

private slots:
    // What the first job's answer is worth after `between` happened while it was in flight.
    void outcomes_data()
    {
        QTest::addColumn<QString>("between");
        QTest::addColumn<int>("expected"); // a JobOutcome, or -1: not delivered at all
        QTest::newRow("nothing: current") << "nothing" << int(JobOutcome::Current);
        QTest::newRow("a newer job: superseded") << "newer" << int(JobOutcome::Superseded);
        QTest::newRow("cancel(): cancelled") << "cancel" << int(JobOutcome::Cancelled);
        QTest::newRow("cancel() then a newer job: cancelled") << "cancel+newer" << int(JobOutcome::Cancelled);
        QTest::newRow("owner deleted: dropped") << "delete" << -1;
    }
    void outcomes()
    {
        QFETCH(QString, between);
        QFETCH(int, expected);
        auto owner = std::make_unique<Owner>();
        std::optional<int> got;
        int gotValue = 0;
        owner->jobs.run([](const JobToken&) { return 42; },
                        [&](JobOutcome o, int v) {
                            got = int(o);
                            gotValue = v;
                        });
        QVERIFY(owner->jobs.isRunning());
        detail::waitForPoolJobs(); // the answer is queued, not yet judged
        QVERIFY(!got);
        if (between.contains("cancel"))
            QVERIFY(owner->jobs.cancel());
        if (between.contains("newer"))
            owner->jobs.run([](const JobToken&) { return 7; }, [](JobOutcome, int) {});
        if (between == "delete")
            owner.reset();
        deliverPosted();
        if (expected < 0) {
            QVERIFY(!got);
        } else {
            QVERIFY(got);
            QCOMPARE(*got, expected);
            QCOMPARE(gotValue, 42); // the work's answer arrives whatever its worth
        }
        detail::waitForPoolJobs();
        deliverPosted();
    }

    // A token polled by the worker reads cancelled once the job is superseded or cancelled.
    void tokenSeesSupersedingAndCancelling()
    {
        Owner owner;
        const JobToken first = owner.jobs.start();
        QVERIFY(!first.isCancelled());
        const JobToken second = owner.jobs.start();
        QVERIFY(first.isCancelled());
        QVERIFY(!second.isCancelled());
        QCOMPARE(owner.jobs.outcomeOf(first.id()), JobOutcome::Superseded);
        QCOMPARE(owner.jobs.outcomeOf(second.id()), JobOutcome::Current);
        owner.jobs.cancel();
        QVERIFY(second.isCancelled());
        QCOMPARE(owner.jobs.outcomeOf(second.id()), JobOutcome::Cancelled);
        QVERIFY(!owner.jobs.isRunning());
    }

    // runLatest: only the current job's answer is handed over, after the tracker finished it.
    void runLatestDeliversOnlyTheCurrentJob_data()
    {
        QTest::addColumn<bool>("supersede");
        QTest::addColumn<bool>("cancel");
        QTest::newRow("current") << false << false;
        QTest::newRow("superseded") << true << false;
        QTest::newRow("cancelled") << false << true;
    }
    void runLatestDeliversOnlyTheCurrentJob()
    {
        QFETCH(bool, supersede);
        QFETCH(bool, cancel);
        Owner owner;
        QList<int> delivered;
        bool runningInside = true;
        owner.jobs.runLatest([](const JobToken&) { return 1; },
                             [&](int v) {
                                 delivered << v;
                                 runningInside = owner.jobs.isRunning();
                             });
        detail::waitForPoolJobs();
        if (supersede)
            owner.jobs.runLatest([](const JobToken&) { return 2; },
                                 [&](int v) {
                                     delivered << v;
                                     runningInside = owner.jobs.isRunning();
                                 });
        if (cancel)
            owner.jobs.cancel();
        detail::waitForPoolJobs();
        deliverPosted();
        const QList<int> expected = cancel ? QList<int>{} : supersede ? QList<int>{2} : QList<int>{1};
        QCOMPARE(delivered, expected);
        if (!expected.isEmpty())
            QVERIFY(!runningInside);
        QVERIFY(!owner.jobs.isRunning());
    }

    // A delivery still queued when Qt discards the posted events (the application exits, or
    // removePostedEvents) is destroyed on the UI thread without running, and what it holds goes
    // with it. Under ThreadSanitizer this is the check that the destruction is ordered after the
    // worker that built it (CI's TSan pass saw a map job's answer destroyed at exit as a race).
    void discardedDeliveryIsReleasedUnrun()
    {
        auto held = std::make_shared<int>(7);
        const std::weak_ptr<int> watch = held;
        auto ran = std::make_shared<bool>(false);
        detail::startOnPool([held = std::move(held), ran]() mutable { detail::postToUiThread([held = std::move(held), ran] { *ran = true; }); });
        detail::waitForPoolJobs();
        QVERIFY(!watch.expired()); // queued, holding it
        QCoreApplication::removePostedEvents(nullptr, 0);
        QVERIFY(!*ran);
        QVERIFY(watch.expired());
    }

    // postIfCurrent shows partial answers of the latest job only; finishWith ends the job.
    void partialAnswersAndFinishWith()
    {
        Owner owner;
        const JobToken first = owner.jobs.start();
        const JobToken second = owner.jobs.start();
        QList<int> shown;
        bool finished = false;
        std::thread worker([&] {
            first.postIfCurrent([&] { shown << 1; });
            second.postIfCurrent([&] { shown << 2; });
            first.finishWith([&] { finished = true; });
        });
        worker.join();
        deliverPosted();
        QCOMPARE(shown, QList<int>{2});
        QVERIFY(!finished); // the superseded job's final answer is dropped
        QVERIFY(owner.jobs.isRunning());
        std::thread last([&] { second.finishWith([&] { finished = true; }); });
        last.join();
        deliverPosted();
        QVERIFY(finished);
        QVERIFY(!owner.jobs.isRunning());
    }
};

QTEST_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
