// SPDX-License-Identifier: MIT
// Two replays side by side: pairing by frame and by game time, schema differences by name, and
// the divergence report (first divergent frame, per-frame counts, per-property deviations) on
// generated pairs that differ only where the test perturbed them. The same-schema fast path and
// the by-name path must give the same answer.

#include "CorruptCopy.hpp"
#include "TestSupport.hpp"

#include "PlayerReplays.hpp"

#include "vtx/diff/Diverge.hpp"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace vtx;
using namespace vtxtest::players;

namespace {

struct Expected {
    int32_t first = -1; ///< -1: no divergence
    std::vector<int32_t> frames; ///< every divergent frame
    std::vector<std::string> properties; ///< "Player.Health", sorted
    std::vector<std::string> firstEntities;
};

Expected summarize(const DivergeReport& r)
{
    Expected e;
    if (r.firstDivergence)
        e.first = r.firstDivergence->frameA;
    for (const PairDivergence& p : r.divergentPairs)
        e.frames.push_back(p.frames.frameA);
    for (const PropertyDeviation& p : r.properties)
        e.properties.push_back(p.type + "." + p.path);
    for (const EntityDivergence& d : r.firstEntities)
        e.firstEntities.push_back(d.uniqueId);
    return e;
}

std::vector<int32_t> range(int32_t from, int32_t to)
{
    std::vector<int32_t> r;
    for (int32_t i = from; i < to; ++i)
        r.push_back(i);
    return r;
}

/// diverge(a, b) on the same-layout path and on the by-name path.
std::pair<Result<DivergeReport>, Result<DivergeReport>> onBothPaths(const ReplayFile& a, const ReplayFile& b)
{
    DivergeOptions opt;
    auto fast = diverge(a, b, opt);
    opt.forceByName = true;
    return {std::move(fast), diverge(a, b, opt)};
}

/// A replay of `frames` frames (`frameAt(f)`, at 1 s per frame) with `schema`, written to `path`
/// in chunks of `chunkFrames`, and opened.
std::shared_ptr<ReplayFile> writeFrames(const std::string& path, const std::string& schema, int32_t chunkFrames, int32_t frames,
                                        const std::function<FrameData(int32_t)>& frameAt)
{
    ReplayHeader header;
    header.schemaJson = schema;
    WriterOptions wo;
    wo.chunkMaxFrames = chunkFrames;
    auto w = ReplayWriter::create(path, header, wo);
    if (!w)
        qFatal("%s", w.message().c_str());
    for (int32_t f = 0; f < frames; ++f)
        if (Status st = (*w)->addFrame(frameAt(f), int64_t(f) * 1000, int64_t(f) * 1000); !st)
            qFatal("%s", st.message().c_str());
    if (auto st = (*w)->finish(); !st)
        qFatal("%s", st.message().c_str());
    return openOrDie(path);
}

} // namespace

Q_DECLARE_METATYPE(Perturb)

