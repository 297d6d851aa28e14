// SPDX-License-Identifier: MIT
// Map positions from the schema: which field each struct type's position comes from, the up
// axis chosen from the data, the entities left off the map, headings, overrides, and trails
// checked against reading the frames one by one.

#include "TestSupport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/map/EntityPositions.hpp"
#include "vtx/map/Trails.hpp"

#include <QtTest>
#include <cmath>

using namespace vtx;

Q_DECLARE_METATYPE(vtx::UpAxis)

namespace {

std::shared_ptr<ReplayFile> openSample(const std::string& name)
{
    auto f = ReplayFile::open(vtxtest::samplePath(name));
    if (!f)
        qFatal("cannot open %s: %s", name.c_str(), f.message().c_str());
    return *f;
}

/// The first frames of a replay, as the map's up-axis choice reads them.
std::vector<FrameHandle> firstFrames(const ReplayFile& f, int n)
{
    std::vector<FrameHandle> r;
    for (int i = 0; i < std::min(n, f.frameCount()); ++i)
        if (auto h = f.frame(i))
            r.push_back(*h);
    return r;
}

std::vector<FrameView> views(const std::vector<FrameHandle>& h)
{
    std::vector<FrameView> r;
    r.reserve(h.size());
    for (const auto& x : h)
        r.push_back(x.view());
    return r;
}

/// "type=field" for every struct type, in type id order ("type=" when it has no position).
QString describe(const Schema& s, const EntityPositions& p)
{
    QStringList parts;
    for (const StructDef& t : s.structs())
        parts << QString::fromStdString(t.name + "=" + p.source(t.typeId).field);
    return parts.join(' ');
}

} // namespace

class TestMapPositions : public QObject {
    Q_OBJECT
private slots:
    void resolution_data();
    void resolution();
    void backendsAgree_data();
    void backendsAgree();
    void overrides();
    void heading_data();
    void heading();
    void projection();
    void trailWindow();
    void trailsEqualFrameReads_data();
    void trailsEqualFrameReads();
};

void TestMapPositions::resolution_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected"); ///< "type=field" entries that must be in describe()
    QTest::addColumn<UpAxis>("up");
    QTest::addColumn<int>("placed"); ///< at frame 0
    QTest::addColumn<int>("unplaced"); ///< at frame 0
    const QStringList cs{"Player=Transform", "Weapon=Transform", "Entity=Transform", "MatchInfo=", "OptimizedBoneData="};
    const QStringList rl{"Ball=Transform", "Car=Transform", "VehiclePickup_Boost=Transform", "Player=", "Team=", "Game="};
    const QStringList arena{"Player=Position", "Projectile=Position"};
    const QStringList allkinds{"Hero=Position", "Skeleton=", "GameState="};
    for (const char* backend : {"fbs", "proto"}) {
        QTest::addRow("sdk_cs_%s", backend) << QString("sdk_cs_%1.vtx").arg(backend) << cs << UpAxis::Z << 38 << 11;
        QTest::addRow("sdk_rl_%s", backend) << QString("sdk_rl_%1.vtx").arg(backend) << rl << UpAxis::Z << 13 << 9;
        QTest::addRow("arena_%s", backend) << QString("arena_from_%1_ds.vtx").arg(backend) << arena << UpAxis::Y << 10 << 1;
        QTest::addRow("allkinds_%s", backend) << QString("allkinds_%1.vtx").arg(backend) << allkinds << UpAxis::Y << 7 << 9;
    }
}

void TestMapPositions::resolution()
{
    VTX_REQUIRE_SAMPLES();
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    QFETCH(UpAxis, up);
    QFETCH(int, placed);
    QFETCH(int, unplaced);
    auto f = openSample(file.toStdString());
    const EntityPositions positions(f->schema());
    const QString got = describe(f->schema(), positions);
    for (const QString& e : expected)
        QVERIFY2(got.split(' ').contains(e), qPrintable(QString("%1 not in: %2").arg(e, got)));
    const auto frames = firstFrames(*f, 64);
    QCOMPARE(upAxisName(chooseUpAxis(views(frames), positions)), upAxisName(up));
    const PlacementCount c = countPlacements(frames.front().view(), positions);
    QCOMPARE(int(c.placed), placed);
    QCOMPARE(int(c.unplaced), unplaced);
}

void TestMapPositions::backendsAgree_data()
{
    QTest::addColumn<QString>("fbs");
    QTest::addColumn<QString>("proto");
    QTest::newRow("sdk_cs") << "sdk_cs_fbs.vtx"
                            << "sdk_cs_proto.vtx";
    QTest::newRow("sdk_rl") << "sdk_rl_fbs.vtx"
                            << "sdk_rl_proto.vtx";
    QTest::newRow("arena") << "arena_from_fbs_ds.vtx"
                           << "arena_from_proto_ds.vtx";
    QTest::newRow("allkinds") << "allkinds_fbs.vtx"
                              << "allkinds_proto.vtx";
}

