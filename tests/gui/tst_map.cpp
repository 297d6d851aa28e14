// SPDX-License-Identifier: MIT
// The Map dock: the viewport's maths, a glyph drawn at the pixel its world position maps to,
// selection shared with the entity list both ways, A/B arrows from A's pixel to B's, and trails
// on the map equal to the positions read frame by frame.

#include "CorruptCopy.hpp"
#include "ScriptedPrompts.hpp"
#include "TestSupport.hpp"
#include "WindowWait.hpp"
#include "diff/DiffModel.hpp"
#include "diff/DiffPanel.hpp"
#include "entities/EntityListPanel.hpp"
#include "map/MapView.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/MainWindow.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtxgen/Generator.hpp"

#include <QDockWidget>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QWheelEvent>
#include <QtTest>

using namespace vtxw;

namespace {

using vtxtest::openAndWait;

bool seekAndWait(MainWindow& w, int frame)
{
    w.viewState()->setRequestedFrame(frame);
    return QTest::qWaitFor([&] { return !w.viewState()->isLoading() && w.viewState()->shownFrame().index() == frame; }, 20000);
}

/// The map's pixel for `entity`'s position in `frame`, read through the reader, not the map.
std::optional<QPointF> expectedPixel(MapView& map, const vtx::ReplayFile& f, int frame, const EntityKey& entity)
{
    auto h = f.frame(frame);
    if (!h)
        return std::nullopt;
    const auto p = map.positions().placementOf(vtx::findEntity(h->view(), uint32_t(entity.bucket), entity.uniqueId.toStdString()));
    if (!p)
        return std::nullopt;
    const auto uv = map.plane().project(p->position);
    return map.canvas()->viewport().toPixel(QPointF(uv[0], uv[1]));
}

/// A glyph with no other glyph within `clearance` pixels, so its pixels are its own.
int lonelyGlyph(const MapView& map, double clearance, int avoid = -1)
{
    const auto& g = map.scene().glyphs;
    const MapViewport& vp = map.canvas()->viewport();
    for (size_t i = 0; i < g.size(); ++i) {
        if (int(i) == avoid)
            continue;
        const QPointF p = vp.toPixel(g[i].world);
        if (!QRectF(QPointF(20, 20), vp.size - QSizeF(40, 40)).contains(p))
            continue;
        bool alone = true;
        for (size_t j = 0; j < g.size() && alone; ++j)
            if (j != i) {
                const QPointF d = vp.toPixel(g[j].world) - p;
                alone = QPointF::dotProduct(d, d) > clearance * clearance;
            }
        if (alone)
            return int(i);
    }
    return -1;
}

/// The map dock in front and given most of the window, as a user looking at the map would.
void showMapLarge(MainWindow& w)
{
    auto* dock = w.findChild<QDockWidget*>("mapDock");
    dock->setFloating(true);
    dock->resize(1000, 800);
    dock->raise();
}

/// The window shown at 1400 × 900 with the map floating large, and `path` opened in it.
bool openWithLargeMap(MainWindow& w, const QString& path)
{
    w.resize(1400, 900);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    showMapLarge(w);
    return openAndWait(w, path);
}

bool near(QPointF a, QPointF b, double tol = 0.01)
{
    return std::abs(a.x() - b.x()) <= tol && std::abs(a.y() - b.y()) <= tol;
}

} // namespace

class TestMap : public QObject {
    Q_OBJECT
    QString m_cs = QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"));

private slots:
    void initTestCase()
    {
        vtxtest::installScriptedPrompts(); // no modal dialog can block a test
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("vtxscope-tests");
        QSettings().remove("map");
    }

    void viewport_data()
    {
        QTest::addColumn<QPointF>("world");
        QTest::addColumn<QPointF>("pixel");
        // 200 × 100 px, centre (10, 20), 2 px per unit; v grows up, y grows down.
        QTest::newRow("centre") << QPointF(10, 20) << QPointF(100, 50);
        QTest::newRow("right") << QPointF(15, 20) << QPointF(110, 50);
        QTest::newRow("up") << QPointF(10, 30) << QPointF(100, 30);
        QTest::newRow("corner") << QPointF(-40, -5) << QPointF(0, 100);
    }
    void viewport()
    {
        QFETCH(QPointF, world);
        QFETCH(QPointF, pixel);
        MapViewport vp{QSizeF(200, 100), QPointF(10, 20), 2.0};
        QVERIFY(near(vp.toPixel(world), pixel));
        QVERIFY(near(vp.toWorld(pixel), world));
        // Zooming around a pixel keeps the world point under it.
        MapViewport z = vp;
        z.zoomAt(pixel, 3.5);
        QVERIFY(near(z.toPixel(world), pixel, 1e-6));
        QCOMPARE(z.pixelsPerUnit, 7.0);
        // Fit shows the bounds inside the margin.
        MapViewport f{QSizeF(200, 100), {}, 1};
        f.fit(QRectF(QPointF(-100, 0), QPointF(100, 50)), 10);
        QVERIFY(near(f.toPixel(QPointF(-100, 25)), QPointF(10, 50)));
        QVERIFY(near(f.toPixel(QPointF(100, 25)), QPointF(190, 50)));
        // Fit keeps clear of the legend's corner, in the room below it here (it shows the
        // bounds larger than the room right of it).
        MapViewport g{QSizeF(400, 200), {}, 1};
        g.fit(QRectF(QPointF(-100, 0), QPointF(100, 50)), 10, QRectF(0, 0, 100, 60));
        QCOMPARE(g.pixelsPerUnit, 1.9);
        QVERIFY(near(g.toPixel(QPointF(-100, 25)), QPointF(10, 130)));
        QVERIFY(near(g.toPixel(QPointF(100, 50)), QPointF(390, 82.5)));
        // A legend as large as the map is drawn over it: the whole map is the room.
        MapViewport h{QSizeF(200, 100), {}, 1};
        h.fit(QRectF(QPointF(-100, 0), QPointF(100, 50)), 10, QRectF(0, 0, 150, 80));
        QVERIFY(near(h.toPixel(QPointF(-100, 25)), QPointF(10, 50)));
    }

