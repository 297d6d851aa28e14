// SPDX-License-Identifier: MIT
// content_hash (spec §6.6): the spec's worked example, and the order of its pieces.

#include "TestSupport.hpp"
#include "vtx/integrity/ContentHash.hpp"

#include <QtTest>

using namespace vtx;

class TestContentHash : public QObject {
    Q_OBJECT
private slots:
    void specExample()
    {
        // post_processed.vtx, frame 0, player_0 (Appendix A.5): a 105-byte hash input.
        PropertyContainerData c;
        c.typeId = 0;
        c.bools = {0};
        c.int32s = {1, 0, 0};
        c.floats = {0.0f, 50.0f};
        c.strings = {"player_0", "Player_0"};
        c.vectors = {Vec3{}, Vec3{}};
        c.quats = {Quat{0, 0, 0, 1}};
        QCOMPARE(computeContentHash(c), uint64_t(0xd116d59e5147d0beull));
    }

    void piecesChangeTheHash_data()
    {
        QTest::addColumn<int>("which");
        for (int i = 0; i < 12; ++i)
            QTest::addRow("member %d", i) << i;
    }
    void piecesChangeTheHash()
    {
        QFETCH(int, which);
        PropertyContainerData base;
        base.typeId = 3;
        PropertyContainerData c = base;
        switch (which) {
        case 0: c.typeId = 4; break;
        case 1: c.int64s = {1}; break;
        case 2: c.doubles = {-0.0}; break;
        case 3: c.transforms = {Transform{}}; break;
        case 4: c.ranges = {FloatRange{}}; break;
        case 5: c.byteArrays.push(std::vector<uint8_t>{1}); break;
        case 6: c.structs = {base}; break;
        case 7: c.structArrays.push(std::vector<PropertyContainerData>{base}); break;
        case 8: c.maps = {MapData{{"k"}, {base}}}; break;
        case 9: c.vectorArrays.push(std::vector<Vec3>{Vec3{}}); break;
        case 10: c.boolArrays.push(std::vector<uint8_t>{0}); break;
        case 11: c.stringArrays.push(std::vector<std::string>{"s"}); break;
        }
        QVERIFY(computeContentHash(c) != computeContentHash(base));
    }

    void knownInsensitivities()
    {
        // The hash ignores string boundaries and offsets of empty FlatArrays (spec §6.6).
        PropertyContainerData a, b;
        a.strings = {"ab", "c"};
        b.strings = {"a", "bc"};
        QCOMPARE(computeContentHash(a), computeContentHash(b));
        PropertyContainerData c;
        c.int32Arrays.offsets = {0, 0};
        QCOMPARE(computeContentHash(c), computeContentHash(PropertyContainerData{}));
        // ... but tells +0.0 from -0.0.
        PropertyContainerData p, n;
        p.floats = {0.0f};
        n.floats = {-0.0f};
        QVERIFY(computeContentHash(p) != computeContentHash(n));
    }

    void fillSetsNestedHashes()
    {
        PropertyContainerData child;
        child.typeId = 1;
        child.floats = {2.5f};
        PropertyContainerData parent;
        parent.typeId = 0;
        parent.structs = {child};
        parent.maps = {MapData{{"a"}, {child}}};
        fillContentHashes(parent);
        QCOMPARE(parent.structs[0].contentHash, computeContentHash(child));
        QCOMPARE(parent.maps[0].values[0].contentHash, computeContentHash(child));
        QCOMPARE(parent.contentHash, computeContentHash(parent));
    }
};

QTEST_GUILESS_MAIN(TestContentHash)
#include "tst_contenthash.moc"
