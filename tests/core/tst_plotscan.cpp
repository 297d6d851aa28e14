// SPDX-License-Identifier: MIT
// Plot series over a whole replay and their decimation (issue 18): a scan gives exactly what
// reading each frame directly gives, a chunk that does not decode is a reported gap, a
// cancelled scan gives no series, and min/max decimation keeps every extreme.

#include "CorruptCopy.hpp"
#include "TestSupport.hpp"
#include "vtx/plot/Decimate.hpp"
#include "vtx/plot/ExpressionSeries.hpp"
#include "vtx/plot/SeriesScan.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <map>
#include <random>

using namespace vtx;

namespace {

QString demoPath()
{
    return QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx");
}

std::string fileFor(const QString& name)
{
    return name == "demo" ? demoPath().toStdString() : vtxtest::samplePath(name.toStdString());
}

/// The slow path: every frame read on its own, the entity found, the path evaluated.
SeriesData directRead(const ReplayFile& file, uint32_t bucket, const std::string& id, const std::string& path)
{
    SeriesData d;
    auto p = PropertyPath::parse(path);
    if (!p)
        return d;
    std::shared_ptr<const DecodedChunk> chunk; // ReplayFile::frame() decodes its chunk each time: keep it
    for (int32_t f = 0; f < file.frameCount(); ++f) {
        FrameView fv;
        if (chunk && f >= chunk->startFrame() && f < chunk->startFrame() + int32_t(chunk->frameCount())) {
            fv = chunk->frame(size_t(f - chunk->startFrame()));
        } else {
            auto h = file.frame(f);
            if (!h)
                continue;
            chunk = h->chunk();
            fv = h->view();
        }
        if (fv.isNull())
            continue;
        const ContainerView c = findEntity(fv, bucket, id);
        const Value v = p->evaluate(c, file.schema());
        if (!v.isNumber())
            continue;
        d.frames.push_back(f);
        d.values.push_back(v.number);
    }
    return d;
}

std::unique_ptr<SeriesSampler> sampler(const ReplayFile& file, uint32_t bucket, const std::string& id, const std::string& path)
{
    auto s = propertySampler(file.schema(), bucket, id, path);
    return s ? std::move(*s) : nullptr;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

/// The reference decimation: every visible point and its nearest neighbour outside each edge,
/// grouped by pixel column one by one.
std::vector<PlotColumn> bruteDecimate(const std::vector<int32_t>& frames, const std::vector<double>& values, const ColumnMap& map)
{
    const double lo = std::floor(map.first), hi = std::ceil(map.last);
    std::vector<size_t> take;
    long before = -1, after = -1;
    for (size_t i = 0; i < frames.size(); ++i) {
        if (frames[i] < lo)
            before = long(i);
        else if (frames[i] > hi) {
            if (after < 0)
                after = long(i);
        } else
            take.push_back(i);
    }
    if (before >= 0)
        take.insert(take.begin(), size_t(before));
    if (after >= 0)
        take.push_back(size_t(after));
    std::vector<PlotColumn> out;
    bool prevFinite = false;
    int32_t prevFrame = 0;
    for (size_t i : take) {
        const double v = values[i];
        if (!std::isfinite(v)) {
            prevFinite = false;
            continue;
        }
        const bool joined = prevFinite && frames[i] == prevFrame + 1;
        prevFinite = true;
        prevFrame = frames[i];
        const int32_t x = int32_t(std::floor(map.x(frames[i])));
        if (!out.empty() && out.back().x == x) {
            PlotColumn& c = out.back();
            c.last = v;
            c.min = std::min(c.min, v);
            c.max = std::max(c.max, v);
        } else {
            out.push_back({x, v, v, v, v, joined});
        }
    }
    return out;
}

} // namespace

class TestPlotScan : public QObject {
    Q_OBJECT
private slots:
    void seriesEqualReadingTheFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("bucket");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("path");
        QTest::newRow("demo Health") << "demo" << 0 << "player_0"
                                     << "Health";
        QTest::newRow("demo Position.x") << "demo" << 0 << "player_1"
                                         << "Position.x";
        QTest::newRow("demo bool IsAlive") << "demo" << 0 << "player_2"
                                           << "IsAlive";
        QTest::newRow("demo item ValueCents") << "demo" << 2 << "item_0"
                                              << "ValueCents";
        QTest::newRow("demo absent entity") << "demo" << 0 << "nobody"
                                            << "Health";
        QTest::newRow("demo string is none") << "demo" << 0 << "player_0"
                                             << "Name";
        QTest::newRow("cs fbs transform") << "sdk_cs_fbs.vtx" << 0 << "ent_5000"
                                          << "Transform.translation.x";
        QTest::newRow("cs proto transform") << "sdk_cs_proto.vtx" << 0 << "ent_5000"
                                            << "Transform.translation.x";
        QTest::newRow("rl ball z") << "sdk_rl_fbs.vtx" << 0 << "ball_0"
                                   << "Transform.translation.z";
    }
    void seriesEqualReadingTheFrames()
    {
        QFETCH(QString, file);
        QFETCH(int, bucket);
        QFETCH(QString, id);
        QFETCH(QString, path);
        if (file != "demo")
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(fileFor(file));
        VTX_VERIFY_OK(f);
        auto s = propertySampler((*f)->schema(), uint32_t(bucket), id.toStdString(), path.toStdString());
        VTX_VERIFY_OK(s);
        std::vector<std::unique_ptr<SeriesSampler>> samplers;
        samplers.push_back(std::move(*s));
        const SeriesScanResult r = scanSeries(**f, samplers);
        QVERIFY(!r.cancelled);
        QVERIFY(r.failed.empty());
        QCOMPARE(r.series.size(), size_t(1));
        const SeriesData want = directRead(**f, uint32_t(bucket), id.toStdString(), path.toStdString());
        QCOMPARE(r.series[0].frames, want.frames);
        QVERIFY(sameBits(r.series[0].values, want.values));
        if (id != "nobody" && path != "Name")
            QVERIFY(!want.frames.empty()); // the case reads something
    }

