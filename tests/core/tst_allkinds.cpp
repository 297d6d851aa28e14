// SPDX-License-Identifier: MIT
// Every property kind, from files written by an independent implementation of the spec.

#include "TestSupport.hpp"
#include "vtx/file/GameClock.hpp"
#include "vtx/integrity/Validate.hpp"

#include <QtTest>

#include <set>

using namespace vtx;

class TestAllKinds : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { VTX_REQUIRE_SAMPLES(); }

    void expectedFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("frame");
        for (const char* file : {"allkinds_fbs.vtx", "allkinds_proto.vtx"})
            for (int frame : {0, 450, 899})
                QTest::addRow("%s@%d", file, frame) << file << frame;
    }

    void expectedFrames()
    {
        QFETCH(QString, file);
        QFETCH(int, frame);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        auto handle = (*f)->frame(frame);
        VTX_VERIFY_OK(handle);
        nlohmann::json ours = vtxtest::toPlain(frameJson(**f, *handle));
        nlohmann::json expected = vtxtest::loadJson(vtxtest::samplePath("allkinds_expected/frame_" + std::to_string(frame) + ".json"));
        QVERIFY(!expected.is_discarded());
        for (const char* k : {"file", "float_format"})
            expected.erase(k);
        ours.erase("file");
        const auto wrongNames = vtxtest::takeDisplayNames(ours); // ours only: labels, each one of the entity's values
        QVERIFY2(wrongNames.empty(), vtxtest::joinDiff(wrongNames).c_str());
        // The expected files name only what the schema names; the rest (byte arrays, ranges,
        // range arrays, map arrays) is under "unnamed": every Hero stores a range, some
        // Monsters range arrays.
        const auto unnamed = vtxtest::takeUnnamed(ours);
        QCOMPARE(ours["integrity"]["damaged"].get<int>(), 0); // ours only: every stored hash checked
        ours.erase("integrity");
        // The expected files were written from the FlatBuffers file; UTC times are the same in both.
        const auto d = vtxtest::jsonDiff(ours, expected);
        QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
        size_t heroes = 0;
        for (const auto& b : ours["buckets"])
            for (size_t e = 0; e < b["entities"].size(); ++e) {
                const auto& ent = b["entities"][e];
                if (ent["type_name"] != "Hero")
                    continue;
                ++heroes;
                const std::string path = "$.buckets[" + std::to_string(b["index"].get<int>()) + "].entities[" + std::to_string(e) + "]";
                QVERIFY2(unnamed.count(path) && unnamed.at(path).contains("range_properties"), path.c_str());
            }
        QVERIFY(heroes > 0);
        const std::set<std::string> allowed{"byte_array_properties", "range_properties", "range_arrays", "map_arrays"};
        for (const auto& [path, u] : unnamed)
            for (auto it = u.begin(); it != u.end(); ++it)
                QVERIFY2(allowed.count(it.key()) && !it.value().empty(), (path + " " + it.key()).c_str());
    }

    void timelineAndValidation_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("flatbuffers") << "allkinds_fbs.vtx";
        QTest::newRow("protobuf") << "allkinds_proto.vtx";
    }

    void timelineAndValidation()
    {
        QFETCH(QString, file);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        const ReplayFooter& footer = (*f)->footer();
        QCOMPARE(footer.totalFrames, 900);
        QCOMPARE(footer.events.size(), size_t(15));
        QCOMPARE(footer.times.gaps, (std::vector<uint32_t>{301, 601}));
        QCOMPARE(footer.times.segments, (std::vector<uint32_t>{451}));
        for (const TimelineEvent& e : footer.events) {
            QVERIFY(!e.type.empty());
            QVERIFY(e.gameTimeSeconds >= 0 && e.gameTimeSeconds <= 900.0f / 60.0f * 10);
        }
        QCOMPARE((*f)->schema().bucketNames().size() >= 2, true);
        const ValidationReport r = validate(**f);
        QCOMPARE(r.hashMismatches, size_t(0));
        QCOMPARE(r.chunksFailed, size_t(0));
        QCOMPARE(r.framesChecked, int64_t(900));
    }

    // Byte arrays are not addressable by name but must survive decoding in both backends.
    void backendsAgreeOnRawMembers()
    {
        auto a = ReplayFile::open(vtxtest::samplePath("allkinds_fbs.vtx"));
        auto b = ReplayFile::open(vtxtest::samplePath("allkinds_proto.vtx"));
        VTX_VERIFY_OK(a);
        VTX_VERIFY_OK(b);
        for (int32_t frame : {0, 123, 450, 777, 899}) {
            auto fa = (*a)->frame(frame);
            auto fb = (*b)->frame(frame);
            VTX_VERIFY_OK(fa);
            VTX_VERIFY_OK(fb);
            QVERIFY2(toData(fa->view()) == toData(fb->view()), ("frame " + std::to_string(frame)).c_str());
        }
    }

    // The game clock restarts at frame 450 of allkinds (7.483 s → 5.5 s: a segment). A time
    // maps to the first run that spans it; playing on from frame 440 goes through every frame
    // of the new run; a time past the end is the last frame.
    void gameClockAcrossASegment_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("flatbuffers") << "allkinds_fbs.vtx";
        QTest::newRow("protobuf") << "allkinds_proto.vtx";
    }
    void gameClockAcrossASegment()
    {
        QFETCH(QString, file);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        const std::vector<int64_t>& t = (*f)->footer().times.gameTime;
        QCOMPARE(int(t.size()), (*f)->frameCount());
        const GameClock clock(t);
        QCOMPARE(int(clock.runs().size()), 2);
        QCOMPARE(clock.runs()[1].first, 450);
        QVERIFY(t[450] < t[449]);
        // Every frame's own time finds a frame with that time, the first such in frame order.
        for (int32_t frame = 0; frame < clock.frameCount(); ++frame) {
            const int32_t found = clock.frameAt(t[size_t(frame)]);
            QCOMPARE(t[size_t(found)], t[size_t(frame)]);
            QVERIFY(found <= frame);
        }
        QCOMPARE(clock.frameAt(int64_t(6.5 * 1e7)), 390); // in the first run, as 5.5 s is
        QCOMPARE(clock.frameAt(int64_t(5.5 * 1e7)), 330);
        QCOMPARE(clock.frameAt(int64_t(14.5 * 1e7)), clock.frameCount() - 1);
        QCOMPARE(clock.frameAt(-1), 0);
        // Stepping frame by frame never skips one, and each step is the clock's own or, at the
        // restart, the usual one.
        int32_t frame = 440;
        for (int i = 0; i < 40; ++i) {
            const int32_t next = clock.frameAfter(frame, clock.stepAfter(frame));
            QCOMPARE(next, frame + 1);
            frame = next;
        }
        QVERIFY(std::abs(clock.stepAfter(449) - clock.stepAfter(448)) <= 2); // the median step, ~1/60 s
        // Two seconds on from frame 440 land two seconds into the run, not back in the first.
        const int32_t later = clock.frameAfter(440, 20'000'000);
        QVERIFY2(later > 450 && later < 450 + 130, qPrintable(QString::number(later)));
        QCOMPARE(clock.frameAfter(later, -20'000'000), 440);
    }

    void gameClockOfSyntheticTimes_data()
    {
        QTest::addColumn<QVector<qint64>>("ticks");
        QTest::addColumn<qint64>("at");
        QTest::addColumn<int>("frame");
        const QVector<qint64> restart = {0, 10, 20, 30, 5, 15, 25};
        QTest::newRow("inside the first run") << restart << qint64(12) << 1;
        QTest::newRow("tie: the earlier frame") << restart << qint64(15) << 1;
        QTest::newRow("only in the second run") << restart << qint64(3) << 0;
        QTest::newRow("past every run") << restart << qint64(99) << 3;
        QTest::newRow("before every run") << QVector<qint64>{10, 20, 5, 8} << qint64(1) << 2;
        QTest::newRow("standing still") << QVector<qint64>{0, 0, 0, 10} << qint64(0) << 0;
        QTest::newRow("no frame") << QVector<qint64>{} << qint64(0) << -1;
    }
    void gameClockOfSyntheticTimes()
    {
        QFETCH(QVector<qint64>, ticks);
        QFETCH(qint64, at);
        QFETCH(int, frame);
        const GameClock clock(std::vector<int64_t>(ticks.begin(), ticks.end()));
        QCOMPARE(clock.frameAt(at), frame);
        // Spanned: some run's times reach `at` on both sides.
        bool spanned = false;
        for (const GameClock::Run& r : clock.runs())
            spanned = spanned || (at >= ticks[r.first] && at <= ticks[r.last]);
        QCOMPARE(clock.spans(at), spanned);
    }

    // A footer without game times: frames a nominal step apart from 0, one clock for every
    // lookup (the session kept its own 60 fps arithmetic beside it).
    void nominalClockWithoutTimes()
    {
        const int64_t step = GameClock::nominalStep;
        const GameClock clock = GameClock::nominal(10);
        QCOMPARE(clock.frameCount(), 10);
        QCOMPARE(clock.runs().size(), size_t(1));
        QCOMPARE(clock.frameAt(0), 0);
        QCOMPARE(clock.frameAt(3 * step), 3);
        QCOMPARE(clock.frameAt(3 * step + step / 3), 3);
        QCOMPARE(clock.frameAt(4 * step - step / 3), 4);
        QCOMPARE(clock.frameAt(-step), 0);
        QCOMPARE(clock.frameAt(1000 * step), 9);
        QCOMPARE(clock.stepAfter(4), step);
        QCOMPARE(clock.stepAfter(9), step);
        QCOMPARE(clock.frameAfter(2, 3 * step), 5);
        QCOMPARE(clock.frameAfter(2, -5 * step), 0);
        QVERIFY(clock.spans(9 * step) && !clock.spans(9 * step + 1) && !clock.spans(-1));
        QCOMPARE(GameClock::nominal(0).frameAt(0), -1);
        QCOMPARE(GameClock::nominal(0).frameAfter(0, step), 0);
    }
};

QTEST_GUILESS_MAIN(TestAllKinds)
#include "tst_allkinds.moc"
