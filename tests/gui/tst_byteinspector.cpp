// SPDX-License-Identifier: MIT
// The inspector's byte data: the hex dump model, the byte view's readings, and the property
// tree's blob and unnamed rows on the SDK's CS-like replay (bone payloads stored by the SDK's
// blob convention) and the every-kind file (ranges, byte and map arrays no schema names).

#include "TestSupport.hpp"
#include "entities/ByteInspector.hpp"
#include "entities/HexDumpModel.hpp"
#include "entities/PropertyTreeModel.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace vtxw;

class TestByteInspector : public QObject {
    Q_OBJECT

    static QByteArray sample()
    {
        QByteArray b;
        for (int i = 0; i < 40; ++i)
            b.append(char(i * 7));
        return b;
    }

private slots:
    void hexDumpLayout()
    {
        HexDumpModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setBytes(sample());
        QCOMPARE(m.rowCount(), 3); // 40 bytes: 16 + 16 + 8
        QCOMPARE(m.columnCount(), 18);
        QCOMPARE(m.index(0, HexDumpModel::OffsetColumn).data().toString(), QString("000000"));
        QCOMPARE(m.index(1, HexDumpModel::OffsetColumn).data().toString(), QString("000010"));
        QCOMPARE(m.index(0, HexDumpModel::FirstByteColumn + 3).data().toString(), QString("15")); // 3 * 7 = 0x15
        QVERIFY(!m.index(2, HexDumpModel::FirstByteColumn + 8).data().isValid()); // past the end
        QCOMPARE(m.indexOfOffset(17), m.index(1, HexDumpModel::FirstByteColumn + 1));
        QCOMPARE(m.indexOfOffset(17).data(HexDumpModel::OffsetRole).toLongLong(), 17);
        QCOMPARE(m.index(0, HexDumpModel::AsciiColumn).data().toString().size(), 16);
    }

    void sameLengthUpdatesOnlyChangedRows()
    {
        HexDumpModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setBytes(sample());
        QSignalSpy resets(&m, &QAbstractItemModel::modelReset), changes(&m, &QAbstractItemModel::dataChanged);
        QByteArray next = sample();
        next[20] = 'x';
        m.setBytes(next);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes[0][0].toModelIndex().row(), 1);
        QCOMPARE(changes[0][1].toModelIndex().row(), 1);
        next.append('!');
        m.setBytes(next);
        QCOMPARE(resets.size(), 1);
    }

    void readingsAtTheSelectedOffset()
    {
        ByteInspector w;
        QByteArray b(12, '\0');
        const float f = 1.5f;
        std::memcpy(b.data() + 4, &f, 4);
        b[0] = char(0xff);
        b[1] = char(0x7f);
        w.setBytes("payload", b);
        w.selectOffset(0);
        QVERIFY2(w.readingsText().contains(QRegularExpression("int16 +32767")), qPrintable(w.readingsText()));
        QVERIFY(w.readingsText().contains(QRegularExpression("int8 +-1")));
        QVERIFY(w.readingsText().contains(QRegularExpression("uint8 +255")));
        w.selectOffset(4);
        QVERIFY2(w.readingsText().contains(QRegularExpression("float32 +1.5")), qPrintable(w.readingsText()));
        QVERIFY(!w.readingsText().contains(QRegularExpression("float64 +—"))); // bytes 4..11 fit
        w.selectOffset(6);
        QVERIFY(w.readingsText().contains(QRegularExpression("float64 +—"))); // 6 + 8 > 12
        w.selectOffset(10);
        QVERIFY(w.readingsText().contains(QRegularExpression("int32 +—"))); // runs past the end
        QCOMPARE(w.selectedOffset(), 10);
        // The same length again (a scrubbed payload): the offset stays.
        w.setBytes("payload", b);
        QCOMPARE(w.selectedOffset(), 10);
    }

    void blobAndUnnamedRows_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("frame");
        QTest::newRow("sdk_cs_fbs") << "sdk_cs_fbs.vtx" << 200;
        QTest::newRow("sdk_cs_proto") << "sdk_cs_proto.vtx" << 200;
    }

    void blobAndUnnamedRows()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        QFETCH(int, frame);
        auto f = vtx::ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        auto h = (*f)->frame(frame);
        VTX_VERIFY_OK(h);
        const vtx::BucketView bones = h->view().bucket(1);
        PropertyTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setContainer(bones.entity(0), &(*f)->schema());
        const QModelIndex payload = m.indexOfPath("BonePayload");
        QVERIFY(payload.isValid());
        QVERIFY(payload.data(PropertyTreeModel::BlobRole).toBool());
        const QByteArray bytes = payload.data(PropertyTreeModel::BytesRole).toByteArray();
        QCOMPARE(size_t(bytes.size()), bones.entity(0).byteArrays().at(0).size());
        QVERIFY(bytes.size() > 1000);
        QVERIFY2(payload.siblingAtColumn(PropertyTreeModel::ValueColumn).data().toString().contains("blob in byte_array_properties[0]"),
                 qPrintable(payload.siblingAtColumn(PropertyTreeModel::ValueColumn).data().toString()));
        // Nothing else of a bone entity is unnamed: no "Unnamed fields" row.
        QVERIFY(!m.indexOfPath("#unnamed").isValid());
        // The next frame's payload differs (its text does not: "1,808 bytes"): against frame N−1
        // the row is marked changed, without a reset.
        QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
        auto next = (*f)->frame(frame + 1);
        VTX_VERIFY_OK(next);
        m.setContainer(next->view().bucket(1).entity(0), &(*f)->schema(), bones.entity(0));
        QCOMPARE(resets.size(), 0);
        QVERIFY(m.indexOfPath("BonePayload").data(PropertyTreeModel::ChangedRole).toBool());
        QVERIFY(!m.indexOfPath("Identifier").data(PropertyTreeModel::ChangedRole).toBool());
    }

    void unnamedFieldsRow()
    {
        VTX_REQUIRE_SAMPLES();
        auto f = vtx::ReplayFile::open(vtxtest::samplePath("allkinds_fbs.vtx"));
        VTX_VERIFY_OK(f);
        auto h = (*f)->frame(0);
        VTX_VERIFY_OK(h);
        const vtx::BucketView b = h->view().bucket(0);
        const vtx::Schema& schema = (*f)->schema();
        size_t hero = b.entityCount();
        for (size_t i = 0; i < b.entityCount(); ++i)
            if (schema.structById(b.entity(i).typeId()) && schema.structById(b.entity(i).typeId())->name == "Hero")
                hero = i;
        QVERIFY(hero < b.entityCount());
        PropertyTreeModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setContainer(b.entity(hero), &schema);
        const QModelIndex unnamed = m.indexOfPath("#unnamed");
        QVERIFY(unnamed.isValid());
        QVERIFY(unnamed.data().toString().startsWith("Unnamed fields ("));
        QVERIFY(unnamed.data(PropertyTreeModel::UnnamedRole).toBool());
        QStringList names;
        for (int r = 0; r < m.rowCount(unnamed); ++r)
            names << m.index(r, 0, unnamed).data().toString();
        QVERIFY2(names.contains("range_properties[0]"), qPrintable(names.join(", ")));
        QCOMPARE(unnamed.data().toString(), QString("Unnamed fields (%1)").arg(m.rowCount(unnamed)));
        const QModelIndex range = m.indexOfPath("#unnamed.range_properties[0]");
        QVERIFY(range.isValid());
        QCOMPARE(m.rowCount(range), 3); // min, max, value_normalized
    }
};

QTEST_MAIN(TestByteInspector)
#include "tst_byteinspector.moc"
