// SPDX-License-Identifier: MIT
// diverge()'s identical-chunk fast path (chunks stored byte for byte the same in both files,
// paired frame for frame, are neither decoded nor compared) must give the report the slow path
// gives, on pairs where it applies and where it must not (other chunk sizes, an offset, another
// backend); and the viewer's hooks: progress posts add up to the report, cancel stops the run.

#include "PlayerReplays.hpp"
#include "TestSupport.hpp"

#include "vtx/diff/Diverge.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace vtx;

namespace {

struct Spec {
    Backend backend = Backend::FlatBuffers;
    int chunkFrames = 16;
    int perturbFrom = -1; ///< Health of p1 + 1 from this frame on (-1: never)
    int perturbOnly = -1; ///< Position.x of p2 + 0.25 on this frame only
};

/// 150 frames of the three players (tests/support/PlayerReplays.hpp) with the spec's changes.
std::string writeReplay(const QTemporaryDir& dir, const std::string& name, const Spec& spec)
{
    vtxtest::players::ReplaySpec players;
    players.backend = spec.backend;
    players.frames = 150;
    players.chunkFrames = spec.chunkFrames;
    players.perturb = [spec](int32_t f, int p, PropertyContainerData& c) {
        if (p == 1 && spec.perturbFrom >= 0 && f >= spec.perturbFrom)
            vtxtest::players::health(c) += 1.0f;
        if (p == 2 && f == spec.perturbOnly)
            c.vectors[0].x += 0.25;
    };
    return vtxtest::players::writeReplay(dir, name, players);
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
        o.progress = [&](const DivergeProgress& progress) {
            QVERIFY(progress.pairsDone >= lastDone);
            lastDone = progress.pairsDone;
            total = progress.pairsTotal;
            ++calls;
            seen.insert(seen.end(), progress.divergent.begin(), progress.divergent.end());
            QVERIFY(progress.unreadable.empty());
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