void TestMapPositions::backendsAgree()
{
    VTX_REQUIRE_SAMPLES();
    QFETCH(QString, fbs);
    QFETCH(QString, proto);
    auto a = openSample(fbs.toStdString());
    auto b = openSample(proto.toStdString());
    QCOMPARE(a->frameCount(), b->frameCount());
    const EntityPositions pa(a->schema()), pb(b->schema());
    QCOMPARE(describe(a->schema(), pa), describe(b->schema(), pb));
    size_t compared = 0;
    for (int frame : {0, a->frameCount() / 2, a->frameCount() - 1}) {
        auto fa = a->frame(frame);
        auto fb = b->frame(frame);
        QVERIFY(fa && fb);
        QCOMPARE(fa->view().bucketCount(), fb->view().bucketCount());
        for (size_t bk = 0; bk < fa->view().bucketCount(); ++bk) {
            const BucketView ba = fa->view().bucket(bk), bb = fb->view().bucket(bk);
            QCOMPARE(ba.entityCount(), bb.entityCount());
            for (size_t i = 0; i < ba.entityCount(); ++i) {
                QCOMPARE(ba.uniqueId(i), bb.uniqueId(i));
                const auto x = pa.placementOf(ba.entity(i)), y = pb.placementOf(bb.entity(i));
                QCOMPARE(x.has_value(), y.has_value());
                if (!x)
                    continue;
                QCOMPARE(x->position, y->position);
                QCOMPARE(x->rotation.has_value(), y->rotation.has_value());
                if (x->rotation)
                    QCOMPARE(*x->rotation, *y->rotation);
                ++compared;
            }
        }
    }
    QVERIFY(compared > 0);
}

void TestMapPositions::overrides()
{
    VTX_REQUIRE_SAMPLES();
    auto f = openSample("allkinds_fbs.vtx");
    EntityPositions p(f->schema());
    const StructDef* hero = f->schema().structByName("Hero");
    QVERIFY(hero);
    QCOMPARE(p.source(hero->typeId).field, std::string("Position"));
    QCOMPARE(p.source(hero->typeId).rotationField, std::string("Rotation"));
    const std::vector<std::string> candidates = positionCandidates(*hero);
    QVERIFY(std::find(candidates.begin(), candidates.end(), "Pose") != candidates.end());
    QVERIFY(std::find(candidates.begin(), candidates.end(), "Name") == candidates.end());
    QVERIFY(!p.setOverride(hero->typeId, "Name")); // a string is no position
    QCOMPARE(p.source(hero->typeId).field, std::string("Position"));
    QVERIFY(p.setOverride(hero->typeId, "Pose"));
    QVERIFY(p.source(hero->typeId).overridden);
    auto frame = f->frame(0);
    QVERIFY(frame);
    const ContainerView e = findEntity(frame->view(), 0, "hero_0");
    const auto placed = p.placementOf(e);
    QVERIFY(placed);
    QCOMPARE(placed->position, e.get<Transform>(hero->field("Pose")->key)->translation);
    QVERIFY(p.setOverride(hero->typeId, ""));
    QVERIFY(!p.placementOf(e));
    p.clearOverride(hero->typeId);
    QCOMPARE(p.source(hero->typeId).field, std::string("Position"));
    QVERIFY(!p.source(hero->typeId).overridden);
}

void TestMapPositions::heading_data()
{
    QTest::addColumn<UpAxis>("up");
    QTest::addColumn<double>("yawDegrees"); ///< rotation about the up axis
    QTest::addColumn<double>("expected"); ///< heading on the map, degrees
    QTest::newRow("z up, none") << UpAxis::Z << 0.0 << 0.0;
    QTest::newRow("z up, 90") << UpAxis::Z << 90.0 << 90.0;
    QTest::newRow("z up, -135") << UpAxis::Z << -135.0 << -135.0;
    // Y up: X right, Z top on the map; a turn about +Y takes +X towards -Z.
    QTest::newRow("y up, 90") << UpAxis::Y << 90.0 << -90.0;
    QTest::newRow("x up, 90") << UpAxis::X << 90.0 << 90.0; // +Y forward turns to +Z: up on the YZ map
}

void TestMapPositions::heading()
{
    QFETCH(UpAxis, up);
    QFETCH(double, yawDegrees);
    QFETCH(double, expected);
    const double h = yawDegrees * M_PI / 360; // half angle
    Quat q{0, 0, 0, float(std::cos(h))};
    (up == UpAxis::X ? q.x : up == UpAxis::Y ? q.y : q.z) = float(std::sin(h));
    const MapPlane plane{up, false};
    const auto got = plane.heading(q);
    QVERIFY(got);
    double diff = std::remainder(*got * 180 / M_PI - expected, 360.0);
    QVERIFY2(std::abs(diff) < 1e-3, qPrintable(QString::number(*got * 180 / M_PI)));
    // Pitched straight up: no heading.
    const double p = -M_PI / 4; // -90° about Y: +X goes to +Z
    const MapPlane zUp{UpAxis::Z, false};
    QVERIFY(!zUp.heading(Quat{0, float(std::sin(p)), 0, float(std::cos(p))}));
}

