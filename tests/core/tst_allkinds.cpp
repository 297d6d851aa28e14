// SPDX-License-Identifier: MIT
// Every property kind, from files written by an independent implementation of the spec.

#include "TestSupport.hpp"
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
};

QTEST_GUILESS_MAIN(TestAllKinds)
#include "tst_allkinds.moc"
