// SPDX-License-Identifier: MIT
// Real-window smoke test (run under Xvfb): open the ~90 MB CS2-like replay, drag the playhead
// to 200 random positions, and check the UI thread never stalled longer than 50 ms, measured by
// an event-loop watchdog (a 5 ms timer whose gaps reveal blocking). Saves a screenshot and the
// scrub latencies as test artifacts.

#include "ScriptedPrompts.hpp"
#include "TestSupport.hpp"
#include "diff/DiffModel.hpp"
#include "diff/DiffPanel.hpp"
#include "map/MapView.hpp"
#include "plot/PlotPanel.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/MainWindow.hpp"
#include "timeline/TimelineScrubber.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtxgen/Generator.hpp"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <random>
#include <time.h>

using namespace vtxw;

// Linux schedstat of the calling thread: nanoseconds spent runnable but waiting for a CPU.
// Lets a report tell "our code blocked the UI thread" from "the machine was busy".
static double schedstatMs(int field)
{
    QFile f(QStringLiteral("/proc/thread-self/schedstat"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = f.readAll().simplified().split(' ');
    return fields.size() > field ? fields[field].toDouble() / 1e6 : 0;
}
static double runQueueDelayMs()
{
    return schedstatMs(1);
}
// CPU time the calling thread has run: what the UI thread spends per delivered frame.
static double onCpuMs()
{
    return schedstatMs(0);
}

// CLOCK_MONOTONIC, the clock `perf record -k CLOCK_MONOTONIC` stamps samples with: a logged gap
// can be matched with what the UI thread was sampled doing.
static double monotonicSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

class EventLoopWatchdog : public QObject {
public:
    EventLoopWatchdog()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double gap = double(m_clock.nsecsElapsed()) / 1e6;
            m_clock.restart();
            const double waited = runQueueDelayMs();
            // The part of the gap the thread was runnable but not running is the machine's load
            // (other processes), not this thread's work; the stall check is on the rest.
            m_maxOwn = std::max(m_maxOwn, gap - (waited - m_lastRunQueueMs));
            if (gap > m_max) {
                m_max = gap;
                m_maxRunQueueMs = waited - m_lastRunQueueMs;
                m_maxStep = step;
            }
            if (gap > 20 && qEnvironmentVariableIsSet("VTXSCOPE_WATCHDOG_LOG"))
                qInfo("watchdog: %.1f ms gap at step %d (%.1f ms of it waiting for a CPU), ending at %.4f s monotonic", gap, step,
                      waited - m_lastRunQueueMs, monotonicSeconds());
            m_lastRunQueueMs = waited;
        });
    }
    void start()
    {
        m_max = 0;
        m_maxOwn = 0;
        m_lastRunQueueMs = runQueueDelayMs();
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double maxGapMs() const { return m_max; }
    /// The longest gap less the time the UI thread waited for a CPU during it.
    double maxOwnGapMs() const { return m_maxOwn; }
    double maxGapRunQueueMs() const { return m_maxRunQueueMs; }
    int maxGapStep() const { return m_maxStep; }
    int step = 0;

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_max = 0;
    double m_maxOwn = 0;
    double m_lastRunQueueMs = 0;
    double m_maxRunQueueMs = 0;
    int m_maxStep = -1;
};

// QTest::qWait sleeps in 10 ms slices between event batches, which would show up as stalls of
// its own; a real event loop with a timer keeps dispatching like the application does.
static void runEventLoopFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
}