class TestDiverge : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Run {
        int exitCode;
        QByteArray out, err;
    };
    Run runCli(const QStringList& args)
    {
        QProcess p;
        p.start(QString::fromStdString(vtxtest::cliPath()), args);
        if (!p.waitForFinished(120000))
            qFatal("vtxscope-cli did not finish");
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void perturbations_data()
    {
        QTest::addColumn<Perturb>("perturb");
        QTest::addColumn<double>("epsilon");
        QTest::addColumn<int>("first");
        QTest::addColumn<std::vector<int32_t>>("frames");
        QTest::addColumn<QStringList>("properties");
        QTest::addColumn<double>("maxDeviation"); ///< of the first property; < 0: not numeric / none

        QTest::newRow("identical") << Perturb{} << 0.0 << -1 << std::vector<int32_t>{} << QStringList{} << -1.0;
        QTest::newRow("health at 40 above epsilon") << Perturb([](int32_t f, int p, PropertyContainerData& c) {
            if (f == 40 && p == 1)
                health(c) += 0.5f;
        }) << 0.01 << 40 << std::vector<int32_t>{40} << QStringList{"Player.Health"}
                                                    << 0.5;
        QTest::newRow("health at 40 below epsilon") << Perturb([](int32_t f, int p, PropertyContainerData& c) {
            if (f == 40 && p == 1)
                health(c) += 0.001f;
        }) << 0.01 << -1 << std::vector<int32_t>{} << QStringList{}
                                                    << -1.0;
        QTest::newRow("position drifts from 70") << Perturb([](int32_t f, int p, PropertyContainerData& c) {
            if (f >= 70 && p == 2)
                c.vectors[0].y += 0.125 * (f - 69);
        }) << 0.0 << 70 << range(70, 100) << QStringList{"Player.Position"}
                                                 << 0.125 * 30;
        QTest::newRow("ammo and name at 12, health at 90") << Perturb([](int32_t f, int p, PropertyContainerData& c) {
            if (f == 12 && p == 0) {
                c.int32s[0] += 3;
                c.strings[0] = "renamed";
            }
            if (f == 90 && p == 2)
                health(c) -= 2;
        }) << 0.0 << 12 << std::vector<int32_t>{12, 90} << QStringList{"Player.Ammo", "Player.Health", "Player.Name"}
                                                           << 3.0;
    }
    void perturbations()
    {
        QFETCH(Perturb, perturb);
        QFETCH(double, epsilon);
        QFETCH(int, first);
        QFETCH(std::vector<int32_t>, frames);
        QFETCH(QStringList, properties);
        QFETCH(double, maxDeviation);
        const std::string tag = QTest::currentDataTag();
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {}));
        ReplaySpec spec;
        spec.perturb = perturb;
        auto b = openOrDie(writeReplay(m_dir, "perturbed " + tag + ".vtx", spec));
        // Both comparison paths, each with the chunks decoded ahead on threads and on the
        // calling thread (the gate's workers): the same report every time.
        for (auto [byName, ahead] : {std::pair{false, true}, std::pair{true, true}, std::pair{false, false}, std::pair{true, false}}) {
            DivergeOptions opt;
            opt.tolerance.absolute = epsilon;
            opt.forceByName = byName;
            opt.threads = ahead ? kScanThreads : 1;
            auto r = diverge(*a, *b, opt);
            VTX_VERIFY_OK(r);
            QCOMPARE(r->byName, byName);
            QCOMPARE(r->pairsCompared, uint64_t(100));
            const Expected got = summarize(*r);
            QCOMPARE(got.first, first);
            QCOMPARE(got.frames, frames);
            QStringList names;
            for (const auto& p : got.properties)
                names << QString::fromStdString(p);
            QCOMPARE(names, properties);
            QCOMPARE(r->diverged(), first >= 0);
            if (maxDeviation >= 0) {
                QVERIFY(r->properties.front().numeric);
                QCOMPARE(r->properties.front().maxDeviation, maxDeviation);
            }
            for (const PairDivergence& p : r->divergentPairs) {
                QCOMPARE(p.entities, 1u);
                QCOMPARE(p.frames.frameB, p.frames.frameA);
            }
        }
    }

    // The fast path and the by-name path agree on everything the report says, not only on the
    // frames: counts, deviations and where they occurred.
    void fastPathMatchesByName()
    {
        ReplaySpec spec;
        spec.perturb = [](int32_t f, int p, PropertyContainerData& c) {
            if (f % 7 == 3 && p != 1)
                c.vectors[0].x += 0.01 * f;
            if (f % 11 == 5)
                health(c) += float(f) * 0.01f;
        };
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {}));
        auto b = openOrDie(writeReplay(m_dir, "mixed.vtx", spec));
        DivergeOptions opt;
        opt.tolerance.absolute = 0.05;
        auto fast = diverge(*a, *b, opt);
        opt.forceByName = true;
        auto slow = diverge(*a, *b, opt);
        VTX_VERIFY_OK(fast);
        VTX_VERIFY_OK(slow);
        QVERIFY(fast->diverged());
        QCOMPARE(fast->divergentPairs.size(), slow->divergentPairs.size());
        for (size_t i = 0; i < fast->divergentPairs.size(); ++i) {
            QCOMPARE(fast->divergentPairs[i].frames, slow->divergentPairs[i].frames);
            QCOMPARE(fast->divergentPairs[i].entities, slow->divergentPairs[i].entities);
            QCOMPARE(fast->divergentPairs[i].properties, slow->divergentPairs[i].properties);
        }
        QCOMPARE(fast->properties.size(), slow->properties.size());
        for (size_t i = 0; i < fast->properties.size(); ++i) {
            QCOMPARE(fast->properties[i].path, slow->properties[i].path);
            QCOMPARE(fast->properties[i].pairs, slow->properties[i].pairs);
            QCOMPARE(fast->properties[i].maxDeviation, slow->properties[i].maxDeviation);
            QCOMPARE(fast->properties[i].at, slow->properties[i].at);
            QCOMPARE(fast->properties[i].uniqueId, slow->properties[i].uniqueId);
        }
    }

    void sameDataDifferentStorage_data()
    {
        QTest::addColumn<int>("backendB");
        QTest::addColumn<int>("chunkFramesB");
        QTest::newRow("flatbuffers vs protobuf") << int(Backend::Protobuf) << 16;
        QTest::newRow("different chunk sizes") << int(Backend::FlatBuffers) << 33;
        QTest::newRow("protobuf, one chunk") << int(Backend::Protobuf) << 1000;
    }
    void sameDataDifferentStorage()
    {
        QFETCH(int, backendB);
        QFETCH(int, chunkFramesB);
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {}));
        ReplaySpec spec;
        spec.backend = Backend(backendB);
        spec.chunkFrames = chunkFramesB;
        auto b = openOrDie(writeReplay(m_dir, std::string("storage ") + QTest::currentDataTag() + ".vtx", spec));
        QCOMPARE(b->backend(), Backend(backendB));
        auto r = diverge(*a, *b);
        VTX_VERIFY_OK(r);
        QVERIFY(!r->diverged());
        QCOMPARE(r->pairsCompared, uint64_t(100));
        QVERIFY(r->schemaDifferences.empty());
    }

    void propertyAddedToOneSchema()
    {
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {}));
        ReplaySpec spec;
        spec.withArmor = true;
        spec.perturb = [](int32_t f, int p, PropertyContainerData& c) {
            if (f == 20 && p == 0)
                health(c) += 1;
        };
        auto b = openOrDie(writeReplay(m_dir, "armor.vtx", spec));
        auto r = diverge(*a, *b);
        VTX_VERIFY_OK(r);
        QVERIFY(r->byName);
        QCOMPARE(r->schemaDifferences.size(), size_t(1));
        QCOMPARE(r->schemaDifferences[0], (SchemaDifference{SchemaDifference::Kind::PropertyAdded, "Player", "Armor", {}, "Float"}));
        // Armor is not a divergence; Health, at a different slot in B, is still compared.
        QCOMPARE(summarize(*r).frames, std::vector<int32_t>{20});
        QCOMPARE(r->firstEntities.size(), size_t(1));
        QCOMPARE(r->firstEntities[0].uniqueId, std::string("p0"));
        QCOMPARE(r->firstEntities[0].properties.size(), size_t(1));
        QCOMPARE(r->firstEntities[0].properties[0].path, std::string("Health"));

        // And the other way round: removed, retyped.
        const auto removed = compareSchemas(*Schema::parse(playerSchema(true)), *Schema::parse(playerSchema(false)));
        QCOMPARE(removed.size(), size_t(1));
        QCOMPARE(removed[0].kind, SchemaDifference::Kind::PropertyRemoved);
        const std::string retypedJson = R"({"property_mapping":[{"struct":"Player","values":[)" + field("Position", "Vector") + "," +
            field("Health", "Double") + "," + field("Ammo", "Int32") + "," + field("Name", "String") + R"(]},{"struct":"Ball","values":[]}]})";
        const auto retyped = compareSchemas(*Schema::parse(playerSchema(false)), *Schema::parse(retypedJson));
        QCOMPARE(retyped.size(), size_t(2));
        QCOMPARE(retyped[0], (SchemaDifference{SchemaDifference::Kind::PropertyRetyped, "Player", "Health", "Float", "Double"}));
        QCOMPARE(retyped[1], (SchemaDifference{SchemaDifference::Kind::TypeAdded, "Ball", {}, {}, {}}));
    }

    // The counts per property: `pairs` once per entity per frame pair (two elements of one
    // entity's array count once), `framePairs` once per frame pair, and a pair's `properties`
    // once per entity and property, on both comparison paths.
    void countsPerEntityAndPerPair()
    {
        const std::string schema = R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + field("Health", "Float") + "," +
            field("Trail", "Float", "array") + "]}]}";
        auto write = [&](const std::string& name, bool perturbed) {
            return writeFrames(m_dir.path().toStdString() + "/" + name, schema, 4, 10, [perturbed](int32_t f) {
                FrameData frame;
                BucketData bucket;
                for (int p = 0; p < 2; ++p) {
                    PropertyContainerData c;
                    c.typeId = 0;
                    float health = 100.0F - float(f);
                    std::vector<float> trail{float(f), float(p)};
                    if (perturbed && (f == 3 || (f == 5 && p == 0)))
                        health += 1;
                    if (perturbed && f == 7 && p == 1)
                        trail = {trail[0] + 1, trail[1] + 3}; // two elements of one entity
                    c.floats = {health};
                    c.floatArrays.push(trail);
                    bucket.uniqueIds.push_back("p" + std::to_string(p));
                    bucket.entities.push_back(c);
                }
                frame.buckets.push_back(std::move(bucket));
                return frame;
            });
        };
        auto [fast, slow] = onBothPaths(*write("counts_a.vtx", false), *write("counts_b.vtx", true));
        VTX_VERIFY_OK(fast);
        VTX_VERIFY_OK(slow);
        for (const auto* r : {&*fast, &*slow}) {
            QCOMPARE(summarize(*r).frames, (std::vector<int32_t>{3, 5, 7}));
            QCOMPARE(r->divergentPairs[0].properties, uint32_t(2)); // Health of p0 and of p1
            QCOMPARE(r->divergentPairs[1].properties, uint32_t(1));
            QCOMPARE(r->divergentPairs[2].properties, uint32_t(1)); // Trail[] of p1, two elements
            QCOMPARE(r->properties.size(), size_t(2));
            QCOMPARE(r->properties[0].path, std::string("Health"));
            QCOMPARE(r->properties[0].pairs, uint64_t(3));
            QCOMPARE(r->properties[0].framePairs, uint64_t(2));
            QCOMPARE(r->properties[0].at, (FramePair{3, 3})); // the first of the equal largest deviations
            QCOMPARE(r->properties[0].uniqueId, std::string("p0"));
            QCOMPARE(r->properties[1].path, std::string("Trail[]"));
            QCOMPARE(r->properties[1].pairs, uint64_t(1));
            QCOMPARE(r->properties[1].framePairs, uint64_t(1));
            QCOMPARE(r->properties[1].maxDeviation, 3.0);
            QCOMPARE(r->properties[1].uniqueId, std::string("p1"));
        }
    }

    // The first divergence's values for reading (what the library shows): a double to 9
    // significant digits, an integer grouped, a vector from its readable components; the exact
    // texts unchanged. Both comparison paths give the same texts.
    void valuesForReading_data()
    {
        QTest::addColumn<int>("property");
        QTest::addColumn<QString>("exactA");
        QTest::addColumn<QString>("readingA");
        QTest::addColumn<QString>("readingB");
        QTest::newRow("double") << 0 << "0.30000000000000004"
                                << "0.3"
                                << "0.333333333";
        QTest::newRow("int64") << 1 << "1234567"
                               << "1\u202f234\u202f567"
                               << "1\u202f234\u202f568";
        QTest::newRow("vector") << 2 << "(0.30000000000000004, 2, -1.0000000000000002)"
                                << "(0.3, 2, -1)"
                                << "(0.3, 2.5, -1)";
    }
    void valuesForReading()
    {
        QFETCH(int, property);
        QFETCH(QString, exactA);
        QFETCH(QString, readingA);
        QFETCH(QString, readingB);
        const std::string schema = R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + field("Score", "Double") + "," +
            field("Money", "Int64") + "," + field("Position", "Vector") + "]}]}";
        auto write = [&](const std::string& name, bool perturbed) {
            return writeFrames(m_dir.path().toStdString() + "/" + name, schema, 4, 6, [perturbed, property](int32_t f) {
                PropertyContainerData c;
                c.typeId = 0;
                c.doubles = {0.1 + 0.2};
                c.int64s = {1234567};
                c.vectors = {Vec3{0.1 + 0.2, 2, -1.0000000000000002}};
                if (perturbed && f >= 2) {
                    if (property == 0)
                        c.doubles[0] = 1.0 / 3;
                    else if (property == 1)
                        c.int64s[0] += 1;
                    else
                        c.vectors[0].y = 2.5;
                }
                FrameData frame;
                BucketData bucket;
                bucket.uniqueIds.push_back("p0");
                bucket.entities.push_back(c);
                frame.buckets.push_back(std::move(bucket));
                return frame;
            });
        };
        const std::string tag = std::to_string(property);
        auto [fast, slow] = onBothPaths(*write("reading_a" + tag + ".vtx", false), *write("reading_b" + tag + ".vtx", true));
        VTX_VERIFY_OK(fast);
        VTX_VERIFY_OK(slow);
        for (const auto* r : {&*fast, &*slow}) {
            QCOMPARE(r->firstEntities.size(), size_t(1));
            QCOMPARE(r->firstEntities[0].properties.size(), size_t(1));
            const PropertyDivergence& p = r->firstEntities[0].properties[0];
            QCOMPARE(QString::fromStdString(p.a), exactA);
            QCOMPARE(QString::fromStdString(p.aForReading), readingA);
            QCOMPARE(QString::fromStdString(p.bForReading), readingB);
        }
    }

    // Arrays and nested structs: element changes, a longer array, a nested field, a struct
    // missing on one side. The by-name path agrees with the fast path on frames and properties.
    void arraysAndStructs()
    {
        const std::string schema = R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + field("Trail", "Float", "array") +
            "," + field("Weapon", "Struct", "None", "Weapon") + R"(]},{"struct":"Weapon","values":[)" + field("Ammo", "Int32") + "]}]}";
        auto write = [&](const std::string& name, bool perturbed) {
            return writeFrames(m_dir.path().toStdString() + "/" + name, schema, 8, 50, [perturbed](int32_t f) {
                PropertyContainerData c;
                c.typeId = 0;
                std::vector<float> trail{float(f), float(f) + 1, float(f) + 2};
                PropertyContainerData weapon;
                weapon.typeId = 1;
                weapon.int32s = {f};
                if (perturbed && f == 10)
                    trail.push_back(7);
                if (perturbed && f == 20)
                    trail[1] += 2;
                if (perturbed && f == 30)
                    weapon.int32s[0] += 5;
                c.floatArrays.push(trail);
                if (!(perturbed && f == 40))
                    c.structs.push_back(weapon);
                FrameData frame;
                frame.buckets.push_back({{"p0"}, {c}, {}});
                return frame;
            });
        };
        auto [fast, slow] = onBothPaths(*write("shapes_a.vtx", false), *write("shapes_b.vtx", true));
        VTX_VERIFY_OK(fast);
        VTX_VERIFY_OK(slow);
        QCOMPARE(summarize(*fast).frames, (std::vector<int32_t>{10, 20, 30, 40}));
        QCOMPARE(summarize(*slow).frames, (std::vector<int32_t>{10, 20, 30, 40}));
        for (size_t i = 0; i < 4; ++i)
            QCOMPARE(fast->divergentPairs[i].properties, slow->divergentPairs[i].properties);
        for (const auto* r : {&*fast, &*slow}) {
            QCOMPARE(r->properties.size(), size_t(4));
            QCOMPARE(r->properties[0].path, std::string("Trail")); // its length, at frame 10
            QCOMPARE(r->properties[0].pairs, uint64_t(1));
            QVERIFY(!r->properties[0].numeric);
            QCOMPARE(r->properties[1].path, std::string("Trail[]")); // the added element at 10, the changed one at 20
            QCOMPARE(r->properties[1].pairs, uint64_t(2));
            QVERIFY(r->properties[1].numeric);
            QCOMPARE(r->properties[1].maxDeviation, 2.0);
            QCOMPARE(r->properties[1].at, (FramePair{20, 20}));
            QCOMPARE(r->properties[2].path, std::string("Weapon")); // missing in B at 40
            QCOMPARE(r->properties[2].at, (FramePair{40, 40}));
            QCOMPARE(r->properties[3].path, std::string("Weapon.Ammo"));
            QCOMPARE(r->properties[3].maxDeviation, 5.0);
        }
    }

    void ignoredProperty()
    {
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {}));
        ReplaySpec spec;
        spec.perturb = [](int32_t f, int, PropertyContainerData& c) {
            if (f == 5)
                health(c) += 1;
        };
        auto b = openOrDie(writeReplay(m_dir, "health5.vtx", spec));
        for (bool byName : {false, true}) {
            DivergeOptions opt;
            opt.ignore = {"Health"};
            opt.forceByName = byName;
            auto r = diverge(*a, *b, opt);
            VTX_VERIFY_OK(r);
            QVERIFY(!r->diverged());
        }
    }

    void frameOffset()
    {
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {}));
        DivergeOptions opt;
        opt.offset = 1;
        auto r = diverge(*a, *a, opt);
        VTX_VERIFY_OK(r);
        QCOMPARE(r->pairsCompared, uint64_t(99)); // A's last frame has no partner
        QVERIFY(r->diverged());
        QCOMPARE(r->firstDivergence, (std::optional<FramePair>{FramePair{0, 1}}));
    }

    // B records at 30 Hz with a 1 s gap, A at 60 Hz: each frame of A pairs with B's last frame
    // at or before its game time.
    void alignByTime()
    {
        std::vector<int64_t> timesA, timesB;
        for (int64_t i = 0; i < 300; ++i)
            timesA.push_back(kTicksPerSecond * i / 60 + kTicksPerSecond / 100); // A starts 10 ms later
        for (int64_t i = 0; i < 150; ++i)
            if (int64_t t = kTicksPerSecond * i / 30; t < 2 * kTicksPerSecond || t >= 3 * kTicksPerSecond)
                timesB.push_back(t);
        const auto pairs = pairFrames(
            int32_t(timesA.size()), int32_t(timesB.size()), Alignment::Time, 0, [&](int32_t f) { return timesA[size_t(f)]; },
            [&](int32_t f) { return timesB[size_t(f)]; });
        QCOMPARE(pairs.size(), timesA.size()); // B starts first: every frame of A has a partner
        for (const FramePair& p : pairs) {
            const int64_t t = timesA[size_t(p.frameA)];
            QVERIFY(timesB[size_t(p.frameB)] <= t);
            QVERIFY(size_t(p.frameB) + 1 == timesB.size() || timesB[size_t(p.frameB) + 1] > t);
        }
        // Inside the gap, A's frames stay on B's last frame before it (frame 59, at 1.9667 s).
        QCOMPARE(pairs[150].frameB, 59); // A at 2.51 s
        QCOMPARE(pairs[179].frameB, 59); // A at 2.993 s
        QCOMPARE(pairs[180].frameB, 60); // A at 3.01 s: B's first frame after the gap (3.0 s)

        // An offset of one second shifts into B's future; A's times before B's first frame drop out.
        const auto shifted = pairFrames(
            int32_t(timesA.size()), int32_t(timesB.size()), Alignment::Time, -kTicksPerSecond, [&](int32_t f) { return timesA[size_t(f)]; },
            [&](int32_t f) { return timesB[size_t(f)]; });
        QCOMPARE(shifted.front().frameA, 60); // A's frame 59 is at 0.993 s, before B's start once shifted; frame 60 at 1.01 s
        QCOMPARE(shifted.front().frameB, 0);
    }

    // The same through files: each file's own stored game times.
    void alignByTimeInFiles()
    {
        auto a = openOrDie(writeReplay(m_dir, "base.vtx", {})); // 60 Hz, 100 frames
        const std::string pathB = m_dir.path().toStdString() + "/half_rate.vtx";
        {
            ReplayHeader header;
            header.schemaJson = playerSchema(false);
            auto w = ReplayWriter::create(pathB, header, {});
            QVERIFY(w);
            int32_t written = 0;
            for (int32_t f = 0; f < 100; f += 2) {
                if (f >= 40 && f < 60)
                    continue; // a gap
                if (f == 60)
                    (*w)->addGapMarker(uint32_t(written) + 1);
                FrameData frame;
                BucketData bucket;
                for (int p = 0; p < kPlayers; ++p) {
                    bucket.uniqueIds.push_back("p" + std::to_string(p));
                    bucket.entities.push_back(player(f, p, false));
                }
                frame.buckets.push_back(std::move(bucket));
                const int64_t t = int64_t(f) * kTicksPerSecond / 60;
                QVERIFY((*w)->addFrame(std::move(frame), t, t));
                ++written;
            }
            QVERIFY((*w)->finish());
        }
        auto b = openOrDie(pathB);
        QCOMPARE(b->frameCount(), 40);
        const auto pairs = pairFrames(*a, *b, Alignment::Time, 0);
        QCOMPARE(pairs.size(), size_t(100));
        QCOMPARE(pairs[0], (FramePair{0, 0}));
        QCOMPARE(pairs[1], (FramePair{1, 0}));
        QCOMPARE(pairs[38], (FramePair{38, 19}));
        QCOMPARE(pairs[59], (FramePair{59, 19})); // inside the gap: B's frame at A's frame 38
        QCOMPARE(pairs[60], (FramePair{60, 20}));
        QCOMPARE(pairs[99], (FramePair{99, 39}));

        // Only A's odd frames and those in the gap differ from their partner.
        DivergeOptions opt;
        opt.alignment = Alignment::Time;
        auto r = diverge(*a, *b, opt);
        VTX_VERIFY_OK(r);
        std::vector<int32_t> expected;
        for (int32_t f = 0; f < 100; ++f)
            if (f % 2 == 1 || (f >= 40 && f < 60))
                expected.push_back(f);
        QCOMPARE(summarize(*r).frames, expected);
    }

    // A recovered file lost its frame times with its footer (gameTimeTicks() answers 0): pairing
    // by time would pair every frame with frame 0 and call the file diverged from itself
    // (review 5). It is refused with the file named; pairing by frame still works.
    void timeAlignmentNeedsTimes()
    {
        const std::string whole = writeReplay(m_dir, "base.vtx", {});
        const QString cut = m_dir.path() + "/cut.vtx";
        QVERIFY(vtxtest::writeCutCopy(QString::fromStdString(whole), cut, 2, 3));
        auto a = openOrDie(cut.toStdString());
        QVERIFY(a->isRecovered() && a->frameCount() > 0);
        QVERIFY(!holdsGameTimes(*a));
        QVERIFY(holdsGameTimes(*openOrDie(whole)));
        const Status s = checkAlignment(*a, *a, Alignment::Time);
        QVERIFY(!s);
        QVERIFY2(s.message().find("cut.vtx: holds no game time") != std::string::npos, s.message().c_str());
        QVERIFY(checkAlignment(*a, *a, Alignment::Frame));
        QVERIFY(pairFrames(*a, *a, Alignment::Time, 0).empty());
        DivergeOptions opt;
        opt.alignment = Alignment::Time;
        QVERIFY(!diverge(*a, *a, opt));

        Run r = runCli({"diverge", cut, cut, "--align", "time"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("holds no game time"), r.err.constData());
        r = runCli({"diverge", cut, cut, "--align", "frame"});
        QCOMPARE(r.exitCode, 0); // identical to itself
    }

    // Review 5 #4: a pair whose frame of A or B cannot be read (a chunk that fails to decode, a
    // frame that fails verification) is an error by default; with skipUnreadable its pairs are
    // listed, run by run with the damaged file named, and every other pair is compared with the
    // same answer the intact files give. The progress posts list the same pairs.
    void unreadablePairsAreSkipped_data()
    {
        QTest::addColumn<bool>("damageA"); // else B
        QTest::addColumn<bool>("chunkFails"); // else frame 21 fails verification in a chunk that decodes
        QTest::addColumn<std::vector<int32_t>>("unreadable");
        QTest::newRow("chunk of B fails") << false << true << range(16, 32);
        QTest::newRow("chunk of A fails") << true << true << range(16, 32);
        QTest::newRow("frame of B fails") << false << false << std::vector<int32_t>{21};
        QTest::newRow("frame of A fails") << true << false << std::vector<int32_t>{21};
    }
    void unreadablePairsAreSkipped()
    {
        QFETCH(bool, damageA);
        QFETCH(bool, chunkFails);
        QFETCH(std::vector<int32_t>, unreadable);
        ReplaySpec spec; // 100 frames, 16 per chunk: chunk 1 holds 16-31
        spec.compress = chunkFails; // raw chunks where one frame is damaged in place
        ReplaySpec drift = spec; // B drifts from frame 70 on, after the damage
        drift.perturb = [](int32_t f, int p, PropertyContainerData& c) {
            if (f >= 70 && p == 2)
                c.vectors[0].y += 0.125 * (f - 69);
        };
        const std::string tag = QTest::currentDataTag();
        const QString a = QString::fromStdString(writeReplay(m_dir, "skip a " + tag + ".vtx", spec));
        const QString b = QString::fromStdString(writeReplay(m_dir, "skip b " + tag + ".vtx", drift));
        const QString damaged = m_dir.path() + "/damaged " + QString::fromStdString(tag) + ".vtx";
        const QString& victim = damageA ? a : b;
        QVERIFY(chunkFails ? vtxtest::writeCorruptChunkCopy(victim, damaged, 1) : vtxtest::writeHostileFrameCopy(victim, damaged, 1, 5));
        auto fa = openOrDie((damageA ? damaged : a).toStdString());
        auto fb = openOrDie((damageA ? b : damaged).toStdString());
        auto intact = diverge(*openOrDie(a.toStdString()), *openOrDie(b.toStdString()));
        VTX_VERIFY_OK(intact);
        QVERIFY(!diverge(*fa, *fb)); // by default: an error, the comparison would be incomplete
        for (unsigned threads : {kScanThreads, 1u}) {
            DivergeOptions opt;
            opt.skipUnreadable = true;
            opt.threads = threads;
            std::vector<int32_t> posted;
            uint64_t lastDone = 0;
            opt.progress = [&](const DivergeProgress& progress) {
                for (const UnreadablePairs& run : progress.unreadable)
                    for (int32_t f = run.first.frameA; f <= run.last.frameA; ++f)
                        posted.push_back(f);
                lastDone = progress.pairsDone;
            };
            auto r = diverge(*fa, *fb, opt);
            VTX_VERIFY_OK(r);
            QCOMPARE(r->pairsUnreadable, uint64_t(unreadable.size()));
            QCOMPARE(r->pairsCompared + r->pairsUnreadable, uint64_t(100));
            QCOMPARE(lastDone, uint64_t(100));
            std::vector<int32_t> listed;
            for (const UnreadablePairs& run : r->unreadable) {
                QVERIFY2(run.reason.find(damaged.toStdString()) != std::string::npos, run.reason.c_str());
                QCOMPARE(run.pairs, uint64_t(run.last.frameA - run.first.frameA + 1));
                for (int32_t f = run.first.frameA; f <= run.last.frameA; ++f)
                    listed.push_back(f);
            }
            QCOMPARE(listed, unreadable);
            QCOMPARE(posted, unreadable);
            QCOMPARE(summarize(*r).frames, summarize(*intact).frames);
            QCOMPARE(summarize(*r).properties, summarize(*intact).properties);
            QVERIFY(r->firstDivergence && r->firstDivergence->frameA == 70);
            const Json j = divergeJson(*r, "a", "b");
            QCOMPARE(j["pairs_unreadable"].get<uint64_t>(), uint64_t(unreadable.size()));
            QCOMPARE(j["unreadable"].size(), r->unreadable.size());
            QVERIFY(divergeText(*r).find("not compared: unreadable") != std::string::npos);
        }
        // The CLI: an error without --skip-unreadable; with it the report lists the pairs, and
        // exit 2 says not every pair was compared.
        const QString pathA = damageA ? damaged : a, pathB = damageA ? b : damaged;
        Run cli = runCli({"diverge", pathA, pathB, "--json"});
        QCOMPARE(cli.exitCode, 2);
        QVERIFY(cli.out.isEmpty());
        cli = runCli({"diverge", pathA, pathB, "--json", "--skip-unreadable"});
        QCOMPARE(cli.exitCode, 2);
        const auto j = nlohmann::json::parse(cli.out.toStdString(), nullptr, false);
        QVERIFY2(!j.is_discarded(), cli.out.constData());
        QCOMPARE(j["pairs_unreadable"].get<uint64_t>(), uint64_t(unreadable.size()));
        QCOMPARE(j["unreadable"][0]["first"]["frame_a"].get<int32_t>(), unreadable.front());
        QCOMPARE(j["first_divergence"]["frame_a"].get<int32_t>(), 70);
    }

    void cliExitCodes_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("perturbed");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("identical") << QStringList{} << false << 0 << "";
        QTest::newRow("diverged") << QStringList{} << true << 1 << "";
        QTest::newRow("within epsilon") << QStringList{"--epsilon", "1", "--ignore", "Name"} << true << 0 << "";
        QTest::newRow("ignored") << QStringList{"--ignore", "Health", "--ignore", "Name"} << true << 0 << "";
        QTest::newRow("bad align") << QStringList{"--align", "nope"} << true << 2 << "bad option --align";
        QTest::newRow("bad epsilon") << QStringList{"--epsilon", "-1"} << true << 2 << "bad option --epsilon";
        QTest::newRow("missing value") << QStringList{"--offset"} << true << 2 << "needs a value";
    }
    void cliExitCodes()
    {
        QFETCH(QStringList, extra);
        QFETCH(bool, perturbed);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrHas);
        const QString a = QString::fromStdString(writeReplay(m_dir, "base.vtx", {}));
        const QString b = perturbed ? QString::fromStdString(goldenB()) : a;
        const Run r = runCli(QStringList{"diverge", a, b} + extra);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(stderrHas.toUtf8()), r.err.constData());
        if (exitCode < 2)
            QVERIFY(!r.out.isEmpty());
    }

    void cliErrors()
    {
        const QString a = QString::fromStdString(writeReplay(m_dir, "base.vtx", {}));
        Run r = runCli({"diverge", a});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("diverge takes two files"));
        r = runCli({"diverge", a, "/nonexistent/b.vtx"});
        QCOMPARE(r.exitCode, 2); // not 1: that means "diverged"
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("/nonexistent/b.vtx"), r.err.constData());
        r = runCli({"diverge", "--baseline", a, a, "--skip-unreadable"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--skip-unreadable belongs to diverge A B"), r.err.constData());
    }

    void cliGoldenJson()
    {
        const QString a = QString::fromStdString(writeReplay(m_dir, "base.vtx", {}));
        const QString b = QString::fromStdString(goldenB());
        const Run r = runCli({"diverge", a, b, "--json", "--epsilon", "0.01"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.isEmpty());
        auto ours = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY(!ours.is_discarded());
        QCOMPARE(ours["a"].get<std::string>(), a.toStdString());
        ours.erase("a"); // temporary paths
        ours.erase("b");
        const QString path = QString::fromStdString(vtxtest::sourceDir()) + "/tests/golden/diverge_perturbed.json";
        if (qgetenv("VTXSCOPE_UPDATE_GOLDEN") == "1") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(ours.dump(1) + "\n"));
        }
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path + " missing (run with VTXSCOPE_UPDATE_GOLDEN=1 to create)"));
        const auto expected = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        QVERIFY(!expected.is_discarded());
        const auto d = vtxtest::jsonDiff(ours, expected);
        QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
    }

    // Issue 26 8i: a property's count of "frames" is frames, and entity-frames are said as
    // such: all three players' Health differs at frames 40 and 41 -> 2 frames, 6 entity-frames.
    void cliCountsFramesAndEntityFrames()
    {
        const QString a = QString::fromStdString(writeReplay(m_dir, "base.vtx", {}));
        ReplaySpec spec;
        spec.perturb = [](int32_t f, int, PropertyContainerData& c) {
            if (f == 40 || f == 41)
                health(c) += 1;
        };
        const QString b = QString::fromStdString(writeReplay(m_dir, "all_players.vtx", spec));
        Run r = runCli({"diverge", a, b, "--json"});
        QCOMPARE(r.exitCode, 1);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["properties"].size(), size_t(1));
        QCOMPARE(j["properties"][0]["frames"].get<int>(), 2);
        QCOMPARE(j["properties"][0]["entity_frames"].get<int>(), 6);
        QCOMPARE(j["divergent_frames"].size(), size_t(2));
        // Each entity of the first divergent frame named by its label (the schema's Name).
        QCOMPARE(j["first_divergence"]["entities"][1]["display_name"].get<std::string>(), std::string("player_1"));
        r = runCli({"diverge", a, b});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("Player.Health: 2 frames, 6 entity-frames"), r.out.constData());
        QVERIFY2(!r.out.contains(" 6 frames"), r.out.constData());
    }

private:
    /// B for the CLI tests: Health of p1 0.5 lower at frames 30..32, Name of p2 changed at 31.
    std::string goldenB()
    {
        ReplaySpec spec;
        spec.perturb = [](int32_t f, int p, PropertyContainerData& c) {
            if (f >= 30 && f <= 32 && p == 1)
                health(c) -= 0.5f;
            if (f == 31 && p == 2)
                c.strings[0] = "renamed";
        };
        return writeReplay(m_dir, "golden_b.vtx", spec);
    }
};

QTEST_GUILESS_MAIN(TestDiverge)
#include "tst_diverge.moc"
