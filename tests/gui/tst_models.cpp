// GUI models under QAbstractItemModelTester, and the main window against real replays:
// values at frame 0 / middle / last, keys, scrubber drags, selection across seeks, bad files.

#include "TestSupport.hpp"
#include "vtx/JsonExport.hpp"
#include "vtx/ReplayWriter.hpp"
#include "vtxwidgets/EventsModel.hpp"
#include "vtxwidgets/InspectorPanel.hpp"
#include "vtxwidgets/MainWindow.hpp"
#include "vtxwidgets/PlaybackController.hpp"
#include "vtxwidgets/PropertyPlot.hpp"
#include "vtxwidgets/ReplaySession.hpp"
#include "vtxwidgets/TimelineScrubber.hpp"
#include "vtxwidgets/WatchModel.hpp"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <thread>

using namespace vtxw;

namespace {
QString demoPath() { return QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx"); }

bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy opened(w.session(), &ReplaySession::opened);
    w.openFile(OpenRequest(path));
    if (!opened.wait(20000))
        return false;
    return QTest::qWaitFor([&] { return !w.session()->displayedFrame().isNull() && !w.session()->isLoading(); }, 20000);
}

bool settle(MainWindow& w)
{
    return QTest::qWaitFor([&] { return !w.session()->isLoading() && w.session()->displayedFrame().index() == w.session()->currentFrame(); }, 20000);
}

/// Top-level values of `entity` in the inspector compared with the CLI's frame JSON.
QStringList compareInspector(MainWindow& w, const nlohmann::json& properties)
{
    QStringList diffs;
    const auto& nodes = w.inspector()->model()->nodes();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const vtx::PropertyNode* node = nullptr;
        for (const auto& n : nodes)
            if (n.path == it.key())
                node = &n;
        if (!node) {
            diffs << QString::fromStdString(it.key() + ": not in the inspector");
            continue;
        }
        const auto& v = it.value();
        if (v.is_null() && !node->absent)
            diffs << QString::fromStdString(it.key() + ": expected absent");
        else if (v.is_number() && (!node->number || std::stod(node->value) != v.get<double>()))
            diffs << QString::fromStdString(it.key() + ": " + node->value + " != " + v.dump());
        else if (v.is_boolean() && node->value != (v.get<bool>() ? "true" : "false"))
            diffs << QString::fromStdString(it.key() + ": " + node->value);
        else if (v.is_string() && node->value != "\"" + v.get<std::string>() + "\"")
            diffs << QString::fromStdString(it.key() + ": " + node->value + " != " + v.dump());
        else if (v.is_array() && v.size() == 3 && v[0].is_number()) { // vector: compare components
            for (const char* c : {"x", "y", "z"}) {
                const std::string path = it.key() + "." + c;
                for (const auto& n : nodes)
                    if (n.path == path && (!n.number || *n.number != v[size_t(c[0] - 'x')].get<double>()))
                        diffs << QString::fromStdString(path + ": " + n.value);
            }
        }
    }
    return diffs;
}
} // namespace