    // Ten series read in one pass give what each gives alone.
    void manySeriesInOnePassEqualEachAlone()
    {
        auto f = ReplayFile::open(demoPath().toStdString());
        VTX_VERIFY_OK(f);
        const std::vector<std::pair<std::string, std::string>> specs{
            {"player_0", "Health"},     {"player_1", "Health"},  {"player_2", "Armor"},      {"player_3", "Money"},  {"player_4", "Position.y"},
            {"player_5", "Velocity.x"}, {"player_0", "IsAlive"}, {"player_1", "Position.z"}, {"player_2", "Health"}, {"player_3", "Armor"}};
        std::vector<std::unique_ptr<SeriesSampler>> all;
        all.reserve(specs.size());
        for (const auto& [id, path] : specs)
            all.push_back(sampler(**f, 0, id, path));
        const SeriesScanResult together = scanSeries(**f, all);
        QCOMPARE(together.series.size(), specs.size());
        for (size_t i = 0; i < specs.size(); ++i) {
            std::vector<std::unique_ptr<SeriesSampler>> one;
            one.push_back(sampler(**f, 0, specs[i].first, specs[i].second));
            const SeriesScanResult alone = scanSeries(**f, one);
            QVERIFY2(together.series[i] == alone.series[0], specs[i].second.c_str());
        }
    }

