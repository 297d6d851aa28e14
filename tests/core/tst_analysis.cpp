// SPDX-License-Identifier: MIT
// The analyses (issue 18): entity lifetimes, unique values and property spans over a whole
// replay, each checked against reading every frame directly, on the demo and the SDK samples
// (FlatBuffers and Protobuf give the same answers); a chunk that does not decode is reported
// and not counted; bad requests are errors; CSV is RFC 4180.

#include "CorruptCopy.hpp"
#include "TestSupport.hpp"
#include "vtx/analysis/Analyses.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <set>
#include <sstream>

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

using Key = std::pair<uint32_t, std::string>;

/// Calls visit(frame, bucket, id, container) for every entity of every readable frame, one frame at a time.
template <class Visit> void everyEntity(const ReplayFile& file, Visit visit)
{
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
        for (size_t b = 0; b < fv.bucketCount(); ++b) {
            const BucketView bucket = fv.bucket(b);
            for (size_t i = 0; i < std::min(bucket.entityCount(), bucket.uniqueIds().size()); ++i)
                visit(f, uint32_t(b), std::string(bucket.uniqueIds()[i]), bucket.entities()[i]);
        }
    }
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    void lifetimesEqualReadingTheFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("demo") << "demo";
        QTest::newRow("sdk cs fbs") << "sdk_cs_fbs.vtx";
        QTest::newRow("sdk cs proto") << "sdk_cs_proto.vtx";
        QTest::newRow("sdk rl fbs") << "sdk_rl_fbs.vtx";
    }
    void lifetimesEqualReadingTheFrames()
    {
        QFETCH(QString, file);
        if (file != "demo")
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(fileFor(file));
        VTX_VERIFY_OK(f);
        const LifetimesResult r = entityLifetimes(**f);
        QVERIFY(r.walk.failed.empty());
        const EntityLabels labels = EntityLabels::choose((*f)->schema());
        std::map<Key, EntityLifetime> want;
        everyEntity(**f, [&](int32_t fr, uint32_t b, const std::string& id, ContainerView c) {
            auto [it, fresh] = want.try_emplace({b, id});
            EntityLifetime& e = it->second;
            if (fresh) {
                e.bucket = b;
                e.uniqueId = id;
                const StructDef* s = (*f)->schema().structById(c.typeId());
                e.type = s ? s->name : "";
                e.label = labels.label(c); // named as in its first frame
                e.firstFrame = fr;
                e.firstTicks = (*f)->gameTimeTicks(fr);
            }
            if (fresh || e.lastFrame != fr - 1)
                ++e.appearances;
            e.lastFrame = fr;
            e.lastTicks = (*f)->gameTimeTicks(fr);
            ++e.framesPresent;
        });
        QCOMPARE(r.entities.size(), want.size());
        QVERIFY(!want.empty());
        size_t i = 0;
        for (const auto& [k, e] : want)
            QVERIFY2(r.entities[i++] == e, e.uniqueId.c_str());
        const AnalysisTable t = lifetimesTable(r);
        QCOMPARE(t.rows.size(), want.size());
        QCOMPARE(t.columns.size(), t.rows.front().size());
    }

    // The same recording written by both backends: the same analyses.
    void fbsAndProtoAgree()
    {
        VTX_REQUIRE_SAMPLES();
        auto a = ReplayFile::open(vtxtest::samplePath("sdk_cs_fbs.vtx"));
        auto b = ReplayFile::open(vtxtest::samplePath("sdk_cs_proto.vtx"));
        VTX_VERIFY_OK(a);
        VTX_VERIFY_OK(b);
        QVERIFY(entityLifetimes(**a).entities == entityLifetimes(**b).entities);
        const UniqueValuesRequest u{{"ClassIdentifier"}, ""};
        QVERIFY(uniqueValues(**a, u)->groups == uniqueValues(**b, u)->groups);
        const PropertySpansRequest s{"Transform.translation.x", ""};
        QVERIFY(propertySpans(**a, s)->spans == propertySpans(**b, s)->spans);
    }

    void uniqueValuesEqualReadingTheFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<QString>("type");
        QTest::newRow("demo Team") << "demo" << QStringList{"Team"} << "";
        QTest::newRow("demo Player Team, IsAlive") << "demo" << QStringList{"Team", "IsAlive"} << "Player";
        QTest::newRow("demo Player Health") << "demo" << QStringList{"Health"} << "Player";
        QTest::newRow("demo WorldItem Kind, Dropped") << "demo" << QStringList{"Kind", "Dropped"} << "WorldItem";
        QTest::newRow("rl DisplayName") << "sdk_rl_fbs.vtx" << QStringList{"DisplayName"} << "";
    }
    void uniqueValuesEqualReadingTheFrames()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, paths);
        QFETCH(QString, type);
        if (file != "demo")
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(fileFor(file));
        VTX_VERIFY_OK(f);
        UniqueValuesRequest req;
        for (const QString& p : paths)
            req.paths.push_back(p.toStdString());
        req.type = type.toStdString();
        auto r = uniqueValues(**f, req);
        VTX_VERIFY_OK(r);
        std::vector<PropertyPath> parsed;
        for (const std::string& p : req.paths)
            parsed.push_back(*PropertyPath::parse(p));
        const int32_t typeId = *typeFilter((*f)->schema(), req.type);
        struct G {
            int64_t frames = 0;
            std::set<Key> entities;
            int32_t first = -1;
        };
        std::map<std::vector<std::string>, G> want;
        int64_t total = 0;
        everyEntity(**f, [&](int32_t fr, uint32_t b, const std::string& id, ContainerView c) {
            if (typeId >= 0 && c.typeId() != typeId)
                return;
            std::vector<std::string> tuple;
            for (const PropertyPath& p : parsed) {
                const Value v = p.evaluate(c, (*f)->schema());
                tuple.push_back(v.isAbsent() ? "—" : formatValue(v));
            }
            G& g = want[tuple];
            ++g.frames;
            g.entities.insert({b, id});
            if (g.first < 0)
                g.first = fr;
            ++total;
        });
        QVERIFY(total > 0);
        QCOMPARE(r->groups.size(), want.size());
        size_t i = 0;
        int64_t sum = 0;
        for (const auto& [tuple, g] : want) {
            const UniqueValueGroup& got = r->groups[i++];
            QCOMPARE(got.values, tuple);
            QCOMPARE(got.entityFrames, g.frames);
            QCOMPARE(got.entities, int64_t(g.entities.size()));
            QCOMPARE(got.firstFrame, g.first);
            sum += got.entityFrames;
        }
        QCOMPARE(sum, total);
        const AnalysisTable t = uniqueValuesTable(req, *r);
        QCOMPARE(t.columns.size(), req.paths.size() + 3);
    }

    void propertySpansRebuildEveryValue_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("type");
        QTest::newRow("demo Health") << "demo"
                                     << "Health"
                                     << "Player";
        QTest::newRow("demo IsAlive") << "demo"
                                      << "IsAlive"
                                      << "";
        QTest::newRow("demo item Dropped") << "demo"
                                           << "Dropped"
                                           << "WorldItem";
        QTest::newRow("rl DisplayName") << "sdk_rl_fbs.vtx"
                                        << "DisplayName"
                                        << "";
        QTest::newRow("cs proto translation") << "sdk_cs_proto.vtx"
                                              << "Transform.translation.x"
                                              << "";
    }
    // Spans are exact and maximal: expanding them gives every (entity, frame) value read
    // directly, and two spans of an entity that touch always differ in value.
    void propertySpansRebuildEveryValue()
    {
        QFETCH(QString, file);
        QFETCH(QString, path);
        QFETCH(QString, type);
        if (file != "demo")
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(fileFor(file));
        VTX_VERIFY_OK(f);
        auto r = propertySpans(**f, {path.toStdString(), type.toStdString()});
        VTX_VERIFY_OK(r);
        std::map<std::pair<Key, int32_t>, std::string> got;
        const PropertySpan* previous = nullptr;
        for (const PropertySpan& s : r->spans) {
            QVERIFY(s.firstFrame <= s.lastFrame);
            if (previous && previous->bucket == s.bucket && previous->uniqueId == s.uniqueId) {
                QVERIFY(previous->lastFrame < s.firstFrame);
                if (previous->lastFrame + 1 == s.firstFrame)
                    QVERIFY2(previous->value != s.value, s.uniqueId.c_str());
            }
            for (int32_t fr = s.firstFrame; fr <= s.lastFrame; ++fr)
                got[{{s.bucket, s.uniqueId}, fr}] = s.value;
            previous = &s;
        }
        const PropertyPath p = *PropertyPath::parse(path.toStdString());
        const int32_t typeId = *typeFilter((*f)->schema(), type.toStdString());
        std::map<std::pair<Key, int32_t>, std::string> want, wantLabel;
        const EntityLabels labels = EntityLabels::choose((*f)->schema());
        everyEntity(**f, [&](int32_t fr, uint32_t b, const std::string& id, ContainerView c) {
            if (typeId >= 0 && c.typeId() != typeId)
                return;
            const Value v = p.evaluate(c, (*f)->schema());
            if (!v.isAbsent()) {
                want[{{b, id}, fr}] = formatValue(v);
                wantLabel[{{b, id}, fr}] = std::string(labels.label(c));
            }
        });
        QVERIFY(!want.empty());
        QVERIFY(got == want);
        // Each span is named as its entity is in the span's first frame.
        for (const PropertySpan& s : r->spans)
            QCOMPARE(s.label, (wantLabel[{{s.bucket, s.uniqueId}, s.firstFrame}]));
    }

    // A chunk that does not decode: reported with its frames, not counted, and spans break there.
    void corruptChunkIsReportedAndNotCounted()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + "/corrupt.vtx";
        QVERIFY(vtxtest::writeCorruptChunkCopy(demoPath(), path, 1));
        auto f = ReplayFile::open(path.toStdString());
        VTX_VERIFY_OK(f);
        const ChunkEntry bad = (*f)->chunks()[1];
        const LifetimesResult life = entityLifetimes(**f);
        QCOMPARE(life.walk.failed.size(), size_t(1));
        QCOMPARE(life.walk.failed[0].first, bad.startFrame);
        QCOMPARE(life.walk.failed[0].last, bad.endFrame);
        QCOMPARE(life.walk.framesRead, int64_t((*f)->frameCount()) - bad.frameCount());
        for (const EntityLifetime& e : life.entities)
            if (e.firstFrame < bad.startFrame && e.lastFrame > bad.endFrame)
                QVERIFY(e.appearances >= 2); // the hole splits what was one stay
        auto spans = propertySpans(**f, {"IsAlive", "Player"});
        VTX_VERIFY_OK(spans);
        for (const PropertySpan& s : spans->spans)
            QVERIFY(s.lastFrame < bad.startFrame || s.firstFrame > bad.endFrame);
        QVERIFY(!lifetimesTable(life).failed.empty());
    }

    void badRequestsAreErrors()
    {
        auto f = ReplayFile::open(demoPath().toStdString());
        VTX_VERIFY_OK(f);
        auto t = uniqueValues(**f, {{"Team"}, "Plyer"});
        QVERIFY(!t);
        QVERIFY2(t.message().find("unknown type 'Plyer'") != std::string::npos && t.message().find("Player") != std::string::npos,
                 t.message().c_str());
        QVERIFY(!uniqueValues(**f, {{}, ""}));
        QVERIFY(!uniqueValues(**f, {{"Health["}, ""}));
        QVERIFY(!propertySpans(**f, {"Health[", ""}));
        QVERIFY(!propertySpans(**f, {"Health", "Nope"}));
    }

    void cancelStopsEarly()
    {
        auto f = ReplayFile::open(demoPath().toStdString());
        VTX_VERIFY_OK(f);
        std::atomic<bool> cancel{true};
        WalkControl c;
        c.cancel = &cancel;
        const LifetimesResult r = entityLifetimes(**f, c);
        QVERIFY(r.walk.cancelled);
        QVERIFY(r.entities.empty());
        QCOMPARE(r.walk.framesRead, int64_t(0));
    }

    void csvQuotesWhatNeedsIt()
    {
        AnalysisTable t;
        t.columns = {"name", "n", "x"};
        t.rows.push_back({std::string("plain"), int64_t(3), 0.5});
        t.rows.push_back({std::string("a,b"), int64_t(-1), std::monostate{}});
        t.rows.push_back({std::string("say \"hi\"\nnow"), int64_t(0), 1e300});
        std::ostringstream out;
        writeCsv(t, out);
        QCOMPARE(QString::fromStdString(out.str()), QString("name,n,x\r\nplain,3,0.5\r\n\"a,b\",-1,\r\n\"say \"\"hi\"\"\nnow\",0,1e+300\r\n"));
    }

    // CSV numbers are the shortest text that reads back to the same double (issue 26 8h: a
    // plot export printed 3.8593752000000001 for 3.8593752).
    void csvNumbersAreShortestRoundTrip_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("plain decimal") << 3.8593752 << "3.8593752";
        QTest::newRow("needs 17 digits") << 0.1 + 0.2 << "0.30000000000000004";
        QTest::newRow("from a float") << double(3.8593752f) << "3.859375238418579";
        QTest::newRow("negative zero") << -0.0 << "-0";
        QTest::newRow("integral") << 250.0 << "250";
    }
    void csvNumbersAreShortestRoundTrip()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        AnalysisTable t;
        t.columns = {"x"};
        t.rows.push_back({value});
        std::ostringstream out;
        writeCsv(t, out);
        QCOMPARE(QString::fromStdString(out.str()), "x\r\n" + text + "\r\n");
        QCOMPARE(std::strtod(text.toLatin1().constData(), nullptr), value);
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