class TestModels : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        qputenv("VTXSCOPE_NO_DIALOGS", "1");
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("vtxscope-tests");
    }

    void modelsPassTheTester()
    {
        ReplaySession session;
        QSignalSpy opened(&session, &ReplaySession::opened);
        session.openAsync(demoPath());
        QVERIFY(opened.wait(20000));
        EntityTreeModel entities;
        EntityFilterProxy proxy;
        proxy.setSourceModel(&entities);
        PropertyTreeModel props;
        WatchModel watch(&session);
        EventsModel events(&session);
        QAbstractItemModelTester t1(&entities, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&props, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(&watch, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t5(&events, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(events.rowCount() > 0);
        const auto& schema = session.file()->schema();
        watch.addWatch({{0, "player_1"}, "Health"});
        watch.addWatch({{0, "proj_0"}, "Position.x"});
        // Walk frames where projectiles appear and disappear (rows inserted and removed).
        for (int f : {0, 50, 100, 300, 301, 700, 1200, 1799, 5, 1000}) {
            auto h = session.file()->frame(f);
            VTX_VERIFY_OK(h);
            entities.setFrame(*h, &schema);
            proxy.setFilterFixedString(f % 2 ? "player" : "");
            const EntityKey key{0, "player_1"};
            props.setContainer(entities.container(key), &schema);
            QVERIFY(entities.indexOf(key).isValid());
            QVERIFY(props.rowCount() > 10);
        }
        proxy.setFilterFixedString("Health=100");
        QVERIFY(proxy.rowCount() >= 1);
        entities.setFrame({}, nullptr);
        props.clear();
        watch.removeRows({0, 1});
        QCOMPARE(watch.rowCount(), 0);
    }

    void samplesShowReferenceValues_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("flatbuffers") << "arena_from_fbs_ds.vtx";
        QTest::newRow("protobuf") << "arena_from_proto_ds.vtx";
        QTest::newRow("demo") << "demo";
    }
    void samplesShowReferenceValues()
    {
        QFETCH(QString, file);
        QString path = demoPath();
        if (file != "demo") {
            VTX_REQUIRE_SAMPLES();
            path = QString::fromStdString(vtxtest::samplePath(file.toStdString()));
        }
        MainWindow w;
        QVERIFY(openAndWait(w, path));
        const int last = w.session()->frameCount() - 1;
        for (int frame : {0, last / 2, last}) {
            w.playback()->seek(frame);
            QVERIFY(settle(w));
            QProcess cli;
            cli.start(QString::fromStdString(vtxtest::cliPath()), {"frame", path, QString::number(frame)});
            QVERIFY(cli.waitForFinished(60000));
            const auto json = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
            const auto& bucket = json["buckets"][0];
            QCOMPARE(w.entityModel()->rowCount(w.entityModel()->index(0, 0)), int(bucket["entities"].size()));
            for (const auto& e : bucket["entities"]) {
                const QString id = QString::fromStdString(e["unique_id"].get<std::string>());
                w.selectEntity({0, id});
                const QStringList d = compareInspector(w, e["properties"]);
                QVERIFY2(d.isEmpty(), qPrintable(QString("frame %1 %2: %3").arg(frame).arg(id, d.join("; "))));
            }
        }
        if (file != "demo") {
            // Reference values straight from the spec (Appendix A.5).
            w.playback()->seek(0);
            QVERIFY(settle(w));
            w.selectEntity({0, "player_3"});
            const QModelIndex name = w.inspector()->model()->indexOfPath("Name");
            QCOMPARE(name.siblingAtColumn(1).data().toString(), QString("\"Delta\""));
            QCOMPARE(w.inspector()->model()->indexOfPath("Position.x").siblingAtColumn(1).data().toString(), QString("-29.391735460130228"));
        }
    }

    void keysMoveTheFrame()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w) || true);
        QVERIFY(openAndWait(w, demoPath()));
        ReplaySession* s = w.session();
        auto key = [&](Qt::Key k, Qt::KeyboardModifiers m = Qt::NoModifier) { QTest::keyClick(&w, k, m); };
        key(Qt::Key_Right);
        QCOMPARE(s->currentFrame(), 1);
        key(Qt::Key_Right);
        key(Qt::Key_Left);
        QCOMPARE(s->currentFrame(), 1);
        key(Qt::Key_End);
        QCOMPARE(s->currentFrame(), s->frameCount() - 1);
        key(Qt::Key_Home);
        QCOMPARE(s->currentFrame(), 0);
        key(Qt::Key_Right, Qt::ShiftModifier);
        QCOMPARE(s->gameTimeTicks(s->currentFrame()), s->gameTimeTicks(s->frameAtGameTime(10'000'000)));
        QVERIFY(std::abs(double(s->gameTimeTicks(s->currentFrame())) - 1e7) < 2e5);
        key(Qt::Key_Left, Qt::ShiftModifier);
        QCOMPARE(s->currentFrame(), 0);
        key(Qt::Key_BracketRight);
        const int next = w.eventsModel()->nextEventFrame(0);
        QCOMPARE(s->currentFrame(), next);
        key(Qt::Key_BracketRight);
        QVERIFY(s->currentFrame() > next);
        key(Qt::Key_BracketLeft);
        QCOMPARE(s->currentFrame(), next);
        key(Qt::Key_Space);
        QVERIFY(w.playback()->isPlaying());
        QTRY_VERIFY(s->currentFrame() > next);
        key(Qt::Key_Space);
        QVERIFY(!w.playback()->isPlaying());
        key(Qt::Key_Plus);
        QCOMPARE(w.playback()->speed(), 2.0);
        key(Qt::Key_Minus);
        key(Qt::Key_Minus);
        QCOMPARE(w.playback()->speed(), 0.5);
        key(Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(w.entityFilter()->hasFocus());
    }

    void playbackKeepsGameTime()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, demoPath()));
        w.playback()->setSpeed(4);
        QElapsedTimer t;
        t.start();
        w.playback()->play();
        QTRY_VERIFY(w.session()->currentFrame() > 200);
        w.playback()->pause();
        // At 4x the playhead's game time tracks wall time x 4 (frames are skipped, not delayed).
        const double game = double(w.session()->gameTimeTicks(w.session()->currentFrame())) / 1e7;
        const double wall = double(t.elapsed()) / 1000.0;
        QVERIFY2(game > wall * 4 * 0.7 && game < wall * 4 * 1.3, qPrintable(QString("game %1 s, wall %2 s").arg(game).arg(wall)));
    }

    void dragOnTheScrubberSeeks()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(openAndWait(w, demoPath()));
        TimelineScrubber* tl = w.timeline();
        const int y = tl->scrubLaneY();
        const int x0 = tl->xOfFrame(100), x1 = tl->xOfFrame(1500);
        QTest::mousePress(tl, Qt::LeftButton, {}, QPoint(x0, y));
        QCOMPARE(w.session()->currentFrame(), tl->frameAtX(x0));
        for (int x = x0; x <= x1; x += 25)
            QTest::mouseMove(tl, QPoint(x, y));
        QTest::mouseMove(tl, QPoint(x1, y));
        QTest::mouseRelease(tl, Qt::LeftButton, {}, QPoint(x1, y));
        QCOMPARE(w.session()->currentFrame(), tl->frameAtX(x1));
        QVERIFY(std::abs(w.session()->currentFrame() - 1500) <= 3);
        QVERIFY(settle(w));
        // Ctrl+wheel zooms around the cursor.
        const double spanBefore = tl->axis().span();
        QWheelEvent wheel(QPointF(x0, y), tl->mapToGlobal(QPointF(x0, y)), {}, {0, 240}, Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(tl, &wheel);
        QVERIFY(tl->axis().span() < spanBefore);
        QVERIFY(std::abs(tl->axis().frameAt(x0) - 100) < 5);
    }

    void selectionSurvivesSeeks()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, demoPath()));
        ReplaySession* s = w.session();
        // Find a projectile and frames where it is present and absent.
        int present = -1, absent = -1;
        QString proj;
        for (int f = 0; f < s->frameCount() && (present < 0 || absent < 0); f += 7) {
            auto h = s->file()->frame(f);
            VTX_VERIFY_OK(h);
            vtx::BucketView b = h->view().bucket(0);
            bool has = false;
            for (size_t e = 0; e < b.entityCount(); ++e) {
                const QString id = QString::fromStdString(std::string(b.uniqueId(e)));
                if (proj.isEmpty() && id.startsWith("proj_"))
                    proj = id, present = f;
                has |= !proj.isEmpty() && id == proj;
            }
            if (!proj.isEmpty() && !has && f > present)
                absent = f;
        }
        QVERIFY(present >= 0 && absent > present);
        w.playback()->seek(present);
        QVERIFY(settle(w));
        w.selectEntity({0, proj});
        QCOMPARE(w.inspector()->entity().uniqueId, proj);
        w.playback()->seek(absent);
        QVERIFY(settle(w));
        QCOMPARE(w.selectedEntity().uniqueId, proj);
        QCOMPARE(w.inspector()->model()->rowCount(), 0);
        w.playback()->seek(present);
        QVERIFY(settle(w));
        QCOMPARE(w.inspector()->entity().uniqueId, proj);
        QVERIFY(w.inspector()->model()->rowCount() > 0);
        const QModelIndex cur = w.entityView()->currentIndex();
        QCOMPARE(cur.data(EntityTreeModel::UniqueIdRole).toString(), proj);
        // A player stays selected across seeks too.
        w.selectEntity({0, "player_4"});
        for (int f : {10, 900, 1700, 3}) {
            w.playback()->seek(f);
            QVERIFY(settle(w));
            QCOMPARE(w.entityView()->currentIndex().data(EntityTreeModel::UniqueIdRole).toString(), QString("player_4"));
        }
    }

    void badFilesShowAnErrorAndTheAppKeepsRunning()
    {
        MainWindow w;
        const QString bad = m_dir.path() + "/corrupt.vtx";
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("VTXF\x10\x00\x00\x00 this is not a replay, just some bytes");
        f.close();
        QSignalSpy failed(w.session(), &ReplaySession::openFailed);
        w.openFile(OpenRequest(bad));
        QVERIFY(failed.wait(10000));
        QVERIFY(w.lastError().contains("corrupt.vtx"));
        QVERIFY(!w.session()->isOpen());
        w.openFile(OpenRequest(m_dir.path() + "/missing.vtx"));
        QVERIFY(failed.wait(10000));
        QVERIFY(w.lastError().contains("missing.vtx"));
        QVERIFY(openAndWait(w, demoPath()));
        QVERIFY(w.entityModel()->rowCount() > 0);
    }

    void plotComputesOnAWorkerAndSeeks()
    {
        MainWindow w;
        QVERIFY(openAndWait(w, demoPath()));
        QSignalSpy done(w.plot(), &PropertyPlot::finished);
        w.plot()->plot({0, "player_0"}, "Position.x", 0, w.session()->frameCount() - 1);
        QVERIFY(w.plot()->isComputing());
        QVERIFY(done.wait(30000));
        QCOMPARE(int(w.plot()->canvas()->series().frames.size()), w.session()->frameCount());
        auto* canvas = w.plot()->canvas();
        canvas->resize(600, 150);
        const int x = canvas->width() / 2;
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(x, 50));
        QCOMPARE(w.session()->currentFrame(), canvas->frameAtX(x));
        // Cancel: a new request cancels a running one; cancel() stops it.
        w.plot()->plot({0, "player_1"}, "Health", 0, w.session()->frameCount() - 1);
        w.plot()->cancel();
        QVERIFY(!w.plot()->isComputing());
    }

    // File > Follow: the window opens a recording that is still being written (recovery mode,
    // banner), then the timeline grows as a writer thread appends chunks, the tailing playhead
    // stays on the last frame, and the finished file loses its "recovered" banner.
    void followAGrowingRecording()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/live.vtx").toStdString();
        vtx::WriterOptions wo;
        wo.chunkMaxFrames = 10;
        auto writer = vtx::ReplayWriter::create(path, vtx::ReplayHeader{}, wo);
        QVERIFY(writer.isOk());
        auto frame = [](int32_t i) {
            vtx::FrameData f;
            f.buckets.resize(1);
            vtx::PropertyContainerData e;
            e.typeId = 0;
            e.int32s = {i};
            f.buckets[0].entities.push_back(std::move(e));
            f.buckets[0].uniqueIds.push_back("counter");
            return f;
        };
        for (int32_t i = 0; i < 10; ++i)
            QVERIFY((*writer)->addFrame(frame(i), i * 166666, 1 + i * 166666).isOk());
        QVERIFY((*writer)->flush().isOk());

        MainWindow w;
        w.show();
        OpenRequest req(QString::fromStdString(path));
        req.follow = true;
        QSignalSpy opened(w.session(), &ReplaySession::opened);
        w.openFile(req);
        QVERIFY(opened.wait(20000));
        QVERIFY(w.session()->file()->isRecovered());
        QVERIFY(w.session()->isFollowing());
        QCOMPARE(w.session()->frameCount(), 10);
        w.playback()->goToEnd();
        QTRY_COMPARE(w.session()->displayedFrame().index(), 9);

        std::thread recorder([&] {
            for (int32_t i = 10; i < 60; ++i)
                (void)(*writer)->addFrame(frame(i), i * 166666, 1 + i * 166666);
            (void)(*writer)->finish();
        });
        recorder.join();
        QTRY_VERIFY_WITH_TIMEOUT(!w.session()->file()->isRecovered(), 10000);
        QCOMPARE(w.session()->frameCount(), 60);
        QTRY_COMPARE(w.session()->currentFrame(), 59);
        QTRY_COMPARE(w.session()->displayedFrame().index(), 59);
        QCOMPARE(w.session()->displayedFrame()->bucket(0).entity(0).int32s()[0], 59);
        QCOMPARE(w.timeline()->frameCount(), 60);
    }

    // A chunk that cannot be decoded costs only its frames: the playhead there says why in the
    // banner, the timeline marks the chunk failed, and every other frame still shows.
    void corruptChunkCostsOnlyItsFrames()
    {
        QTemporaryDir dir;
        auto good = vtx::ReplayFile::open(demoPath().toStdString());
        QVERIFY(good.isOk());
        const vtx::ChunkEntry bad = (*good)->chunks()[1];
        QFile in(demoPath());
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        for (qsizetype i = qsizetype(bad.fileOffset) + 40; i < qsizetype(bad.fileOffset + bad.chunkSizeBytes); i += 5)
            bytes[i] = char(bytes[i] ^ 0x5A);
        const QString path = dir.path() + "/corrupt.vtx";
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();

        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, path));
        QVERIFY(w.bannerText().isEmpty());
        QSignalSpy failed(w.session(), &ReplaySession::frameFailed);
        w.playback()->seek(bad.startFrame + 3);
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.first().at(0).toInt(), bad.startFrame + 3);
        QVERIFY2(w.session()->frameError().contains("chunk 1"), qPrintable(w.session()->frameError()));
        QVERIFY2(w.bannerText().contains(QString("Frame %1 is unavailable").arg(bad.startFrame + 3)), qPrintable(w.bannerText()));
        QCOMPARE(w.session()->cache()->chunkStates()[1], vtx::ChunkState::Failed);
        w.playback()->seek(bad.endFrame + 1);
        QVERIFY(settle(w));
        QCOMPARE(w.session()->displayedFrame().index(), bad.endFrame + 1);
        QVERIFY(w.session()->frameError().isEmpty());
        QVERIFY(w.bannerText().isEmpty());
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
