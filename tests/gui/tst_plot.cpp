// SPDX-License-Identifier: MIT
// The Plot and Analysis docks (issue 18) in the main window on real replays: several series over
// the whole replay equal reading the frames directly; a chunk that fails to decode is a gap that
// is drawn and said; cancel leaves no stale curve; the x range follows the timeline and the
// timeline follows the plot; click seeks; CSV export; the models pass QAbstractItemModelTester.
// Issue 26: series of different ranges on their own lanes or axes, a vector as x / y / z or its
// length, the linked x axis at the timeline's pixels, the x axis in the time unit (frames and
// a note for a file without times).

#include "CorruptCopy.hpp"
#include "ScriptedPrompts.hpp"
#include "TestSupport.hpp"
#include "WindowWait.hpp"
#include "analysis/AnalysisPanel.hpp"
#include "entities/InspectorPanel.hpp"
#include "entities/WatchModel.hpp"
#include "find/QueryBar.hpp"
#include "map/MapView.hpp"
#include "plot/PlotPanel.hpp"
#include "plot/PlotRenderer.hpp"
#include "session/JobTracker.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/LayoutPresets.hpp"
#include "shell/MainWindow.hpp"
#include "timeline/TimelineScrubber.hpp"
#include "vtx/model/PropertyTree.hpp"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

using namespace vtxw;

namespace {

QString demoPath()
{
    return QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx");
}

/// The slow path: each frame read on its own, the entity found, the path evaluated.
vtx::SeriesData directRead(const vtx::ReplayFile& file, uint32_t bucket, const std::string& id, const std::string& path)
{
    vtx::SeriesData d;
    const vtx::PropertyPath p = *vtx::PropertyPath::parse(path);
    std::shared_ptr<const vtx::DecodedChunk> chunk; // ReplayFile::frame() decodes its chunk each time: keep it
    for (int32_t f = 0; f < file.frameCount(); ++f) {
        vtx::FrameView fv;
        if (chunk && f >= chunk->startFrame() && f < chunk->startFrame() + int32_t(chunk->frameCount())) {
            fv = chunk->frame(size_t(f - chunk->startFrame()));
        } else {
            auto h = file.frame(f);
            if (!h)
                continue;
            chunk = h->chunk();
            fv = h->view();
        }
        const vtx::Value v = p.evaluate(vtx::findEntity(fv, bucket, id), file.schema());
        if (v.isNumber()) {
            d.frames.push_back(f);
            d.values.push_back(v.number);
        }
    }
    return d;
}

/// The slow path of an expression series "Player.<path> < limit": per frame, the Player
/// entities whose value is below the limit, found by reading every entity on its own.
std::vector<double> directCountBelow(const vtx::ReplayFile& file, const std::string& path, double limit)
{
    std::vector<double> counts;
    for (int32_t f = 0; f < file.frameCount(); ++f) {
        auto h = file.frame(f);
        if (!h)
            return {};
        double n = 0;
        for (size_t b = 0; b < h->view().bucketCount(); ++b) {
            const vtx::BucketView bucket = h->view().bucket(b);
            for (size_t e = 0; e < bucket.entityCount(); ++e) {
                const vtx::StructDef* def = file.schema().structById(bucket.entity(e).typeId());
                if (!def || def->name != "Player")
                    continue;
                const auto v = vtx::evaluatePath(bucket.entity(e), file.schema(), path);
                n += v && v->number && *v->number < limit;
            }
        }
        counts.push_back(n);
    }
    return counts;
}

QString samplePath()
{
    return QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"));
}

const QString kSimple = QStringLiteral("player_76561198000000000"); // DisplayName "s1mple"

/// Where frame `frame` is on screen in the timeline's ruler and in the plot's data area.
std::pair<double, double> screenXOfFrame(MainWindow& w, double frame)
{
    const TimelineScrubber* t = w.timeline();
    PlotCanvas* c = w.plot()->canvas();
    return {t->mapToGlobal(QPoint(0, 0)).x() + t->axis().x(frame), c->mapToGlobal(QPoint(0, 0)).x() + c->layout().map.x(frame)};
}

const PlotSeriesEntry* entryNamed(PlotPanel* plot, const QString& name)
{
    for (const PlotSeriesEntry& e : plot->model()->entries())
        if (e.name == name)
            return &e;
    return nullptr;
}

} // namespace