void TestMapPositions::projection()
{
    const Vec3 p{1, 2, 3};
    QCOMPARE((MapPlane{UpAxis::Z, false}.project(p)), (std::array<double, 2>{1, 2}));
    QCOMPARE((MapPlane{UpAxis::Y, false}.project(p)), (std::array<double, 2>{1, 3}));
    QCOMPARE((MapPlane{UpAxis::X, false}.project(p)), (std::array<double, 2>{2, 3}));
    QCOMPARE((MapPlane{UpAxis::Z, true}.project(p)), (std::array<double, 2>{-1, 2}));
    QCOMPARE(QString(planeName(UpAxis::Y)), QString("XZ"));
}

void TestMapPositions::trailWindow()
{
    ReplayTimes t;
    for (int i = 0; i < 600; ++i)
        t.gameTime.push_back(int64_t(i) * kTicksPerSecond / 60);
    QCOMPARE(trailWindowStart(t, 300, 2.0), 180);
    QCOMPARE(trailWindowStart(t, 60, 2.0), 0);
    QCOMPARE(trailWindowStart(t, 0, 2.0), 0);
    QCOMPARE(trailWindowStart(ReplayTimes{}, 300, 2.0, 30), 240);
    t.gaps = {301};
    QVERIFY(gapBefore(t, 300));
    QVERIFY(!gapBefore(t, 301));
}

void TestMapPositions::trailsEqualFrameReads_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("frame");
    QTest::addColumn<double>("seconds");
    // Windows that start in one chunk and end in the next, and ones across a recording gap.
    QTest::newRow("sdk_rl chunk boundary") << "sdk_rl_fbs.vtx" << 1030 << 2.0;
    QTest::newRow("sdk_rl_proto chunk boundary") << "sdk_rl_proto.vtx" << 1030 << 2.0;
    QTest::newRow("sdk_cs_proto") << "sdk_cs_proto.vtx" << 399 << 6.0;
    QTest::newRow("arena boundary") << "arena_from_fbs_ds.vtx" << 540 << 2.0;
    QTest::newRow("allkinds gap") << "allkinds_fbs.vtx" << 330 << 2.0;
    QTest::newRow("allkinds_proto gap") << "allkinds_proto.vtx" << 620 << 2.0;
}

void TestMapPositions::trailsEqualFrameReads()
{
    VTX_REQUIRE_SAMPLES();
    QFETCH(QString, file);
    QFETCH(int, frame);
    QFETCH(double, seconds);
    auto f = openSample(file.toStdString());
    const EntityPositions positions(f->schema());
    const ReplayTimes& times = f->footer().times;
    const int first = trailWindowStart(times, frame, seconds);
    QVERIFY(first < frame);
    // Chunks newest first, as the map's worker reads them.
    TrailSet trails;
    std::vector<size_t> chunks;
    for (int x = frame; x >= first;) {
        const size_t c = *f->chunkForFrame(x);
        chunks.push_back(c);
        x = f->chunks()[c].startFrame - 1;
    }
    for (size_t c : chunks) {
        auto d = f->decodeChunk(c);
        QVERIFY(d);
        appendTrails(**d, first, frame, positions, trails);
    }
    finishTrails(trails, times);
    if (QByteArray(QTest::currentDataTag()).contains("boundary"))
        QVERIFY2(chunks.size() >= 2, "the window must cross a chunk boundary");

    // The same, frame by frame through the reader.
    TrailSet direct;
    std::shared_ptr<const DecodedChunk> held; // one decode per chunk, not per frame
    for (int x = first; x <= frame; ++x) {
        const size_t c = *f->chunkForFrame(x);
        if (!held || held->index() != c) {
            auto d = f->decodeChunk(c);
            QVERIFY(d);
            held = *d;
        }
        const std::optional<FrameHandle> h = FrameHandle(held, x);
        QVERIFY(!h->view().isNull());
        for (size_t b = 0; b < h->view().bucketCount(); ++b) {
            const BucketView bucket = h->view().bucket(b);
            for (size_t i = 0; i < bucket.entityCount(); ++i)
                if (auto p = positions.placementOf(bucket.entity(i))) {
                    auto& pts = direct[{uint32_t(b), std::string(bucket.uniqueId(i))}];
                    const bool joined = !pts.empty() && pts.back().frame == x - 1 && !gapBefore(times, x);
                    pts.push_back({x, p->position, !pts.empty() && !joined});
                }
        }
    }
    QVERIFY(!direct.empty());
    QCOMPARE(trails.size(), direct.size());
    for (const auto& [key, pts] : direct)
        QVERIFY2(trails[key] == pts, key.second.c_str());
    if (QByteArray(QTest::currentDataTag()).contains("gap")) {
        bool anyBreak = false;
        for (const auto& [key, pts] : trails)
            for (const TrailPoint& p : pts)
                anyBreak |= p.breakBefore && gapBefore(times, p.frame);
        QVERIFY2(anyBreak, "the window must cross a recording gap");
    }
}

QTEST_GUILESS_MAIN(TestMapPositions)
#include "tst_mappositions.moc"