    // Review item 2: on a small map the legend (top left) covered the dots under it; fitted,
    // no glyph lies under the legend, counts and note.
    void legendKeepsClearOfTheGlyphs()
    {
        MapCanvas canvas;
        MapScene s;
        s.palette = mapPalette();
        for (const char* type : {"Entity", "Player", "Weapon"})
            s.legend.push_back({type, int(s.legend.size())});
        s.unplaced = 11;
        for (int i = 0; i < 40; ++i) {
            MapGlyph g;
            g.world = QPointF(std::cos(i * 0.7) * 1000 + i * 20, std::sin(i * 1.3) * 600);
            s.glyphs.push_back(g);
        }
        canvas.setScene(s);
        canvas.resize(420, 160);
        canvas.show();
        QVERIFY(QTest::qWaitForWindowExposed(&canvas));
        canvas.fit();
        const QRectF overlay = MapRenderer::overlayRect(canvas.scene(), canvas.fontMetrics(), canvas.size());
        QVERIFY(!MapRenderer::overlayFolded(canvas.scene(), canvas.fontMetrics(), canvas.size()));
        QVERIFY(overlay.width() > 60 && overlay.height() > 3 * canvas.fontMetrics().height());
        // ... nor under the scale bar along the bottom (a glyph hid "200 u", review 4 item 3).
        const double scaleBarTop = canvas.height() - MapRenderer::scaleBarHeight(canvas.fontMetrics());
        for (const MapGlyph& g : canvas.scene().glyphs) {
            const QPointF p = canvas.viewport().toPixel(g.world);
            QVERIFY2(!overlay.adjusted(-MapRenderer::kGlyphRadius, -MapRenderer::kGlyphRadius, 0, 0).contains(p),
                     qPrintable(QString("glyph at %1,%2 under the legend").arg(p.x()).arg(p.y())));
            QVERIFY2(p.y() + MapRenderer::kGlyphRadius <= scaleBarTop,
                     qPrintable(QString("glyph at %1,%2 over the scale bar from y %3").arg(p.x()).arg(p.y()).arg(scaleBarTop)));
            QVERIFY(QRectF(QPointF(0, 0), QSizeF(canvas.size())).contains(p));
        }
    }

