// SPDX-License-Identifier: MIT
// Stored content hashes are trusted per file and per struct type, only where they cover the
// whole container (spec §6.6 ⚠): verdicts on SDK-written and generated files, withdrawal when a
// chunk contradicts them, and the diff with the hash shortcut equal to the diff without it on
// every sample file and generated kind.

#include "../../fixtures/generator/ContainerFiller.hpp"
#include "TestSupport.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/file/backend/BackendCodec.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/integrity/HashTrust.hpp"
#include "vtx/integrity/Validate.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <random>

using namespace vtx;

namespace {

const Schema& demoSchema()
{
    static const Schema s = *Schema::parse(vtxgen::schemaJson(vtxgen::Kind::Demo));
    return s;
}

PropertyContainerData weapon(int32_t clip, HashVariant variant)
{
    PropertyContainerData d = vtxgen::makeContainer(demoSchema(), "Weapon");
    vtxgen::ContainerFiller w(demoSchema(), "Weapon", d);
    w.set("Name", "ak47");
    w.set("Clip", clip);
    vtxgen::ContainerFiller a = w.child("Attachment");
    a.set("Name", "scope");
    a.set("Slot", 2);
    fillContentHashes(d, variant);
    return d;
}

PropertyContainerData matchState(int32_t round, HashVariant variant)
{
    PropertyContainerData d = vtxgen::makeContainer(demoSchema(), "MatchState");
    vtxgen::ContainerFiller m(demoSchema(), "MatchState", d);
    m.set("Round", round);
    PropertyContainerData team = vtxgen::makeContainer(demoSchema(), "TeamInfo");
    vtxgen::ContainerFiller(demoSchema(), "TeamInfo", team).set("Score", 3);
    m.setMap("Teams", {{"CT", team}});
    fillContentHashes(d, variant);
    return d;
}

PropertyContainerData projectile(float fuse)
{
    PropertyContainerData d = vtxgen::makeContainer(demoSchema(), "Projectile");
    vtxgen::ContainerFiller(demoSchema(), "Projectile", d).set("Fuse", fuse);
    fillContentHashes(d);
    return d;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): taken by value to move the containers out
FrameData frameOf(std::vector<std::pair<std::string, PropertyContainerData>> entities)
{
    FrameData f;
    f.buckets.resize(1);
    for (auto& [id, c] : entities) {
        f.buckets[0].uniqueIds.push_back(id);
        f.buckets[0].entities.push_back(std::move(c));
    }
    return f;
}

std::shared_ptr<const DecodedChunk> encode(std::vector<FrameData> frames, Backend backend, std::shared_ptr<const HashTrust> trust)
{
    const BackendCodec& codec = codecFor(backend);
    const std::vector<uint8_t> bytes = codec.serializeChunk(0, false, frames);
    Buffer buf(bytes.size());
    std::memcpy(buf.data(), bytes.data(), bytes.size());
    auto storage = codec.parseChunk(std::move(buf), {}, "test chunk");
    if (!storage)
        qFatal("%s", storage.message().c_str());
    return std::make_shared<DecodedChunk>(0, 0, std::move(*storage), std::move(trust));
}

int32_t typeOf(const char* name)
{
    return demoSchema().structByName(name)->typeId;
}

/// One line per entity and change: what a user reads in a diff.
QStringList describe(const FrameDiff& d, const Schema& schema)
{
    QStringList out;
    for (const EntityDiff& e : d.entities) {
        const QString id = QString::fromUtf8(e.uniqueId.data(), qsizetype(e.uniqueId.size()));
        out << QString("%1/%2 %3").arg(e.bucket).arg(id, entityStatusName(e.status));
        for (const PropertyChange& c : d.changesOf(e))
            out << QString("  %1 %2").arg(QString::fromStdString(d.pathText(c, schema)), changeKindName(c.kind));
    }
    return out;
}

} // namespace

