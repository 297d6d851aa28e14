// SPDX-License-Identifier: MIT
// Two replays in the viewer (issue 19): a generated pair identical except perturbations at known
// frames and properties. The divergence lane's per-frame counts equal `vtxscope-cli diverge`'s
// (vtx::diverge), Go ▸ Next / Previous divergence land on the divergent frames, the diff panel
// in compare mode lists exactly the perturbed properties of the paired frames, time alignment
// picks the right frame of a file recorded at another rate with a gap, the map draws the
// compared replay's entities as ghosts, and a file that cannot be opened is an error, not a crash.

#include "CorruptCopy.hpp"
#include "ScriptedPrompts.hpp"
#include "TestSupport.hpp"
#include "WindowWait.hpp"

#include "compare/CompareBar.hpp"
#include "compare/CompareSession.hpp"
#include "compare/DivergenceLane.hpp"
#include "diff/DiffPanel.hpp"
#include "map/MapView.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/MainWindow.hpp"
#include "timeline/TimelineScrubber.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/file/ReplayWriter.hpp"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace vtxw;

namespace {

std::string field(const std::string& name, const std::string& type)
{
    return R"({"name":")" + name + R"(","typeId":")" + type + R"(","containerType":"None","structType":"","keyId":"None"})";
}

const std::string kSchema = R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + field("Position", "Vector") + "," +
    field("Health", "Float") + "," + field("Ammo", "Int32") + "," + field("Name", "String") + "]}]}";

constexpr int kPlayers = 3;

/// What the perturbation does to player `p` at time index `t` (A's frame number at 60 fps).
using Perturb = std::function<void(int t, int p, vtx::PropertyContainerData&)>;

/// 60 fps (or `fps`) frames of three players; frame f of a file at `fps` holds the data of time
/// index f * 60 / fps. `gapAfter` ≥ 0: the game clock jumps 1 s after that frame.
std::string writeReplay(const QTemporaryDir& dir, const std::string& name, int frames, int fps, const Perturb& perturb, int gapAfter = -1)
{
    std::string path = dir.path().toStdString() + "/" + name;
    vtx::ReplayHeader header;
    header.schemaJson = kSchema;
    header.replayName = name;
    vtx::WriterOptions wo;
    wo.chunkMaxFrames = 16;
    auto w = vtx::ReplayWriter::create(path, header, wo);
    if (!w)
        qFatal("%s", w.message().c_str());
    for (int f = 0; f < frames; ++f) {
        const int t = f * 60 / fps + (gapAfter >= 0 && f > gapAfter ? 60 : 0);
        vtx::FrameData frame;
        vtx::BucketData bucket;
        for (int p = 0; p < kPlayers; ++p) {
            vtx::PropertyContainerData c;
            c.typeId = 0;
            c.vectors = {vtx::Vec3{double(t) + p, double(t) * 0.5, double(p)}};
            c.floats = {100.0f - float(t) * 0.25f - float(p)};
            c.int32s = {30 - t % 30};
            c.strings = {"player_" + std::to_string(p)};
            if (perturb)
                perturb(t, p, c);
            bucket.uniqueIds.push_back("p" + std::to_string(p));
            bucket.entities.push_back(std::move(c));
        }
        frame.buckets.push_back(std::move(bucket));
        const int64_t ticks = int64_t(t) * vtx::kTicksPerSecond / 60;
        if (vtx::Status st = (*w)->addFrame(std::move(frame), ticks, ticks); !st)
            qFatal("%s", st.message().c_str());
    }
    if (auto s = (*w)->finish(); !s)
        qFatal("%s", s.message().c_str());
    return path;
}

/// The pair every test uses: B's Health of p1 is 5 higher on frames 40–44, B's p2 stands 3 units
/// further along x from frame 70 on, and Ammo of p0 differs by one at frame 90 only.
void perturbB(int t, int p, vtx::PropertyContainerData& c)
{
    if (p == 1 && t >= 40 && t < 45)
        c.floats[0] += 5.0f;
    if (p == 2 && t >= 70)
        c.vectors[0].x += 3.0;
    if (p == 0 && t == 90)
        c.int32s[0] += 1;
}

/// The model's rows as "id" / "  path" lines.
QStringList modelRows(const QAbstractItemModel* m)
{
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QModelIndex e = m->index(r, 0);
        out << e.data(DiffModel::StatusRole).toString() + " " + e.data(DiffModel::UniqueIdRole).toString();
        for (int c = 0; c < m->rowCount(e); ++c)
            out << "  " + m->index(c, 0, e).data(DiffModel::PathRole).toString();
    }
    return out;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_a, m_b, m_b30;
    std::unique_ptr<MainWindow> m_w;

