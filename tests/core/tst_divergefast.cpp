// SPDX-License-Identifier: MIT
// diverge()'s identical-chunk fast path (chunks stored byte for byte the same in both files,
// paired frame for frame, are neither decoded nor compared) must give the report the slow path
// gives, on pairs where it applies and where it must not (other chunk sizes, an offset, another
// backend); and the viewer's hooks: progress posts add up to the report, cancel stops the run.

#include "TestSupport.hpp"

#include "vtx/diff/Diverge.hpp"
#include "vtx/file/ReplayWriter.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace vtx;

namespace {

std::string field(const std::string& name, const std::string& type)
{
    return R"({"name":")" + name + R"(","typeId":")" + type + R"(","containerType":"None","structType":"","keyId":"None"})";
}

struct Spec {
    Backend backend = Backend::FlatBuffers;
    int chunkFrames = 16;
    int perturbFrom = -1; ///< Health of p1 + 1 from this frame on (-1: never)
    int perturbOnly = -1; ///< Position.x of p2 + 0.25 on this frame only
};

std::string writeReplay(const QTemporaryDir& dir, const std::string& name, const Spec& spec)
{
    std::string path = dir.path().toStdString() + "/" + name;
    ReplayHeader header;
    header.schemaJson = R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + field("Position", "Vector") + "," +
        field("Health", "Float") + "," + field("Name", "String") + "]}]}";
    header.replayName = "run"; // the same in both files: the header is not compared, but keep them alike
    WriterOptions wo;
    wo.backend = spec.backend;
    wo.chunkMaxFrames = spec.chunkFrames;
    auto w = ReplayWriter::create(path, header, wo);
    if (!w)
        qFatal("%s", w.message().c_str());
    for (int f = 0; f < 150; ++f) {
        FrameData frame;
        BucketData bucket;
        for (int p = 0; p < 3; ++p) {
            PropertyContainerData c;
            c.typeId = 0;
            c.vectors = {Vec3{double(f) + p, double(f % 7), double(p)}};
            c.floats = {100.0f - float(f % 50) - float(p)};
            c.strings = {"player_" + std::to_string(p)};
            if (p == 1 && spec.perturbFrom >= 0 && f >= spec.perturbFrom)
                c.floats[0] += 1.0f;
            if (p == 2 && f == spec.perturbOnly)
                c.vectors[0].x += 0.25;
            bucket.uniqueIds.push_back("p" + std::to_string(p));
            bucket.entities.push_back(std::move(c));
        }
        frame.buckets.push_back(std::move(bucket));
        const int64_t t = int64_t(f) * kTicksPerSecond / 60;
        if (Status st = (*w)->addFrame(std::move(frame), t, t); !st)
            qFatal("%s", st.message().c_str());
    }
    if (auto s = (*w)->finish(); !s)
        qFatal("%s", s.message().c_str());
    return path;
}

} // namespace

Q_DECLARE_METATYPE(Spec)

class TestDivergeFast : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_n = 0;

