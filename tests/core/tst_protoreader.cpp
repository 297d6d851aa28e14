// SPDX-License-Identifier: MIT
// ProtoChunkReader (Protobuf wire -> FlatBuffers, no libprotobuf) against the libprotobuf-based
// reader it replaced: the same values on every chunk of the SDK's files and ours, the same
// verdict on mutated and hand-encoded wire data.

#include "ProtoReference.hpp"
#include "TestSupport.hpp"
#include "vtx/file/BlobCodec.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/backend/ProtoChunkReader.hpp"
#include "vtxgen/Generator.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstring>
#include <random>

using namespace vtx;

namespace {

/// Both readers on the same bytes: "" when they agree (both reject, or both accept with the same
/// values), otherwise what differs.
std::string disagreement(std::span<const uint8_t> wire, const DecodeLimits& limits = {})
{
    auto ours = flattenProtoChunk(wire, limits, "chunk");
    auto ref = vtxref::flattenWithLibprotobuf(wire, int(limits.maxTableDepth));
    if (!ours && !ref)
        return {};
    if (!ours)
        return "libprotobuf accepts, ProtoChunkReader rejects: " + ours.message();
    if (!ref)
        return "ProtoChunkReader accepts, libprotobuf rejects";
    flatbuffers::Verifier verifier(ours->data(), ours->size());
    if (!verifier.VerifyBuffer<fbsvtx::Chunk>(nullptr))
        return "ProtoChunkReader wrote a FlatBuffer that fails verification";
    const std::string d =
        vtxref::chunkDifference(*flatbuffers::GetRoot<fbsvtx::Chunk>(ours->data()), *flatbuffers::GetRoot<fbsvtx::Chunk>(ref->data()));
    return d.empty() ? d : "values differ at " + d;
}

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

// ---- a minimal wire encoder for hand-made cases ----------------------------------------------

struct Wire {
    std::vector<uint8_t> b;
    Wire& raw(std::initializer_list<uint8_t> bytes)
    {
        b.insert(b.end(), bytes);
        return *this;
    }
    Wire& varint(uint64_t v)
    {
        while (v >= 0x80) {
            b.push_back(uint8_t(v | 0x80));
            v >>= 7;
        }
        b.push_back(uint8_t(v));
        return *this;
    }
    Wire& tag(uint32_t field, int type) { return varint((uint64_t(field) << 3) | uint32_t(type)); }
    Wire& field(uint32_t f, uint64_t v) { return tag(f, 0).varint(v); }
    Wire& msg(uint32_t f, const Wire& m)
    {
        tag(f, 2).varint(m.b.size());
        b.insert(b.end(), m.b.begin(), m.b.end());
        return *this;
    }
    Wire& str(uint32_t f, std::string_view s)
    {
        tag(f, 2).varint(s.size());
        b.insert(b.end(), s.begin(), s.end());
        return *this;
    }
    template <class T> Wire& fixed(uint32_t f, T v)
    {
        tag(f, sizeof(T) == 8 ? 1 : 5);
        uint8_t bytes[sizeof(T)];
        std::memcpy(bytes, &v, sizeof(T));
        b.insert(b.end(), bytes, bytes + sizeof(T));
        return *this;
    }
};

/// A chunk holding one frame, one bucket, one entity with the given container bytes.
Wire chunkWithEntity(const Wire& entity)
{
    Wire bucket;
    bucket.str(1, "entity-0").msg(2, entity);
    Wire frame;
    frame.msg(1, bucket);
    Wire chunk;
    chunk.field(1, 0).msg(4, frame);
    return chunk;
}

} // namespace

class TestProtoReader : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string generated(vtxgen::Kind kind, int32_t frames, int32_t chunkFrames)
    {
        return vtxtest::generatedReplay(m_dir.path(), kind, Backend::Protobuf, frames, chunkFrames);
    }
    /// An SDK sample by its file name (the caller has checked the samples are there), or a replay
    /// of the named kind generated with `frames` frames (0: the kind's default).
    std::string protoReplay(const QString& file, bool sdkSample, int32_t frames)
    {
        return sdkSample ? vtxtest::samplePath(file.toStdString()) : generated(*vtxgen::kindFromName(file.toStdString()), frames, 0);
    }