    // A map too small for its legend (1024 x 700 with the plot raised: 55 px, the legend over
    // its left half) folds the legend into one line that says so and names Ctrl+2; the note,
    // which says what the map is showing, stays.
    void smallMapFoldsItsLegend_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("folded");
        QTest::newRow("room for it") << QSize(420, 220) << false;
        QTest::newRow("55 px tall") << QSize(400, 55) << true;
        QTest::newRow("narrow") << QSize(120, 300) << true;
    }
    void smallMapFoldsItsLegend()
    {
        QFETCH(QSize, size);
        QFETCH(bool, folded);
        MapScene s;
        s.palette = mapPalette();
        for (const char* type : {"Ball", "VehiclePickup_Boost", "Car"})
            s.legend.push_back({type, int(s.legend.size())});
        s.unplaced = 9;
        s.note = "trails loading…";
        MapGlyph g;
        s.glyphs.push_back(g);
        const QFontMetrics fm(QApplication::font());
        QCOMPARE(MapRenderer::overlayFolded(s, fm, size), folded);
        const QRectF overlay = MapRenderer::overlayRect(s, fm, size);
        const int lines = int(std::lround((overlay.height() - 8) / (fm.height() + 2)));
        QCOMPARE(lines, folded ? 2 : 5);
        if (folded) // the one line says why the legend is gone and what gives the map room
            QVERIFY(overlay.width() >= fm.horizontalAdvance("Legend hidden: the map is small (Ctrl+2) · 9 not on the map"));
    }

    void canvasInteraction()
    {
        MapCanvas canvas;
        MapScene s;
        s.palette = mapPalette();
        for (QPointF w : {QPointF(-100, -50), QPointF(300, 250), QPointF(40, 10)}) {
            MapGlyph g;
            g.world = w;
            s.glyphs.push_back(g);
        }
        canvas.setScene(s);
        canvas.resize(60, 40); // a squeezed dock
        canvas.show();
        QVERIFY(QTest::qWaitForWindowExposed(&canvas));
        auto allInside = [&] {
            for (const MapGlyph& g : canvas.scene().glyphs)
                if (!QRectF(QPointF(0, 0), QSizeF(canvas.size())).contains(canvas.viewport().toPixel(g.world)))
                    return false;
            return true;
        };
        // Growing refits while the user has not moved the map...
        canvas.resize(600, 400);
        QTRY_COMPARE(canvas.viewport().size, QSizeF(600, 400));
        QVERIFY(allInside());
        const double fitted = canvas.viewport().pixelsPerUnit;
        // ... the wheel zooms around the cursor ...
        const QPointF cursor(200, 150);
        const QPointF under = canvas.viewport().toWorld(cursor);
        QWheelEvent wheel(cursor, canvas.mapToGlobal(cursor), {}, QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&canvas, &wheel);
        QVERIFY(std::abs(canvas.viewport().pixelsPerUnit - fitted * 1.44) < 1e-9);
        QVERIFY(near(canvas.viewport().toPixel(under), cursor, 1e-6));
        // ... a drag pans by the mouse's movement ...
        const QPointF before = canvas.viewport().toPixel(QPointF(40, 10));
        QTest::mousePress(&canvas, Qt::LeftButton, {}, QPoint(300, 200));
        QTest::mouseMove(&canvas, QPoint(320, 205));
        QTest::mouseMove(&canvas, QPoint(350, 230));
        QTest::mouseRelease(&canvas, Qt::LeftButton, {}, QPoint(350, 230));
        QVERIFY(near(canvas.viewport().toPixel(QPointF(40, 10)), before + QPointF(50, 30), 1e-6));
        // ... after which a resize keeps the user's view ...
        const double zoomed = canvas.viewport().pixelsPerUnit;
        canvas.resize(500, 400);
        QTRY_COMPARE(canvas.viewport().size, QSizeF(500, 400));
        QCOMPARE(canvas.viewport().pixelsPerUnit, zoomed);
        // ... until F (or a double-click) fits again.
        QTest::keyClick(&canvas, Qt::Key_F);
        QVERIFY(allInside());
        QVERIFY(canvas.viewport().pixelsPerUnit < zoomed);
        QTest::mouseDClick(&canvas, Qt::LeftButton, {}, QPoint(10, 10));
        QVERIFY(allInside());
    }

    void glyphDrawnAtItsPixel()
    {
        // A scene of one entity, painted into an image: its disc is where the viewport says.
        MapScene s;
        s.palette = mapPalette();
        MapGlyph g;
        g.world = QPointF(30, -40);
        g.colour = 2;
        s.glyphs.push_back(g);
        MapViewport vp{QSizeF(300, 200), QPointF(0, 0), 2.0};
        QImage img(300, 200, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&img);
        MapRenderer r;
        QPalette pal;
        r.paint(p, s, vp, pal);
        p.end();
        const QPoint at = vp.toPixel(g.world).toPoint();
        QCOMPARE(at, QPoint(210, 180));
        QCOMPARE(img.pixelColor(at), s.palette[2]);
        QCOMPARE(img.pixelColor(at + QPoint(2, -2)), s.palette[2]);
        QCOMPARE(img.pixelColor(at + QPoint(-20, -20)), pal.color(QPalette::Base));
    }

    // Issue 26 8b: a click takes what is drawn on top (the last painted, the selection above
    // all); off every glyph, the nearest within the radius; the hover lists all of them.
    void clickTakesWhatIsDrawnOnTop_data()
    {
        QTest::addColumn<QPointF>("cursorOffset"); // from the shared place, in pixels
        QTest::addColumn<int>("selected");
        QTest::addColumn<int>("expected");
        QTest::addColumn<int>("under"); // glyphs within 8 px
        QTest::newRow("on the shared place") << QPointF(0, 0) << -1 << 1 << 2;
        QTest::newRow("the selection is on top") << QPointF(0, 0) << 0 << 0 << 2;
        QTest::newRow("beside, nearest wins") << QPointF(22, 0) << -1 << 2 << 1;
        QTest::newRow("nothing near") << QPointF(0, 40) << -1 << -1 << 0;
    }
    void clickTakesWhatIsDrawnOnTop()
    {
        QFETCH(QPointF, cursorOffset);
        QFETCH(int, selected);
        QFETCH(int, expected);
        QFETCH(int, under);
        MapScene s;
        s.palette = mapPalette();
        MapGlyph weapon, player, other;
        weapon.world = player.world = QPointF(10, 10); // a player on the weapon it carries
        other.world = QPointF(25, 10); // 30 px to the right
        s.glyphs = {weapon, player, other}; // painted in this order: the player over the weapon
        s.selected = selected;
        const MapViewport vp{QSizeF(300, 200), QPointF(0, 0), 2.0};
        const QPointF at = vp.toPixel(QPointF(10, 10)) + cursorOffset;
        QCOMPARE(s.glyphAt(vp, at), expected);
        const std::vector<int> all = s.glyphsAt(vp, at);
        QCOMPARE(int(all.size()), under);
        if (!all.empty() && cursorOffset.isNull())
            QCOMPARE(all.front(), expected);
    }

    void sampleOnTheMap()
    {
        VTX_REQUIRE_SAMPLES();
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        showMapLarge(w);
        QSignalSpy chosen(w.map(), &MapView::upAxisChosen);
        QVERIFY(openAndWait(w, m_cs));
        QVERIFY(chosen.count() > 0 || chosen.wait(20000));
        MapView& map = *w.map();
        QTRY_VERIFY(map.canvas()->width() > 500 && map.canvas()->height() > 400);
        map.canvas()->fit();
        QCOMPARE(map.plane().up, vtx::UpAxis::Z);
        QVERIFY(seekAndWait(w, 100));
        QCOMPARE(map.scene().glyphs.size(), size_t(38));
        QCOMPARE(map.scene().unplaced, 11);
        const auto& file = *w.session()->file();

        // Issue 26 item 2: a glyph is named by its entity's label in this frame, the id second
        // (hover and selection labels show it); an entity without a label by its id alone.
        const auto frame100 = file.frame(100);
        QVERIFY(frame100);
        for (const MapGlyph& g : map.scene().glyphs) {
            const QString label = w.viewState()->entityLabel(vtx::findEntity(frame100->view(), uint32_t(g.key.bucket), g.key.uniqueId.toStdString()));
            const QString want = label.isEmpty() ? g.key.uniqueId : label + " · " + g.key.uniqueId;
            QCOMPARE(g.name, want);
            // On the map itself the label alone, when there is one.
            QCOMPARE(g.mapLabel.isEmpty() ? g.name : g.mapLabel, label.isEmpty() ? g.key.uniqueId : label);
            if (g.key.uniqueId == "player_76561198000000000") {
                QCOMPARE(g.name, QString("s1mple · player_76561198000000000"));
                QCOMPARE(g.mapLabel, QString("s1mple"));
            }
        }

        // Every glyph sits where its position, read directly from the frame, maps to.
        for (const MapGlyph& g : map.scene().glyphs) {
            const auto want = expectedPixel(map, file, 100, g.key);
            QVERIFY(want);
            QVERIFY2(near(*map.pixelOf(g.key), *want), qPrintable(g.key.uniqueId));
        }
        // And its pixels are its colour: rendered offscreen, off the heading tick.
        const int lone = lonelyGlyph(map, 14);
        QVERIFY(lone >= 0);
        const MapGlyph& g = map.scene().glyphs[size_t(lone)];
        const QImage img = map.canvas()->render(map.canvas()->size());
        const QPointF c = *map.pixelOf(g.key);
        const QPointF off = std::isnan(g.heading) ? QPointF(3, 0) : -3 * QPointF(std::cos(g.heading), -std::sin(g.heading));
        const QColor colour = map.scene().palette[size_t(g.colour)];
        QCOMPARE(img.pixelColor((c + off).toPoint()), colour);

        // List → map: selecting in the entity list highlights the glyph (a ring below it).
        const int other = lonelyGlyph(map, 14, lone);
        QVERIFY(other >= 0);
        const EntityKey key = map.scene().glyphs[size_t(other)].key;
        QTreeView* list = w.entityList()->view();
        const QModelIndex src = w.entityList()->model()->indexOf(key);
        QVERIFY(src.isValid());
        QModelIndex row;
        for (QModelIndex i = src; i.isValid(); i = i.parent())
            (void)i;
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(list->model());
        row = proxy->mapFromSource(src);
        list->setCurrentIndex(row);
        QCOMPARE(w.viewState()->selection(), key);
        QTRY_COMPARE(map.scene().selected, map.glyphOf(key));
        const QImage sel = map.canvas()->render(map.canvas()->size());
        const QPointF sc = *map.pixelOf(key);
        QCOMPARE(sel.pixelColor((sc + QPointF(0, MapRenderer::kGlyphRadius + 4)).toPoint()), map.palette().color(QPalette::Highlight));
        QVERIFY(sel.pixelColor((sc + QPointF(0, MapRenderer::kGlyphRadius + 4)).toPoint()) !=
                img.pixelColor((sc + QPointF(0, MapRenderer::kGlyphRadius + 4)).toPoint()));

        // Map → list: clicking a glyph selects its row.
        const EntityKey clicked = map.scene().glyphs[size_t(lone)].key;
        QVERIFY(!(clicked == key));
        QTest::mouseClick(map.canvas(), Qt::LeftButton, {}, map.pixelOf(clicked)->toPoint());
        QCOMPARE(w.viewState()->selection(), clicked);
        QCOMPARE(w.entityList()->model()->keyOf(proxy->mapToSource(list->currentIndex())), clicked);
        QCOMPARE(map.scene().selected, map.glyphOf(clicked));

        // Trails: what the map draws for an entity is its positions over the window, read
        // frame by frame (the core test checks chunk boundaries and gaps).
        QTRY_COMPARE_WITH_TIMEOUT(map.trailFrame(), 100, 20000);
        const int first = vtx::trailWindowStart(file.footer().times, 100, map.trailSeconds());
        QVERIFY(first < 100);
        const int glyph = map.glyphOf(clicked);
        const MapTrail* trail = nullptr;
        for (const MapTrail& t : map.scene().trails)
            if (t.glyph == glyph)
                trail = &t;
        QVERIFY(trail);
        QCOMPARE(int(trail->points.size()), 100 - first + 1);
        for (int f = first; f <= 100; ++f) {
            auto h = file.frame(f);
            QVERIFY(h);
            const auto p = map.positions().placementOf(vtx::findEntity(h->view(), uint32_t(clicked.bucket), clicked.uniqueId.toStdString()));
            QVERIFY(p);
            const auto uv = map.plane().project(p->position);
            QCOMPARE(trail->points[size_t(f - first)], QPointF(uv[0], uv[1]));
        }
    }

    void abArrows()
    {
        VTX_REQUIRE_SAMPLES();
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        showMapLarge(w);
        QSignalSpy chosen(w.map(), &MapView::upAxisChosen);
        QVERIFY(openAndWait(w, m_cs));
        QVERIFY(chosen.count() > 0 || chosen.wait(20000));
        MapView& map = *w.map();
        QTRY_VERIFY(map.canvas()->width() > 500 && map.canvas()->height() > 400);
        map.canvas()->fit();
        QVERIFY(seekAndWait(w, 150));
        w.viewState()->pinA();
        QVERIFY(seekAndWait(w, 278)); // 2 s later at 64 Hz
        QTRY_VERIFY(map.scene().comparing);
        const auto& file = *w.session()->file();
        int moved = -1;
        for (size_t i = 0; i < map.scene().ghosts.size(); ++i) {
            const MapGhost& g = map.scene().ghosts[i];
            if (g.glyph >= 0 && g.distance > 0) {
                const QLineF l(map.canvas()->viewport().toPixel(g.world),
                               map.canvas()->viewport().toPixel(map.scene().glyphs[size_t(g.glyph)].world));
                if (l.length() > 30 && map.scene().arrowAt(map.canvas()->viewport(), l.pointAt(0.5)) == int(i) &&
                    map.scene().glyphAt(map.canvas()->viewport(), l.pointAt(0.5), 12) < 0) {
                    moved = int(i);
                    break;
                }
            }
        }
        QVERIFY2(moved >= 0, "some entity moves more than 30 px in 2 s");
        const MapGhost ghost = map.scene().ghosts[size_t(moved)];
        const MapViewport& vp = map.canvas()->viewport();
        const QPointF a = vp.toPixel(ghost.world), b = vp.toPixel(map.scene().glyphs[size_t(ghost.glyph)].world);
        QVERIFY(near(a, *expectedPixel(map, file, 150, ghost.key)));
        QVERIFY(near(b, *expectedPixel(map, file, 278, ghost.key)));
        // Drawn: the hollow ghost at A (trails off: the oldest trail point is A's position), the
        // arrow's shaft half-way.
        map.setTrailSeconds(0);
        const QImage img = map.canvas()->render(map.canvas()->size());
        const QPointF mid = QLineF(a, b).pointAt(0.5);
        bool shaft = false;
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                shaft |= img.pixelColor(mid.toPoint() + QPoint(dx, dy)) != map.palette().color(QPalette::Base);
        QVERIFY(shaft);
        QCOMPARE(img.pixelColor(a.toPoint()), map.palette().color(QPalette::Base)); // hollow
        // Clicking the arrow selects the entity.
        QTest::mouseClick(map.canvas(), Qt::LeftButton, {}, mid.toPoint());
        QCOMPARE(w.viewState()->selection(), ghost.key);
        // ... and its row in the diff panel (a moved entity has changed properties).
        const QModelIndex diffRow = w.diffPanel()->view()->currentIndex();
        QVERIFY(diffRow.isValid());
        QCOMPARE(diffRow.data(DiffModel::UniqueIdRole).toString(), ghost.key.uniqueId);
        QVERIFY(diffRow.data(DiffModel::PathRole).toString().isEmpty());
        map.setTrailSeconds(2);

        // B pinned and the playhead away from it: A's ghosts against the frame shown, said so
        // (the note said "A (frame 150) loading…" for ever here).
        w.viewState()->setB(278);
        QVERIFY(seekAndWait(w, 214));
        QTRY_VERIFY(map.scene().comparing && map.scene().note.contains("214"));
        QVERIFY2(map.scene().note.contains("not B") && !map.scene().note.contains("loading"), qPrintable(map.scene().note));
        for (const MapGhost& g : map.scene().ghosts)
            if (g.glyph >= 0) {
                QVERIFY(near(vp.toPixel(g.world), *expectedPixel(map, file, 150, g.key)));
                QVERIFY(near(vp.toPixel(map.scene().glyphs[size_t(g.glyph)].world), *expectedPixel(map, file, 214, g.key)));
            }
        w.viewState()->setB(-1); // B follows the playhead again
        QVERIFY(seekAndWait(w, 278));

        // Ctrl+D: frame-to-frame motion the same way.
        w.viewState()->setPreviousFrameMode(true);
        QTRY_VERIFY(map.scene().comparing && w.viewState()->frameA() == 277);
        for (const MapGhost& g : map.scene().ghosts)
            if (g.glyph >= 0)
                QVERIFY(near(vp.toPixel(g.world), *expectedPixel(map, file, 277, g.key)));
        // Cleared: no ghosts.
        w.viewState()->clearAB();
        QTRY_VERIFY(!map.scene().comparing);
        QVERIFY(map.scene().ghosts.empty());
    }

    void trailsNeverAskTheCache()
    {
        VTX_REQUIRE_SAMPLES();
        // The RL-like sample: chunks of 1,000 frames at 30 Hz, so frame 1030's 2 s window starts in
        // chunk 0 while the playhead's frame is in chunk 1.
        MainWindow w;
        std::vector<int> requested;
        w.session()->setFrameRequester([&](int32_t frame, vtx::ChunkCache::Callback done, vtx::RequestOptions options) {
            requested.push_back(frame);
            w.session()->cache()->request(frame, std::move(done), options);
        });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        showMapLarge(w);
        QVERIFY(openAndWait(w, QString::fromStdString(vtxtest::samplePath("sdk_rl_fbs.vtx"))));
        MapView& map = *w.map();
        // Filled in as chunks decode: the playhead's chunk first, then the one before it.
        std::vector<int> ballPoints;
        connect(&map, &MapView::trailsUpdated, this, [&] {
            if (map.trailFrame() != 1030)
                return;
            for (const MapTrail& t : map.scene().trails)
                if (t.glyph == map.glyphOf({0, "ball_0"}))
                    ballPoints.push_back(int(t.points.size()));
        });
        QVERIFY(seekAndWait(w, 1030));
        QTRY_COMPARE_WITH_TIMEOUT(map.trailFrame(), 1030, 20000);
        QTRY_VERIFY(!map.trailsComputing());
        const int first = vtx::trailWindowStart(w.session()->file()->footer().times, 1030, 2.0);
        QVERIFY(first < 1000);
        // Trails reach back into chunk 0 (the ball's has a point per frame of the window)...
        const int ball = map.glyphOf({0, "ball_0"});
        QVERIFY(ball >= 0);
        const MapTrail* trail = nullptr;
        for (const MapTrail& t : map.scene().trails)
            if (t.glyph == ball)
                trail = &t;
        QVERIFY(trail);
        QCOMPARE(int(trail->points.size()), 1030 - first + 1);
        QCOMPARE(ballPoints, (std::vector<int>{1030 - 1000 + 1, 1030 - first + 1}));
        // ... yet every frame asked of the cache is the playhead's or the inspector's previous one.
        for (int f : requested)
            QVERIFY2(f == 0 || f >= 1029, qPrintable(QString::number(f)));
    }

    void addedAndRemovedMarked()
    {
        VTX_REQUIRE_SAMPLES();
        // allkinds: entities spawn and despawn; A and B far apart differ in who is there.
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        showMapLarge(w);
        QVERIFY(openAndWait(w, QString::fromStdString(vtxtest::samplePath("allkinds_fbs.vtx"))));
        MapView& map = *w.map();
        const int a = 100, b = 800;
        QVERIFY(seekAndWait(w, a));
        w.viewState()->pinA();
        QVERIFY(seekAndWait(w, b));
        QTRY_VERIFY(map.scene().comparing);
        // Expected from the frames themselves: placed entities of each side by key.
        auto placed = [&](int frame) {
            QSet<QString> keys;
            auto h = w.session()->file()->frame(frame);
            for (size_t k = 0; h && k < h->view().bucketCount(); ++k) {
                const vtx::BucketView bucket = h->view().bucket(k);
                for (size_t i = 0; i < bucket.entityCount(); ++i)
                    if (map.positions().placementOf(bucket.entity(i)))
                        keys.insert(QString::number(k) + "/" + QString::fromStdString(std::string(bucket.uniqueId(i))));
            }
            return keys;
        };
        const QSet<QString> inA = placed(a), inB = placed(b);
        QSet<QString> added, removed;
        for (int g : map.scene().added)
            added.insert(QString::number(map.scene().glyphs[size_t(g)].key.bucket) + "/" + map.scene().glyphs[size_t(g)].key.uniqueId);
        for (const MapGhost& g : map.scene().ghosts)
            if (g.glyph < 0)
                removed.insert(QString::number(g.key.bucket) + "/" + g.key.uniqueId);
        QCOMPARE(added, inB - inA);
        QCOMPARE(removed, inA - inB);
        QVERIFY2(!added.isEmpty() || !removed.isEmpty(), "the frames must differ in who is on the map");
    }

    // Up to seven types on the map get seven colours. By type id, the CS2-like schema's first
    // and eighth types (Player, Skeleton) shared one; both are on the map.
    void typesOnTheMapHaveTheirOwnColour()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + "/cs2.vtx";
        vtxgen::GeneratorOptions o;
        o.kind = vtxgen::Kind::Cs2;
        o.frames = 200;
        o.zstdLevel = 1;
        VTX_VERIFY_OK(vtxgen::generateReplay(path.toStdString(), o));
        MainWindow w;
        QVERIFY(openWithLargeMap(w, path));
        MapView& map = *w.map();
        QVERIFY(seekAndWait(w, 100));
        QTRY_VERIFY(!map.scene().glyphs.empty());
        QMap<QString, int> colourOf;
        for (const MapLegendEntry& l : map.scene().legend)
            colourOf.insert(l.label, l.colour);
        QVERIFY2(colourOf.contains("Player") && colourOf.contains("Skeleton"), qPrintable(QStringList(colourOf.keys()).join(", ")));
        QVERIFY(colourOf.size() <= 7);
        QCOMPARE(QSet<int>(colourOf.cbegin(), colourOf.cend()).size(), colourOf.size());
        // Each glyph in its type's legend colour.
        const auto& types = w.session()->file()->schema().structs();
        const vtx::FrameView frame = w.viewState()->shownFrame().view();
        for (const MapGlyph& g : map.scene().glyphs) {
            const vtx::BucketView bucket = frame.bucket(size_t(g.key.bucket));
            for (size_t i = 0; i < bucket.uniqueIds().size(); ++i)
                if (QString::fromUtf8(bucket.uniqueId(i).data(), qsizetype(bucket.uniqueId(i).size())) == g.key.uniqueId)
                    QCOMPARE(g.colour, colourOf.value(QString::fromStdString(types[size_t(bucket.entity(i).typeId())].name)));
        }
        // A skeleton stands where its player does (another bucket, as many of them): the player
        // is drawn later, on top; they covered every player (review 3, item 5).
        const auto& glyphs = map.scene().glyphs;
        int coincident = 0;
        for (size_t i = 0; i < glyphs.size(); ++i)
            for (size_t j = i + 1; j < glyphs.size(); ++j)
                if (glyphs[i].world == glyphs[j].world && glyphs[i].key.bucket != glyphs[j].key.bucket) {
                    ++coincident;
                    QVERIFY2(glyphs[j].key.bucket < glyphs[i].key.bucket,
                             qPrintable(glyphs[j].key.uniqueId + " (bucket " + QString::number(glyphs[j].key.bucket) + ") drawn over " +
                                        glyphs[i].key.uniqueId));
                }
        QVERIFY(coincident > 0);
    }

    // A frame in a damaged chunk: the map keeps the last frame shown but fades it and says so
    // (it drew the old positions as if they were the frame asked for), as the inspector greys
    // its values; a readable frame after it is drawn as usual.
    void unreadableFrameIsFadedAndSaid()
    {
        VTX_REQUIRE_SAMPLES();
        QTemporaryDir dir;
        const QString path = dir.path() + "/corrupt.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(QString::fromStdString(vtxtest::samplePath("sdk_rl_fbs.vtx")), path, 1));
        MainWindow w;
        QVERIFY(openWithLargeMap(w, path));
        MapView& map = *w.map();
        const vtx::ChunkEntry bad = w.session()->file()->chunks()[1];
        const int before = bad.startFrame - 5;
        QVERIFY(seekAndWait(w, before));
        QTRY_VERIFY(!map.scene().glyphs.empty());
        QVERIFY(!map.scene().stale);
        QSignalSpy failed(w.viewState(), &ViewState::frameFailed);
        w.viewState()->setRequestedFrame(bad.startFrame + 3);
        QVERIFY(failed.wait(30000));
        QTRY_VERIFY(map.scene().stale);
        QCOMPARE(w.viewState()->shownFrame().index(), before);
        QVERIFY2(map.scene().note.contains(QString::number(bad.startFrame + 3)) && map.scene().note.contains(QString::number(before)),
                 qPrintable(map.scene().note));
        // Drawn faded: a glyph's centre is paler than its colour (blended into the background).
        map.setTrailSeconds(0);
        const MapGlyph g = map.scene().glyphs.front();
        const QImage img = map.canvas()->render(map.canvas()->size());
        const QColor drawn = img.pixelColor(map.canvas()->viewport().toPixel(g.world).toPoint());
        const QColor colour = map.scene().palette[size_t(g.colour) % map.scene().palette.size()];
        QVERIFY2(drawn.lightness() > colour.lightness() + 20, qPrintable(drawn.name() + " vs " + colour.name()));
        map.setTrailSeconds(2);
        QVERIFY(seekAndWait(w, bad.endFrame + 1));
        QTRY_VERIFY(!map.scene().stale);
        QVERIFY(!map.scene().note.contains("unavailable"));
    }

    void eventsColoursBackgroundExport()
    {
        VTX_REQUIRE_SAMPLES();
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        showMapLarge(w);
        QSignalSpy chosen(w.map(), &MapView::upAxisChosen);
        QVERIFY(openAndWait(w, QString::fromStdString(vtxtest::samplePath("allkinds_fbs.vtx"))));
        QVERIFY(chosen.count() > 0 || chosen.wait(20000));
        MapView& map = *w.map();
        QCOMPARE(map.plane().up, vtx::UpAxis::Y);
        const auto& events = w.session()->file()->footer().events;
        QVERIFY(!events.empty());
        // Events that carry a location are on the map near their time, where they happened.
        const vtx::TimelineEvent& first = events.front();
        const int at = w.session()->frameAtGameTime(int64_t(double(first.gameTimeSeconds) * 1e7));
        QVERIFY(seekAndWait(w, at));
        QTRY_VERIFY(!map.scene().events.empty());
        // The legend says what the diamonds are, with a diamond of their colour beside it.
        QVERIFY2(map.scene().eventLegend.contains("events within"), qPrintable(map.scene().eventLegend));
        {
            const QImage img = map.canvas()->render(map.canvas()->size());
            const int lh = QFontMetrics(map.canvas()->font()).height();
            const int y = 6 + int(map.scene().legend.size()) * (lh + 2) + lh / 2;
            QCOMPARE(img.pixelColor(11, y), QColor(0xD5, 0x5E, 0x00));
        }
        const MapEvent& e = map.scene().events.front();
        const auto uv = map.plane().project(first.location);
        QCOMPARE(e.world, QPointF(uv[0], uv[1]));
        QCOMPARE(e.frame, at);
        // Far from every event's time: none.
        QVERIFY(seekAndWait(w, w.session()->frameCount() - 1));
        bool anyNear = false;
        for (const vtx::TimelineEvent& ev : events)
            anyNear |= std::abs(double(ev.gameTimeSeconds) - double(w.session()->gameTimeTicks(w.session()->frameCount() - 1)) / 1e7) <= 2;
        QCOMPARE(map.scene().events.empty(), !anyNear);
        // Clicking an event seeks to it.
        QVERIFY(seekAndWait(w, at + 30));
        QTRY_VERIFY(!map.scene().events.empty());
        // An event no glyph covers (a glyph on top takes the click).
        int free = -1;
        for (size_t i = 0; i < map.scene().events.size() && free < 0; ++i)
            if (map.scene().glyphAt(map.canvas()->viewport(), map.canvas()->viewport().toPixel(map.scene().events[i].world)) < 0)
                free = int(i);
        QVERIFY(free >= 0);
        const MapEvent target = map.scene().events[size_t(free)];
        QVERIFY(target.frame != at + 30);
        QTest::mouseClick(map.canvas(), Qt::LeftButton, {}, map.canvas()->viewport().toPixel(target.world).toPoint());
        QTRY_COMPARE(w.viewState()->requestedFrame(), target.frame);

        // Colour by a property: one legend entry per value, glyphs of one value share a colour.
        map.setColourBy("Team");
        QVERIFY(!map.scene().legend.empty());
        for (const MapLegendEntry& l : map.scene().legend)
            QVERIFY2(l.label.startsWith("Team = "), qPrintable(l.label));
        map.setColourBy(QString());
        QVERIFY(map.scene().legend.front().label == "Hero");

        // A background image over given world bounds is drawn there, under the glyphs.
        QTemporaryDir dir;
        QImage bg(16, 16, QImage::Format_RGB32);
        bg.fill(QColor(10, 200, 30));
        const QString bgPath = dir.filePath("radar.png");
        QVERIFY(bg.save(bgPath));
        const QRectF bounds = map.scene().worldBounds().adjusted(-50, -50, 50, 50);
        map.setBackground(bgPath, bounds);
        map.canvas()->fit();
        const QImage shot = map.canvas()->render(map.canvas()->size());
        const QPointF corner = map.canvas()->viewport().toPixel(bounds.topLeft() + QPointF(1, 1));
        QCOMPARE(shot.pixelColor(corner.toPoint() + QPoint(1, -1)), QColor(10, 200, 30));
        // Export: the view as a PNG of the map's size.
        const QString png = dir.filePath("map.png");
        QVERIFY(map.exportPng(png));
        QCOMPARE(QImage(png).size(), map.canvas()->size());
        map.setBackground({}, {});
    }

    void settingsRememberedPerFile()
    {
        VTX_REQUIRE_SAMPLES();
        {
            MainWindow w;
            QVERIFY(openAndWait(w, m_cs));
            w.map()->setPlane(vtx::UpAxis::Y, true);
            w.map()->setPositionField("Weapon", QString());
            QVERIFY(!w.map()->positions().source(w.session()->file()->schema().structByName("Weapon")->typeId).valid());
        }
        MainWindow w;
        w.show();
        showMapLarge(w);
        QVERIFY(openAndWait(w, m_cs));
        QCOMPARE(w.map()->plane().up, vtx::UpAxis::Y);
        QVERIFY(w.map()->plane().flip);
        QVERIFY(!w.map()->positions().source(w.session()->file()->schema().structByName("Weapon")->typeId).valid());
        QTRY_COMPARE(int(w.map()->scene().glyphs.size()), 18);
        QCOMPARE(w.map()->scene().unplaced, 31);
        w.map()->setPlane(std::nullopt, false);
        w.map()->setPositionField("Weapon", std::nullopt);
        QTRY_COMPARE(int(w.map()->scene().glyphs.size()), 38);
    }
};

QTEST_MAIN(TestMap)
#include "tst_map.moc"