private slots:
    void fastPathGivesTheSlowPathsReport_data()
    {
        QTest::addColumn<Spec>("a");
        QTest::addColumn<Spec>("b");
        QTest::addColumn<int>("alignment");
        QTest::addColumn<qlonglong>("offset");
        QTest::addColumn<bool>("skips"); ///< the fast path applies to some chunks
        const Spec plain;
        Spec from70 = plain;
        from70.perturbFrom = 70;
        Spec onlyAt47 = plain; // the last frame of chunk 2 (frames 32–47)
        onlyAt47.perturbOnly = 47;
        Spec proto = plain;
        proto.backend = Backend::Protobuf;
        Spec protoFrom70 = from70;
        protoFrom70.backend = Backend::Protobuf;
        Spec chunks20 = from70;
        chunks20.chunkFrames = 20;
        QTest::newRow("identical") << plain << plain << int(Alignment::Frame) << 0LL << true;
        QTest::newRow("diverge from 70") << plain << from70 << int(Alignment::Frame) << 0LL << true;
        QTest::newRow("one frame at a chunk's end") << plain << onlyAt47 << int(Alignment::Frame) << 0LL << true;
        QTest::newRow("protobuf, diverge from 70") << proto << protoFrom70 << int(Alignment::Frame) << 0LL << true;
        QTest::newRow("by time, diverge from 70") << plain << from70 << int(Alignment::Time) << 0LL << true;
        QTest::newRow("other chunk size") << plain << chunks20 << int(Alignment::Frame) << 0LL << false;
        QTest::newRow("offset 1") << plain << from70 << int(Alignment::Frame) << 1LL << false;
        QTest::newRow("fbs against protobuf") << plain << protoFrom70 << int(Alignment::Frame) << 0LL << false;
    }
    void fastPathGivesTheSlowPathsReport()
    {
        QFETCH(Spec, a);
        QFETCH(Spec, b);
        QFETCH(int, alignment);
        QFETCH(qlonglong, offset);
        QFETCH(bool, skips);
        const std::string pa = writeReplay(m_dir, "a" + std::to_string(m_n) + ".vtx", a);
        const std::string pb = writeReplay(m_dir, "b" + std::to_string(m_n++) + ".vtx", b);
        auto fa = ReplayFile::open(pa), fb = ReplayFile::open(pb);
        QVERIFY(fa && fb);
        DivergeOptions fast;
        fast.alignment = Alignment(alignment);
        fast.offset = offset;
        DivergeOptions slow = fast;
        slow.skipIdenticalChunks = false;
        auto rf = diverge(**fa, **fb, fast);
        auto rs = diverge(**fa, **fb, slow);
        QVERIFY2(rf, rf ? "" : rf.message().c_str());
        QVERIFY2(rs, rs ? "" : rs.message().c_str());
        QCOMPARE(rs->identicalChunks, uint64_t(0));
        QCOMPARE(rf->identicalChunks > 0, skips);
        QCOMPARE(QString::fromStdString(divergeJson(*rf, "a", "b").dump(1)), QString::fromStdString(divergeJson(*rs, "a", "b").dump(1)));
    }

    // The viewer's lane fills in from the progress posts: together they are the report's pairs,
    // and the last one has compared every pair.
    void progressAddsUpToTheReport()
    {
        Spec from70;
        from70.perturbFrom = 70;
        auto fa = ReplayFile::open(writeReplay(m_dir, "pa.vtx", {})), fb = ReplayFile::open(writeReplay(m_dir, "pb.vtx", from70));
        QVERIFY(fa && fb);
        std::vector<PairDivergence> seen;
        uint64_t lastDone = 0, calls = 0, total = 0;
        DivergeOptions o;
        o.progress = [&](uint64_t done, uint64_t all, const PairDivergence* fresh, size_t n) {
            QVERIFY(done >= lastDone);
            lastDone = done;
            total = all;
            ++calls;
            seen.insert(seen.end(), fresh, fresh + n);
        };
        auto r = diverge(**fa, **fb, o);
        QVERIFY(r);
        QCOMPARE(lastDone, r->pairsCompared);
        QCOMPARE(total, r->pairsCompared);
        QVERIFY(calls > 1); // chunk by chunk, not only at the end
        QCOMPARE(seen.size(), r->divergentPairs.size());
        for (size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].frames, r->divergentPairs[i].frames);
            QCOMPARE(seen[i].properties, r->divergentPairs[i].properties);
        }
    }

    void cancelStops()
    {
        auto fa = ReplayFile::open(writeReplay(m_dir, "ca.vtx", {})), fb = ReplayFile::open(writeReplay(m_dir, "cb.vtx", {}));
        QVERIFY(fa && fb);
        std::atomic<bool> cancel{true};
        DivergeOptions o;
        o.cancel = &cancel;
        auto r = diverge(**fa, **fb, o);
        QVERIFY(!r);
        QCOMPARE(r.code(), Errc::Superseded);
    }
};

QTEST_MAIN(TestDivergeFast)
#include "tst_divergefast.moc"