private slots:
    // Every chunk of the SDK's Protobuf files and of our generated replays (every property kind,
    // maps, nested struct arrays) reads to the same values as with libprotobuf.
    void sameValuesAsLibprotobuf_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("sdkSample");
        QTest::newRow("sdk allkinds") << "allkinds_proto.vtx" << true;
        QTest::newRow("sdk arena") << "arena_from_proto_ds.vtx" << true;
        QTest::newRow("demo") << "demo" << false;
        QTest::newRow("cs2-like") << "cs2" << false;
        QTest::newRow("rl-like") << "rl" << false;
    }
    void sameValuesAsLibprotobuf()
    {
        QFETCH(QString, file);
        QFETCH(bool, sdkSample);
        if (sdkSample)
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(protoReplay(file, sdkSample, file == "demo" ? 0 : 240));
        VTX_VERIFY_OK(f);
        QCOMPARE((*f)->backend(), Backend::Protobuf);
        QVERIFY((*f)->chunks().size() > 0);
        for (size_t i = 0; i < (*f)->chunks().size(); ++i) {
            const auto wire = decodedChunk(**f, i);
            QVERIFY(!wire.empty());
            auto ours = flattenProtoChunk(wire, {}, "chunk");
            VTX_VERIFY_OK(ours);
            const std::string d = disagreement(wire);
            QVERIFY2(d.empty(), ("chunk " + std::to_string(i) + ": " + d).c_str());
        }
    }

    // The flattened chunk's buffer is sized from the ratio the last chunks had (1.19x in CS-like
    // files, up to 1.95x in arena files): the bytes are the same whatever the size given (too
    // small, so it grows more than once, or ample), and after one chunk of a file the estimate
    // holds each of its chunks without growing.
    void flattenedSizeEstimate_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("sdkSample");
        QTest::newRow("sdk cs") << "sdk_cs_proto.vtx" << true;
        QTest::newRow("sdk rl") << "sdk_rl_proto.vtx" << true;
        QTest::newRow("sdk arena") << "arena_from_proto_ds.vtx" << true;
        QTest::newRow("sdk allkinds") << "allkinds_proto.vtx" << true;
        QTest::newRow("rl-like") << "rl" << false;
    }
    void flattenedSizeEstimate()
    {
        QFETCH(QString, file);
        QFETCH(bool, sdkSample);
        if (sdkSample)
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(protoReplay(file, sdkSample, 3000)); // rl: 3 chunks
        VTX_VERIFY_OK(f);
        FlattenedSizeEstimate learning(1000); // 1.0x: the first chunk grows its buffer
        for (size_t i = 0; i < (*f)->chunks().size(); ++i) {
            const auto wire = decodedChunk(**f, i);
            QVERIFY(!wire.empty());
            const size_t offered = learning.capacityFor(wire.size());
            auto learnt = flattenProtoChunk(wire, {}, "chunk", learning);
            VTX_VERIFY_OK(learnt);
            if (i > 0 && wire.size() >= 4096)
                QVERIFY2(
                    offered >= learnt->size(),
                    ("chunk " + std::to_string(i) + ": " + std::to_string(offered) + " bytes offered for " + std::to_string(learnt->size())).c_str());
            FlattenedSizeEstimate tight(1000), ample(8000);
            auto grown = flattenProtoChunk(wire, {}, "chunk", tight);
            auto roomy = flattenProtoChunk(wire, {}, "chunk", ample);
            VTX_VERIFY_OK(grown);
            VTX_VERIFY_OK(roomy);
            for (const auto* other : {&*grown, &*roomy}) {
                QCOMPARE(other->size(), learnt->size());
                QVERIFY(std::memcmp(other->data(), learnt->data(), learnt->size()) == 0);
            }
        }
        QVERIFY(learning.ratioPermille() > 1000); // it learnt
    }

    // Truncations and seeded byte changes of a real chunk: both readers reach the same verdict,
    // and when both accept, the same values.
    void mutationsGetTheSameVerdict_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::newRow("truncate") << "truncate";
        QTest::newRow("flip") << "flip";
        QTest::newRow("insert") << "insert";
    }
    void mutationsGetTheSameVerdict()
    {
        QFETCH(QString, mutation);
        auto f = ReplayFile::open(generated(vtxgen::Kind::Demo, 6, 2));
        VTX_VERIFY_OK(f);
        const auto wire = decodedChunk(**f, 1);
        QVERIFY(wire.size() > 1000);
        std::mt19937_64 rng(7);
        size_t accepted = 0, rejected = 0;
        const size_t cases = mutation == "truncate" ? wire.size() : 3000;
        for (size_t k = 0; k < cases; ++k) {
            std::vector<uint8_t> m = wire;
            if (mutation == "truncate") {
                m.resize(k);
            } else if (mutation == "flip") {
                for (int n = 0; n < 1 + int(k % 3); ++n)
                    m[rng() % m.size()] ^= uint8_t(1u << (rng() % 8));
            } else {
                m.insert(m.begin() + std::ptrdiff_t(rng() % m.size()), uint8_t(rng()));
            }
            const std::string d = disagreement(m);
            QVERIFY2(d.empty(), (mutation.toStdString() + " case " + std::to_string(k) + ": " + d).c_str());
            (flattenProtoChunk(m, {}, "chunk") ? accepted : rejected)++;
        }
        qInfo("%zu accepted, %zu rejected", accepted, rejected);
        QVERIFY(rejected > 0); // the mutations did reach the error paths
    }

    // Encodings the SDK does not write but a conforming proto3 parser accepts (or rejects).
    void handEncoded_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("accepted");
        auto row = [](const char* name, const Wire& w, bool ok) {
            QTest::newRow(name) << QByteArray(reinterpret_cast<const char*>(w.b.data()), qsizetype(w.b.size())) << ok;
        };
        {
            Wire e; // unpacked repeated scalars, interleaved with a packed run of the same field
            e.field(3, 3).field(3, 4).tag(3, 2).varint(2).raw({0x05, 0x06}).fixed(5, 1.5f).fixed(5, -2.5f).field(2, 7);
            row("unpacked and packed scalars", chunkWithEntity(e), true);
        }
        {
            Wire e; // fields out of order, unknown fields of every wire type
            e.fixed(27, uint64_t(0)).field(27, 99).fixed(99, 1.0).field(100, 5).str(101, "x").fixed(102, 2.0f).field(1, 3);
            row("unknown fields and any order", chunkWithEntity(e), true);
        }
        {
            Wire v; // vector fields reversed, x twice (last wins), an unknown field inside
            v.fixed(3, 3.0).fixed(2, 2.0).fixed(1, 9.0).field(7, 1).fixed(1, 1.0);
            Wire e;
            e.msg(9, v).msg(9, Wire{});
            row("vector: reordered, duplicate, empty", chunkWithEntity(e), true);
        }
        {
            Wire t; // a transform whose translation arrives in two parts (merged)
            t.msg(1, Wire{}.fixed(1, 1.0)).msg(1, Wire{}.fixed(2, 2.0)).msg(2, Wire{}.fixed(4, 1.0f));
            Wire e;
            e.msg(8, t);
            row("transform: merged sub-messages, no scale", chunkWithEntity(e), true);
        }
        {
            Wire a1, a2; // one FlatIntArray field sent twice: repeated fields concatenate
            a1.tag(1, 2).varint(2).raw({0x02, 0x03}).field(2, 0);
            a2.field(1, 5).field(2, 1);
            Wire e;
            e.msg(13, a1).msg(13, a2);
            row("flat array in two parts", chunkWithEntity(e), true);
        }
        {
            // Containers at one depth share the reader's scratch, and only the fields the last
            // one read are cleared for the next: neighbours with disjoint fields (and a nested
            // struct between them, one level deeper) must not leak values into each other.
            Wire inner;
            inner.field(1, 2).fixed(5, 4.5f).str(7, "in");
            Wire first, second, third;
            first.field(1, 0).fixed(5, 1.5f).fixed(5, 2.5f).str(7, "a").msg(9, Wire{}.fixed(1, 1.0)).msg(23, inner);
            second.field(1, 1).field(3, 7).tag(21, 2).varint(4).raw({0x0A, 0x02, 0x01, 0x00});
            third.field(1, 0).fixed(5, 3.5f);
            Wire bucket;
            bucket.str(1, "e0").msg(2, first).str(1, "e1").msg(2, second).str(1, "e2").msg(2, third);
            Wire chunk;
            chunk.field(1, 0).msg(4, Wire{}.msg(1, bucket)).msg(4, Wire{}.msg(1, Wire{}.str(1, "e3").msg(2, second)));
            row("neighbouring containers with disjoint fields", chunk, true);
        }
        {
            Wire bytes; // byte arrays: every element concatenated
            bytes.str(1, "ab").str(1, "cde").field(2, 0).field(2, 2);
            Wire e;
            e.msg(12, bytes);
            row("bytes in several elements", chunkWithEntity(e), true);
        }
        {
            Wire e;
            e.field(1, uint64_t(-5)); // negative int32: a ten-byte varint
            row("negative type id", chunkWithEntity(e), true);
        }
        {
            Wire e;
            e.msg(25, Wire{}.str(1, "k").msg(2, Wire{}.field(1, 1))).msg(26, Wire{}.msg(1, Wire{}.str(1, "m")).field(2, 0));
            row("maps", chunkWithEntity(e), true);
        }
        row("empty chunk", Wire{}, true);
        {
            Wire e; // a tag varint of five bytes whose high bits fall beyond 32: dropped, as libprotobuf does
            e.raw({0xC5, 0xA7, 0xF7, 0xC3, 0x15, 0x26, 0x06, 0x54, 0x3F});
            row("tag wider than 32 bits", chunkWithEntity(e), true);
        }
        {
            Wire e; // the same field's tag in seven bytes: longer than libprotobuf reads a tag
            e.raw({0xC5, 0xFF, 0xFF, 0xFF, 0xFF, 0xA7, 0x56, 0x26, 0x06, 0x54, 0x3F});
            row("seven-byte tag", chunkWithEntity(e), false);
        }
        {
            Wire e; // a string length in six bytes (a non-minimal 2)
            e.tag(7, 2).raw({0x82, 0x80, 0x80, 0x80, 0x80, 0x00, 'h', 'i'});
            row("six-byte length", chunkWithEntity(e), false);
        }
        {
            Wire e;
            e.tag(1, 0).raw({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01});
            row("eleven-byte varint", chunkWithEntity(e), false);
        }
        {
            Wire e;
            e.tag(7, 2).varint(10).raw({'a', 'b'});
            Wire c = chunkWithEntity(e);
            row("length past the end", c, false);
        }
        {
            Wire e;
            e.str(7, "\xC0\xAF");
            row("overlong UTF-8", chunkWithEntity(e), false);
        }
        {
            Wire e;
            e.str(7, "\xED\xA0\x80");
            row("UTF-8 surrogate", chunkWithEntity(e), false);
        }
        {
            Wire e;
            e.str(7, "h\xC3\xA9llo \xF0\x9F\x98\x80");
            row("valid UTF-8", chunkWithEntity(e), true);
        }
        {
            Wire e;
            e.tag(0, 0).varint(1);
            row("field number zero", chunkWithEntity(e), false);
        }
        {
            Wire e;
            e.tag(3, 2).varint(2).raw({0x85, 0x86});
            row("packed varint cut short", chunkWithEntity(e), false);
        }
        {
            Wire e;
            e.tag(5, 2).varint(3).raw({0, 0, 0});
            row("packed floats of 3 bytes", chunkWithEntity(e), false);
        }
    }
    void handEncoded()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, accepted);
        const std::span<const uint8_t> wire(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size()));
        auto ours = flattenProtoChunk(wire, {}, "chunk");
        QVERIFY2(ours.isOk() == accepted, ours.isOk() ? "accepted" : ours.message().c_str());
        const std::string d = disagreement(wire);
        QVERIFY2(d.empty(), d.c_str());
        if (!accepted)
            QVERIFY2(ours.message().find("byte ") != std::string::npos, ours.message().c_str()); // says where
    }

    // Groups (wire types 3 and 4) are not part of this format: rejected with a clear error, where
    // libprotobuf would skip an unknown one.
    void groupsAreRejected()
    {
        Wire e;
        e.tag(50, 3).field(1, 1).tag(50, 4);
        const Wire c = chunkWithEntity(e);
        auto ours = flattenProtoChunk(c.b, {}, "chunk");
        QVERIFY(!ours);
        QVERIFY2(ours.message().find("frame 0 of the chunk, bucket 0, entity 0: group field (wire type 3)") != std::string::npos,
                 ours.message().c_str());
    }

    void initTestCase() { QVERIFY(m_dir.isValid()); }
};

QTEST_GUILESS_MAIN(TestProtoReader)
#include "tst_protoreader.moc"