class TestSmoke : public QObject {
    Q_OBJECT
private slots:
    void scrubTheCs2Replay()
    {
        vtxtest::installScriptedPrompts(); // no modal dialog can block a test
        QStandardPaths::setTestModeEnabled(true);
        const QString dir = QStringLiteral(VTXSCOPE_BINARY_DIR) + "/fixtures";
        QDir().mkpath(dir);
        const QString path = dir + "/cs2_fbs.vtx";
        if (!QFileInfo::exists(path)) {
            vtxgen::GeneratorOptions o;
            o.kind = vtxgen::Kind::Cs2;
            o.zstdLevel = 3;
            VTX_VERIFY_OK(vtxgen::generateReplay(path.toStdString(), o));
        }
        MainWindow w;
        w.resize(1600, 980);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(w.session(), &ReplaySession::opened);
        QSignalSpy upChosen(w.map(), &MapView::upAxisChosen);
        w.openFile(OpenRequest(path));
        QVERIFY(opened.wait(30000));
        w.viewState()->setSelection({0, "player_3"});
        w.findChild<QDockWidget*>("mapDock")->raise(); // scrubbed with the map (and its trails) on screen
        // The stall check is about scrubbing: the map's one-time start (first paint, its up-axis
        // job, the first trails) finishes before the watchdog starts.
        QVERIFY(upChosen.count() > 0 || upChosen.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!w.map()->scene().glyphs.empty() && !w.map()->trailsComputing(), 30000);

        std::vector<double> latencies;
        connect(w.viewState(), &ViewState::shownFrameChanged, this, [&] { latencies.push_back(w.session()->lastLatencyMs()); });
        EventLoopWatchdog watchdog;
        watchdog.start();
        const double cpuAtStart = onCpuMs();
        TimelineScrubber* tl = w.timeline();
        const int y = tl->scrubLaneY();
        std::mt19937 rng(2026);
        const int left = tl->xOfFrame(0), right = tl->xOfFrame(w.session()->frameCount() - 1);
        QTest::mousePress(tl, Qt::LeftButton, {}, QPoint(left + 5, y));
        for (int i = 0; i < 200; ++i) {
            watchdog.step = i;
            const int x = left + int(rng() % uint32_t(right - left));
            QTest::mouseMove(tl, QPoint(x, y));
            runEventLoopFor(16); // the user's drag arrives at display rate; the event loop runs meanwhile
        }
        QTest::mouseRelease(tl, Qt::LeftButton, {}, QPoint(left + (right - left) / 2, y));
        QTRY_VERIFY_WITH_TIMEOUT(!w.viewState()->isLoading(), 10000);
        const double maxGap = watchdog.maxGapMs(), maxOwnGap = watchdog.maxOwnGapMs();
        const double uiCpuMs = onCpuMs() - cpuAtStart;
        QVERIFY(w.map()->isVisible() && !w.map()->scene().glyphs.empty()); // the map was on screen throughout
        watchdog.stop();

        std::sort(latencies.begin(), latencies.end());
        auto pct = [&](double q) { return latencies.empty() ? 0.0 : latencies[size_t(q * double(latencies.size() - 1))]; };
        const QString artifacts = QStringLiteral(VTXSCOPE_BINARY_DIR) + "/artifacts";
        QDir().mkpath(artifacts);
        w.grab().save(artifacts + "/smoke-main-window.png");
        QJsonObject report{{"delivered_frames", int(latencies.size())},
                           {"scrub_latency_p50_ms", pct(0.5)},
                           {"scrub_latency_p95_ms", pct(0.95)},
                           {"max_event_loop_gap_ms", maxGap},
                           {"max_gap_less_cpu_wait_ms", maxOwnGap},
                           {"max_gap_step", watchdog.maxGapStep()},
                           {"max_gap_waiting_for_cpu_ms", watchdog.maxGapRunQueueMs()},
                           {"ui_thread_cpu_ms", uiCpuMs},
                           {"ui_thread_cpu_ms_per_delivered_frame", latencies.empty() ? 0.0 : uiCpuMs / double(latencies.size())}};
        QFile out(artifacts + "/smoke-report.json");
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(report).toJson());
        qInfo("smoke: %s", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
        QVERIFY(!latencies.empty());
        // The < 50 ms stall line is measured and reported (smoke-report.json, this warning), not
        // asserted: a wall-clock figure cannot gate CI (the brief), and scrubbing with the map
        // raised still shows rare 80–100 ms stalls whose cause is not found yet (issue 17 stays open).
        if (maxOwnGap >= 50)
            qWarning("smoke: the UI thread stalled for %.1f ms (%.1f ms with waiting for a CPU): over the 50 ms line", maxOwnGap, maxGap);

        // Artifacts for the record: the timeline zoomed around the playhead, and a plot.
        w.playback()->seek(5200);
        QTRY_VERIFY_WITH_TIMEOUT(!w.viewState()->isLoading(), 10000);
        for (int i = 0; i < 6; ++i) {
            const QPoint at(tl->xOfFrame(5200), y);
            QWheelEvent wheel(at, tl->mapToGlobal(at), {}, {0, 120}, Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(tl, &wheel);
        }
        QVERIFY(tl->axis().span() < 4000);
        QSignalSpy plotted(w.plot(), &PlotPanel::finished);
        QElapsedTimer plotClock;
        plotClock.start();
        w.plot()->addPropertySeries({0, "player_3"}, "Health");
        QVERIFY(plotted.wait(60000));
        qInfo("plot: player_3.Health over %d frames in %lld ms", w.session()->frameCount(), plotClock.elapsed());
        QVERIFY(w.plot()->model()->entries().front().data && !w.plot()->model()->entries().front().data->frames.empty());
        w.grab().save(artifacts + "/smoke-zoomed-and-plot.png");
    }

    // The diff panel on the demo replay, for the record: A pinned at 300, B at 1200.
    void diffPanelOnTheDemo()
    {
        MainWindow w;
        w.resize(1600, 980);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(w.session(), &ReplaySession::opened);
        w.openFile(OpenRequest(QStringLiteral(VTXSCOPE_SOURCE_DIR) + "/fixtures/demo.vtx"));
        QVERIFY(opened.wait(30000));
        w.viewState()->setSelection({0, "player_3"});
        auto settle = [&] {
            return QTest::qWaitFor(
                [&] { return !w.viewState()->isLoading() && w.viewState()->shownFrame().index() == w.viewState()->requestedFrame(); }, 20000);
        };
        w.playback()->seek(300);
        QVERIFY(settle());
        // Shortcuts need the active window (Xvfb has no window manager to activate it), and
        // letter shortcuts do not fire while a text field has focus: act from the timeline.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.timeline()->setFocus();
        QTest::keyClick(w.timeline(), Qt::Key_A);
        QVERIFY2(w.diffPanel()->frameA() == 300,
                 qPrintable(QString("focus: %1 frameA %2")
                                .arg(QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none")
                                .arg(w.diffPanel()->frameA())));
        w.playback()->seek(1200);
        QVERIFY(settle());
        QVERIFY(QTest::qWaitFor([&] { return w.diffPanel()->isUpToDate(); }, 10000));
        QVERIFY(w.diffPanel()->model()->rowCount() > 0);
        w.diffPanel()->view()->setFocus();
        w.diffPanel()->selectNextChange(true);
        runEventLoopFor(100);
        const QString artifacts = QStringLiteral(VTXSCOPE_BINARY_DIR) + "/artifacts";
        QDir().mkpath(artifacts);
        QVERIFY(w.grab().save(artifacts + "/diff-panel.png"));
        QVERIFY(w.diffPanel()->grab().save(artifacts + "/diff-panel-only.png"));
    }

    // Issue 26 8f: Shift+' (previous bookmark) on a US layout, typed as a user types it: the X
    // server's key events through xdotool (Qt's own key events never go through the keymap).
    // On US, Shift+' is the key '"' with Shift; Qt's xcb key mapper offers it as Shift+' and as
    // '"', so an action with both as shortcuts matched twice: "ambiguous", and nothing happened.
    void previousBookmarkWithShiftApostrophe()
    {
        const QString xdotool = QStandardPaths::findExecutable("xdotool");
        if (QGuiApplication::platformName() != QLatin1String("xcb") || xdotool.isEmpty())
            QSKIP("needs the xcb platform and xdotool");
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(w.session(), &ReplaySession::opened);
        w.openFile(OpenRequest(QStringLiteral(VTXSCOPE_SOURCE_DIR) + "/fixtures/demo.vtx"));
        QVERIFY(opened.wait(30000));
        w.bookmarks()->add(100, "early");
        w.bookmarks()->add(500, "late");
        w.playback()->seek(300);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.timeline()->setFocus();
        QTRY_VERIFY(w.timeline()->hasFocus());
        auto type = [&](const QString& keys) {
            QProcess p;
            p.start(xdotool, {"key", "--clearmodifiers", keys});
            return p.waitForFinished(10000) && p.exitCode() == 0;
        };
        QVERIFY(type("shift+apostrophe"));
        QTRY_COMPARE_WITH_TIMEOUT(w.viewState()->requestedFrame(), 100, 5000);
        QVERIFY(type("apostrophe")); // and ' goes on to the next
        QTRY_COMPARE_WITH_TIMEOUT(w.viewState()->requestedFrame(), 500, 5000);
        QVERIFY(type("shift+apostrophe"));
        QTRY_COMPARE_WITH_TIMEOUT(w.viewState()->requestedFrame(), 100, 5000);
        w.bookmarks()->remove(100);
        w.bookmarks()->remove(500);
    }

    // A recording cut mid-chunk opens in recovery mode: the banner says what was lost. The
    // window is captured for the record (recovered-banner.png).
    void recoveredRecordingBanner()
    {
        QTemporaryDir dir;
        QFile in(QStringLiteral(VTXSCOPE_SOURCE_DIR) + "/fixtures/demo.vtx");
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray whole = in.readAll();
        const QString cut = dir.path() + "/crashed-recording.vtx";
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(whole.left(whole.size() * 3 / 5));
        out.close();
        MainWindow w;
        w.resize(1600, 980);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(w.session(), &ReplaySession::opened);
        w.openFile(OpenRequest(cut));
        QVERIFY(opened.wait(30000));
        QVERIFY(w.session()->file()->isRecovered());
        w.viewState()->setSelection({0, "player_3"});
        w.playback()->goToEnd();
        QVERIFY(QTest::qWaitFor([&] { return !w.viewState()->isLoading() && w.viewState()->shownFrame().index() == w.viewState()->requestedFrame(); },
                                20000));
        runEventLoopFor(100);
        const QString artifacts = QStringLiteral(VTXSCOPE_BINARY_DIR) + "/artifacts";
        QDir().mkpath(artifacts);
        QVERIFY(w.grab().save(artifacts + "/recovered-banner.png"));
    }

    // A corrupt chunk in the middle: the playhead there gets the banner, the chunk lane the
    // failed hatch (corrupt-chunk.png).
    void corruptChunkOnTheTimeline()
    {
        QTemporaryDir dir;
        QFile in(QStringLiteral(VTXSCOPE_SOURCE_DIR) + "/fixtures/demo.vtx");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        auto good = vtx::ReplayFile::open((QStringLiteral(VTXSCOPE_SOURCE_DIR) + "/fixtures/demo.vtx").toStdString());
        QVERIFY(good.isOk());
        const vtx::ChunkEntry bad = (*good)->chunks()[1];
        for (qsizetype i = qsizetype(bad.fileOffset) + 40; i < qsizetype(bad.fileOffset) + qsizetype(bad.chunkSizeBytes); i += 5)
            bytes[i] = char(bytes[i] ^ 0x5A);
        const QString path = dir.path() + "/corrupt-chunk.vtx";
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();
        MainWindow w;
        w.resize(1600, 980);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(w.session(), &ReplaySession::opened);
        w.openFile(OpenRequest(path));
        QVERIFY(opened.wait(30000));
        w.viewState()->setSelection({0, "player_3"});
        QSignalSpy failed(w.viewState(), &ViewState::frameFailed);
        w.playback()->seek(bad.startFrame + 10);
        QVERIFY(failed.wait(10000));
        runEventLoopFor(300); // the chunk lane polls the cache every 150 ms
        const QString artifacts = QStringLiteral(VTXSCOPE_BINARY_DIR) + "/artifacts";
        QDir().mkpath(artifacts);
        QVERIFY(w.grab().save(artifacts + "/corrupt-chunk.png"));
    }
};

QTEST_MAIN(TestSmoke)
#include "tst_smoke.moc"
