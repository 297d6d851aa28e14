// SPDX-License-Identifier: MIT
// The reader against real SDK-written files: every value of reference_values.json and of the
// spec's Appendix A, for both backends.

#include "TestSupport.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/integrity/Validate.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <QtTest>

using namespace vtx;
using nlohmann::json;

class TestSamples : public QObject {
    Q_OBJECT

    json reference(const std::string& file)
    {
        json all = vtxtest::loadJson(vtxtest::samplePath("reference_values.json"));
        for (const auto& r : all)
            if (r["file"] == file)
                return r;
        return {};
    }
    std::shared_ptr<ReplayFile> open(const std::string& file)
    {
        auto f = ReplayFile::open(vtxtest::samplePath(file));
        if (!f)
            qWarning("%s", f.message().c_str());
        return f ? *f : nullptr;
    }

private slots:
    void initTestCase() { VTX_REQUIRE_SAMPLES(); }

    void sdkExpectedFrames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("frame");
        for (const char* b : {"fbs", "proto"}) {
            for (int f : {0, 200, 399})
                QTest::addRow("cs_%s@%d", b, f) << QString("sdk_cs_%1.vtx").arg(b) << QString("cs_frame_%1.json").arg(f) << f;
            for (int f : {0, 1200, 2399})
                QTest::addRow("rl_%s@%d", b, f) << QString("sdk_rl_%1.vtx").arg(b) << QString("rl_frame_%1.json").arg(f) << f;
        }
    }

    void sdkExpectedFrames()
    {
        // Files the SDK's writer produced with nested structs: named values as the independent
        // implementation decodes them, and the bone payloads (named nowhere, the SDK's blob
        // convention) under "unnamed", the same bytes in both backends.
        QFETCH(QString, file);
        QFETCH(QString, expected);
        QFETCH(int, frame);
        auto f = open(file.toStdString());
        QVERIFY(f);
        auto handle = f->frame(frame);
        VTX_VERIFY_OK(handle);
        json ours = vtxtest::toPlain(frameJson(*f, *handle));
        // Ours only: each entity's label in this frame, always one of its own values.
        size_t named = 0;
        const auto wrongNames = vtxtest::takeDisplayNames(ours, &named);
        QVERIFY2(wrongNames.empty(), vtxtest::joinDiff(wrongNames).c_str());
        QVERIFY(named > 0);
        json want = vtxtest::loadJson(vtxtest::samplePath("sdk_expected/" + expected.toStdString()));
        for (const char* k : {"file", "float_format", "created_utc"})
            want.erase(k), ours.erase(k);
        const auto unnamed = vtxtest::takeUnnamed(ours);
        // Ours only: the stored-hash check of every container (FrameIntegrity), clean here.
        QCOMPARE(ours["integrity"]["damaged"].get<int>(), 0);
        QVERIFY(ours["integrity"]["checked"].get<int>() > 0);
        ours.erase("integrity");
        const auto d = vtxtest::jsonDiff(ours, want);
        QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());

        size_t bones = 0;
        for (const auto& b : ours["buckets"])
            for (const auto& e : b["entities"])
                bones += e["type_name"] == "OptimizedBoneData";
        QCOMPARE(unnamed.size(), bones); // nothing else is unnamed in these files
        for (const auto& [path, u] : unnamed) {
            QCOMPARE(u.size(), size_t(1));
            const json& payload = u["byte_array_properties"]["0"];
            QCOMPARE(payload["blob_of"].get<std::string>(), std::string("BonePayload"));
            QVERIFY(payload["length"].get<size_t>() > 1000);
            QCOMPARE(payload["hex"].get<std::string>().size(), 2 * payload["length"].get<size_t>());
        }
        // The other backend's file holds the same bytes.
        if (file.contains("_cs_")) {
            QString otherName = file;
            otherName.replace(file.contains("fbs") ? "fbs" : "proto", file.contains("fbs") ? "proto" : "fbs");
            auto other = open(otherName.toStdString());
            QVERIFY(other);
            auto oh = other->frame(frame);
            VTX_VERIFY_OK(oh);
            json theirs = vtxtest::toPlain(frameJson(*other, *oh));
            QCOMPARE(vtxtest::takeUnnamed(theirs), unnamed);
        }
    }

    void referenceValues_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("flatbuffers") << "arena_from_fbs_ds.vtx";
        QTest::newRow("protobuf") << "arena_from_proto_ds.vtx";
    }

    void referenceValues()
    {
        QFETCH(QString, file);
        const json ref = reference(file.toStdString());
        QVERIFY(!ref.is_null());
        auto f = open(file.toStdString());
        QVERIFY(f);
        const json info = vtxtest::toPlain(infoJson(*f));

        QCOMPARE(info["file_size"].get<uint64_t>(), ref["file_size"].get<uint64_t>());
        QCOMPARE(info["magic"], ref["magic"]);
        QCOMPARE(info["backend"], ref["backend"]);
        for (const char* blob : {"header_blob", "footer_blob"}) {
            auto d = vtxtest::jsonDiff(info[blob], ref[blob]);
            QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
        }
        const json& rh = ref["header"];
        QCOMPARE(info["header"]["version"], rh["version"]);
        QCOMPARE(info["header"]["data_identifier"], rh["contextual_schema"]["data_identifier"]);
        QCOMPARE(info["header"]["data_version"], rh["contextual_schema"]["data_version"]);
        QCOMPARE(info["header"]["data_version_string"], rh["contextual_schema"]["data_version_string"]);
        QCOMPARE(info["header"]["schema_length"], rh["contextual_schema"]["schema"]["length"]);
        for (const char* k : {"replay_uuid", "replay_name", "recorded_utc_timestamp", "custom_json_metadata"})
            QCOMPARE(info["header"][k], rh[k]);
        char schemaHash[17];
        std::snprintf(schemaHash, sizeof schemaHash, "%016llx",
                      (unsigned long long)XXH3_64bits(f->header().schemaJson.data(), f->header().schemaJson.size()));
        QCOMPARE(std::string(schemaHash), rh["contextual_schema"]["schema"]["xxh3_64"].get<std::string>());

        // Schema slots: [name, type, container, slot, member]
        QCOMPARE(info["schema"]["buckets"], ref["schema"]["buckets"]);
        for (auto it = ref["schema"]["structs"].begin(); it != ref["schema"]["structs"].end(); ++it) {
            const StructDef* s = f->schema().structById(std::stoi(it.key()));
            QVERIFY(s);
            QCOMPARE(s->name, it.value()["name"].get<std::string>());
            QCOMPARE(s->fields.size(), it.value()["fields"].size());
            for (size_t i = 0; i < s->fields.size(); ++i) {
                const json& rf = it.value()["fields"][i];
                QCOMPARE(s->fields[i].name, rf[0].get<std::string>());
                QCOMPARE(std::string(fieldTypeName(s->fields[i].key.type)), rf[1].get<std::string>());
                QCOMPARE(std::string(containerKindName(s->fields[i].key.container)), rf[2].get<std::string>());
                QCOMPARE(s->fields[i].key.slot, rf[3].get<uint32_t>());
            }
        }

        // Footer and times.
        const json& rf = ref["footer"];
        QCOMPARE(info["total_frames"], rf["total_frames"]);
        QCOMPARE(f->footer().durationSeconds, rf["duration_seconds"].get<float>());
        QCOMPARE(info["payload_checksum"], rf["payload_checksum"]);
        QCOMPARE(info["events"].size(), rf["events"].size());
        const json& rt = rf["times"];
        for (const char* k : {"game_time_len", "created_utc_len", "game_time_first", "created_utc_first", "gaps", "segments"})
            QCOMPARE(info["times"][k], rt[k]);
        const auto& gt = f->footer().times.gameTime;
        const auto& utc = f->footer().times.createdUtc;
        for (size_t i = 0; i < rt["game_time_last"].size(); ++i)
            QCOMPARE(gt[gt.size() - rt["game_time_last"].size() + i], rt["game_time_last"][i].get<int64_t>());
        for (size_t i = 0; i < rt["created_utc_last"].size(); ++i)
            QCOMPARE(utc[utc.size() - rt["created_utc_last"].size() + i], rt["created_utc_last"][i].get<int64_t>());
        // game_time[i] == trunc(f32(f32(i) * f32(1/60)) * 1e7f) and utc[i] - utc[0] == game_time[i] (Appendix A.4).
        for (size_t i = 0; i < gt.size(); ++i) {
            QCOMPARE(gt[i], int64_t((float(i) * (1.0f / 60.0f)) * 1e7f));
            QCOMPARE(utc[i] - utc[0], gt[i]);
        }
        QCOMPARE(f->footer().durationSeconds, float(double(utc.back() - utc.front()) / 1e7));

        // Seek table, including decoded sizes and embedded chunk indices.
        QCOMPARE(f->chunks().size(), ref["chunks"].size());
        for (size_t i = 0; i < f->chunks().size(); ++i) {
            const json& rc = ref["chunks"][i];
            const ChunkEntry& c = f->chunks()[i];
            QCOMPARE(c.chunkIndex, rc["chunk_index"].get<int32_t>());
            QCOMPARE(c.startFrame, rc["start_frame"].get<int32_t>());
            QCOMPARE(c.endFrame, rc["end_frame"].get<int32_t>());
            QCOMPARE(c.fileOffset, rc["file_offset"].get<uint64_t>());
            QCOMPARE(c.chunkSizeBytes, rc["chunk_size_bytes"].get<uint32_t>());
            auto blob = f->readChunkBlob(i);
            VTX_VERIFY_OK(blob);
            QCOMPARE(startsWithZstdMagic(blob->span()), rc["zstd"].get<bool>());
            auto chunk = f->decodeChunk(i);
            VTX_VERIFY_OK(chunk);
            QCOMPARE((*chunk)->decodedBlobBytes(), rc["decoded_size"].get<size_t>());
            QCOMPARE((*chunk)->frameCount(), rc["frames"].get<size_t>());
            QCOMPARE((*chunk)->embeddedChunkIndex(), rc["embedded_chunk_index"].get<int32_t>());
        }

        // Whole-file statistics, recomputed hashes and the frames digest.
        const ValidationReport report = validate(*f);
        QVERIFY2(report.problems.empty(), report.problems.empty() ? "" : report.problems[0].message.c_str());
        const json& rfr = ref["frames"];
        QCOMPARE(report.framesChecked, rfr["count"].get<int64_t>());
        QCOMPARE(report.entities, rfr["entities_total"].get<int64_t>());
        QCOMPARE(report.distinctUniqueIds, rfr["distinct_unique_ids"].get<size_t>());
        for (auto it = rfr["entities_per_type_total"].begin(); it != rfr["entities_per_type_total"].end(); ++it)
            QCOMPARE(report.entitiesPerType.at(std::stoi(it.key())), it.value().get<int64_t>());
        QCOMPARE(vtxtest::toPlain(validationJson(report))["frames_digest"], rfr["frames_digest"]);
        QCOMPARE(report.containersHashed, ref["verification"]["containers_hashed"].get<size_t>());
        QCOMPARE(report.hashMismatches, size_t(0));
        QVERIFY(ref["problems"].empty());
        QVERIFY(f->problems().empty());

        // Frame 0 and the last frame: every entity's named values and content hash.
        for (auto [key, index] : {std::pair{"frame0", 0}, std::pair{"frame_last", f->frameCount() - 1}}) {
            auto frame = f->frame(index);
            VTX_VERIFY_OK(frame);
            const json ours = vtxtest::toPlain(frameJson(*f, *frame));
            const json& rb = ref[key];
            QCOMPARE(ours["buckets"].size(), rb.size());
            for (size_t b = 0; b < rb.size(); ++b) {
                const json& ob = ours["buckets"][b];
                QCOMPARE(ob["name"], rb[b]["bucket_name"]);
                QCOMPARE(ob["entity_count"], rb[b]["entity_count"]);
                QCOMPARE(ob["type_ranges"], rb[b]["type_ranges"]);
                for (size_t e = 0; e < rb[b]["entities"].size(); ++e) {
                    const json& re = rb[b]["entities"][e];
                    const json& oe = ob["entities"][e];
                    QCOMPARE(oe["unique_id"], re["unique_id"]);
                    QCOMPARE(oe["type_id"], re["type_id"]);
                    QCOMPARE(oe["content_hash"], re["content_hash"]);
                    json values = re["values"];
                    QCOMPARE(oe["type_name"], values["<struct>"]);
                    values.erase("<struct>");
                    auto d = vtxtest::jsonDiff(oe["properties"], values);
                    QVERIFY2(d.empty(), (key + std::string(" ") + re["unique_id"].get<std::string>() + ": " + vtxtest::joinDiff(d)).c_str());
                }
            }
        }
    }

    void appendixA_data() { referenceValues_data(); }

    // Values the spec's Appendix A.5 gives beyond frame 0 and the last frame.
    void appendixA()
    {
        QFETCH(QString, file);
        auto f = open(file.toStdString());
        QVERIFY(f);
        const Schema& s = f->schema();
        QCOMPARE(s.structByName("Player")->typeId, 0);
        QCOMPARE(s.structByName("Projectile")->typeId, 1);
        QCOMPARE(s.structByName("MatchState")->typeId, 2);

        auto frame = f->frame(450);
        VTX_VERIFY_OK(frame);
        BucketView b = frame->view().bucket(0);
        QCOMPARE(b.entityCount(), size_t(12));
        const std::vector<EntityRange> ranges(b.typeRanges().begin(), b.typeRanges().end());
        QCOMPARE(ranges, (std::vector<EntityRange>{{0, 10}, {10, 1}, {11, 1}}));
        ContainerView proj = b.entity(10);
        QCOMPARE(b.uniqueId(10), std::string_view("proj_0"));
        QCOMPARE(proj.get<std::string_view>(s.key("Projectile", "OwnerID")), std::optional<std::string_view>("player_1"));
        QCOMPARE(proj.get<Vec3>(s.key("Projectile", "Position")), std::optional<Vec3>(Vec3{-25.400318063243052, 1.0, -21.904896817365735}));
        QCOMPARE(proj.get<Vec3>(s.key("Projectile", "Velocity")), std::optional<Vec3>(Vec3{0, 0, 30}));
        QCOMPARE(proj.get<float>(s.key("Projectile", "Damage")), std::optional<float>(25));
        QCOMPARE(proj.get<std::string_view>(s.key("Projectile", "Type")), std::optional<std::string_view>("bullet"));
        QCOMPARE(proj.contentHash(), uint64_t(0x33f62aa57a3b7a58));

        struct Match {
            int32_t frame;
            const char* phase;
            int32_t score1, score2;
            float remaining;
        };
        const PropertyKey phase = s.key("MatchState", "Phase"), rem = s.key("MatchState", "TimeRemaining");
        const PropertyKey s1 = s.key("MatchState", "ScoreTeam1"), s2 = s.key("MatchState", "ScoreTeam2");
        for (const Match& m : {Match{299, "warmup", 0, 0, 0.016666668f}, Match{300, "playing", 0, 0, 50.000004f},
                               Match{1000, nullptr, 1, 0, 38.333336f}, Match{3300, "roundend", 2, 2, 5.0000005f}}) {
            auto fr = f->frame(m.frame);
            VTX_VERIFY_OK(fr);
            BucketView bucket = fr->view().bucket(0);
            ContainerView ms = bucket.entity(bucket.entityCount() - 1);
            QCOMPARE(ms.typeId(), 2);
            if (m.phase)
                QCOMPARE(ms.get<std::string_view>(phase), std::optional<std::string_view>(m.phase));
            QCOMPARE(ms.get<int32_t>(s1), std::optional<int32_t>(m.score1));
            QCOMPARE(ms.get<int32_t>(s2), std::optional<int32_t>(m.score2));
            QCOMPARE(ms.get<float>(rem), std::optional<float>(m.remaining));
        }

        // 890 frames hold 12 entities, in ten runs of 89; UniqueID equals the bucket id everywhere.
        const PropertyKey uid = s.key("Player", "UniqueID");
        int twelve = 0;
        std::vector<std::pair<int32_t, int32_t>> runs;
        for (size_t ci = 0; ci < f->chunks().size(); ++ci) {
            auto chunk = f->decodeChunk(ci);
            VTX_VERIFY_OK(chunk);
            for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf) {
                const int32_t fi = (*chunk)->startFrame() + int32_t(lf);
                BucketView bk = (*chunk)->frame(lf).bucket(0);
                if (bk.entityCount() == 12) {
                    ++twelve;
                    if (runs.empty() || runs.back().second != fi - 1)
                        runs.push_back({fi, fi});
                    else
                        runs.back().second = fi;
                }
                for (size_t e = 0; e < bk.entityCount(); ++e) {
                    PropertyKey k = uid;
                    k.typeId = bk.entity(e).typeId();
                    QCOMPARE(bk.entity(e).get<std::string_view>(k), std::optional<std::string_view>(bk.uniqueId(e)));
                }
            }
        }
        QCOMPARE(twelve, 890);
        const std::vector<std::pair<int32_t, int32_t>> expected = {{450, 538},   {750, 838},   {1050, 1138}, {1350, 1438}, {1650, 1738},
                                                                   {1950, 2038}, {2250, 2338}, {2550, 2638}, {2850, 2938}, {3150, 3238}};
        QCOMPARE(runs, expected);
    }

    // Both samples hold identical frame data: every frame renders to the same JSON.
    void backendsAgreeOnEveryFrame()
    {
        auto fbs = open("arena_from_fbs_ds.vtx");
        auto pb = open("arena_from_proto_ds.vtx");
        QVERIFY(fbs && pb);
        QCOMPARE(fbs->frameCount(), pb->frameCount());
        for (size_t ci = 0; ci < fbs->chunks().size(); ++ci) {
            auto a = fbs->decodeChunk(ci);
            auto b = pb->decodeChunk(ci);
            VTX_VERIFY_OK(a);
            VTX_VERIFY_OK(b);
            QCOMPARE((*a)->frameCount(), (*b)->frameCount());
            for (size_t lf = 0; lf < (*a)->frameCount(); ++lf) {
                const int32_t fi = (*a)->startFrame() + int32_t(lf);
                Json ja = frameJson(*fbs, FrameHandle(*a, fi));
                Json jb = frameJson(*pb, FrameHandle(*b, fi));
                for (Json* j : {&ja, &jb}) {
                    j->erase("file");
                    j->erase("created_utc"); // wall-clock times differ between the two conversions
                }
                if (ja != jb)
                    QFAIL(("frame " + std::to_string(fi) + " differs:\n" + ja.dump().substr(0, 300) + "\n" + jb.dump().substr(0, 300)).c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSamples)
#include "tst_samples.moc"
