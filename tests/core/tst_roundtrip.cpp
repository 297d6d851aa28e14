// SPDX-License-Identifier: MIT
// The writer and the reader together: every property kind, several buckets, both backends,
// read back value for value; and the fixture generator's output in both backends.

#include "TestSupport.hpp"
#include "vtx/file/ReplayWriter.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/integrity/Validate.hpp"
#include "vtxgen/Generator.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <random>

using namespace vtx;

namespace {

class RandomData {
public:
    explicit RandomData(uint32_t seed) : m_rng(seed) { }

    PropertyContainerData container(int32_t typeId, int depth)
    {
        PropertyContainerData c;
        c.typeId = typeId;
        c.bools = list<uint8_t>([&] { return uint8_t(m_rng() & 1); });
        c.int32s = list<int32_t>([&] { return int32_t(m_rng()); });
        c.int64s = list<int64_t>([&] { return int64_t(uint64_t(m_rng()) << 32 | m_rng()); });
        c.floats = list<float>([&] { return float(real()); });
        c.doubles = list<double>([&] { return real() * 1e100; });
        c.strings = list<std::string>([&] { return str(); });
        c.transforms = list<Transform>([&] { return Transform{vec(), quat(), vec()}; });
        c.vectors = list<Vec3>([&] { return vec(); });
        c.quats = list<Quat>([&] { return quat(); });
        c.ranges = list<FloatRange>([&] { return FloatRange{float(real()), float(real()), float(real())}; });
        flat(c.byteArrays, [&] { return uint8_t(m_rng()); });
        flat(c.int32Arrays, [&] { return int32_t(m_rng()); });
        flat(c.int64Arrays, [&] { return -int64_t(m_rng()) * 1000003; });
        flat(c.floatArrays, [&] { return float(real()); });
        flat(c.doubleArrays, [&] { return real(); });
        flat(c.vectorArrays, [&] { return vec(); });
        flat(c.quatArrays, [&] { return quat(); });
        flat(c.transformArrays, [&] { return Transform{vec(), quat(), vec()}; });
        flat(c.rangeArrays, [&] { return FloatRange{1, 2, float(real())}; });
        flat(c.boolArrays, [&] { return uint8_t(m_rng() & 1); });
        flat(c.stringArrays, [&] { return str(); });
        if (depth < 2) {
            c.structs = list<PropertyContainerData>([&] { return container(typeId + 1, depth + 1); }, 2);
            flat(
                c.structArrays, [&] { return container(typeId + 2, depth + 1); }, 2);
            c.maps = list<MapData>([&] { return map(depth); }, 2);
            flat(
                c.mapArrays, [&] { return map(depth); }, 2);
        }
        return c;
    }

    FrameData frame(int index)
    {
        FrameData f;
        f.buckets.resize(3);
        const int n = 2 + int(m_rng() % 5);
        for (int e = 0; e < n; ++e) {
            // Frame 3 has an untyped entity in bucket 0: the writer must keep the bucket as is.
            const int32_t type = (index == 3 && e == 0) ? -1 : int32_t(m_rng() % 3);
            f.buckets[0].uniqueIds.push_back("e" + std::to_string(e));
            f.buckets[0].entities.push_back(container(type, 0));
        }
        f.buckets[1].uniqueIds = {"bone"};
        f.buckets[1].entities.push_back(container(7, 1));
        f.buckets[1].typeRanges = {EntityRange{0, 1}};
        // bucket 2 stays empty
        return f;
    }

private:
    double real() { return std::uniform_real_distribution<double>(-1000, 1000)(m_rng); }
    Vec3 vec() { return {real(), real(), real()}; }
    Quat quat() { return {float(real()), float(real()), float(real()), float(real())}; }
    std::string str()
    {
        static const char* words[] = {"",
                                      "alpha",
                                      "\xce\x94\x65lta", // "Δelta": \x65 is 'e', which a hex escape would swallow
                                      "\xe6\x97\xa5\xe6\x9c\xac",
                                      "x y z",
                                      "long-string-value-0123456789"};
        return words[m_rng() % 6];
    }
    MapData map(int depth)
    {
        MapData m;
        const int n = 1 + int(m_rng() % 3);
        for (int i = 0; i < n; ++i) {
            m.keys.push_back("k" + std::to_string(i));
            m.values.push_back(container(9, depth + 1));
        }
        return m;
    }
    template <class T, class Gen> std::vector<T> list(Gen gen, int max = 4)
    {
        std::vector<T> v(m_rng() % uint32_t(max + 1));
        for (auto& x : v)
            x = gen();
        return v;
    }
    template <class T, class Gen> void flat(FlatArray<T>& a, Gen gen, int max = 3)
    {
        const int subs = int(m_rng() % uint32_t(max + 1));
        for (int s = 0; s < subs; ++s) {
            // Sub-array 0 is never empty: writers omit a FlatArray whose data is empty (§6.4).
            std::vector<T> items(size_t(s == 0 ? 1 : 0) + m_rng() % 3);
            for (auto& x : items)
                x = gen();
            a.push(items);
        }
    }
    std::mt19937 m_rng;
};

} // namespace

