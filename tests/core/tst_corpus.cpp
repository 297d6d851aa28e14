// SPDX-License-Identifier: MIT
// Replays the fuzz regression corpus (tests/corpus/<target>/, inputs that once crashed or hung a
// fuzz target) through the same target bodies in an ordinary build, plus one generated input
// per target so a broken harness shows up here before it reaches scripts/fuzz.

#include "FuzzTargets.hpp"
#include "TestSupport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtxgen/Generator.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

namespace {

std::vector<uint8_t> readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

const vtxfuzz::Target* targetNamed(const QString& name)
{
    for (const vtxfuzz::Target& t : vtxfuzz::targets())
        if (QString::fromUtf8(t.name.data(), qsizetype(t.name.size())) == name)
            return &t;
    return nullptr;
}

} // namespace

class TestCorpus : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void replay_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QByteArray>("input");
        // Generated inputs: a small replay, one of its chunks, its schema, a pair of its chunks.
        vtxgen::GeneratorOptions o;
        o.frames = 8;
        o.chunkFrames = 4;
        const std::string path = (m_dir.path() + "/seed.vtx").toStdString();
        QVERIFY(vtxgen::generateReplay(path, o).isOk());
        const auto file = readAll(path);
        QTest::newRow("generated open") << "open" << QByteArray(reinterpret_cast<const char*>(file.data()), qsizetype(file.size()));
        auto f = vtx::ReplayFile::open(path);
        QVERIFY(f.isOk());
        auto blob0 = (*f)->readChunkBlob(0);
        auto blob1 = (*f)->readChunkBlob(1);
        QVERIFY(blob0.isOk() && blob1.isOk());
        QByteArray chunk(1, '\0');
        chunk.append(reinterpret_cast<const char*>(blob0->data()), qsizetype(blob0->size()));
        QTest::newRow("generated chunk") << "chunk" << chunk;
        QTest::newRow("generated schema") << "schema" << QByteArray::fromStdString((*f)->header().schemaJson);
        QByteArray pair(1, '\x02');
        const uint32_t n = uint32_t(blob0->size());
        for (int i = 0; i < 4; ++i)
            pair.append(char(uint8_t(n >> (8 * i))));
        pair.append(reinterpret_cast<const char*>(blob0->data()), qsizetype(blob0->size()));
        pair.append(reinterpret_cast<const char*>(blob1->data()), qsizetype(blob1->size()));
        QTest::newRow("generated diff") << "diff" << pair;

        // Regression files found by fuzzing.
        const QDir corpus(QString::fromStdString(vtxtest::sourceDir()) + "/tests/corpus");
        for (const QString& target : corpus.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QVERIFY2(targetNamed(target), qPrintable("tests/corpus/" + target + " names no fuzz target"));
            const QDir dir(corpus.filePath(target));
            for (const QString& name : dir.entryList(QDir::Files)) {
                QFile in(dir.filePath(name));
                QVERIFY(in.open(QIODevice::ReadOnly));
                QTest::newRow(qPrintable(target + "/" + name)) << target << in.readAll();
            }
        }
    }

    void replay()
    {
        QFETCH(QString, target);
        QFETCH(QByteArray, input);
        const vtxfuzz::Target* t = targetNamed(target);
        QVERIFY(t);
        QElapsedTimer clock;
        clock.start();
        t->run(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(input.constData()), size_t(input.size())));
        // A regression that hung would hang here: CTest's timeout ends it. The time is reported,
        // not asserted (a loaded or sanitized machine is slow, not wrong; issue 29).
        if (clock.elapsed() > 5000)
            qInfo("slow corpus input: %s took %lld ms", qPrintable(QTest::currentDataTag()), qint64(clock.elapsed()));
    }
};

QTEST_GUILESS_MAIN(TestCorpus)
#include "tst_corpus.moc"
