// SPDX-License-Identifier: MIT
// The view state is the one owner of what the window looks at: these tests check the order and
// number of its signals (deterministically: the session's frame answers are held by the test),
// that an equal value emits nothing, and that a change made in one panel reaches the others
// through the view state alone (panels built on their own, no window relaying between them).

#include "ControlledSource.hpp"
#include "TestSupport.hpp"
#include "compare/CompareBar.hpp"
#include "compare/CompareSession.hpp"
#include "diff/DiffPanel.hpp"
#include "entities/InspectorPanel.hpp"
#include "entities/PropertyTreeModel.hpp"
#include "plot/PlotPanel.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "timeline/TimelineScrubber.hpp"

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <functional>
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

/// Every signal of a view state, in order, as text ("requested 5", "loading 1", "shown 5", …).
struct SignalLog {
    QStringList lines;
    explicit SignalLog(ViewState& v)
    {
        QObject::connect(&v, &ViewState::frameCountChanged, [this](int n) { lines << QString("count %1").arg(n); });
        QObject::connect(&v, &ViewState::requestedFrameChanged, [this](int f) { lines << QString("requested %1").arg(f); });
        QObject::connect(&v, &ViewState::loadingChanged, [this](bool on) { lines << QString("loading %1").arg(int(on)); });
        QObject::connect(&v, &ViewState::shownFrameChanged,
                         [this, &v] { lines << QString("shown %1").arg(v.shownFrame().isNull() ? -1 : int(v.shownFrame().index())); });
        QObject::connect(&v, &ViewState::frameFailed, [this](int f) { lines << QString("failed %1").arg(f); });
        QObject::connect(&v, &ViewState::selectionChanged, [this] { lines << "selection"; });
        QObject::connect(&v, &ViewState::entityFilterChanged, [this] { lines << "filter"; });
        QObject::connect(&v, &ViewState::zoomChanged, [this](double a, double b) { lines << QString("zoom %1 %2").arg(a).arg(b); });
        QObject::connect(&v, &ViewState::diffFramesChanged, [this](int a, int b) { lines << QString("ab %1 %2").arg(a).arg(b); });
        QObject::connect(&v, &ViewState::loopChanged, [this](bool on) { lines << QString("loop %1").arg(int(on)); });
        QObject::connect(&v, &ViewState::comparingChanged, [this] { lines << "comparing"; });
        QObject::connect(&v, &ViewState::comparePairingChanged, [this] { lines << "pairing"; });
    }
};

} // namespace