class TestHashTrust : public QObject {
    Q_OBJECT

private slots:
    void sdkVariantHashesAreReproduced()
    {
        // Owned data hashed both ways: a container with nested ones differs, a flat one not.
        const PropertyContainerData w = weapon(30, HashVariant::Spec);
        QVERIFY(computeContentHash(w) != computeSdkContentHash(w));
        const PropertyContainerData p = projectile(1.5f);
        QCOMPARE(computeContentHash(p), computeSdkContentHash(p));
        // The quirk itself: two SDK-hashed weapons that differ only in Clip (fed before the
        // nested Attachment) carry the same stored hash.
        QCOMPARE(weapon(30, HashVariant::SdkTail).contentHash, weapon(12, HashVariant::SdkTail).contentHash);
        QVERIFY(weapon(30, HashVariant::Spec).contentHash != weapon(12, HashVariant::Spec).contentHash);
    }

    void verdictsPerType_data()
    {
        QTest::addColumn<int>("backend");
        QTest::newRow("flatbuffers") << int(Backend::FlatBuffers);
        QTest::newRow("protobuf") << int(Backend::Protobuf);
    }

    void verdictsPerType()
    {
        // One file, two writers' hashes: Weapon by the spec, MatchState by the SDK variant.
        QFETCH(int, backend);
        auto trust = std::make_shared<HashTrust>(demoSchema().structs().size());
        auto chunk = encode({frameOf({{"w", weapon(30, HashVariant::Spec)}, {"m", matchState(1, HashVariant::SdkTail)}, {"p", projectile(2.f)}})},
                            Backend(backend), trust);
        QCOMPARE(trust->verdict(typeOf("Weapon")), HashVerdict::Unverified);
        QVERIFY(!trust->covers(chunk->frame(0).bucket(0).entity(0)));
        trust->observeChunk(*chunk);
        QCOMPARE(trust->verdict(typeOf("Weapon")), HashVerdict::Spec);
        QCOMPARE(trust->verdict(typeOf("MatchState")), HashVerdict::SdkVariant);
        QCOMPARE(trust->verdict(typeOf("Attachment")), HashVerdict::NoNested);
        QCOMPARE(trust->verdict(typeOf("TeamInfo")), HashVerdict::NoNested);
        QCOMPARE(trust->verdict(typeOf("Projectile")), HashVerdict::NoNested);
        QCOMPARE(trust->verdict(typeOf("Player")), HashVerdict::Unverified);
        const BucketView b = chunk->frame(0).bucket(0);
        QVERIFY(trust->covers(b.entity(0))); // Weapon: spec, nested included
        QVERIFY(!trust->covers(b.entity(1))); // MatchState: SDK variant with a nested map value
        QVERIFY(trust->covers(b.entity(2))); // Projectile: nothing nested
        QVERIFY(trust->mismatches().empty());
    }

    void hashMatchingNeitherIsNotTrusted()
    {
        auto trust = std::make_shared<HashTrust>(demoSchema().structs().size());
        PropertyContainerData m = matchState(1, HashVariant::SdkTail);
        m.contentHash ^= 1;
        auto chunk = encode({frameOf({{"m", m}})}, Backend::FlatBuffers, trust);
        trust->observeChunk(*chunk);
        QCOMPARE(trust->verdict(typeOf("MatchState")), HashVerdict::Neither);
        QVERIFY(!trust->covers(chunk->frame(0).bucket(0).entity(0)));
        const auto mm = trust->mismatches();
        QCOMPARE(mm.size(), size_t(1));
        QCOMPARE(mm[0].uniqueId, std::string("m"));
        QCOMPARE(mm[0].frame, 0);
        QCOMPARE(mm[0].path, std::string());
    }

    void contradictingChunkWithdrawsTrust()
    {
        auto trust = std::make_shared<HashTrust>(demoSchema().structs().size());
        auto spec = encode({frameOf({{"w", weapon(30, HashVariant::Spec)}})}, Backend::FlatBuffers, trust);
        trust->observeChunk(*spec);
        const ContainerView w = spec->frame(0).bucket(0).entity(0);
        QVERIFY(trust->covers(w));
        const uint64_t generation = trust->generation();
        // A later chunk of the same file whose Weapons carry the SDK variant.
        auto sdk = encode({frameOf({{"w", weapon(31, HashVariant::SdkTail)}})}, Backend::FlatBuffers, trust);
        trust->observeChunk(*sdk);
        QCOMPARE(trust->verdict(typeOf("Weapon")), HashVerdict::Contradictory);
        QVERIFY(!trust->covers(w));
        QVERIFY(trust->generation() > generation);
    }