    // A chunk that fails to decode: its frames are one failed span with the reason, no series
    // has a point there, and every other frame still equals the direct read.
    void corruptChunkIsAReportedGap()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + "/corrupt.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(demoPath(), path, 1));
        auto f = ReplayFile::open(path.toStdString());
        VTX_VERIFY_OK(f);
        const ChunkEntry bad = (*f)->chunks()[1];
        std::vector<std::unique_ptr<SeriesSampler>> samplers;
        samplers.push_back(sampler(**f, 0, "player_0", "Position.x"));
        const SeriesScanResult r = scanSeries(**f, samplers);
        QCOMPARE(r.failed.size(), size_t(1));
        QCOMPARE(r.failed[0].first, bad.startFrame);
        QCOMPARE(r.failed[0].last, bad.endFrame);
        QVERIFY2(r.failed[0].reason.find("chunk 1") != std::string::npos, r.failed[0].reason.c_str());
        for (int32_t fr : r.series[0].frames)
            QVERIFY(fr < bad.startFrame || fr > bad.endFrame);
        const SeriesData want = directRead(**f, 0, "player_0", "Position.x");
        QCOMPARE(r.series[0].frames, want.frames);
        QVERIFY(sameBits(r.series[0].values, want.values));
        QVERIFY(!want.frames.empty());
        // The decimated curve does not join across the hole.
        std::vector<PlotColumn> cols;
        decimate(r.series[0].frames, r.series[0].values, {0, double((*f)->frameCount() - 1), 0, 4000}, cols);
        const int32_t after = int32_t(std::floor(ColumnMap{0, double((*f)->frameCount() - 1), 0, 4000}.x(bad.endFrame + 1)));
        auto it = std::find_if(cols.begin(), cols.end(), [&](const PlotColumn& c) { return c.x == after; });
        QVERIFY(it != cols.end());
        QVERIFY(!it->joined);
    }

    // Cancelled half-way: no series at all, never a partial one.
    void cancelGivesNoPartialSeries()
    {
        auto f = ReplayFile::open(demoPath().toStdString());
        VTX_VERIFY_OK(f);
        std::vector<std::unique_ptr<SeriesSampler>> samplers;
        samplers.push_back(sampler(**f, 0, "player_0", "Health"));
        std::atomic<bool> cancel{false};
        int calls = 0;
        WalkControl control;
        control.cancel = &cancel;
        control.progress = [&](int64_t done, int64_t total) {
            ++calls;
            QVERIFY(done <= total);
            cancel = true; // after the first chunk
        };
        const SeriesScanResult r = scanSeries(**f, samplers, control);
        QVERIFY(r.cancelled);
        QVERIFY(r.series.empty());
        QCOMPARE(calls, 1);
    }

    void badPathIsAnError()
    {
        auto f = ReplayFile::open(demoPath().toStdString());
        VTX_VERIFY_OK(f);
        auto s = propertySampler((*f)->schema(), 0, "player_0", "Health[");
        QVERIFY(!s);
        QVERIFY(!s.message().empty());
    }

    // Plot mode's "Player.Health": a type of the schema, then a path whose first step is a
    // field of it; conditions, unknown names and bare paths are not.
    void typedPropertyPaths_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("type"); // empty: not a typed property path
        QTest::addColumn<QString>("path");
        QTest::newRow("property") << "Player.Health"
                                  << "Player"
                                  << "Health";
        QTest::newRow("spaces") << "  Player.Health "
                                << "Player"
                                << "Health";
        QTest::newRow("nested") << "Player.Transform.translation.z"
                                << "Player"
                                << "Transform.translation.z";
        QTest::newRow("array element") << "Player.PlayerEquipment.Weapons[1].SkinId"
                                       << "Player"
                                       << "PlayerEquipment.Weapons[1].SkinId";
        QTest::newRow("condition") << "Player.Health < 50"
                                   << ""
                                   << "";
        QTest::newRow("unknown field") << "Player.Helth"
                                       << ""
                                       << "";
        QTest::newRow("unknown type") << "Playa.Health"
                                      << ""
                                      << "";
        QTest::newRow("no type") << "Health"
                                 << ""
                                 << "";
        QTest::newRow("type only") << "Player."
                                   << ""
                                   << "";
        QTest::newRow("bad path") << "Player.Health["
                                  << ""
                                  << "";
        QTest::newRow("function") << "any(Player.Health < 5)"
                                  << ""
                                  << "";
    }
    void typedPropertyPaths()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, text);
        QFETCH(QString, type);
        QFETCH(QString, path);
        auto f = ReplayFile::open(vtxtest::samplePath("sdk_cs_fbs.vtx"));
        VTX_VERIFY_OK(f);
        const auto typed = typedPropertyPath((*f)->schema(), text.toStdString());
        QCOMPARE(typed.has_value(), !type.isEmpty());
        if (typed) {
            QCOMPARE(QString::fromStdString(typed->type), type);
            QCOMPARE(QString::fromStdString(typed->path), path);
        }
    }

    void decimationKeepsEveryExtreme_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("last");
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 6; ++seed)
            QTest::addRow("random %d", seed) << "random" << 20000 * seed << 100 + 317 * seed << 0.0 << double(20000 * seed - 1) << seed;
        // Hundreds of points per column: the summary's wide blocks fold them.
        QTest::newRow("random, 330 points per column") << "random" << 100000 << 300 << 0.0 << 99999.0 << 21;
        QTest::newRow("gaps, 150 points per column") << "gaps" << 100000 << 640 << 0.0 << 100000.0 << 22;
        QTest::newRow("NaN and inf, 250 points per column") << "nonfinite" << 100000 << 400 << 0.0 << 99999.0 << 23;
        QTest::newRow("random zoomed in") << "random" << 100000 << 1600 << 31234.5 << 31300.25 << 7;
        QTest::newRow("random more pixels than points") << "random" << 300 << 1600 << 0.0 << 299.0 << 8;
        QTest::newRow("random with gaps") << "gaps" << 50000 << 777 << 1000.0 << 45000.0 << 9;
        QTest::newRow("random with NaN and inf") << "nonfinite" << 50000 << 640 << 0.0 << 49999.0 << 10;
        QTest::newRow("one spike") << "spike" << 100000 << 1600 << 0.0 << 99999.0 << 0;
        QTest::newRow("sawtooth at the column period") << "saw" << 100000 << 1600 << 0.0 << 99999.0 << 0;
        QTest::newRow("constant") << "constant" << 100000 << 1000 << 0.0 << 99999.0 << 0;
        QTest::newRow("alternating extremes") << "alternate" << 99999 << 1601 << 0.0 << 99998.0 << 0;
        QTest::newRow("range past the data") << "random" << 5000 << 800 << -2000.0 << 9000.0 << 11;
        QTest::newRow("range before the data") << "random" << 5000 << 800 << -9000.0 << -100.0 << 12;
        QTest::newRow("single point") << "random" << 1 << 800 << 0.0 << 10.0 << 13;
        QTest::newRow("empty") << "random" << 0 << 800 << 0.0 << 10.0 << 14;
    }
    void decimationKeepsEveryExtreme()
    {
        QFETCH(QString, kind);
        QFETCH(int, points);
        QFETCH(int, width);
        QFETCH(double, first);
        QFETCH(double, last);
        QFETCH(int, seed);
        std::mt19937 rng{uint32_t(seed)};
        std::normal_distribution<double> step(0, 1);
        std::vector<int32_t> frames;
        std::vector<double> values;
        double walk = 0;
        int32_t f = 0;
        for (int i = 0; i < points; ++i) {
            if (kind == "gaps" && rng() % 50 == 0)
                f += 1 + int32_t(rng() % 40); // the entity absent for a while
            frames.push_back(f++);
            walk += step(rng);
            double v = walk;
            if (kind == "spike")
                v = i == points / 2 + 17 ? 1e9 : 0;
            else if (kind == "saw")
                v = double(i % 62);
            else if (kind == "constant")
                v = 3.25;
            else if (kind == "alternate")
                v = i % 2 ? -1e300 : 1e300;
            else if (kind == "nonfinite" && rng() % 97 == 0)
                v = rng() % 2 ? std::nan("") : INFINITY;
            values.push_back(v);
        }
        const ColumnMap map{first, last, 64, 64.0 + width};
        std::vector<PlotColumn> got;
        decimate(frames, values, map, got);
        const std::vector<PlotColumn> want = bruteDecimate(frames, values, map);
        // The fast path (whole blocks folded through the summary) gives the same columns.
        const SeriesSummary summary = summarize(frames, values);
        std::vector<PlotColumn> fast;
        decimate(frames, values, map, fast, &summary);
        QVERIFY(fast == got);
        // A summary of another series is not used.
        const SeriesSummary other = summarize(std::span(frames).first(frames.size() / 2), std::span(values).first(values.size() / 2));
        decimate(frames, values, map, fast, &other);
        QVERIFY(fast == got);
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            QVERIFY2(got[i] == want[i], qPrintable(QString("column %1 (x %2)").arg(i).arg(got[i].x)));
        // Every extreme survives: each visible finite point lies within its column, and the
        // visible minimum and maximum are some column's.
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < frames.size(); ++i) {
            if (frames[i] < first || frames[i] > last || !std::isfinite(values[i]))
                continue;
            lo = std::min(lo, values[i]);
            hi = std::max(hi, values[i]);
            const int32_t x = map.column(frames[i]);
            auto c = std::find_if(got.begin(), got.end(), [&](const PlotColumn& p) { return p.x == x; });
            QVERIFY(c != got.end());
            QVERIFY(values[i] >= c->min && values[i] <= c->max);
        }
        if (lo <= hi) {
            QVERIFY(std::any_of(got.begin(), got.end(), [&](const PlotColumn& c) { return c.min == lo; }));
            QVERIFY(std::any_of(got.begin(), got.end(), [&](const PlotColumn& c) { return c.max == hi; }));
        }
        // At most one column per pixel, plus the two beyond the edges.
        QVERIFY(got.size() <= size_t(width) + 2);
        if (kind == "spike")
            QVERIFY(std::any_of(got.begin(), got.end(), [](const PlotColumn& c) { return c.max == 1e9; }));
    }
};

QTEST_GUILESS_MAIN(TestPlotScan)
#include "tst_plotscan.moc"
