// SPDX-License-Identifier: MIT
// The fused frame verifier (FrameVerifier) against the pair it replaces on the hot path:
// flatbuffers::Verifier followed by checkFrameLimits. Same verdict on every frame of the SDK's
// FlatBuffers files and ours, under tight limits, and on thousands of mutated chunks.

#include "TestSupport.hpp"
#include "vtx/file/BlobCodec.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/backend/ChunkLimits.hpp"
#include "vtx/file/backend/FrameVerifier.hpp"
#include "vtxgen/Generator.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <random>

using namespace vtx;

namespace {

struct Verdicts {
    bool fused = false;
    bool reference = false;
};

Verdicts verdicts(const std::vector<uint8_t>& buf, size_t frameAt, const DecodeLimits& limits)
{
    flatbuffers::Verifier::Options opts;
    opts.max_depth = flatbuffers::uoffset_t(std::max<size_t>(limits.maxTableDepth, 2) - 1);
    opts.max_tables = flatbuffers::uoffset_t(std::max<size_t>(buf.size() / 4, 1024));
    Verdicts v;
    v.fused = frameIsValid(buf.data(), buf.size(), frameAt, limits, opts.max_depth, opts.max_tables);
    flatbuffers::Verifier ver(buf.data(), buf.size(), opts);
    const auto* f = reinterpret_cast<const fbsvtx::Frame*>(buf.data() + frameAt);
    v.reference = ver.VerifyTable(f) && checkFrameLimits(*f, limits, "frame").isOk();
    return v;
}

/// Decoded chunk bytes, copied into 8-aligned storage (as decoded chunks are).
std::vector<uint8_t> decodedChunk(const ReplayFile& f, size_t i)
{
    auto blob = f.readChunkBlob(i);
    if (!blob)
        return {};
    auto decoded = decodeBlob(std::move(*blob), size_t(1) << 30, "chunk");
    if (!decoded)
        return {};
    return {decoded->data(), decoded->data() + decoded->size()};
}

std::vector<size_t> framePositions(const std::vector<uint8_t>& buf)
{
    std::vector<size_t> out;
    const auto* root = flatbuffers::GetRoot<fbsvtx::Chunk>(buf.data());
    if (const auto* frames = root->frames())
        for (flatbuffers::uoffset_t i = 0; i < frames->size(); ++i)
            out.push_back(size_t(reinterpret_cast<const uint8_t*>(frames->Get(i)) - buf.data()));
    return out;
}

} // namespace

class TestFrameVerifier : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string generated(vtxgen::Kind kind, int32_t frames, int32_t chunkFrames)
    {
        return vtxtest::generatedReplay(m_dir.path(), kind, Backend::FlatBuffers, frames, chunkFrames);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Every frame of real files, under the default limits and under limits tight enough to reject.
    void sameVerdictOnRealFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("sdkSample");
        QTest::newRow("sdk allkinds") << "allkinds_fbs.vtx" << true;
        QTest::newRow("sdk arena") << "arena_from_fbs_ds.vtx" << true;
        QTest::newRow("demo") << "demo" << false;
        QTest::newRow("cs2-like") << "cs2" << false;
        QTest::newRow("rl-like") << "rl" << false;
    }
    void sameVerdictOnRealFrames()
    {
        QFETCH(QString, file);
        QFETCH(bool, sdkSample);
        std::string path;
        if (sdkSample) {
            VTX_REQUIRE_SAMPLES();
            path = vtxtest::samplePath(file.toStdString());
        } else {
            const auto kind = *vtxgen::kindFromName(file.toStdString());
            path = generated(kind, kind == vtxgen::Kind::Demo ? 0 : 120, 0);
        }
        auto f = ReplayFile::open(path);
        VTX_VERIFY_OK(f);
        QCOMPARE((*f)->backend(), Backend::FlatBuffers);
        std::vector<DecodeLimits> limits(5);
        limits[1].maxStringBytes = 8;
        limits[2].maxEntitiesPerBucket = 3;
        limits[3].maxTableDepth = 5;
        limits[4].maxTableDepth = 3;
        size_t accepted = 0, rejected = 0;
        for (size_t c = 0; c < (*f)->chunks().size(); ++c) {
            const auto buf = decodedChunk(**f, c);
            QVERIFY(!buf.empty());
            for (size_t at : framePositions(buf))
                for (size_t l = 0; l < limits.size(); ++l) {
                    const Verdicts v = verdicts(buf, at, limits[l]);
                    QVERIFY2(
                        v.fused == v.reference,
                        qPrintable(
                            QString("chunk %1, frame at %2, limits %3: fused %4, reference %5").arg(c).arg(at).arg(l).arg(v.fused).arg(v.reference)));
                    if (l == 0)
                        QVERIFY(v.fused); // the files are good
                    (v.fused ? accepted : rejected)++;
                }
        }
        QVERIFY(rejected > 0); // the tight limits did bite
        qInfo("%zu accepted, %zu rejected", accepted, rejected);
    }

    // Seeded mutations of a small chunk: flipped bits, overwritten words, zeroed runs.
    void sameVerdictOnMutations_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::newRow("bit flips") << "flip";
        QTest::newRow("random words") << "word";
        QTest::newRow("zeroed runs") << "zero";
    }
    void sameVerdictOnMutations()
    {
        QFETCH(QString, mutation);
        auto f = ReplayFile::open(generated(vtxgen::Kind::Demo, 6, 2));
        VTX_VERIFY_OK(f);
        const auto original = decodedChunk(**f, 1);
        QVERIFY(original.size() > 1000);
        const auto frames = framePositions(original);
        QVERIFY(!frames.empty());
        std::mt19937_64 rng(11);
        size_t accepted = 0, rejected = 0;
        for (int k = 0; k < 4000; ++k) {
            std::vector<uint8_t> m = original;
            if (mutation == "flip") {
                for (int n = 0; n < 1 + k % 4; ++n)
                    m[rng() % m.size()] ^= uint8_t(1u << (rng() % 8));
            } else if (mutation == "word") {
                const size_t at = (rng() % (m.size() / 4)) * 4;
                const uint32_t w = k % 2 ? uint32_t(rng()) : uint32_t(rng() % 4096);
                std::memcpy(m.data() + at, &w, 4);
            } else {
                const size_t at = rng() % m.size();
                std::fill(m.begin() + std::ptrdiff_t(at), m.begin() + std::ptrdiff_t(std::min(m.size(), at + 1 + rng() % 64)), 0);
            }
            for (size_t at : frames) {
                const Verdicts v = verdicts(m, at, {});
                QVERIFY2(v.fused == v.reference,
                         qPrintable(
                             QString("%1 case %2, frame at %3: fused %4, reference %5").arg(mutation).arg(k).arg(at).arg(v.fused).arg(v.reference)));
                (v.fused ? accepted : rejected)++;
            }
        }
        qInfo("%zu accepted, %zu rejected", accepted, rejected);
        QVERIFY(rejected > 0);
    }
};

QTEST_GUILESS_MAIN(TestFrameVerifier)
#include "tst_frameverifier.moc"