    void diffSeesChangesTheSdkHashHides_data()
    {
        QTest::addColumn<int>("backend");
        QTest::newRow("flatbuffers") << int(Backend::FlatBuffers);
        QTest::newRow("protobuf") << int(Backend::Protobuf);
    }

    void diffSeesChangesTheSdkHashHides()
    {
        QFETCH(int, backend);
        auto trust = std::make_shared<HashTrust>(demoSchema().structs().size());
        auto chunk = encode({frameOf({{"w", weapon(30, HashVariant::SdkTail)}, {"p", projectile(1.f)}}),
                             frameOf({{"w", weapon(12, HashVariant::SdkTail)}, {"p", projectile(1.f)}})},
                            Backend(backend), trust);
        trust->observeChunk(*chunk);
        const FrameDiff d = diffFrames(FrameHandle(chunk, 0), FrameHandle(chunk, 1), demoSchema());
        QCOMPARE(describe(d, demoSchema()), (QStringList{"0/w changed", "  Clip changed"}));
        QCOMPARE(d.totals().skippedByHash, 1u); // the projectile: its hash covers it
    }

    void sampleVerdicts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("sdkVariant");
        QTest::addColumn<QStringList>("spec");
        const QStringList cs{"OptimizedBoneData", "Equipment", "Player"};
        const QStringList rl{"CarSkin", "Ball", "Car"};
        QTest::newRow("sdk_cs_fbs") << "sdk_cs_fbs.vtx" << cs << QStringList{};
        QTest::newRow("sdk_cs_proto") << "sdk_cs_proto.vtx" << cs << QStringList{};
        QTest::newRow("sdk_rl_fbs") << "sdk_rl_fbs.vtx" << rl << QStringList{};
        QTest::newRow("sdk_rl_proto") << "sdk_rl_proto.vtx" << rl << QStringList{};
        QTest::newRow("allkinds_fbs") << "allkinds_fbs.vtx" << QStringList{} << QStringList{"Hero", "Weapon"};
        QTest::newRow("arena_fbs") << "arena_from_fbs_ds.vtx" << QStringList{} << QStringList{};
    }

    void sampleVerdicts()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        QFETCH(QStringList, sdkVariant);
        QFETCH(QStringList, spec);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        (*f)->gatherHashEvidence();
        const HashTrust& t = *(*f)->hashTrust();
        QVERIFY(t.sampledChunks() > 0);
        QStringList gotSdk, gotSpec;
        for (const StructDef& d : (*f)->schema().structs()) {
            const HashVerdict v = t.verdict(d.typeId);
            QVERIFY2(v != HashVerdict::Neither && v != HashVerdict::Contradictory, d.name.c_str());
            if (v == HashVerdict::SdkVariant)
                gotSdk << QString::fromStdString(d.name);
            if (v == HashVerdict::Spec)
                gotSpec << QString::fromStdString(d.name);
        }
        gotSdk.sort();
        gotSpec.sort();
        sdkVariant.sort();
        spec.sort();
        QCOMPARE(gotSdk, sdkVariant);
        QCOMPARE(gotSpec, spec);
    }

    void validateTellsQuirkFromCorruption_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("types");
        QTest::newRow("sdk_cs_fbs") << "sdk_cs_fbs.vtx"
                                    << "OptimizedBoneData, Equipment, Player";
        QTest::newRow("sdk_cs_proto") << "sdk_cs_proto.vtx"
                                      << "OptimizedBoneData, Equipment, Player";
        QTest::newRow("sdk_rl_fbs") << "sdk_rl_fbs.vtx"
                                    << "CarSkin, Ball, Car";
        QTest::newRow("sdk_rl_proto") << "sdk_rl_proto.vtx"
                                      << "CarSkin, Ball, Car";
    }

    void validateTellsQuirkFromCorruption()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        QFETCH(QString, types);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        const ValidationReport r = validate(**f);
        QVERIFY2(r.problems.empty(), r.problems.empty() ? "" : r.problems[0].message.c_str());
        QCOMPARE(r.hashMismatches, size_t(0));
        QStringList quirks;
        for (const Problem& p : r.info)
            if (p.message.rfind("content_hash:", 0) == 0)
                quirks << QString::fromStdString(p.message);
        QCOMPARE(quirks.size(), 1);
        QVERIFY2(quirks[0].contains("SDK v0.2.0") && quirks[0].contains(types), qPrintable(quirks[0]));
    }

    void validateReportsOneFlippedHash()
    {
        // An uncompressed generated file (SDK-variant hashes, as cs2 writes them) with one stored
        // hash flipped in the file's bytes: exactly that container is reported. The flipped one
        // is a projectile's: the MatchStates' SDK hashes are all equal (Round is fed before the
        // nested map), which is the quirk itself.
        QTemporaryDir dir;
        const std::string path = dir.filePath("flipped.vtx").toStdString();
        ReplayHeader header;
        header.schemaJson = vtxgen::schemaJson(vtxgen::Kind::Demo);
        WriterOptions wo;
        wo.compress = false;
        wo.hashVariant = HashVariant::SdkTail;
        auto w = ReplayWriter::create(path, header, wo);
        VTX_VERIFY_OK(w);
        const PropertyContainerData target = projectile(7.25f);
        for (int i = 0; i < 3; ++i) {
            const Status added = (*w)->addFrame(frameOf({{"m", matchState(i, HashVariant::SdkTail)}, {"p", i == 1 ? target : projectile(float(i))}}),
                                                int64_t(i) * 1000, int64_t(i) * 1000);
            VTX_VERIFY_OK(added);
        }
        const auto finished = (*w)->finish();
        VTX_VERIFY_OK(finished);
        std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(io)), {});
        const uint64_t h = target.contentHash;
        const size_t at = bytes.find(std::string(reinterpret_cast<const char*>(&h), 8));
        QVERIFY(at != std::string::npos);
        QCOMPARE(bytes.find(std::string(reinterpret_cast<const char*>(&h), 8), at + 1), std::string::npos);
        io.seekp(std::streamoff(at));
        io.put(char(bytes[at] ^ 0x10));
        io.close();

        auto f = ReplayFile::open(path);
        VTX_VERIFY_OK(f);
        const ValidationReport r = validate(**f);
        QCOMPARE(r.hashMismatches, size_t(1));
        QCOMPARE(r.problems.size(), size_t(1));
        QVERIFY2(r.problems[0].message.find("frame 1 bucket 0 entity ") != std::string::npos &&
                     r.problems[0].message.find(" (p): stored content_hash") != std::string::npos &&
                     r.problems[0].message.find("matches neither") != std::string::npos,
                 r.problems[0].message.c_str());
    }

    void hashShortcutGivesTheSameDiff_data()
    {
        QTest::addColumn<QString>("file"); // a sample name, or "gen:<kind>:<backend>"
        for (const char* s : {"sdk_cs_fbs.vtx", "sdk_cs_proto.vtx", "sdk_rl_fbs.vtx", "sdk_rl_proto.vtx", "allkinds_fbs.vtx", "allkinds_proto.vtx",
                              "arena_from_fbs_ds.vtx", "arena_from_proto_ds.vtx"})
            QTest::newRow(s) << QString(s);
        for (const char* k : {"demo", "cs2", "rl"})
            for (const char* b : {"fbs", "proto"})
                QTest::newRow(qPrintable(QString("gen %1 %2").arg(k, b))) << QString("gen:%1:%2").arg(k, b);
    }

    void hashShortcutGivesTheSameDiff()
    {
        // The fast path (equal stored hash where trusted) against the slow one (every value
        // compared): every consecutive pair and 50 seeded random pairs.
        QFETCH(QString, file);
        std::string path;
        if (file.startsWith("gen:")) {
            const QStringList parts = file.split(':');
            const auto kind = *vtxgen::kindFromName(parts[1].toStdString());
            const Backend backend = parts[2] == "fbs" ? Backend::FlatBuffers : Backend::Protobuf;
            const int32_t frames = kind == vtxgen::Kind::Demo ? 0 : 1500; // cs2 / rl: a few chunks
            path = vtxtest::generatedReplay(m_dir.path(), kind, backend, frames, 500);
        } else {
            VTX_REQUIRE_SAMPLES();
            path = vtxtest::samplePath(file.toStdString());
        }
        auto opened = ReplayFile::open(path);
        VTX_VERIFY_OK(opened);
        const ReplayFile& f = **opened;
        std::vector<FrameHandle> frames(size_t(f.frameCount()));
        for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
            auto chunk = f.decodeChunk(ci);
            VTX_VERIFY_OK(chunk);
            for (size_t i = 0; i < (*chunk)->frameCount(); ++i)
                frames[size_t((*chunk)->startFrame()) + i] = FrameHandle(*chunk, (*chunk)->startFrame() + int32_t(i));
        }
        DiffOptions slowOpt;
        slowOpt.useContentHash = false;
        FrameDiff fast, slow;
        uint64_t skipped = 0;
        auto check = [&](int32_t a, int32_t b) {
            diffFrames(frames[size_t(a)], frames[size_t(b)], f.schema(), {}, fast);
            diffFrames(frames[size_t(a)], frames[size_t(b)], f.schema(), slowOpt, slow);
            skipped += fast.totals().skippedByHash;
            const QStringList x = describe(fast, f.schema()), y = describe(slow, f.schema());
            if (x != y) {
                qWarning("frames %d -> %d: with the hash shortcut %lld lines, without %lld", a, b, qlonglong(x.size()), qlonglong(y.size()));
                return false;
            }
            return true;
        };
        for (int32_t i = 1; i < f.frameCount(); ++i)
            QVERIFY(check(i - 1, i));
        std::mt19937 rng(20261124);
        std::uniform_int_distribution<int32_t> pick(0, f.frameCount() - 1);
        for (int k = 0; k < 50; ++k)
            QVERIFY(check(pick(rng), pick(rng)));
        // A frame against itself: nothing changed, and wherever a hash is trusted the shortcut
        // decides it (files whose entities all change every frame never take it otherwise).
        for (int k = 0; k < 5; ++k) {
            const int32_t i = pick(rng);
            QVERIFY(check(i, i));
            QVERIFY(fast.entities.empty());
        }
        QVERIFY2(skipped > 0, "the shortcut was never taken: the test would not catch a wrong one");
    }

    void sdkCsConsecutiveDiffFindsAllChanges_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("fbs") << "sdk_cs_fbs.vtx";
        QTest::newRow("proto") << "sdk_cs_proto.vtx";
    }

    void sdkCsConsecutiveDiffFindsAllChanges()
    {
        // The case: frames 200 -> 201 of the SDK's CS-like replay change 24 entities in
        // named properties (a diff that trusts every stored hash finds 14), and every one of the
        // 10 bone entities in its payload bytes (the SDK's blob convention, shown as BonePayload).
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        auto a = (*f)->frame(200), b = (*f)->frame(201);
        VTX_VERIFY_OK(a);
        VTX_VERIFY_OK(b);
        const FrameDiff d = diffFrames(*a, *b, (*f)->schema());
        QCOMPARE(d.totals().changed, 34u);
        int named = 0, payloadOnly = 0;
        for (const EntityDiff& e : d.entities) {
            bool payload = false, other = false;
            for (const PropertyChange& c : d.changesOf(e))
                (d.pathText(c, (*f)->schema()) == "BonePayload" ? payload : other) = true;
            named += other;
            payloadOnly += payload && !other;
        }
        QCOMPARE(named, 24);
        QCOMPARE(payloadOnly, 10);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestHashTrust)
#include "tst_hashtrust.moc"
