// SPDX-License-Identifier: MIT
// The entity list follows the shown frame row by row (ListEdits), never by resetting: the
// edits turn any list into any other, keep the rows of kept entities, and the model shows
// exactly the frame's entities at every frame, on the demo and the SDK-written samples.

#include "CorruptCopy.hpp"
#include "TestSupport.hpp"
#include "WindowWait.hpp"
#include "common/HintTreeView.hpp"
#include "entities/EntityListPanel.hpp"
#include "entities/EntityTreeModel.hpp"
#include "entities/InspectorPanel.hpp"
#include "entities/ListEdits.hpp"
#include "session/PlaybackController.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTreeView>

#include <QAbstractItemModelTester>
#include <QtTest>
#include <random>

using namespace vtxw;

namespace {
std::vector<int> applyEdits(std::vector<int> list, const std::vector<int>& to, const std::vector<ListEdit>& edits, std::vector<int>* removed)
{
    for (const ListEdit& e : edits) {
        if (e.kind == ListEdit::Kind::Remove) {
            for (int i = 0; i < e.count; ++i)
                removed->push_back(list[size_t(e.first) + size_t(i)]);
            list.erase(list.begin() + e.first, list.begin() + e.first + e.count);
        } else {
            list.insert(list.begin() + e.first, to.begin() + e.sourceFirst, to.begin() + e.sourceFirst + e.count);
        }
    }
    return list;
}
} // namespace

class TestEntityRows : public QObject {
    Q_OBJECT
private slots:
    void editsTurnOneListIntoAnother_data()
    {
        QTest::addColumn<std::vector<int>>("from");
        QTest::addColumn<std::vector<int>>("to");
        QTest::addColumn<bool>("keepsKeptRows"); // false: the order changed or a key repeats
        QTest::newRow("same") << std::vector<int>{1, 2, 3} << std::vector<int>{1, 2, 3} << true;
        QTest::newRow("empty to some") << std::vector<int>{} << std::vector<int>{1, 2} << true;
        QTest::newRow("some to empty") << std::vector<int>{1, 2} << std::vector<int>{} << true;
        QTest::newRow("insert middle and ends") << std::vector<int>{2, 4} << std::vector<int>{1, 2, 3, 4, 5} << true;
        QTest::newRow("remove runs") << std::vector<int>{1, 2, 3, 4, 5, 6} << std::vector<int>{1, 4} << true;
        QTest::newRow("remove and insert") << std::vector<int>{1, 2, 3, 4} << std::vector<int>{0, 2, 9, 4, 7} << true;
        QTest::newRow("all replaced") << std::vector<int>{1, 2} << std::vector<int>{3, 4} << true;
        QTest::newRow("swapped") << std::vector<int>{1, 2, 3} << std::vector<int>{3, 2, 1} << false;
        QTest::newRow("repeated key in from") << std::vector<int>{1, 1, 2} << std::vector<int>{1, 2} << false;
        QTest::newRow("repeated key in to") << std::vector<int>{1, 2} << std::vector<int>{2, 2, 1} << false;
        std::mt19937 rng(17);
        for (int t = 0; t < 300; ++t) {
            // Subsets of 0..29 in ascending order (as a frame's entities mostly are), and
            // every 5th pair shuffled.
            std::vector<int> a, b;
            for (int k = 0; k < 30; ++k) {
                if (rng() % 3)
                    a.push_back(k);
                if (rng() % 3)
                    b.push_back(k);
            }
            const bool shuffled = t % 5 == 4;
            if (shuffled)
                std::shuffle(b.begin(), b.end(), rng);
            QTest::addRow("random %d", t) << a << b << !shuffled;
        }
    }
    void editsTurnOneListIntoAnother()
    {
        QFETCH(std::vector<int>, from);
        QFETCH(std::vector<int>, to);
        QFETCH(bool, keepsKeptRows);
        const auto edits = listEdits(from, to, std::hash<int>());
        std::vector<int> removed;
        QCOMPARE(applyEdits(from, to, edits, &removed), to);
        int keptAndRemoved = 0;
        for (int r : removed)
            keptAndRemoved += std::count(to.begin(), to.end(), r) > 0;
        if (keepsKeptRows) {
            QCOMPARE(keptAndRemoved, 0);
        } else {
            // Only the fallback may remove a kept key, and it replaces everything at once.
            bool anyKept = false;
            for (int k : from)
                anyKept = anyKept || std::count(to.begin(), to.end(), k) > 0;
            if (anyKept && from != to)
                QVERIFY(edits.size() <= 2);
        }
    }