class TestRoundTrip : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string path(const std::string& name) const { return (m_dir.path() + "/" + QString::fromStdString(name)).toStdString(); }

private slots:
    void everyKind_data()
    {
        QTest::addColumn<int>("backend");
        QTest::addColumn<int>("chunkFrames");
        QTest::addColumn<bool>("compress");
        for (Backend b : {Backend::FlatBuffers, Backend::Protobuf}) {
            const char* n = backendName(b);
            QTest::addRow("%s, 1 frame per chunk", n) << int(b) << 1 << true;
            QTest::addRow("%s, 7 frames per chunk", n) << int(b) << 7 << true;
            QTest::addRow("%s, uncompressed", n) << int(b) << 16 << false;
        }
    }

    void everyKind()
    {
        QFETCH(int, backend);
        QFETCH(int, chunkFrames);
        QFETCH(bool, compress);
        ReplayHeader header;
        header.schemaJson = R"({"property_mapping":[]})";
        header.replayName = "round trip";
        WriterOptions opt;
        opt.backend = Backend(backend);
        opt.chunkMaxFrames = chunkFrames;
        opt.compress = compress;
        const std::string file = path("rt.vtx");
        auto w = ReplayWriter::create(file, header, opt);
        VTX_VERIFY_OK(w);
        RandomData gen(42);
        std::vector<FrameData> expected;
        const int frames = 20;
        for (int i = 0; i < frames; ++i) {
            FrameData f = gen.frame(i);
            FrameData e = f;
            groupBucketByType(e.buckets[0]);
            for (auto& b : e.buckets)
                for (auto& c : b.entities)
                    fillContentHashes(c);
            expected.push_back(std::move(e));
            QVERIFY((*w)->addFrame(std::move(f), int64_t(i) * 1000, 5'000'000 + int64_t(i) * 1000).isOk());
        }
        (*w)->addEvent({1.5f, "Kill", "a killed b", {1, 2, 3}, "e1"});
        (*w)->addGapMarker(5);
        (*w)->addSegmentMarker(11);
        auto stats = (*w)->finish();
        VTX_VERIFY_OK(stats);
        QCOMPARE(stats->frames, frames);

        auto r = ReplayFile::open(file);
        VTX_VERIFY_OK(r);
        QCOMPARE((*r)->frameCount(), frames);
        QCOMPARE((*r)->chunks().size(), size_t((frames + chunkFrames - 1) / chunkFrames));
        QCOMPARE((*r)->header().replayName, header.replayName);
        QCOMPARE((*r)->header().replayUuid, std::string("uuid_placeholder"));
        QCOMPARE((*r)->footer().events.size(), size_t(1));
        QCOMPARE((*r)->footer().events[0], (TimelineEvent{1.5f, "Kill", "a killed b", {1, 2, 3}, "e1"}));
        QCOMPARE((*r)->footer().times.gaps, std::vector<uint32_t>{5});
        QCOMPARE((*r)->footer().times.segments, std::vector<uint32_t>{11});
        QCOMPARE((*r)->gameTimeTicks(7), int64_t(7000));
        QCOMPARE((*r)->createdUtcTicks(7), int64_t(5'007'000));
        QCOMPARE((*r)->footer().durationSeconds, float(19000 / 1e7));
        QCOMPARE((*r)->headerBlob().zstd, false); // shorter than 512 bytes: stored raw
        for (int i = 0; i < frames; ++i) {
            auto h = (*r)->frame(i);
            VTX_VERIFY_OK(h);
            const FrameData got = toData(h->view());
            QVERIFY2(got == expected[size_t(i)], ("frame " + std::to_string(i) + " differs").c_str());
        }
        // Frame 3 kept its untyped entity and got no type_ranges; the others are grouped by type.
        QVERIFY(expected[3].buckets[0].typeRanges.empty());
        QVERIFY(!expected[0].buckets[0].typeRanges.empty());
        const ValidationReport report = validate(**r);
        QVERIFY2(report.problems.empty(), report.problems.empty() ? "" : report.problems[0].message.c_str());
        QCOMPARE(report.hashMismatches, size_t(0));
    }

    void generatedReplaysAgree_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("frames");
        QTest::newRow("demo") << "demo" << 600;
        QTest::newRow("cs2") << "cs2" << 300;
        QTest::newRow("rl") << "rl" << 900;
    }

    // The generator writes the same replay in both backends: identical values frame by frame.
    void generatedReplaysAgree()
    {
        QFETCH(QString, kind);
        QFETCH(int, frames);
        vtxgen::GeneratorOptions o;
        o.kind = *vtxgen::kindFromName(kind.toStdString());
        o.frames = frames;
        o.zstdLevel = 3;
        o.chunkFrames = 128;
        o.backend = Backend::FlatBuffers;
        VTX_VERIFY_OK(vtxgen::generateReplay(path("g.fbs.vtx"), o));
        o.backend = Backend::Protobuf;
        VTX_VERIFY_OK(vtxgen::generateReplay(path("g.proto.vtx"), o));
        auto a = ReplayFile::open(path("g.fbs.vtx"));
        auto b = ReplayFile::open(path("g.proto.vtx"));
        VTX_VERIFY_OK(a);
        VTX_VERIFY_OK(b);
        QCOMPARE((*a)->frameCount(), frames);
        QCOMPARE((*a)->footer().times, (*b)->footer().times);
        QCOMPARE((*a)->footer().events, (*b)->footer().events);
        QVERIFY(!(*a)->footer().times.gaps.empty());
        QVERIFY(!(*a)->footer().times.segments.empty());
        if (kind != "rl")
            QVERIFY(!(*a)->footer().events.empty());
        QCOMPARE((*a)->schema().structs().size(), (*b)->schema().structs().size());
        for (int i = 0; i < frames; ++i) {
            auto fa = (*a)->frame(i);
            auto fb = (*b)->frame(i);
            VTX_VERIFY_OK(fa);
            VTX_VERIFY_OK(fb);
            QVERIFY2(toData(fa->view()) == toData(fb->view()), ("frame " + std::to_string(i)).c_str());
        }
        for (auto* f : {&a, &b}) {
            const ValidationReport report = validate(***f);
            for (const auto& p : report.problems)
                QVERIFY2(p.severity == Problem::Severity::Info, p.message.c_str()); // the schema's notes, nothing wrong
            QCOMPARE(report.hashMismatches, size_t(0));
        }
    }

    // The committed demo replay is exactly what the generator makes from its seed.
    void demoFixtureIsReproducible()
    {
        const std::string committed = vtxtest::sourceDir() + "/fixtures/demo.vtx";
        QVERIFY(QFileInfo::exists(QString::fromStdString(committed)));
        VTX_VERIFY_OK(vtxgen::generateReplay(path("demo.vtx"), vtxgen::GeneratorOptions{}));
        QFile a(QString::fromStdString(committed)), b(QString::fromStdString(path("demo.vtx")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY2(a.readAll() == b.readAll(), "fixtures/demo.vtx differs from `vtxscope-cli generate demo` output");
        QVERIFY(a.size() <= qint64(2) * 1024 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "tst_roundtrip.moc"