class TestViewState : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A seek: one requested-frame change, then loading (a miss), then one shown-frame change.
    void seekSignalsInOrder_data()
    {
        QTest::addColumn<bool>("hit");
        QTest::addColumn<int>("frame");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("miss, decoded on a worker") << false << 700 << QStringList{"requested 700", "loading 1", "loading 0", "shown 700"};
        QTest::newRow("hit, answered at once") << true << 900 << QStringList{"requested 900", "shown 900"};
    }
    void seekSignalsInOrder()
    {
        QFETCH(bool, hit);
        QFETCH(int, frame);
        QFETCH(QStringList, expected);
        ViewState view;
        ReplaySession session(&view);
        ControlledSource source;
        QVERIFY(openControlled(session, source, demoPath()));
        source.answerFromWorker(0, source.decoded(0)); // frame 0
        QCoreApplication::sendPostedEvents(nullptr, 0);
        QCOMPARE(view.shownFrame().index(), 0);

        SignalLog log(view);
        source.answerAtOnce = hit;
        const size_t held = source.pending.size();
        view.setRequestedFrame(frame);
        if (!hit) {
            QCOMPARE(source.pending.size(), held + 1); // the seek's one request
            source.answerFromWorker(held, source.decoded(frame));
            QCoreApplication::sendPostedEvents(nullptr, 0);
        }
        QCOMPARE(log.lines, expected);
        QCOMPARE(view.requestedFrame(), frame);
        QCOMPARE(int(view.shownFrame().index()), frame);
        QVERIFY(!view.isLoading());
    }

    // Issue 26 8j: while the asked-for frame loads, the inspector still holds the last shown
    // frame's values — dimmed and without change marks, until the new frame is shown.
    void inspectorDimsWhileLoading()
    {
        ViewState view;
        ReplaySession session(&view);
        ControlledSource source;
        QVERIFY(openControlled(session, source, demoPath()));
        auto answerAll = [&] {
            for (size_t i = 0; i < source.pending.size(); ++i)
                source.answerInline(i, source.decoded(source.pending[i].frame));
            source.pending.clear();
            QCoreApplication::sendPostedEvents(nullptr, 0);
        };
        answerAll();
        source.answerAtOnce = true;
        InspectorPanel inspector(&session, &view);
        PropertyTreeModel* model = inspector.model();
        auto changed = [&] {
            int n = 0;
            for (const auto& node : model->nodes())
                if (!node.path.empty() && model->indexOfPath(QString::fromStdString(node.path)).data(PropertyTreeModel::ChangedRole).toBool())
                    ++n;
            return n;
        };
        view.setRequestedFrame(1001);
        answerAll();
        QString entity;
        for (int p = 0; p < 10 && entity.isEmpty(); ++p) {
            view.setSelection({0, QString("player_%1").arg(p)});
            answerAll();
            if (changed() > 0)
                entity = view.selection().uniqueId;
        }
        QVERIFY2(!entity.isEmpty(), "no player changes at frame 1001 of the demo");
        QVERIFY(!model->isStale());
        const QModelIndex value =
            model->indexOfPath(QString::fromStdString(model->nodes().at(1).path)).siblingAtColumn(PropertyTreeModel::ValueColumn);
        QVERIFY(!value.data(Qt::ForegroundRole).isValid());

        source.answerAtOnce = false;
        view.setRequestedFrame(1500); // held: a miss
        QVERIFY(view.isLoading());
        QVERIFY(model->isStale());
        QCOMPARE(changed(), 0);
        QVERIFY(value.data(Qt::ForegroundRole).isValid());
        answerAll();
        QVERIFY(!view.isLoading());
        QCOMPARE(int(view.shownFrame().index()), 1500);
        QVERIFY(!model->isStale());
        QVERIFY(inspector.headerText().contains(entity));
    }

    // Setting what is already there emits nothing, for every fact the view state owns.
    void equalValueEmitsNothing_data()
    {
        QTest::addColumn<QString>("fact");
        for (const char* f : {"requested", "zoom", "selection", "filter", "markers", "loop", "pairing", "comparing", "count"})
            QTest::newRow(f) << QString(f);
    }
    void equalValueEmitsNothing()
    {
        QFETCH(QString, fact);
        ViewState v;
        v.setFrameCount(1000);
        ComparePairing pairing;
        pairing.offset = 3;
        const QHash<QString, std::function<void()>> set = {
            {"requested", [&] { v.setRequestedFrame(40); }},
            {"zoom", [&] { v.setZoom(100, 300); }},
            {"selection",
             [&] {
                 v.setSelection({0, "player_1"});
             }},
            {"filter", [&] { v.setEntityFilter("Health < 20"); }},
            {"markers", [&] { v.pinA(12); }},
            {"loop", [&] { v.setLoop(10, 50); }},
            {"pairing", [&] { v.setComparePairing(pairing); }},
            {"comparing", [&] { v.setComparing(true); }},
            {"count", [&] { v.setFrameCount(1000); }},
        };
        set[fact]();
        SignalLog log(v);
        set[fact]();
        QCOMPARE(log.lines, QStringList{});
    }

    // The requested frame, the zoom and the markers stay inside the replay.
    void valuesStayInsideTheReplay()
    {
        ViewState v;
        v.setFrameCount(500);
        v.setRequestedFrame(9999);
        QCOMPARE(v.requestedFrame(), 499);
        v.setRequestedFrame(-5);
        QCOMPARE(v.requestedFrame(), 0);
        v.setZoom(-50, 5); // the span is kept, moved inside the replay
        QCOMPARE(v.zoomFirst(), 0.0);
        QCOMPARE(v.zoomLast(), 55.0);
        v.setZoom(100, 105); // at least 20 frames
        QCOMPARE(v.zoomFirst(), 100.0);
        QCOMPARE(v.zoomLast(), 120.0);
        v.setZoom(480, 900);
        QCOMPARE(v.zoomFirst(), 79.0);
        QCOMPARE(v.zoomLast(), 499.0);
        v.pinA(800);
        QCOMPARE(v.frameA(), 499);
    }

    // B following the playhead moves with the requested frame, in the same step; a set B stays.
    void bFollowsThePlayhead()
    {
        ViewState v;
        v.setFrameCount(1000);
        v.setRequestedFrame(100);
        v.pinA();
        QCOMPARE(v.frameA(), 100);
        QCOMPARE(v.frameB(), 100);
        SignalLog log(v);
        v.setRequestedFrame(150);
        QCOMPARE(log.lines, (QStringList{"requested 150", "ab 100 150"}));
        v.setB(170);
        v.setRequestedFrame(200);
        QCOMPARE(v.frameB(), 170);
        v.setPreviousFrameMode(true);
        QCOMPARE(v.frameA(), 199);
        QCOMPARE(v.frameB(), 200);
        v.setRequestedFrame(300);
        QCOMPARE(v.frameA(), 299);
        // While comparing two replays the markers are not the user's to move.
        v.setComparing(true);
        QCOMPARE(v.frameA(), -1);
        v.pinA(5);
        QCOMPARE(v.frameA(), -1);
    }

    // Loop A–B arms only between a pinned A and a set B (issue 26 8g: it armed while B still
    // followed the playhead, looping to wherever the playhead happened to be).
    void loopArmsOnlyBetweenSetMarkers_data()
    {
        QTest::addColumn<int>("a"); // -1: not pinned
        QTest::addColumn<int>("b"); // -1: B follows the playhead
        QTest::addColumn<bool>("arms");
        QTest::newRow("A and B set") << 20 << 60 << true;
        QTest::newRow("B before A") << 60 << 20 << true;
        QTest::newRow("B follows the playhead") << 20 << -1 << false;
        QTest::newRow("no A") << -1 << -1 << false;
        QTest::newRow("B on A") << 20 << 20 << false;
    }
    void loopArmsOnlyBetweenSetMarkers()
    {
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(bool, arms);
        ViewState v;
        v.setFrameCount(1000);
        v.setRequestedFrame(300); // the playhead, never a loop end here
        if (a >= 0)
            v.pinA(a);
        if (b >= 0)
            v.setB(b);
        QCOMPARE(v.loopBetweenMarkers(), arms);
        QCOMPARE(v.isLooping(), arms);
        if (arms) {
            QCOMPARE(v.loopFirst(), std::min(a, b));
            QCOMPARE(v.loopLast(), std::max(a, b));
        }
    }

    // A plot zoom: one zoom change, and the timeline shows that range (no round trip back).
    void plotZoomMovesTheTimeline()
    {
        ViewState view;
        ReplaySession session(&view);
        QVERIFY(openSession(session, demoPath()));
        TimelineScrubber timeline(&session);
        timeline.resize(800, timeline.height());
        PlotPanel plot(&session, &view);
        auto* canvas = plot.findChild<PlotCanvas*>();
        QVERIFY(canvas);
        QSignalSpy zoom(&view, &ViewState::zoomChanged);
        emit canvas->xRangeChanged(100, 300); // what a wheel or drag on the plot announces
        QCOMPARE(zoom.size(), 1);
        QCOMPARE(timeline.axis().first, 100.0);
        QCOMPARE(timeline.axis().last, 300.0);
        // And the other way: a timeline zoom reaches the view state once.
        timeline.zoomIn(2, 200);
        QCOMPARE(zoom.size(), 2);
        QCOMPARE(view.zoomFirst(), timeline.axis().first);
        QCOMPARE(view.zoomLast(), timeline.axis().last);
    }

    // A/B markers, the loop and the comparison's pairing reach every panel that shows them.
    void changesReachEveryPanel()
    {
        ViewState view;
        ReplaySession session(&view);
        QVERIFY(openSession(session, demoPath()));
        DiffPanel diff(&session, &view);
        PlaybackController playback(&session);
        CompareSession compare(&view);
        CompareBar bar(&compare);

        view.setRequestedFrame(20);
        view.pinA();
        view.setRequestedFrame(60);
        QCOMPARE(diff.frameA(), 20);
        QCOMPARE(diff.frameB(), 60);
        QVERIFY(diff.followsPlayhead());
        view.setB(60);
        QVERIFY(!diff.followsPlayhead());
        view.swapAB();
        QCOMPARE(diff.frameA(), 60);
        QCOMPARE(diff.frameB(), 20);
        view.setB(-1);
        QVERIFY(diff.followsPlayhead());

        // The loop: playback jumps back to its first frame past the last one.
        view.setLoop(30, 40);
        view.setRequestedFrame(35);
        playback.setSpeed(10);
        QSignalSpy frames(&view, &ViewState::requestedFrameChanged);
        playback.play();
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (const auto& args : frames)
                    if (args.at(0).toInt() == 30)
                        return true;
                return false;
            },
            20000));
        playback.pause();
        for (const auto& args : frames)
            QVERIFY(args.at(0).toInt() >= 30 && args.at(0).toInt() <= 40);
        // Moving A moves a running loop with it.
        view.pinA(25);
        QCOMPARE(view.loopFirst(), 25);

        // The pairing: the compare bar shows it, the compare session pairs by it.
        ComparePairing p = view.comparePairing();
        p.alignment = vtx::Alignment::Frame;
        p.offset = 7;
        view.setComparePairing(p);
        bool shown = false;
        for (auto* spin : bar.findChildren<QDoubleSpinBox*>())
            shown = shown || spin->value() == 7.0;
        QVERIFY(shown);
        QCOMPARE(compare.pairing().offset, int64_t(7));
    }

    // Review 4, item 1: allkinds' game clock restarts at frame 450 (7.48 s → 5.5 s). Playing on
    // from frame 440 showed frame 568 next (the first segment's time looked up again); it goes
    // through every frame of the new segment. Driven by advanceBy in ticks shorter than a frame
    // (8 ms), so no tick may owe two frames.
    void playbackGoesThroughAClockRestart_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("flatbuffers") << "allkinds_fbs.vtx";
        QTest::newRow("protobuf") << "allkinds_proto.vtx";
    }
    void playbackGoesThroughAClockRestart()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        ViewState view;
        ReplaySession session(&view);
        QVERIFY(openSession(session, QString::fromStdString(vtxtest::samplePath(file.toStdString()))));
        PlaybackController playback(&session);
        playback.seek(440);
        std::vector<int> shown;
        connect(&view, &ViewState::requestedFrameChanged, this, [&](int f) { shown.push_back(f); });
        for (int tick = 0; tick < 125; ++tick)
            playback.advanceBy(8.0);
        QVERIFY(!shown.empty());
        for (size_t i = 0; i < shown.size(); ++i)
            QCOMPARE(shown[i], 441 + int(i)); // every frame, in order, none skipped
        QVERIFY2(shown.back() >= 497 && shown.back() <= 501, qPrintable(QString::number(shown.back())));
        // Shift+→ (one second of game time) from frame 445 lands a second into the new run.
        playback.seek(445);
        playback.stepSeconds(1.0);
        QVERIFY2(view.requestedFrame() > 500 && view.requestedFrame() < 510, qPrintable(QString::number(view.requestedFrame())));
        playback.stepSeconds(-1.0);
        QCOMPARE(view.requestedFrame(), 445);
    }
};

QTEST_MAIN(TestViewState)
#include "tst_viewstate.moc"