    // The model at every frame of a walk over a replay: the rows are the frame's entities in
    // its order, with their types and containers; a kept entity keeps its row (a persistent
    // index on it stays on it); the model never resets while the buckets stay the same.
    void modelFollowsFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("demo") << QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx");
        QTest::newRow("sdk_cs_fbs") << QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"));
        QTest::newRow("sdk_rl_proto") << QString::fromStdString(vtxtest::samplePath("sdk_rl_proto.vtx"));
        QTest::newRow("allkinds_fbs") << QString::fromStdString(vtxtest::samplePath("allkinds_fbs.vtx"));
        QTest::newRow("arena_from_fbs_ds") << QString::fromStdString(vtxtest::samplePath("arena_from_fbs_ds.vtx"));
    }
    void modelFollowsFrames()
    {
        QFETCH(QString, file);
        if (!file.contains("fixtures/"))
            VTX_REQUIRE_SAMPLES();
        auto f = vtx::ReplayFile::open(file.toStdString());
        VTX_VERIFY_OK(f);
        const vtx::Schema& schema = (*f)->schema();
        EntityTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        std::mt19937 rng(5);
        const int frames = (*f)->frameCount();
        std::vector<int> walk;
        walk.reserve(60);
        for (int i = 0; i < 40; ++i)
            walk.push_back(int(rng() % uint32_t(frames)));
        for (int i = 0; i < 20 && i < frames; ++i)
            walk.push_back(std::min(frames - 1, frames / 2 + i)); // neighbours: small changes
        int rowsMoved = 0;
        for (size_t step = 0; step < walk.size(); ++step) {
            auto h = (*f)->frame(walk[step]);
            VTX_VERIFY_OK(h);
            // A persistent index on an entity of the previous frame that the new one keeps.
            QPersistentModelIndex tracked;
            QString trackedId;
            if (step > 0)
                for (int b = 0; b < model.rowCount() && !tracked.isValid(); ++b)
                    for (int r = model.rowCount(model.index(b, 0)) - 1; r >= 0; --r) {
                        const QString id = model.index(r, 0, model.index(b, 0)).data(EntityTreeModel::UniqueIdRole).toString();
                        bool inNext = false;
                        const vtx::BucketView nb = (*h)->bucket(size_t(b));
                        for (size_t e = 0; e < nb.entityCount() && !inNext; ++e)
                            inNext = QString::fromUtf8(nb.uniqueId(e).data(), qsizetype(nb.uniqueId(e).size())) == id;
                        if (inNext) {
                            tracked = model.index(r, 0, model.index(b, 0));
                            trackedId = id;
                            break;
                        }
                    }
            const int resetsBefore = int(resets.count());
            model.setFrame(*h, &schema);
            if (step > 0)
                QCOMPARE(int(resets.count()), resetsBefore); // same buckets: rows change, no reset
            QCOMPARE(model.rowCount(), int((*h)->bucketCount()));
            for (size_t b = 0; b < (*h)->bucketCount(); ++b) {
                const vtx::BucketView bucket = (*h)->bucket(b);
                const QModelIndex parent = model.index(int(b), 0);
                QCOMPARE(model.rowCount(parent), int(bucket.entityCount()));
                for (size_t e = 0; e < bucket.entityCount(); ++e) {
                    const QModelIndex i = model.index(int(e), 0, parent);
                    QCOMPARE(i.data(EntityTreeModel::UniqueIdRole).toString(),
                             QString::fromUtf8(bucket.uniqueId(e).data(), qsizetype(bucket.uniqueId(e).size())));
                    QCOMPARE(i.data(EntityTreeModel::TypeIdRole).toInt(), bucket.entity(e).typeId());
                    const vtx::ContainerView shown = model.containerAt(i), expected = bucket.entity(e);
                    QCOMPARE(shown.contentHash(), expected.contentHash());
                    QVERIFY(shown.int32s().data() == expected.int32s().data() && shown.floats().data() == expected.floats().data() &&
                            shown.strings().size() == expected.strings().size());
                }
            }
            if (tracked.isValid() || !trackedId.isEmpty()) {
                QVERIFY2(tracked.isValid(), qPrintable(trackedId + " lost its row"));
                QCOMPARE(tracked.data(EntityTreeModel::UniqueIdRole).toString(), trackedId);
                ++rowsMoved;
            }
        }
        QVERIFY(rowsMoved > 0);
    }

    // At a frame that cannot be read the list still holds the last frame shown: greyed, and a
    // note says which frame it is. Back at a readable frame, neither.
    void unreadableFrameGreysTheListAndSaysSo()
    {
        VTX_REQUIRE_SAMPLES();
        QTemporaryDir dir;
        const QString path = dir.path() + "/corrupt.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(QString::fromStdString(vtxtest::samplePath("sdk_rl_fbs.vtx")), path, 1));
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(vtxtest::openAndWait(w, path));
        EntityListPanel* list = w.entityList();
        const QColor normal = list->view()->palette().color(QPalette::Text);
        const vtx::ChunkEntry bad = w.session()->file()->chunks()[1];
        const int before = bad.startFrame - 5;
        w.viewState()->setRequestedFrame(before);
        QTRY_VERIFY(!w.viewState()->isLoading() && w.viewState()->shownFrame().index() == before);
        QVERIFY(list->staleNote()->isHidden());
        QSignalSpy failed(w.viewState(), &ViewState::frameFailed);
        w.viewState()->setRequestedFrame(bad.startFrame + 3);
        QTRY_VERIFY(!failed.isEmpty());
        QVERIFY(!list->staleNote()->isHidden());
        const QString note = list->staleNote()->text();
        QVERIFY2(note.contains(QString::number(bad.startFrame + 3)) && note.contains(QString::number(before)), qPrintable(note));
        QVERIFY(list->view()->palette().color(QPalette::Text) != normal);
        QVERIFY(list->proxy()->rowCount() > 0); // the last frame's entities, not an empty list
        const int after = bad.endFrame + 1;
        w.viewState()->setRequestedFrame(after);
        QTRY_VERIFY(!w.viewState()->isLoading() && w.viewState()->shownFrame().index() == after);
        QVERIFY(list->staleNote()->isHidden());
        QCOMPARE(list->view()->palette().color(QPalette::Text), normal);
    }

    // A filtered list says how many of the bucket pass ("entity (1 of 39)", not the bucket's
    // whole count), and a frame where none passes says so instead of a blank list.
    void filteredListCountsAndSaysWhenNothingMatches()
    {
        VTX_REQUIRE_SAMPLES();
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(vtxtest::openAndWait(w, QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"))));
        EntityListPanel* list = w.entityList();
        auto* view = qobject_cast<HintTreeView*>(list->view());
        QVERIFY(view);
        QSortFilterProxyModel* proxy = list->proxy();
        QAbstractItemModel* source = proxy->sourceModel();
        const int total = source->rowCount(source->index(0, 0));
        QVERIFY(total > 10);
        // Frame 300: s1mple is hurt (Health 44 in sdk_expected).
        w.viewState()->setRequestedFrame(300);
        QTRY_VERIFY(!w.viewState()->isLoading() && w.viewState()->shownFrame().index() == 300);
        list->filterField()->setText("Player.Health < 50");
        QTRY_COMPARE(proxy->rowCount(), 1);
        const QModelIndex bucket = proxy->index(0, 0);
        const int shown = proxy->rowCount(bucket);
        QVERIFY(shown >= 1 && shown < total);
        QCOMPARE(bucket.data().toString(), QString("entity (%1 of %2)").arg(shown).arg(total));
        QVERIFY(!view->isHintShown());
        // Frame 0: everyone at 100.
        w.viewState()->setRequestedFrame(0);
        QTRY_VERIFY(!w.viewState()->isLoading() && w.viewState()->shownFrame().index() == 0);
        QTRY_COMPARE(proxy->rowCount(), 0);
        QVERIFY(view->isHintShown());
        QVERIFY2(view->hint().contains("Player.Health &lt; 50"), qPrintable(view->hint()));
        // No filter: the bucket's own count, no hint.
        list->filterField()->clear();
        QTRY_COMPARE(proxy->rowCount(), source->rowCount()); // every bucket again
        QCOMPARE(proxy->index(0, 0).data().toString(), QString("entity (%1)").arg(total));
        QVERIFY(!view->isHintShown());
    }

    // Scrubbing shows and hides no widget: every show or hide re-lays out its parent and asks
    // the X server where the cursor is (a synchronous round trip), which made up part of the UI
    // stalls while scrubbing. The inspector's loading mark says "loading…" while the frame is
    // on its way, and nothing once it is shown.
    void scrubbingShowsAndHidesNoWidget()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(vtxtest::openAndWait(w, QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx")));
        w.viewState()->setSelection({0, "player_3"});
        auto* loading = w.inspector()->findChild<QLabel*>("loading");
        QVERIFY(loading && loading->isVisible());
        struct ShowHideCounter : QObject {
            QStringList seen;
            bool eventFilter(QObject* o, QEvent* e) override
            {
                if ((e->type() == QEvent::Show || e->type() == QEvent::Hide) && o->isWidgetType() && !static_cast<QWidget*>(o)->isWindow()) {
                    // A scroll bar (and the container Qt keeps it in) comes and goes with the
                    // length of what its view shows: content, not churn.
                    QWidget* wgt = static_cast<QWidget*>(o);
                    if (qobject_cast<QScrollBar*>(wgt) || wgt->findChild<QScrollBar*>(QString(), Qt::FindDirectChildrenOnly))
                        return false;
                    seen << QString("%1 %2").arg(o->metaObject()->className(), e->type() == QEvent::Show ? "shown" : "hidden");
                }
                return false;
            }
        } counter;
        qApp->installEventFilter(&counter);
        std::mt19937 rng(3);
        for (int i = 0; i < 30; ++i) {
            const int frame = int(rng() % uint32_t(w.session()->frameCount()));
            w.playback()->seek(frame);
            if (w.viewState()->isLoading())
                QCOMPARE(loading->text(), tr("loading…"));
            QVERIFY(QTest::qWaitFor([&] { return !w.viewState()->isLoading() && w.viewState()->shownFrame().index() == frame; }, 20000));
            QVERIFY(loading->text().isEmpty());
        }
        qApp->removeEventFilter(&counter);
        QVERIFY2(counter.seen.isEmpty(), qPrintable(counter.seen.join(", ")));
    }
};

QTEST_MAIN(TestEntityRows)
#include "tst_entityrows.moc"