    bool settle()
    {
        return QTest::qWaitFor(
            [&] { return !m_w->viewState()->isLoading() && m_w->viewState()->shownFrame().index() == m_w->viewState()->requestedFrame(); }, 20000);
    }
    bool seekAndSettle(int frame)
    {
        m_w->playback()->seek(frame);
        return settle() && QTest::qWaitFor([&] { return m_w->diffPanel()->isUpToDate() || !m_w->compareSession()->isLoadingB(); }, 20000);
    }
    bool compareWith(const std::string& path, const ComparePairing& options)
    {
        CompareSession* c = m_w->compareSession();
        c->viewState()->setComparePairing(options);
        QSignalSpy opened(c, &CompareSession::opened);
        m_w->openComparison(QString::fromStdString(path));
        if (!opened.wait(20000))
            return false;
        return QTest::qWaitFor([c] { return c->isLaneComplete(); }, 60000);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        vtxtest::installScriptedPrompts(); // no modal dialog can block a test
        QVERIFY(m_dir.isValid());
        m_a = writeReplay(m_dir, "a.vtx", 120, 60, {});
        m_b = writeReplay(m_dir, "b.vtx", 120, 60, perturbB);
        m_b30 = writeReplay(m_dir, "b30.vtx", 70, 30, {}, 40); // 30 fps, a 1 s jump of the game clock after frame 40
        m_w = std::make_unique<MainWindow>();
        m_w->resize(1400, 900);
        m_w->show();
        new QAbstractItemModelTester(m_w->diffPanel()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
        new QAbstractItemModelTester(m_w->diffPanel()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
        QVERIFY(vtxtest::openAndWait(*m_w, QString::fromStdString(m_a)));
    }

    void laneEqualsDiverge_data()
    {
        QTest::addColumn<int>("alignment");
        QTest::addColumn<qlonglong>("offset");
        QTest::addColumn<double>("epsilon");
        QTest::addColumn<bool>("rate30");
        QTest::newRow("frame, exact") << int(vtx::Alignment::Frame) << 0LL << 0.0 << false;
        QTest::newRow("frame, ε hides Health") << int(vtx::Alignment::Frame) << 0LL << 6.0 << false;
        QTest::newRow("frame, offset 2") << int(vtx::Alignment::Frame) << 2LL << 0.0 << false;
        QTest::newRow("time, 30 fps with a gap") << int(vtx::Alignment::Time) << 0LL << 0.0 << true;
    }
    void laneEqualsDiverge()
    {
        QFETCH(int, alignment);
        QFETCH(qlonglong, offset);
        QFETCH(double, epsilon);
        QFETCH(bool, rate30);
        const std::string b = rate30 ? m_b30 : m_b;
        ComparePairing o;
        o.alignment = vtx::Alignment(alignment);
        o.offset = offset;
        o.epsilon = epsilon;
        QVERIFY(compareWith(b, o));
        CompareSession* c = m_w->compareSession();
        QVERIFY(c->isActive());
        QVERIFY(m_w->divergenceLane()->isVisible());
        // A lane of the timeline, in UX.md's order: after the ruler (and matches), before the
        // chunks (it sat above the overview, outside the timeline).
        TimelineScrubber* tl = m_w->timeline();
        QCOMPARE(m_w->divergenceLane()->parentWidget(), tl);
        QCOMPARE(m_w->divergenceLane()->geometry().center().y(), tl->laneCentreY("comparison"));
        QVERIFY(tl->laneCentreY("comparison") > tl->laneCentreY("ruler") && tl->laneCentreY("comparison") < tl->laneCentreY("chunks"));
        QCOMPARE(m_w->divergenceLane()->width(), tl->width());
        QVERIFY(m_w->compareBar()->isVisible());
        QVERIFY(c->laneError().isEmpty());

        auto fa = vtx::ReplayFile::open(m_a);
        auto fb = vtx::ReplayFile::open(b);
        QVERIFY(fa && fb);
        vtx::DivergeOptions d;
        d.alignment = o.alignment;
        d.offset = o.offset;
        d.tolerance.absolute = o.epsilon;
        auto report = vtx::diverge(**fa, **fb, d);
        QVERIFY2(report, report ? "" : report.message().c_str());
        std::vector<uint32_t> entities(size_t((*fa)->frameCount()), 0), properties(entities.size(), 0);
        for (const vtx::PairDivergence& p : report->divergentPairs) {
            entities[size_t(p.frames.frameA)] = p.entities;
            properties[size_t(p.frames.frameA)] = p.properties;
        }
        QVERIFY(!report->divergentPairs.empty() || epsilon > 0 || rate30);
        QCOMPARE(c->entityCounts(), entities);
        QCOMPARE(c->propertyCounts(), properties);
        QCOMPARE(c->firstDivergence(), report->firstDivergence ? report->firstDivergence->frameA : -1);
        for (const vtx::FramePair& p : vtx::pairFrames(**fa, **fb, o.alignment, o.offset))
            QCOMPARE(c->partnerOf(p.frameA), p.frameB);
        m_w->compareSession()->close();
        QVERIFY(!m_w->divergenceLane()->isVisible());
        QCOMPARE(tl->laneCentreY("comparison"), -1);
    }

    void nextAndPreviousDivergence()
    {
        QVERIFY(compareWith(m_b, {}));
        QVERIFY(seekAndSettle(0));
        QAction* next = m_w->findChild<QAction*>("nextDivergence");
        QAction* prev = m_w->findChild<QAction*>("prevDivergence");
        QVERIFY(next && prev && next->isEnabled());
        QCOMPARE(next->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_BracketRight));
        next->trigger();
        QCOMPARE(m_w->viewState()->requestedFrame(), 40); // the first divergent frame
        QCOMPARE(m_w->compareSession()->firstDivergence(), 40);
        QVERIFY(seekAndSettle(44));
        next->trigger();
        QCOMPARE(m_w->viewState()->requestedFrame(), 70); // 45–69 agree
        prev->trigger();
        QCOMPARE(m_w->viewState()->requestedFrame(), 44);
        QVERIFY(seekAndSettle(40));
        prev->trigger();
        QCOMPARE(m_w->viewState()->requestedFrame(), 40); // nothing before: the playhead stays
    }

    void diffPanelListsThePerturbedProperties_data()
    {
        QTest::addColumn<int>("frame");
        QTest::addColumn<QStringList>("rows");
        QTest::newRow("agree") << 10 << QStringList{};
        QTest::newRow("Health") << 42 << QStringList{"changed p1", "  Health"};
        QTest::newRow("Position") << 80 << QStringList{"changed p2", "  Position"};
        QTest::newRow("Position and Ammo") << 90 << QStringList{"changed p0", "  Ammo", "changed p2", "  Position"};
    }
    void diffPanelListsThePerturbedProperties()
    {
        QFETCH(int, frame);
        QFETCH(QStringList, rows);
        if (!m_w->compareSession()->isActive())
            QVERIFY(compareWith(m_b, {}));
        DiffPanel* panel = m_w->diffPanel();
        QVERIFY(panel->isComparingFiles());
        QVERIFY(seekAndSettle(frame));
        QTRY_VERIFY_WITH_TIMEOUT(panel->isUpToDate(), 20000);
        QCOMPARE(panel->frameA(), frame);
        QCOMPARE(panel->frameB(), frame);
        QCOMPARE(modelRows(panel->model()), rows);
        QVERIFY2(panel->summary()->text().contains("compared replay, frame " + QString::number(frame)), qPrintable(panel->summary()->text()));
        if (rows.isEmpty())
            QVERIFY(panel->summary()->text().contains("identical"));
        // The diff's B comes from the other file, not from this one.
        QVERIFY(panel->model()->diff()->b.chunk() != m_w->viewState()->shownFrame().chunk());
        // Pinning A waits until the comparison is closed.
        m_w->viewState()->pinA(0);
        QCOMPARE(panel->frameA(), frame);
    }

    void timeAlignmentPicksTheRightFrame_data()
    {
        QTest::addColumn<int>("frameA");
        QTest::addColumn<int>("frameB");
        // B at 30 fps: A's frame a (time a/60 s) pairs with B's last frame at or before it,
        // a / 2, until B's clock jumps 1 s after its frame 40 (time 80/60 s): A's frames
        // 82–119 fall in the jump and pair with B's frame 40.
        QTest::newRow("even") << 20 << 10;
        QTest::newRow("odd: the frame before") << 21 << 10;
        QTest::newRow("before the jump") << 81 << 40;
        QTest::newRow("in the jump") << 100 << 40;
    }
    void timeAlignmentPicksTheRightFrame()
    {
        QFETCH(int, frameA);
        QFETCH(int, frameB);
        ComparePairing o;
        o.alignment = vtx::Alignment::Time;
        if (!m_w->compareSession()->isActive() || m_w->compareSession()->path() != QString::fromStdString(m_b30) ||
            m_w->compareSession()->pairing().alignment != vtx::Alignment::Time)
            QVERIFY(compareWith(m_b30, o));
        QCOMPARE(m_w->compareSession()->partnerOf(frameA), frameB);
        QVERIFY(seekAndSettle(frameA));
        QTRY_VERIFY_WITH_TIMEOUT(m_w->diffPanel()->isUpToDate(), 20000);
        QCOMPARE(m_w->diffPanel()->frameB(), frameB);
        QCOMPARE(m_w->diffPanel()->model()->diff()->b.index(), frameB);
    }

    void switchingAlignmentRepairs()
    {
        QVERIFY(compareWith(m_b30, {}));
        QCOMPARE(m_w->compareSession()->partnerOf(21), 21); // by frame
        // The compare bar's alignment box re-pairs and restarts the lane.
        QComboBox* box = m_w->compareBar()->alignmentBox();
        box->setCurrentIndex(1);
        emit box->activated(1);
        QCOMPARE(m_w->compareSession()->pairing().alignment, vtx::Alignment::Time);
        QCOMPARE(m_w->compareSession()->partnerOf(21), 10);
        QTRY_VERIFY_WITH_TIMEOUT(m_w->compareSession()->isLaneComplete(), 60000);
    }

    // A recovered file has no frame times: pairing by time pairs nothing and says why, in the
    // diff panel and the lane, instead of pairing every frame with B's frame 0 (review 5).
    void timeAlignmentWithoutTimesSaysWhy()
    {
        const QString cut = m_dir.path() + "/b30_cut.vtx";
        QVERIFY(vtxtest::writeCutCopy(QString::fromStdString(m_b30), cut, 2, 3));
        CompareSession* c = m_w->compareSession();
        ComparePairing o;
        o.alignment = vtx::Alignment::Time;
        c->viewState()->setComparePairing(o);
        QSignalSpy opened(c, &CompareSession::opened);
        m_w->openComparison(cut);
        QVERIFY(opened.wait(20000));
        QVERIFY(c->fileB()->isRecovered());
        QCOMPARE(c->partnerOf(10), -1);
        QTRY_VERIFY_WITH_TIMEOUT(c->laneError().contains("holds no game time"), 20000);
        QVERIFY(seekAndSettle(10));
        const QLabel* summary = m_w->diffPanel()->summary();
        QTRY_VERIFY2(summary->text().contains("Nothing is paired") && summary->text().contains("b30_cut.vtx: holds no game time"),
                     qPrintable(summary->text()));
        // By frame it pairs as usual.
        c->viewState()->setComparePairing({});
        QCOMPARE(c->partnerOf(10), 10);
        QTRY_VERIFY_WITH_TIMEOUT(c->isLaneComplete(), 60000);
    }

    void mapDrawsTheComparedReplayAsGhosts()
    {
        QVERIFY(compareWith(m_b, {}));
        auto* dock = m_w->findChild<QDockWidget*>("mapDock");
        QVERIFY(dock);
        dock->show();
        dock->raise();
        QVERIFY(seekAndSettle(80));
        QTRY_VERIFY_WITH_TIMEOUT(m_w->map()->scene().comparing, 20000);
        const MapScene& s = m_w->map()->scene();
        QCOMPARE(int(s.ghosts.size()), kPlayers);
        for (const MapGhost& g : s.ghosts) {
            QVERIFY(g.glyph >= 0);
            // p2 stands 3 units apart in the two runs; the others agree.
            QCOMPARE(g.distance, g.key.uniqueId == "p2" ? 3.0 : 0.0);
        }
        QVERIFY2(s.note.contains("compared, frame 80"), qPrintable(s.note));
        // The arrows run from this replay (the diff's A) to the compared one (its B), and the
        // ghost's Δ is the diff's (review 3, item 3: the map's ran from B to A).
        QVERIFY(s.ghostsAreB);
        const auto p2 = std::find_if(s.ghosts.begin(), s.ghosts.end(), [](const MapGhost& g) { return g.key.uniqueId == "p2"; });
        QVERIFY(p2 != s.ghosts.end());
        QTRY_VERIFY_WITH_TIMEOUT(m_w->diffPanel()->isUpToDate(), 20000);
        const DiffModel* diff = m_w->diffPanel()->model();
        QStringList diffDeltas;
        for (int r = 0; r < diff->rowCount(); ++r) {
            const QModelIndex e = diff->index(r, 0);
            if (e.data(DiffModel::UniqueIdRole).toString() == "p2")
                for (int c = 0; c < diff->rowCount(e); ++c)
                    diffDeltas << diff->index(c, DiffModel::DeltaColumn, e).data().toString().replace(QChar(0x2212), '-');
        }
        QVERIFY2(diffDeltas.contains(p2->delta), qPrintable(p2->delta + " not among the diff's " + diffDeltas.join("; ")));
        m_w->compareSession()->close();
        QTRY_VERIFY(!m_w->map()->scene().comparing);
    }

    // The lane's tooltip gives the counts of the frame under the cursor, the same as the session's.
    void laneTooltipGivesTheCounts()
    {
        QVERIFY(compareWith(m_b, {}));
        DivergenceLane* lane = m_w->divergenceLane();
        const TimelineAxis& axis = m_w->timeline()->axis();
        const int x = lane->mapFromGlobal(m_w->timeline()->mapToGlobal(QPoint(int(std::lround(axis.x(42))), 0))).x();
        const QString tip = lane->toolTipAt(QPoint(x, lane->height() / 2));
        QVERIFY2(tip.contains("<b>1</b> entities, <b>1</b> properties differ"), qPrintable(tip));
        const int x10 = lane->mapFromGlobal(m_w->timeline()->mapToGlobal(QPoint(int(std::lround(axis.x(10))), 0))).x();
        QVERIFY(lane->toolTipAt(QPoint(x10, lane->height() / 2)).contains("identical"));
        QVERIFY(lane->toolTipAt(QPoint(2, lane->height() / 2)).contains("Divergence")); // the legend
    }

    // Review 5 #4: a chunk of B that cannot be read no longer stops the lane. Its frames are
    // hatched as unreadable (with the reason in the tooltip), every other frame is compared
    // exactly as with the intact B, and the bar says how many frames were not compared.
    void laneGoesOnPastUnreadableFrames()
    {
        const QString damaged = m_dir.path() + "/b_chunk2_damaged.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(QString::fromStdString(m_b), damaged, 2)); // frames 32-47, where 40-44 differ
        QVERIFY(compareWith(damaged.toStdString(), {}));
        CompareSession* c = m_w->compareSession();
        QVERIFY2(c->laneError().isEmpty(), qPrintable(c->laneError()));
        QCOMPARE(c->comparedUpTo(), 120);
        QCOMPARE(c->unreadableCount(), 16);
        for (int f = 0; f < 120; ++f)
            QCOMPARE(c->isUnreadable(f), f >= 32 && f < 48);
        QVERIFY2(c->unreadableReasonAt(40).contains("b_chunk2_damaged.vtx"), qPrintable(c->unreadableReasonAt(40)));
        QVERIFY(c->unreadableReasonAt(50).isEmpty());
        // Outside the damage: the intact comparison's counts; inside: nothing claimed.
        auto fa = vtx::ReplayFile::open(m_a);
        auto fb = vtx::ReplayFile::open(m_b);
        QVERIFY(fa && fb);
        auto report = vtx::diverge(**fa, **fb);
        QVERIFY2(report, report ? "" : report.message().c_str());
        std::vector<uint32_t> entities(120, 0);
        for (const vtx::PairDivergence& p : report->divergentPairs)
            if (p.frames.frameA < 32 || p.frames.frameA >= 48)
                entities[size_t(p.frames.frameA)] = p.entities;
        QCOMPARE(c->entityCounts(), entities);
        QCOMPARE(c->firstDivergence(), 70); // 40-44 differ, but cannot be read in B
        const QString bar = m_w->compareBar()->laneLabel()->text();
        QVERIFY2(bar.contains("first divergence: frame 70") && bar.contains("16 frame(s) unreadable") && !bar.contains("stopped"), qPrintable(bar));
        QVERIFY2(m_w->compareBar()->laneLabel()->toolTip().contains("b_chunk2_damaged.vtx"), qPrintable(m_w->compareBar()->laneLabel()->toolTip()));
        DivergenceLane* lane = m_w->divergenceLane();
        const TimelineAxis& axis = m_w->timeline()->axis();
        auto tipAt = [&](int frame) {
            const int x = lane->mapFromGlobal(m_w->timeline()->mapToGlobal(QPoint(int(std::lround(axis.x(frame))), 0))).x();
            return lane->toolTipAt(QPoint(x, lane->height() / 2));
        };
        QVERIFY2(tipAt(40).contains("not compared, unreadable") && tipAt(40).contains("b_chunk2_damaged.vtx"), qPrintable(tipAt(40)));
        QVERIFY2(tipAt(10).contains("identical"), qPrintable(tipAt(10)));
        QCOMPARE(c->nextDivergence(0, true), 70);
        // The lane paints the damage: some column over frames 32-47 holds the hatch's colour.
        const QImage shot = lane->grab().toImage();
        const int x40 = lane->mapFromGlobal(m_w->timeline()->mapToGlobal(QPoint(int(std::lround(axis.x(40))), 0))).x();
        bool hatched = false;
        for (int y = 0; y < shot.height() && !hatched; ++y)
            hatched = shot.pixelColor(x40, y) == DivergenceLane::divergedColour();
        QVERIFY(hatched);
        c->close();
        // Against a damaged copy of itself: no divergence, said of the frames that were read.
        const QString selfDamaged = m_dir.path() + "/a_chunk2_damaged.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(QString::fromStdString(m_a), selfDamaged, 2));
        QVERIFY(compareWith(selfDamaged.toStdString(), {}));
        QCOMPARE(c->firstDivergence(), -1);
        const QString verdict = m_w->compareBar()->laneLabel()->text();
        QVERIFY2(verdict.contains("16 frame(s) unreadable") && verdict.endsWith("<b>no divergence</b> in the rest"), qPrintable(verdict));
        c->close();
    }

    // While comparing, the window still fits 800×600 (the compare bar's labels give way; the
    // lane's 14 px fit in the height).
    void theWindowFits800WideWhileComparing()
    {
        QVERIFY(compareWith(m_b, {}));
        QVERIFY2(m_w->minimumSizeHint().width() <= 800, qPrintable(QString::number(m_w->minimumSizeHint().width())));
        qInfo("minimum size while comparing: %dx%d", m_w->minimumSizeHint().width(), m_w->minimumSizeHint().height());
        QVERIFY2(m_w->minimumSizeHint().height() <= 600, qPrintable(QString::number(m_w->minimumSizeHint().height())));
    }

    // The user's A/B wait while two replays are compared and come back when the comparison
    // closes (review 4, item 11: closing it dropped the A pin without a word).
    void closingTheComparisonGivesBackTheMarkers_data()
    {
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<bool>("previous");
        QTest::addColumn<QString>("said");
        QTest::newRow("A pinned, B following") << 30 << -1 << false << "Diff: A = frame 30, B follows the playhead";
        QTest::newRow("A and B set") << 30 << 90 << false << "Diff: A = frame 30, B = frame 90";
        QTest::newRow("each frame against the one before") << -1 << -1 << true << "Diff: each frame against the frame before it";
    }
    void closingTheComparisonGivesBackTheMarkers()
    {
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(bool, previous);
        QFETCH(QString, said);
        ViewState* v = m_w->viewState();
        m_w->compareSession()->close(); // the test before left one open
        QVERIFY(!v->isComparing());
        v->clearAB();
        QVERIFY(seekAndSettle(50));
        if (previous) {
            v->setPreviousFrameMode(true);
        } else {
            v->pinA(a);
            if (b >= 0)
                v->setB(b);
        }
        const DiffMarkers mine = v->diffMarkers();
        QVERIFY(mine.isActive());
        QVERIFY(compareWith(m_b, {}));
        QVERIFY(v->isComparing());
        QVERIFY(seekAndSettle(60)); // the playhead moves while comparing: a following B follows it
        m_w->findChild<QAction*>("closeComparison")->trigger();
        QVERIFY(!v->isComparing());
        DiffMarkers expected = mine;
        if (expected.bFollowsPlayhead || expected.previousFrame)
            expected.b = 60;
        if (expected.previousFrame)
            expected.a = 59;
        QVERIFY2(v->diffMarkers() == expected, qPrintable(QString("A %1 B %2").arg(v->diffMarkers().a).arg(v->diffMarkers().b)));
        QCOMPARE(m_w->statusBar()->currentMessage(), "Comparison closed · " + said);
        v->clearAB();
    }

    void closingTheReplayClosesTheComparison()
    {
        m_w->viewState()->pinA(30); // the closed replay's markers do not come back with the next one
        QVERIFY(compareWith(m_b, {}));
        QAction* close = m_w->findChild<QAction*>("closeComparison");
        QVERIFY(close && close->isEnabled());
        m_w->session()->close();
        QVERIFY(!m_w->compareSession()->isActive());
        QVERIFY(!m_w->diffPanel()->isComparingFiles());
        QVERIFY(!close->isEnabled());
        QVERIFY(vtxtest::openAndWait(*m_w, QString::fromStdString(m_a)));
        QVERIFY(!m_w->viewState()->diffMarkers().isActive());
    }

    void aFileThatCannotBeOpenedIsAnError()
    {
        QSignalSpy failed(m_w->compareSession(), &CompareSession::openFailed);
        m_w->openComparison(m_dir.path() + "/missing.vtx");
        QVERIFY(failed.wait(20000));
        QVERIFY(!m_w->compareSession()->isActive());
        QVERIFY(failed.first().at(0).toString().endsWith("missing.vtx"));
        const QString message = failed.first().at(1).toString();
        QVERIFY(!message.isEmpty());
        QCOMPARE(m_w->lastError(), message);
        QVERIFY(!m_w->diffPanel()->isComparingFiles());
    }

    // Issue 26 8c: replays of two games share no entity ("71 entities, 0 properties differ"):
    // the lane must show those frames as different, not stay blank.
    void laneShowsFramesWhereOnlyEntitiesDiffer()
    {
        if (!vtxtest::samplesAvailable())
            QSKIP("SDK samples not available");
        QVERIFY(vtxtest::openAndWait(*m_w, QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"))));
        QVERIFY(compareWith(vtxtest::samplePath("sdk_rl_fbs.vtx"), {}));
        CompareSession* c = m_w->compareSession();
        std::vector<int> onlyEntitiesFrames;
        for (size_t f = 0; f < c->entityCounts().size(); ++f)
            if (c->entityCounts()[f] > 0 && c->propertyCounts()[f] == 0 && c->partnerOf(int(f)) >= 0)
                onlyEntitiesFrames.push_back(int(f));
        // One away from the playhead (frame 0), whose line is drawn over the lane.
        const int onlyEntities = onlyEntitiesFrames.empty() ? -1 : onlyEntitiesFrames[onlyEntitiesFrames.size() / 2];
        QVERIFY2(onlyEntities >= 0, "the two games' replays share entities");
        DivergenceLane* lane = m_w->divergenceLane();
        m_w->timeline()->showAll();
        QCoreApplication::processEvents();
        const TimelineAxis& axis = m_w->timeline()->axis();
        const int x = lane->mapFromGlobal(m_w->timeline()->mapToGlobal(QPoint(int(std::lround(axis.x(onlyEntities))), 0))).x();
        const QImage image = lane->grab().toImage();
        const int y = lane->barRect().bottom();
        bool painted = false; // the frame's column, give or take the rounding of its pixel
        for (int dx = -1; dx <= 1 && !painted; ++dx)
            painted = image.pixelColor(x + dx, y).rgb() == DivergenceLane::divergedColour().rgb();
        QVERIFY2(painted,
                 qPrintable(QString("frame %1 (%2 entities, 0 properties differ): no bar at x %3")
                                .arg(onlyEntities)
                                .arg(c->entityCounts()[size_t(onlyEntities)])
                                .arg(x)));
        c->close();
        QVERIFY(vtxtest::openAndWait(*m_w, QString::fromStdString(m_a)));
    }

    void cleanupTestCase() { m_w.reset(); }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