class TestPlot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        vtxtest::installScriptedPrompts(); // no modal dialog can block a test
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("vtxscope-tests");
        QSettings().remove("plot/stackLanes"); // the default (stacked), whatever a run before left
        QSettings().remove("plot/linkTimeline");
    }

    void seriesModelPassesTheTester()
    {
        PlotSeriesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const quint64 a = model.add("a.Health", {});
        const quint64 b = model.add("b.Health", {});
        model.add("c.Health", {});
        QVERIFY(model.hasPending());
        QVERIFY(model.index(0).data(PlotSeriesModel::ComputingRole).toBool());
        auto d = std::make_shared<vtx::SeriesData>();
        d->frames = {1, 2, 3};
        d->values = {1, 2, 3};
        model.setSeriesData(a, d);
        QCOMPARE(model.index(0).data(PlotSeriesModel::PointCountRole).toLongLong(), 3LL);
        QVERIFY(model.setData(model.index(0), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(!model.entries()[0].visible);
        QVERIFY(model.index(0).data(Qt::DecorationRole).value<QColor>() != model.index(1).data(Qt::DecorationRole).value<QColor>());
        model.remove(b);
        QCOMPARE(model.rowCount(), 2);
        model.setSeriesData(b, d); // removed meanwhile: ignored
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void analysisModelPassesTheTester()
    {
        AnalysisModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(AnalysisModel::SortRole);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        vtx::AnalysisTable t;
        t.columns = {"id", "n"};
        t.rows = {{std::string("b"), int64_t(10)}, {std::string("a"), int64_t(9)}, {std::string("c"), int64_t(100)}};
        model.setTable(t);
        proxy.sort(1);
        // Numbers sort as numbers (9 < 10 < 100), not as text.
        QCOMPARE(proxy.index(0, 0).data().toString(), QString("a"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QString("c"));
        proxy.setFilterKeyColumn(-1);
        proxy.setFilterFixedString("b");
        QCOMPARE(proxy.rowCount(), 1);
        model.setTable({});
        QCOMPARE(proxy.rowCount(), 0);
    }

    // Issue 26 8d: Unique values and property spans hold values as text (formatValue); a column
    // of numbers sorts as numbers (1, 11, 100), absent values first, and a column with any text
    // that is not a number sorts as text.
    void analysisTextNumbersSortAsNumbers_data()
    {
        QTest::addColumn<QStringList>("cells");
        QTest::addColumn<QStringList>("sorted");
        QTest::newRow("integers") << QStringList{"100", "1", "11", "10"} << QStringList{"1", "10", "11", "100"};
        QTest::newRow("negative and fractions") << QStringList{"2.5", "-3", "10", "-0.5"} << QStringList{"-3", "-0.5", "2.5", "10"};
        QTest::newRow("absent first") << QStringList{"20", "—", "3"} << QStringList{"—", "3", "20"};
        QTest::newRow("text stays text") << QStringList{"b", "10", "a", "9"} << QStringList{"10", "9", "a", "b"};
        QTest::newRow("vectors are text") << QStringList{"(10, 0, 0)", "(9, 0, 0)"} << QStringList{"(10, 0, 0)", "(9, 0, 0)"};
    }
    void analysisTextNumbersSortAsNumbers()
    {
        QFETCH(QStringList, cells);
        QFETCH(QStringList, sorted);
        AnalysisModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(AnalysisModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        vtx::AnalysisTable t;
        t.columns = {"value"};
        for (const QString& c : cells)
            t.rows.push_back({c.toStdString()});
        model.setTable(t);
        proxy.sort(0);
        QStringList got;
        for (int r = 0; r < proxy.rowCount(); ++r)
            got << proxy.index(r, 0).data().toString();
        QCOMPARE(got, sorted);
        // A column of numbers held as text is right-aligned like one of numbers.
        const bool numbers = QTest::currentDataTag() != QByteArray("text stays text") && QTest::currentDataTag() != QByteArray("vectors are text");
        QCOMPARE(proxy.index(0, 0).data(Qt::TextAlignmentRole).isValid(), numbers);
    }

    // Four series from the three ways in (the panel, the inspector's Plot, the watch list's
    // Plot), each over the whole replay, equal to reading the frames directly.
    void seriesEqualReadingTheFrames()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, demoPath()));
        PlotPanel* plot = w.plot();
        QAbstractItemModelTester tester(plot->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(plot, &PlotPanel::finished);
        plot->addPropertySeries({0, "player_0"}, "Position.x");
        emit w.inspector()->plotRequested({0, "player_1"}, "Health");
        w.watchModel()->addWatch({{0, "player_2"}, "Armor"});
        w.watchModel()->addWatch({{2, "item_0"}, "ValueCents"});
        auto* watchView = w.findChild<QDockWidget*>("watchDock")->findChild<QTableView*>();
        QVERIFY(watchView);
        watchView->selectionModel()->select(w.watchModel()->index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        watchView->selectionModel()->select(w.watchModel()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QAction* plotWatch = nullptr;
        for (QAction* a : watchView->actions())
            if (a->text() == "Plot")
                plotWatch = a;
        QVERIFY(plotWatch);
        plotWatch->trigger();
        QCOMPARE(plot->model()->rowCount(), 4);
        QVERIFY(plot->isComputing());
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QVERIFY(finished.count() >= 1);
        const auto file = w.session()->file();
        const struct {
            QString name;
            uint32_t bucket;
            std::string id, path;
        } want[] = {{"player_0.Position.x", 0, "player_0", "Position.x"},
                    {"player_1.Health", 0, "player_1", "Health"},
                    {"player_2.Armor", 0, "player_2", "Armor"},
                    {"item_0.ValueCents", 2, "item_0", "ValueCents"}};
        for (const auto& s : want) {
            const PlotSeriesEntry* e = entryNamed(plot, s.name);
            QVERIFY2(e && e->data, qPrintable(s.name));
            const vtx::SeriesData direct = directRead(*file, s.bucket, s.id, s.path);
            QCOMPARE(e->data->frames, direct.frames);
            QCOMPARE(e->data->values, direct.values);
            QCOMPARE(int(e->data->frames.size()), file->frameCount()); // the whole replay
        }
        QVERIFY(plot->failed().empty());
        QVERIFY2(plot->statusText().startsWith("4 series"), qPrintable(plot->statusText()));
        // Drawn: every shown series has columns; hiding one in the legend removes its curve.
        auto* canvas = plot->canvas();
        canvas->resize(800, 300);
        QCOMPARE(canvas->layout().columns.size(), size_t(4));
        for (const auto& c : canvas->layout().columns)
            QVERIFY(!c.empty() && c.size() <= size_t(canvas->layout().plot.width()) + 2);
        plot->model()->setData(plot->model()->index(0), Qt::Unchecked, Qt::CheckStateRole);
        QCOMPARE(canvas->layout().columns.size(), size_t(3));
        // Click (no drag) seeks to the frame under the cursor.
        const int x = canvas->layout().plot.left() + canvas->layout().plot.width() / 3;
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(x, canvas->layout().plot.center().y()));
        QCOMPARE(w.viewState()->requestedFrame(), canvas->frameAtX(x));
        // CSV: a header naming every series, one row per frame, the values as computed.
        QTemporaryDir dir;
        const QString csv = dir.path() + "/plot.csv";
        QVERIFY(plot->exportCsv(csv));
        QFile in(csv);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(in.readAll()).split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), file->frameCount() + 1);
        QCOMPARE(lines[0], QString("frame,game time (s),player_0.Position.x,player_1.Health,player_2.Armor,item_0.ValueCents"));
        const QStringList row = lines[101].split(',');
        QCOMPARE(row[0], QString("100"));
        QCOMPARE(row[3].toDouble(), entryNamed(plot, "player_1.Health")->data->values[100]);
        QVERIFY(plot->exportPng(dir.path() + "/plot.png"));
        QVERIFY(QImage(dir.path() + "/plot.png").width() == canvas->width());
    }

    // An expression series: per frame, how many entities match, equal to counting them frame by
    // frame; a frame-level expression plots 1/0; a bad expression or changed() adds nothing and
    // says why.
    void expressionSeriesCountsMatches()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, demoPath()));
        PlotPanel* plot = w.plot();
        QString error;
        QVERIFY(plot->addExpressionSeries("Player.Health < 50", &error));
        QVERIFY(plot->addExpressionSeries("any(Player.Health < 20)", &error));
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        const auto file = w.session()->file();
        const std::vector<double> below50 = directCountBelow(*file, "Health", 50), below20 = directCountBelow(*file, "Health", 20);
        QCOMPARE(int(below50.size()), file->frameCount());
        const PlotSeriesEntry* count = entryNamed(plot, "count(Player.Health < 50)");
        QVERIFY(count && count->data);
        QCOMPARE(int(count->data->frames.size()), file->frameCount());
        QCOMPARE(count->data->values, below50);
        QVERIFY(*std::max_element(below50.begin(), below50.end()) >= 2); // more than a yes/no
        const PlotSeriesEntry* any = entryNamed(plot, "any(Player.Health < 20)");
        QVERIFY(any && any->data);
        for (size_t f = 0; f < below20.size(); ++f)
            QCOMPARE(any->data->values[f], below20[f] > 0 ? 1.0 : 0.0);
        QCOMPARE(plot->model()->rowCount(), 2);
        QCOMPARE(plot->addExpressionSeries("Player.Helth < 50", &error), quint64(0));
        QVERIFY2(error.contains("column 7") && error.contains("Health"), qPrintable(error));
        QCOMPARE(plot->addExpressionSeries("changed(Health)", &error), quint64(0));
        QVERIFY2(error.contains("changed()"), qPrintable(error));
        QCOMPARE(plot->model()->rowCount(), 2);
        QCOMPARE(plot->statusText(), error);
        // The next series that is plotted takes the error off: it said why the last request
        // failed, not what is on the plot (it stayed beside a plot that worked).
        QVERIFY(plot->addExpressionSeries("Player.Health < 30", &error));
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QVERIFY2(!plot->statusText().contains("changed()"), qPrintable(plot->statusText()));
        QVERIFY2(plot->statusText().contains("3 series"), qPrintable(plot->statusText()));
    }

    // Review item 10: Plot mode plots a type's property for each entity ("Player.Health": a
    // series per player, named as in the legend), not only counts of a condition; a text
    // property is refused with why, and changed() is refused in the bar before it runs.
    void propertyOfEachEntityPlots()
    {
        VTX_REQUIRE_SAMPLES();
        QSettings().remove("query");
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"))));
        w.playback()->seek(300);
        QTRY_VERIFY(!w.viewState()->shownFrame().isNull() && w.viewState()->shownFrame().index() == 300);
        PlotPanel* plot = w.plot();
        // s1mple's Health plotted first (right-click ▸ Plot): Player.Health adds the other nine,
        // not a second s1mple curve (review 3, item 8: 11 series for 10 players).
        const quint64 first = plot->addPropertySeries({0, "player_76561198000000000"}, "Health");
        QVERIFY(first);
        QCOMPARE(plot->addPropertySeries({0, "player_76561198000000000"}, "Health"), first);
        QCOMPARE(plot->model()->rowCount(), 1);
        QueryBar* bar = w.queryBar();
        bar->setMode(QueryBar::Mode::Plot);
        bar->field()->setText("Player.Health");
        QVERIFY(bar->submit());
        QCOMPARE(plot->model()->rowCount(), 10);
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QStringList names;
        for (const PlotSeriesEntry& e : plot->model()->entries()) {
            QCOMPARE(e.path, QString("Health"));
            names << e.shownName;
        }
        QVERIFY2(names.contains("s1mple · Health") && names.contains("ZywOo · Health"), qPrintable(names.join(", ")));
        const PlotSeriesEntry* s1mple = entryNamed(plot, "player_76561198000000000.Health");
        QVERIFY(s1mple && s1mple->data);
        // The series holds what the frame says.
        const auto file = w.session()->file();
        for (int f : {0, 300, file->frameCount() - 1}) {
            auto frame = file->frame(f);
            QVERIFY(frame);
            const auto v = vtx::evaluatePath(vtx::findEntity(frame->view(), 0, "player_76561198000000000"), file->schema(), "Health");
            QVERIFY(v && v->number);
            const auto at = std::find(s1mple->data->frames.begin(), s1mple->data->frames.end(), f);
            QVERIFY(at != s1mple->data->frames.end());
            QCOMPARE(s1mple->data->values[size_t(at - s1mple->data->frames.begin())], *v->number);
        }
        QString error;
        QCOMPARE(plot->addExpressionSeries("Player.UserName", &error), quint64(0));
        QVERIFY2(error.contains("not a number"), qPrintable(error));
        QCOMPARE(plot->model()->rowCount(), 10);
        bar->field()->setText("changed(Player.Health)");
        QVERIFY(!bar->submit());
        QCOMPARE(plot->model()->rowCount(), 10);
        // A condition still counts.
        bar->field()->setText("Player.Health < 50");
        QVERIFY(bar->submit());
        QVERIFY(entryNamed(plot, "count(Player.Health < 50)"));
    }

    // A chunk that fails to decode: the series have no points there, the hole is hatched on the
    // plot (no column of any curve inside it) and the status line says which frames and why.
    void corruptChunkGapIsDrawnAndSaid()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + "/corrupt.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(demoPath(), path, 2));
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, path));
        const vtx::ChunkEntry bad = w.session()->file()->chunks()[2];
        PlotPanel* plot = w.plot();
        plot->setLinked(false);
        plot->addPropertySeries({0, "player_0"}, "Position.x");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QCOMPARE(plot->failed().size(), size_t(1));
        QCOMPARE(plot->failed()[0].first, bad.startFrame);
        QCOMPARE(plot->failed()[0].last, bad.endFrame);
        QVERIFY2(plot->statusText().contains(QString("frames %1–%2").arg(bad.startFrame).arg(bad.endFrame)) &&
                     plot->statusText().contains("unreadable") && !plot->statusText().contains(path),
                 qPrintable(plot->statusText()));
        // The reason, with the whole path, is in the tooltip: in the line it was cut at 1366 px (review 5 #8).
        QVERIFY2(plot->statusToolTip().contains("chunk 2") && plot->statusToolTip().contains(path), qPrintable(plot->statusToolTip()));
        const vtx::SeriesData direct = directRead(*w.session()->file(), 0, "player_0", "Position.x");
        const auto& data = plot->model()->entries()[0].data;
        QVERIFY(data);
        QCOMPARE(data->frames, direct.frames);
        QCOMPARE(data->values, direct.values);
        auto* canvas = plot->canvas();
        canvas->resize(900, 300);
        QCOMPARE(canvas->scene().failed.size(), size_t(1));
        const PlotLayout& L = canvas->layout();
        const int x0 = int(std::ceil(L.map.x(bad.startFrame))) + 1, x1 = int(std::floor(L.map.x(bad.endFrame))) - 1;
        QVERIFY(x1 > x0);
        for (const vtx::PlotColumn& c : L.columns[0])
            QVERIFY2(c.x < x0 || c.x > x1, qPrintable(QString("a curve column at x %1 inside the gap").arg(c.x)));
        // The first column after the hole is not joined across it.
        auto after = std::find_if(L.columns[0].begin(), L.columns[0].end(), [&](const vtx::PlotColumn& c) { return c.x > x1; });
        QVERIFY(after != L.columns[0].end());
        QVERIFY(!after->joined);
        // The hatch is painted inside the hole.
        const QImage img = canvas->grab().toImage();
        const QColor mid = img.pixelColor((x0 + x1) / 2, L.plot.top() + 30);
        QVERIFY2(mid.red() > mid.blue(), qPrintable(mid.name()));
    }

    // Cancel removes the series being computed: no partial or stale curve, even when the
    // cancelled job's answer arrives later; the curves computed before stay.
    void cancelLeavesNoStaleCurve()
    {
        MainWindow w;
        QVERIFY(vtxtest::openAndWait(w, demoPath()));
        PlotPanel* plot = w.plot();
        QSignalSpy finished(plot, &PlotPanel::finished);
        plot->addPropertySeries({0, "player_1"}, "Health");
        QVERIFY(finished.wait(30000));
        const auto first = plot->model()->entries()[0].data;
        QVERIFY(first);
        plot->addPropertySeries({0, "player_2"}, "Armor");
        QVERIFY(plot->isComputing());
        plot->cancel();
        QVERIFY(!plot->isComputing());
        QCOMPARE(plot->model()->rowCount(), 1);
        // Let the cancelled worker finish and its answer be delivered: it must change nothing.
        vtxw::detail::waitForPoolJobs();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(plot->model()->rowCount(), 1);
        QCOMPARE(plot->model()->entries()[0].data, first);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(plot->canvas()->scene().series.size(), size_t(1));
        // Two added back to back: one pass computes both (the first job is superseded).
        plot->addPropertySeries({0, "player_2"}, "Armor");
        plot->addPropertySeries({0, "player_3"}, "Health");
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY(!plot->isComputing());
        QCOMPARE(plot->model()->rowCount(), 3);
        for (const PlotSeriesEntry& e : plot->model()->entries())
            QVERIFY2(e.data, qPrintable(e.name));
        // A bad path is an error on its row, not a crash or an endless "computing".
        plot->addPropertySeries({0, "player_3"}, "Health[");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QVERIFY(!plot->model()->entries().back().error.isEmpty());
        QVERIFY(plot->model()->index(3).data().toString().contains("error"));
        // Closing the replay clears the series (they name its entities).
        w.session()->close();
        QCOMPARE(plot->model()->rowCount(), 0);
    }

    // Linked: the plot shows the timeline's range; zooming or panning the plot moves the
    // timeline. Unlinked: neither follows the other.
    void xRangeLinkedToTheTimeline()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, demoPath()));
        PlotPanel* plot = w.plot();
        plot->setLinked(true);
        plot->addPropertySeries({0, "player_1"}, "Position.x");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        auto* canvas = plot->canvas();
        w.timeline()->zoomIn(4, 900);
        QCOMPARE(canvas->xFirst(), w.viewState()->zoomFirst());
        QCOMPARE(canvas->xLast(), w.viewState()->zoomLast());
        const double spanBefore = canvas->xLast() - canvas->xFirst();
        canvas->resize(800, 300);
        const QPoint at(canvas->layout().plot.center());
        QWheelEvent wheel(at, canvas->mapToGlobal(at), {}, {0, 120}, Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas, &wheel);
        QVERIFY(canvas->xLast() - canvas->xFirst() < spanBefore);
        QCOMPARE(w.viewState()->zoomFirst(), canvas->xFirst());
        QCOMPARE(w.viewState()->zoomLast(), canvas->xLast());
        // Drag pans (and does not seek).
        const int before = w.viewState()->requestedFrame();
        const double firstBefore = canvas->xFirst();
        QTest::mousePress(canvas, Qt::LeftButton, {}, at);
        QMouseEvent move(QEvent::MouseMove, QPointF(at + QPoint(120, 0)), canvas->mapToGlobal(QPointF(at + QPoint(120, 0))), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &move);
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, at + QPoint(120, 0));
        QVERIFY(canvas->xFirst() < firstBefore);
        QCOMPARE(w.viewState()->requestedFrame(), before);
        QCOMPARE(w.viewState()->zoomFirst(), canvas->xFirst());
        // Unlinked.
        plot->setLinked(false);
        const double mine = canvas->xFirst();
        w.timeline()->showAll();
        QCOMPARE(canvas->xFirst(), mine);
        // Manual y: the range set is the range drawn.
        for (QCheckBox* c : plot->findChildren<QCheckBox*>())
            if (c->text().contains("Fit"))
                c->setChecked(false);
        auto spins = plot->findChildren<QDoubleSpinBox*>();
        QCOMPARE(spins.size(), 2);
        spins[0]->setValue(-1000);
        spins[1]->setValue(1000);
        QCOMPARE(canvas->yMin(), -1000.0);
        QCOMPARE(canvas->yMax(), 1000.0);
    }

    // Issue 26 item 4: a vector plots as x / y / z in one action (three series, in one pass),
    // each equal to reading its component frame by frame; its length is one more series.
    void vectorPlotsAsComponents_data()
    {
        QTest::addColumn<QString>("path"); // what the user plots
        QTest::addColumn<QString>("vector"); // the vector it is
        QTest::newRow("transform: its translation") << "Transform"
                                                    << "Transform.translation";
        QTest::newRow("vector") << "Transform.translation"
                                << "Transform.translation";
    }
    void vectorPlotsAsComponents()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, path);
        QFETCH(QString, vector);
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, samplePath()));
        PlotPanel* plot = w.plot();
        QAbstractItemModelTester tester(plot->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(plot, &PlotPanel::finished);
        const EntityKey simple{0, kSimple};
        QVERIFY(plot->addPropertySeries(simple, path) != 0);
        QCOMPARE(plot->model()->rowCount(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QCOMPARE(finished.count(), 1); // one pass read all three
        const auto file = w.session()->file();
        const QStringList axes{"x", "y", "z"};
        for (int i = 0; i < 3; ++i) {
            const PlotSeriesEntry& e = plot->model()->entries()[size_t(i)];
            QCOMPARE(e.path, vector + "." + axes[i]);
            QCOMPARE(e.vectorPath, vector);
            QCOMPARE(e.shownName, "s1mple · " + e.path); // the readable name, the id second
            QVERIFY(e.data);
            const vtx::SeriesData direct = directRead(*file, 0, kSimple.toStdString(), e.path.toStdString());
            QCOMPARE(e.data->frames, direct.frames);
            QCOMPARE(e.data->values, direct.values);
            QCOMPARE(int(e.data->frames.size()), file->frameCount());
        }
        // Frame 200 as `vtxscope-cli frame sdk_cs_fbs.vtx 200` prints it: [882.0, -270.46875, 4.78125].
        const double at200[] = {882.0, -270.46875, 4.78125};
        for (int i = 0; i < 3; ++i)
            QCOMPARE(plot->model()->entries()[size_t(i)].data->values[200], at200[i]);
        // The length: one series, |v| in every frame.
        QVERIFY(plot->addVectorSeries(simple, vector, VectorPlot::Length) != 0);
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        const PlotSeriesEntry& length = plot->model()->entries().back();
        QCOMPARE(length.shownName, "s1mple · |" + vector + "|");
        QVERIFY(length.data);
        QCOMPARE(length.data->frames.size(), size_t(file->frameCount()));
        for (size_t f : {size_t(0), size_t(200), size_t(file->frameCount() - 1)}) {
            double sum = 0;
            for (int i = 0; i < 3; ++i)
                sum += std::pow(plot->model()->entries()[size_t(i)].data->values[f], 2);
            QCOMPARE(length.data->values[f], std::sqrt(sum));
        }
        QCOMPARE(length.data->values[200], std::sqrt(882.0 * 882.0 + 270.46875 * 270.46875 + 4.78125 * 4.78125));
        // A number stays one series.
        plot->addPropertySeries(simple, "Health");
        QCOMPARE(plot->model()->rowCount(), 5);
    }

    // The first series of an empty plot gets a lane that reads: at 1024 × 700 the plot with one
    // series stayed an 18 px strip (the empty plot's lane was counted, so the first one never
    // asked for room).
    void firstSeriesGetsReadableRoom_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::newRow("1024x700") << QSize(1024, 700);
        QTest::newRow("1280x800") << QSize(1280, 800);
    }
    void firstSeriesGetsReadableRoom()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QSize, window);
        // The default arrangement, whose sizes follow the window (a saved one does not).
        QSettings().remove("window/state");
        MainWindow w;
        w.resize(window);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, samplePath()));
        PlotPanel* plot = w.plot();
        PlotCanvas* canvas = plot->canvas();
        plot->addPropertySeries({0, kSimple}, "Health");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        const int readable = readableHeightFor(1, canvas->font());
        QTRY_VERIFY2(canvas->height() >= readable, qPrintable(QStringLiteral("canvas %1 px, readable from %2").arg(canvas->height()).arg(readable)));
        // The window resized (the default sizes follow it): the plot keeps that room. The docks
        // have been laid out for the new size once the timeline at the bottom moved.
        const QDockWidget* timeline = w.findChild<QDockWidget*>("timelineDock");
        const int timelineBottom = timeline->geometry().bottom();
        w.resize(window + QSize(0, 10));
        QTRY_COMPARE(timeline->geometry().bottom(), timelineBottom + 10);
        // The sizes given in that resize are laid out by the layout requests it posted.
        QCoreApplication::sendPostedEvents();
        QCoreApplication::sendPostedEvents();
        QVERIFY2(canvas->height() >= readable,
                 qPrintable(QStringLiteral("after a resize: canvas %1 px, readable from %2").arg(canvas->height()).arg(readable)));
    }

    // Review item 3: the Map layout hides the plot, and a Plot-mode query (or Plot on a value)
    // showed it again with about 10, later 55, px of graph under a legend.
    void plotShownFromAHiddenDockIsReadable_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::addColumn<QString>("expression");
        QTest::newRow("1280x800, one series") << QSize(1280, 800) << "Player.Health < 50";
        QTest::newRow("1280x800, ten series") << QSize(1280, 800) << "Player.Health";
        QTest::newRow("1024x700, ten series") << QSize(1024, 700) << "Player.Health";
        QTest::newRow("1600x1000, ten series") << QSize(1600, 1000) << "Player.Health";
    }
    void plotShownFromAHiddenDockIsReadable()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QSize, window);
        QFETCH(QString, expression);
        QSettings().remove("query");
        MainWindow w;
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(vtxtest::openAndWait(w, samplePath()));
        w.layouts()->apply(LayoutPresets::Preset::Map);
        auto* dock = w.findChild<QDockWidget*>("plotDock");
        QTRY_VERIFY(!dock->isVisible());
        QueryBar* bar = w.queryBar();
        bar->setMode(QueryBar::Mode::Plot);
        bar->field()->setText(expression);
        QVERIFY(bar->submit());
        QTRY_VERIFY_WITH_TIMEOUT(!w.plot()->isComputing(), 30000);
        QVERIFY(dock->isVisible());
        PlotCanvas* canvas = w.plot()->canvas();
        const int readable = readableHeightFor(1, canvas->font());
        // The default arrangement's share of the height (DockLayout::defaultPlotHeight, for the
        // dock and its tab bar): the graph has more than the one readable lane.
        const int group = std::clamp(window.height() - 570, 120, 230);
        QTRY_VERIFY2(
            dock->height() >= group - 30 && canvas->height() >= readable,
            qPrintable(QStringLiteral("dock %1 px, canvas %2 px, readable from %3").arg(dock->height()).arg(canvas->height()).arg(readable)));
        // The map it came beside keeps the larger part of the height.
        QVERIFY2(w.map()->height() >= canvas->height(),
                 qPrintable(QStringLiteral("map %1 px, plot %2 px").arg(w.map()->height()).arg(canvas->height())));
    }

    // Issue 26 item 4: Health (44–100 here) and a position x (about 830–910) both readable
    // without the user doing anything: their own lanes by default (each lane's axis is its
    // series' range); not stacked: one lane, the position on a second axis. The choice is
    // remembered.
    void differentRangesGetTheirOwnAxes_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1024x700") << QSize(1024, 700);
    }
    void differentRangesGetTheirOwnAxes()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QSize, window);
        MainWindow w;
        w.resize(window);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, samplePath()));
        PlotPanel* plot = w.plot();
        QVERIFY(plot->isStacked()); // the default
        const EntityKey simple{0, kSimple};
        plot->addPropertySeries(simple, "Health");
        plot->addPropertySeries(simple, "Transform.translation.x");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        PlotCanvas* canvas = plot->canvas();
        auto rangeOf = [&](int row) {
            const auto& d = plot->model()->entries()[size_t(row)].data;
            return std::pair{*std::min_element(d->values.begin(), d->values.end()), *std::max_element(d->values.begin(), d->values.end())};
        };
        const auto [healthLo, healthHi] = rangeOf(0);
        const auto [xLo, xHi] = rangeOf(1);
        // On one axis both would be flat lines: each covers less than a quarter of the two together.
        QVERIFY2(!sharesAxis({healthLo, healthHi}, {xLo, xHi}), "the sample's ranges are not that different any more");
        QVERIFY(healthHi - healthLo > 10 && xHi - xLo > 10);
        // The second lane grew the docked plot (heightWanted): its new height comes with the
        // window's next layout pass, after the series are computed. Checked before that pass,
        // under ASan, the lanes were still the first-launch plot's 8 and 6 px.
        QTRY_VERIFY2(canvas->layout().lanes.size() == 2 && canvas->layout().lanes[0].rect.height() >= 30,
                     qPrintable(QStringLiteral("%1 lanes, the first %2 px")
                                    .arg(canvas->layout().lanes.size())
                                    .arg(canvas->layout().lanes.empty() ? 0 : canvas->layout().lanes[0].rect.height())));
        // Stacked: two lanes, one above the other on the same x, each fitted to its series.
        {
            const PlotLayout& L = canvas->layout();
            QCOMPARE(L.lanes.size(), size_t(2));
            QCOMPARE(L.placements[0].lane, 0);
            QCOMPARE(L.placements[1].lane, 1);
            QVERIFY(L.lanes[0].rect.bottom() < L.lanes[1].rect.top());
            QCOMPARE(L.lanes[0].rect.left(), L.lanes[1].rect.left());
            QCOMPARE(L.lanes[0].rect.width(), L.lanes[1].rect.width());
            const PlotYAxis& h = L.axisOf(0);
            const PlotYAxis& x = L.axisOf(1);
            QVERIFY(h.lo <= healthLo && h.hi >= healthHi && h.hi - h.lo < 2 * (healthHi - healthLo) + 2);
            QVERIFY(x.lo <= xLo && x.hi >= xHi && x.hi - x.lo < 1.5 * (xHi - xLo));
            QVERIFY2(!h.ticks.ticks.empty() && !x.ticks.ticks.empty(),
                     qPrintable(QStringLiteral("lanes %1 and %2 px: %3 and %4 ticks")
                                    .arg(L.lanes[0].rect.height())
                                    .arg(L.lanes[1].rect.height())
                                    .arg(h.ticks.ticks.size())
                                    .arg(x.ticks.ticks.size())));
            QVERIFY(L.lanes[0].rect.height() >= 30);
        }
        {
            // Given room (the Plot layout, a taller dock), each lane's axis reads at several values.
            canvas->resize(canvas->width(), 320);
            const PlotLayout& L = canvas->layout();
            QVERIFY(L.axisOf(0).ticks.ticks.size() >= 2 && L.axisOf(1).ticks.ticks.size() >= 2);
            // Each lane's legend on its own line above the data: over the data it hid the
            // curves' tops (Health at 100) under the names.
            const int line = QFontMetrics(canvas->font()).height();
            for (const PlotLane& lane : L.lanes)
                QVERIFY2(lane.legendTop >= 0 && lane.legendTop + line <= lane.rect.top(),
                         qPrintable(QString("legend at %1, data from %2").arg(lane.legendTop).arg(lane.rect.top())));
        }
        // One lane: the second series on the right axis, each axis still its series' range.
        auto* stack = plot->findChild<QCheckBox*>("plotStackLanes");
        QVERIFY(stack);
        stack->setChecked(false);
        QVERIFY(!plot->isStacked());
        QCOMPARE(QSettings().value("plot/stackLanes").toBool(), false);
        {
            const PlotLayout& L = canvas->layout();
            QCOMPARE(L.lanes.size(), size_t(1));
            QCOMPARE(L.lanes[0].axes.size(), size_t(2));
            QCOMPARE(L.placements[0], (AxisSlot{0, 0}));
            QCOMPARE(L.placements[1], (AxisSlot{0, 1}));
            QVERIFY(L.axisOf(0).hi - L.axisOf(0).lo < 2 * (healthHi - healthLo) + 2);
            QVERIFY(L.axisOf(1).lo <= xLo && L.axisOf(1).hi >= xHi);
            // Which series is on which axis: said above the data here too.
            QVERIFY(L.lanes[0].legendTop >= 0 && L.lanes[0].legendTop + QFontMetrics(canvas->font()).height() <= L.lanes[0].rect.top());
        }
        stack->setChecked(true);
        QCOMPARE(canvas->layout().lanes.size(), size_t(2));
        QCOMPARE(QSettings().value("plot/stackLanes").toBool(), true);
        // The legend keeps the readable names.
        QCOMPARE(plot->model()->index(0).data().toString(), QString("s1mple · Health"));
    }

    // Series that take more lanes than the dock has room for grow the docked plot (up to half
    // the window): six series in the first-launch layout at 1280 x 800 were five 24 px lanes
    // with one y label each.
    void moreLanesGrowTheDock()
    {
        VTX_REQUIRE_SAMPLES();
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(vtxtest::openAndWait(w, samplePath()));
        PlotPanel* plot = w.plot();
        auto* dock = w.findChild<QDockWidget*>("plotDock");
        QVERIFY(dock && !dock->isFloating());
        const int before = dock->height();
        QSignalSpy wanted(plot, &PlotPanel::heightWanted);
        const EntityKey simple{0, kSimple};
        for (const char* p : {"Health", "Transform.translation.x", "SteamId", "Transform.translation.y"})
            plot->addPropertySeries(simple, p);
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QApplication::processEvents(); // the dock's resize is laid out
        PlotCanvas* canvas = plot->canvas();
        const PlotLayout& L = canvas->layout();
        QVERIFY2(L.lanes.size() >= 4, qPrintable(QString("%1 lanes").arg(L.lanes.size())));
        QVERIFY(wanted.count() >= 1);
        QVERIFY2(dock->height() > before, qPrintable(QString("dock %1 -> %2 px").arg(before).arg(dock->height())));
        QVERIFY(dock->height() <= w.height() / 2 + 1);
        const int fontHeight = QFontMetrics(canvas->font()).height();
        for (const PlotLane& lane : L.lanes) {
            QVERIFY2(lane.rect.height() >= 3 * fontHeight, qPrintable(QString("a lane of %1 px").arg(lane.rect.height())));
            QVERIFY2(lane.axes.front().ticks.ticks.size() >= 2, // a scale, not one value
                     qPrintable(QString("a lane of %1 px with %2 y labels").arg(lane.rect.height()).arg(lane.axes.front().ticks.ticks.size())));
        }
        // Nothing new, nothing asked: a dock the user makes smaller stays so.
        wanted.clear();
        plot->addPropertySeries(simple, "Health");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        QCOMPARE(wanted.count(), 0);
    }

    // Issue 26 item 4: linked, the plot's x axis lines up with the timeline's pixels: a frame
    // is at the same screen x in both, at any zoom and window size; unlinked, the plot keeps
    // its own margins.
    void linkedXAxisLinesUpWithTheTimeline_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::addColumn<double>("zoom");
        for (QSize s : {QSize(1280, 800), QSize(1024, 700), QSize(1600, 1000)})
            for (double z : {1.0, 3.0, 12.0})
                QTest::addRow("%dx%d zoom %g", s.width(), s.height(), z) << s << z;
    }
    void linkedXAxisLinesUpWithTheTimeline()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QSize, window);
        QFETCH(double, zoom);
        MainWindow w;
        w.resize(window);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, samplePath()));
        PlotPanel* plot = w.plot();
        plot->setLinked(true);
        plot->addPropertySeries({0, kSimple}, "Health");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        if (zoom > 1)
            w.timeline()->zoomIn(zoom, 150);
        PlotCanvas* canvas = plot->canvas();
        QVERIFY(canvas->layout().aligned);
        QCOMPARE(canvas->xFirst(), w.timeline()->axis().first);
        QCOMPARE(canvas->xLast(), w.timeline()->axis().last);
        const double first = w.timeline()->axis().first, last = w.timeline()->axis().last;
        for (double t : {0.0, 0.1, 0.37, 0.5, 0.9, 1.0}) {
            const double frame = first + t * (last - first);
            const auto [onTimeline, onPlot] = screenXOfFrame(w, frame);
            QVERIFY2(std::abs(onTimeline - onPlot) < 0.5,
                     qPrintable(QStringLiteral("frame %1: timeline x %2, plot x %3").arg(frame).arg(onTimeline).arg(onPlot)));
            // And back: the plot's pixel maps to the timeline's frame.
            QCOMPARE(canvas->frameAtX(int(std::lround(onPlot - canvas->mapToGlobal(QPoint(0, 0)).x()))),
                     w.timeline()->frameAtX(int(std::lround(onTimeline - w.timeline()->mapToGlobal(QPoint(0, 0)).x()))));
        }
        // A resized window: still lined up.
        w.resize(window - QSize(120, 0));
        QTRY_VERIFY(w.timeline()->width() < window.width() - 100);
        const auto [a, b] = screenXOfFrame(w, (first + last) / 2);
        QVERIFY2(std::abs(a - b) < 0.5, qPrintable(QStringLiteral("%1 vs %2").arg(a).arg(b)));
        // Unlinked: its own margins.
        plot->setLinked(false);
        QVERIFY(!canvas->layout().aligned);
        plot->setLinked(true);
        QVERIFY(canvas->layout().aligned);
    }

    // Issue 26 item 5: the plot's x axis in the time unit, at round values; a file without
    // frame times reads in frame numbers with a note (plot status and timeline ruler).
    void xAxisReadsInTheTimeUnit_data()
    {
        QTest::addColumn<int>("unit");
        QTest::addColumn<bool>("recovered");
        QTest::newRow("frames") << int(TimeUnit::Frame) << false;
        QTest::newRow("game time") << int(TimeUnit::GameTime) << false;
        QTest::newRow("utc") << int(TimeUnit::Utc) << false;
        QTest::newRow("game time, recovered file") << int(TimeUnit::GameTime) << true;
        QTest::newRow("utc, recovered file") << int(TimeUnit::Utc) << true;
    }
    void xAxisReadsInTheTimeUnit()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(int, unit);
        QFETCH(bool, recovered);
        QTemporaryDir dir;
        QString path = samplePath();
        if (recovered) {
            // Without its footer: recovery finds the frames, the frame times are lost.
            auto full = vtx::ReplayFile::open(path.toStdString());
            VTX_VERIFY_OK(full);
            QFile in(path), out(dir.path() + "/cut.vtx");
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            QVERIFY(out.write(in.read(qint64((*full)->footerBlob().offset))) > 0);
            out.close();
            path = out.fileName();
        }
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, path));
        PlotPanel* plot = w.plot();
        plot->setTimeUnit(TimeUnit(unit));
        w.timeline()->setTimeUnit(TimeUnit(unit));
        plot->addPropertySeries({0, kSimple}, "Health");
        QTRY_VERIFY_WITH_TIMEOUT(!plot->isComputing(), 30000);
        const auto& ticks = plot->canvas()->layout().xTicks;
        QVERIFY(ticks.size() >= 3);
        const bool inFrames = recovered || unit == int(TimeUnit::Frame);
        for (const PlotXTick& t : ticks) {
            if (inFrames) {
                QCOMPARE(t.label, QString::number(qint64(t.frame)));
            } else {
                QVERIFY2(t.label.endsWith(" s") || t.label.count(':') >= 1, qPrintable(t.label));
                QVERIFY(!t.label.startsWith("0.000")); // issue 26: "0.000 s" on every tick
            }
        }
        QSet<QString> distinct;
        for (const PlotXTick& t : ticks)
            distinct.insert(t.label);
        QCOMPARE(distinct.size(), qsizetype(ticks.size()));
        if (recovered) {
            QVERIFY2(plot->canvas()->xNote().contains("no "), qPrintable(plot->canvas()->xNote()));
            QVERIFY2(plot->statusText().contains("x axis in frames"), qPrintable(plot->statusText()));
            QVERIFY(!w.timeline()->rulerNote().isEmpty());
        } else {
            QVERIFY(plot->canvas()->xNote().isEmpty());
            QVERIFY(w.timeline()->rulerNote().isEmpty());
        }
        // The timeline's ruler reads the same way.
        const auto ruler = w.timeline()->rulerTicks();
        QVERIFY(ruler.size() >= 3);
        for (const FrameClock::Tick& t : ruler)
            QVERIFY2(inFrames ? t.label == QString::number(qint64(t.frame)) : !t.label.startsWith("0.000"), qPrintable(t.label));
    }

    // Analysis ▸ Entity lifetimes from the menu: on a worker, one row per unique id, sorted
    // and filtered by the proxy, exported as shown.
    // The empty plot's hint shows whole lines only: drawText clips to the data area, and in a
    // 21 px plot (1024 × 700) the second line showed cut in half over the x axis.
    void emptyHintShowsWholeLines_data()
    {
        const QFontMetrics fm(QApplication::font());
        QTest::addColumn<int>("plotHeight");
        QTest::addColumn<int>("linesShown");
        QTest::newRow("room for both") << 3 * fm.height() << 2;
        QTest::newRow("room for one") << fm.height() + fm.height() / 2 << 1;
        QTest::newRow("not even one") << fm.height() - 2 << 0;
    }
    void emptyHintShowsWholeLines()
    {
        QFETCH(int, plotHeight);
        QFETCH(int, linesShown);
        const QFontMetrics fm(QApplication::font());
        const QString hint = QStringLiteral("Right-click a numeric property and choose Plot.\nWheel: zoom · drag: pan");
        const QRect plot(30, 4, 658, plotHeight);
        const QString shown = emptyHintFitting(fm, plot, hint);
        QCOMPARE(shown.isEmpty() ? 0 : int(shown.count(QLatin1Char('\n'))) + 1, linesShown);
        if (linesShown > 0) {
            QVERIFY(fm.boundingRect(plot, Qt::AlignCenter | Qt::TextWordWrap, shown).height() <= plot.height());
            QVERIFY(hint.startsWith(shown.left(10)));
        }
    }

    // Review 4, item 15: at 1366 × 768 the empty plot's "1.0" sat a pixel above "0.8": a label on
    // the lane's edge is pushed inside by half a line, towards its neighbour. Every tick's label
    // is drawn (so they stay evenly spaced), at least two, each kYLabelGap clear of the next.
    void yLabelsKeepApart_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi"); // lo == hi: the empty plot (no series, 0 to 1)
        QTest::addColumn<int>("height");
        // Lanes too short for two labels a line apart (the empty plot's 0 and 1 both pushed in
        // by half a line) keep one: apart and inside the lane all the same.
        for (int height : {50, 60, 70, 80, 110, 130, 150, 170, 190, 230, 300}) {
            QTest::addRow("empty, %d px", height) << 0.0 << 0.0 << height;
            QTest::addRow("840 to 880, %d px", height) << 840.0 << 880.0 << height;
            QTest::addRow("-3.7 to 812.4, %d px", height) << -3.7 << 812.4 << height;
            QTest::addRow("0 to 100, %d px", height) << 0.0 << 100.0 << height;
        }
    }
    void yLabelsKeepApart()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, height);
        PlotScene scene;
        scene.size = QSize(900, height);
        scene.first = 0;
        scene.last = 99;
        if (hi > lo) {
            scene.fitY = false;
            scene.yMin = lo;
            scene.yMax = hi;
            auto d = std::make_shared<vtx::SeriesData>();
            for (int f = 0; f < 100; ++f) {
                d->frames.push_back(f);
                d->values.push_back(lo + (hi - lo) * f / 99.0);
            }
            scene.series.push_back({"s", Qt::red, d, nullptr, {}});
        }
        PlotLayout layout;
        layoutPlot(scene, layout);
        const int lh = QFontMetrics(scene.font).height();
        for (const PlotLane& lane : layout.lanes)
            for (const PlotYAxis& axis : lane.axes) {
                const std::vector<YLabel> labels = yLabels(lane, axis, lh);
                QString tops;
                for (const YLabel& l : labels)
                    tops += QString(" %1@%2").arg(QString::fromStdString(l.tick->label)).arg(l.top);
                const QString where = QString("lane %1..%2, line %3:%4").arg(lane.rect.top()).arg(lane.rect.bottom()).arg(lh).arg(tops);
                const bool roomy = lane.rect.height() >= 4 * lh; // readableHeightFor's lane
                QVERIFY2(labels.size() >= (roomy ? 2u : 1u), qPrintable(where));
                if (roomy)
                    QVERIFY2(labels.size() == axis.ticks.ticks.size(), qPrintable(where + " (a tick without its label)"));
                for (size_t i = 0; i < labels.size(); ++i) {
                    QVERIFY2(labels[i].top >= lane.rect.top() && labels[i].top + lh <= lane.rect.bottom() + 1, qPrintable(where));
                    if (i > 0)
                        QVERIFY2(labels[i - 1].top - labels[i].top >= lh + kYLabelGap, qPrintable(where));
                }
            }
    }

    // The hover readout fits its box: with more series than lines (18 of Car.Transform's
    // components) it lists the ones drawn nearest the pointer and says how many it leaves out;
    // the box had run off the plot's bottom mid-line with 10 of 18 missing and no word of it.
    void hoverReadoutSaysWhatItLeavesOut_data()
    {
        QTest::addColumn<int>("seriesCount");
        QTest::addColumn<int>("lines");
        QTest::addColumn<int>("pointerNear"); // the series whose curve the pointer is on
        QTest::newRow("room for all") << 3 << 10 << 1;
        QTest::newRow("18 series, 9 lines, pointer on the 13th") << 18 << 9 << 12;
        QTest::newRow("18 series, 9 lines, pointer on the first") << 18 << 9 << 0;
        QTest::newRow("two lines: only the count") << 5 << 2 << 2;
    }
    void hoverReadoutSaysWhatItLeavesOut()
    {
        QFETCH(int, seriesCount);
        QFETCH(int, lines);
        QFETCH(int, pointerNear);
        PlotScene scene;
        scene.size = QSize(600, 400);
        scene.first = 0;
        scene.last = 9;
        scene.stacked = false; // one lane on one fixed range: the values' heights tell the series apart
        scene.fitY = false;
        scene.yMin = 0;
        scene.yMax = 300;
        for (int i = 0; i < seriesCount; ++i) {
            auto d = std::make_shared<vtx::SeriesData>();
            for (int f = 0; f < 10; ++f) {
                d->frames.push_back(f);
                d->values.push_back(i == seriesCount - 1 && f == 5 ? std::nan("") : 100.0 + 10.0 * i);
            }
            scene.series.push_back({QString("s%1").arg(i), Qt::red, d, nullptr, {}});
        }
        PlotLayout layout;
        layoutPlot(scene, layout);
        scene.hoverY = int(layout.yOf(size_t(pointerNear), 100.0 + 10.0 * pointerNear));
        const PlotReadout r = plotReadout(scene, layout, 5, lines);
        QVERIFY(r.lines.size() <= lines);
        QCOMPARE(r.lines.front(), QString("frame 5"));
        QCOMPARE(int(r.series.size()) + r.hidden, seriesCount);
        QVERIFY(std::is_sorted(r.series.begin(), r.series.end()));
        if (seriesCount + 1 <= lines) {
            QCOMPARE(r.hidden, 0);
            QCOMPARE(r.lines.size(), seriesCount + 1);
        } else {
            QCOMPARE(r.lines.size(), lines);
            QCOMPARE(r.lines.back(), QString("+%1 more (nearest the pointer shown)").arg(r.hidden));
            if (!r.series.empty()) {
                QVERIFY(std::find(r.series.begin(), r.series.end(), size_t(pointerNear)) != r.series.end());
                // Nearest: every listed series is at most as far from the pointer as every
                // left-out one (the one without a value at the frame goes last).
                for (int left = 0; left < seriesCount - 1; ++left) {
                    if (std::find(r.series.begin(), r.series.end(), size_t(left)) != r.series.end())
                        continue;
                    for (size_t shown : r.series)
                        QVERIFY(std::abs(int(shown) - pointerNear) <= std::abs(left - pointerNear));
                }
            }
        }
        // Each listed series' line holds its own value at the frame; a recorded NaN reads nan.
        for (size_t k = 0; k < r.series.size(); ++k) {
            const size_t i = r.series[k];
            const QString value = int(i) == seriesCount - 1 ? QString("nan") : QString::number(100.0 + 10.0 * double(i), 'g', 8);
            QCOMPARE(r.lines[int(k) + 1], QString("s%1: %2").arg(i).arg(value));
        }
    }

    void analysisFromTheMenu()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(vtxtest::openAndWait(w, demoPath()));
        AnalysisPanel* panel = w.analysis();
        QAbstractItemModelTester t1(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(panel->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(panel, &AnalysisPanel::finished);
        QAction* lifetimes = w.findChild<QAction*>("analysisLifetimes");
        QVERIFY(lifetimes);
        QVERIFY(!lifetimes->shortcut().isEmpty());
        // Cancel analysis is there while one runs (review 3, item 14: enabled with none).
        QAction* cancel = w.findChild<QAction*>("analysisCancel");
        QVERIFY(cancel && !cancel->isEnabled());
        lifetimes->trigger();
        QVERIFY(panel->isComputing());
        QVERIFY(cancel->isEnabled());
        QVERIFY(finished.wait(30000));
        QVERIFY(!cancel->isEnabled());
        lifetimes->trigger();
        QVERIFY(cancel->isEnabled());
        cancel->trigger();
        QVERIFY(!cancel->isEnabled() && !panel->isComputing());
        lifetimes->trigger();
        QVERIFY(finished.wait(30000));
        const vtx::LifetimesResult want = vtx::entityLifetimes(*w.session()->file());
        QCOMPARE(panel->model()->rowCount(), int(want.entities.size()));
        QCOMPARE(panel->title(), QString("Entity lifetimes"));
        // Buckets by name ("entity", not "0"), the index in the tooltip; rows a line high.
        const int bucketColumn = panel->model()->columnNamed("bucket");
        QVERIFY(bucketColumn >= 0);
        for (int r = 0; r < panel->model()->rowCount(); ++r) {
            const auto b = std::get<int64_t>(panel->model()->table().rows[size_t(r)][size_t(bucketColumn)]);
            const QModelIndex cell = panel->model()->index(r, bucketColumn);
            QCOMPARE(cell.data().toString(), QString::fromStdString(w.session()->file()->schema().bucketName(size_t(b))));
            QCOMPARE(cell.data(Qt::ToolTipRole).toString(), QString("bucket %1").arg(b));
        }
        QVERIFY(panel->view()->verticalHeader()->defaultSectionSize() <= panel->view()->fontMetrics().height() + 8);
        panel->filter()->setText("skel_");
        QCOMPARE(panel->proxy()->rowCount(), 6);
        QVERIFY(panel->statusText().contains("6 of"));
        QTemporaryDir dir;
        QVERIFY(panel->exportCsv(dir.path() + "/a.csv"));
        QFile in(dir.path() + "/a.csv");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(in.readAll()).count("\r\n"), 7); // the header and the shown rows
        panel->filter()->clear();
        // Activating a row seeks to its first frame.
        const int firstColumn = panel->model()->columnNamed("first frame");
        QVERIFY(firstColumn > 0);
        panel->view()->sortByColumn(firstColumn, Qt::DescendingOrder);
        const int firstFrame = panel->proxy()->index(0, firstColumn).data(AnalysisModel::SortRole).toInt();
        emit panel->view()->activated(panel->proxy()->index(0, 0));
        QCOMPARE(w.viewState()->requestedFrame(), firstFrame);
        // Unique values and spans with a bad type: the error is said, the last table stays.
        panel->runUniqueValues({{"Team"}, "Plyer"});
        QVERIFY(finished.wait(30000));
        QVERIFY2(panel->statusText().contains("unknown type 'Plyer'"), qPrintable(panel->statusText()));
        QCOMPARE(panel->model()->rowCount(), int(want.entities.size()));
        panel->runPropertySpans({"Health", "Player"});
        QVERIFY(finished.wait(30000));
        QVERIFY(panel->title().startsWith("Spans of Health"));
        QVERIFY(panel->model()->rowCount() > 0);
        // Cancel: the previous table and title stay.
        panel->runLifetimes();
        panel->cancel();
        QVERIFY(!panel->isComputing());
        vtxw::detail::waitForPoolJobs();
        QCoreApplication::processEvents();
        QVERIFY(panel->title().startsWith("Spans of Health"));
    }
};

QTEST_MAIN(TestPlot)
#include "tst_plot.moc"
