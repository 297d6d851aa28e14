// SPDX-License-Identifier: MIT
// Frame diff engine, property paths, conditions and seek-by-change scans.

#include "../../fixtures/generator/ContainerFiller.hpp"
#include "TestSupport.hpp"
#include "vtx/diff/DiffExport.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/diff/FrameScan.hpp"
#include "vtx/file/backend/BackendCodec.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/model/PropertyPath.hpp"
#include "vtx/query/Expression.hpp"
#include "vtxgen/Generator.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace vtx;
using vtxgen::ContainerFiller;

namespace {

const Schema& shooterSchema()
{
    static const Schema s = *Schema::parse(vtxgen::schemaJson(vtxgen::Kind::Cs2));
    return s;
}

struct RoundSpec {
    int32_t kills = 0;
    float damage = 0;
    bool survived = true;
};

/// Every property kind of the shooter schema's Player, as plain values a case can mutate.
struct PlayerSpec {
    std::string name = "Delta";
    int32_t team = 1;
    float health = 100;
    double accuracy = 0.5;
    int64_t damageDealt = 1000;
    bool alive = true;
    Vec3 position{1, 2, 3};
    Quat view{0, 0, 0, 1};
    Transform pose{{4, 5, 6}, {0, 0, 0, 1}, {1, 1, 1}};
    std::string weapon = "ak47";
    int32_t clip = 30;
    std::string attachment = "scope";
    std::vector<int32_t> grenades{1, 2};
    std::vector<std::string> inventory{"knife", "ak47"};
    std::vector<float> recentDamage{10, 20};
    std::vector<Vec3> trail{{0, 0, 0}, {1, 1, 1}};
    std::vector<std::pair<std::string, int32_t>> utility{{"flash", 1}, {"smoke", 1}};
    std::vector<double> shots{0.25, 0.5};
    std::vector<bool> flags{true, false};
    std::vector<int64_t> hitGroups{1, 2};
    std::vector<std::pair<std::string, RoundSpec>> rounds{{"r1", {1, 50, true}}, {"r2", {0, 0, false}}};
    std::vector<Quat> glances{{0, 0, 0, 1}};
    std::vector<Transform> waypoints{{}};
};

PropertyContainerData weapon(const std::string& name, int32_t clip, const std::string& attachment)
{
    const Schema& s = shooterSchema();
    PropertyContainerData w = vtxgen::makeContainer(s, "Weapon");
    ContainerFiller f(s, "Weapon", w);
    f.set("Name", name);
    f.set("Clip", clip);
    f.set("Reserve", int32_t(90));
    f.set("Spread", 0.5f);
    ContainerFiller a = f.child("Attachment");
    a.set("Name", attachment);
    a.set("Slot", int32_t(1));
    a.set("Offset", Vec3{0, 0, 1});
    f.set("Skin", "default");
    return w;
}

PropertyContainerData player(const PlayerSpec& p)
{
    const Schema& s = shooterSchema();
    PropertyContainerData c = vtxgen::makeContainer(s, "Player");
    ContainerFiller f(s, "Player", c);
    f.set("Name", p.name);
    f.set("Team", p.team);
    f.set("Health", p.health);
    f.set("Accuracy", p.accuracy);
    f.set("DamageDealt", p.damageDealt);
    f.set("IsAlive", p.alive);
    f.set("Position", p.position);
    f.set("ViewAngles", p.view);
    f.set("Pose", p.pose);
    c.structs.resize(1);
    c.structs[0] = weapon(p.weapon, p.clip, p.attachment);
    f.setArray("Grenades", p.grenades);
    f.setArray("Inventory", p.inventory);
    f.setArray("RecentDamage", p.recentDamage);
    f.setArray("Trail", p.trail);
    std::vector<PropertyContainerData> util;
    for (const auto& [n, clip] : p.utility)
        util.push_back(weapon(n, clip, "none"));
    f.setStructArray("Utility", util);
    f.setArray("ShotTimes", p.shots);
    f.setBools("Flags", p.flags);
    f.setArray("HitGroups", p.hitGroups);
    std::vector<std::pair<std::string, PropertyContainerData>> rounds;
    for (const auto& [key, r] : p.rounds) {
        PropertyContainerData rs = vtxgen::makeContainer(s, "RoundStat");
        ContainerFiller rf(s, "RoundStat", rs);
        rf.set("Kills", r.kills);
        rf.set("Damage", r.damage);
        rf.set("Survived", r.survived);
        rounds.emplace_back(key, std::move(rs));
    }
    f.setMap("RoundStats", std::move(rounds));
    f.setArray("Glances", p.glances);
    f.setArray("Waypoints", p.waypoints);
    return c;
}

/// Frames serialized by a backend's codec and decoded back, exactly as a file would hold them.
/// `trust` is attached to the chunk (not fed: a test decides what it has seen).
std::shared_ptr<const DecodedChunk> encode(std::vector<FrameData> frames, Backend backend, std::shared_ptr<const HashTrust> trust = {})
{
    for (auto& f : frames)
        for (auto& b : f.buckets)
            for (auto& e : b.entities)
                if (e.contentHash == 0)
                    fillContentHashes(e);
    const BackendCodec& codec = codecFor(backend);
    const std::vector<uint8_t> bytes = codec.serializeChunk(0, false, frames);
    Buffer buf(bytes.size());
    std::memcpy(buf.data(), bytes.data(), bytes.size());
    auto storage = codec.parseChunk(std::move(buf), {}, "test chunk");
    if (!storage)
        qFatal("%s", storage.message().c_str());
    return std::make_shared<DecodedChunk>(0, 0, std::move(*storage), std::move(trust));
}

/// A HashTrust for the shooter schema that has sampled every frame of `chunk`.
std::shared_ptr<HashTrust> trustFrom(const DecodedChunk& chunk)
{
    auto t = std::make_shared<HashTrust>(shooterSchema().structs().size());
    for (size_t i = 0; i < chunk.frameCount(); ++i)
        t->observeFrame(chunk.frame(i), int32_t(i));
    return t;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): taken by value to move the containers out
FrameData frameOf(std::vector<std::pair<std::string, PropertyContainerData>> entities, size_t bucket = 0)
{
    FrameData f;
    f.buckets.resize(bucket + 1);
    for (auto& [id, e] : entities) {
        f.buckets[bucket].uniqueIds.push_back(id);
        f.buckets[bucket].entities.push_back(std::move(e));
    }
    return f;
}

QStringList changeList(const FrameDiff& d)
{
    QStringList out;
    for (const EntityDiff& e : d.entities) {
        if (e.status != EntityStatus::Changed) {
            out << QString("%1 %2").arg(QString::fromUtf8(e.uniqueId.data(), qsizetype(e.uniqueId.size())), entityStatusName(e.status));
            continue;
        }
        for (const PropertyChange& c : d.changesOf(e))
            out << QString::fromStdString(d.pathText(c, shooterSchema()) + ":" + changeKindName(c.kind));
    }
    return out;
}

struct EngineCase {
    const char* name;
    std::function<void(PlayerSpec&)> mutate;
    QStringList expected;
    std::function<void(DiffOptions&)> options = {};
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();

const std::vector<EngineCase>& engineCases()
{
    static const std::vector<EngineCase> cases = {
        {"identical", [](PlayerSpec&) {}, {}},
        {"float", [](PlayerSpec& p) { p.health = 87.5f; }, {"Health:changed"}},
        {"int32", [](PlayerSpec& p) { p.team = 2; }, {"Team:changed"}},
        {"int64", [](PlayerSpec& p) { p.damageDealt = 1001; }, {"DamageDealt:changed"}},
        {"int64 extremes", [](PlayerSpec& p) { p.damageDealt = std::numeric_limits<int64_t>::max(); }, {"DamageDealt:changed"}},
        {"double", [](PlayerSpec& p) { p.accuracy = 0.75; }, {"Accuracy:changed"}},
        {"bool", [](PlayerSpec& p) { p.alive = false; }, {"IsAlive:changed"}},
        {"string", [](PlayerSpec& p) { p.name = "Echo"; }, {"Name:changed"}},
        {"vector", [](PlayerSpec& p) { p.position.y = 2.5; }, {"Position:changed"}},
        {"quat",
         [](PlayerSpec& p) {
             p.view = {0, 0.5f, 0, 0.8660254f};
         },
         {"ViewAngles:changed"}},
        {"transform", [](PlayerSpec& p) { p.pose.scale.z = 2; }, {"Pose:changed"}},
        {"nested struct", [](PlayerSpec& p) { p.clip = 29; }, {"ActiveWeapon.Clip:changed"}},
        {"two levels deep", [](PlayerSpec& p) { p.attachment = "silencer"; }, {"ActiveWeapon.Attachment.Name:changed"}},
        {"int32 array element", [](PlayerSpec& p) { p.grenades[1] = 3; }, {"Grenades[1]:changed"}},
        {"array grows", [](PlayerSpec& p) { p.grenades.push_back(4); }, {"Grenades:changed", "Grenades[2]:added"}},
        {"array shrinks", [](PlayerSpec& p) { p.inventory.pop_back(); }, {"Inventory:changed", "Inventory[1]:removed"}},
        {"array emptied", [](PlayerSpec& p) { p.trail.clear(); }, {"Trail:changed", "Trail[0]:removed", "Trail[1]:removed"}},
        {"every flat array kind",
         [](PlayerSpec& p) {
             p.recentDamage[0] = 11;
             p.trail[1].x = 2;
             p.shots[1] = 0.75;
             p.flags[1] = true;
             p.hitGroups[0] = 7;
             p.glances[0].w = 0.5f;
             p.waypoints[0].translation.x = 9;
             p.inventory[0] = "pistol";
         },
         {"Inventory[0]:changed", "RecentDamage[0]:changed", "Trail[1]:changed", "ShotTimes[1]:changed", "Flags[1]:changed", "HitGroups[0]:changed",
          "Glances[0]:changed", "Waypoints[0]:changed"}},
        {"struct array element", [](PlayerSpec& p) { p.utility[1].second = 0; }, {"Utility[1].Clip:changed"}},
        {"struct array grows",
         [](PlayerSpec& p) {
             p.utility.push_back({"he", 1});
         },
         {"Utility:changed", "Utility[2]:added"}},
        {"map value", [](PlayerSpec& p) { p.rounds[0].second.kills = 2; }, {"RoundStats[r1].Kills:changed"}},
        {"map key added",
         [](PlayerSpec& p) {
             p.rounds.push_back({"r3", {}});
         },
         {"RoundStats[r3]:added"}},
        {"map key removed", [](PlayerSpec& p) { p.rounds.erase(p.rounds.begin()); }, {"RoundStats[r1]:removed"}},
        {"map reordered", [](PlayerSpec& p) { std::swap(p.rounds[0], p.rounds[1]); }, {}},
        {"map reordered and a value changed",
         [](PlayerSpec& p) {
             std::swap(p.rounds[0], p.rounds[1]);
             p.rounds[1].second.kills = 5;
         },
         {"RoundStats[r1].Kills:changed"}},
        {"map key renamed after an equal one",
         [](PlayerSpec& p) {
             p.rounds[1].first = "r9";
             p.rounds[0].second.kills = 3;
         },
         {"RoundStats[r1].Kills:changed", "RoundStats[r2]:removed", "RoundStats[r9]:added"}},
        {"several elements of one array",
         [](PlayerSpec& p) {
             p.shots = {0.25, 0.5, 0.75, 1.0};
             p.waypoints = {Transform{}, Transform{}, Transform{}};
         },
         {"ShotTimes:changed", "ShotTimes[2]:added", "ShotTimes[3]:added", "Waypoints:changed", "Waypoints[1]:added", "Waypoints[2]:added"}},
        {"every element of one array",
         [](PlayerSpec& p) {
             p.shots = {1.25, 1.5};
             p.trail = {{5, 0, 0}, {6, 1, 1}};
         },
         {"Trail[0]:changed", "Trail[1]:changed", "ShotTimes[0]:changed", "ShotTimes[1]:changed"}},
        {"below absolute epsilon", [](PlayerSpec& p) { p.health = 100.0001f; }, {}, [](DiffOptions& o) { o.tolerance.absolute = 1e-3; }},
        {"above absolute epsilon",
         [](PlayerSpec& p) { p.health = 100.01f; },
         {"Health:changed"},
         [](DiffOptions& o) { o.tolerance.absolute = 1e-3; }},
        {"exact without epsilon", [](PlayerSpec& p) { p.health = 100.0001f; }, {"Health:changed"}},
        {"relative epsilon",
         [](PlayerSpec& p) {
             p.damageDealt = 1000;
             p.position.x = 1.0000001;
         },
         {},
         [](DiffOptions& o) { o.tolerance.relative = 1e-6; }},
        {"epsilon on vector components", [](PlayerSpec& p) { p.position.z = 3.0005; }, {}, [](DiffOptions& o) { o.tolerance.absolute = 1e-3; }},
        {"epsilon never applies to ints", [](PlayerSpec& p) { p.team = 2; }, {"Team:changed"}, [](DiffOptions& o) { o.tolerance.absolute = 10; }},
        {"nan to nan", [](PlayerSpec& p) { p.health = kNaN; }, {}},
        {"number to nan", [](PlayerSpec& p) { p.health = kNaN; }, {"Health:changed"}},
        {"nan to number", [](PlayerSpec& p) { p.recentDamage[0] = kNaN; }, {"RecentDamage[0]:changed"}},
        {"plus zero to minus zero", [](PlayerSpec& p) { p.position.x = -0.0; }, {}},
        {"ignored name",
         [](PlayerSpec& p) {
             p.health = 1;
             p.team = 2;
         },
         {"Team:changed"},
         [](DiffOptions& o) { o.ignore = {"Health"}; }},
        {"ignored at depth",
         [](PlayerSpec& p) {
             p.clip = 1;
             p.utility[0].second = 5;
         },
         {},
         [](DiffOptions& o) { o.ignore = {"Clip"}; }},
    };
    return cases;
}

PlayerSpec baseSpec(const char* caseName)
{
    PlayerSpec p;
    if (std::strcmp(caseName, "nan to nan") == 0)
        p.health = kNaN;
    if (std::strcmp(caseName, "int64 extremes") == 0)
        p.damageDealt = std::numeric_limits<int64_t>::min();
    if (std::strcmp(caseName, "plus zero to minus zero") == 0)
        p.position.x = 0.0;
    return p;
}

} // namespace

class TestDiff : public QObject {
    Q_OBJECT
private slots:
    void engine_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("backend");
        const auto& cases = engineCases();
        for (int i = 0; i < int(cases.size()); ++i) {
            QTest::addRow("fbs: %s", cases[size_t(i)].name) << i << int(Backend::FlatBuffers);
            QTest::addRow("proto: %s", cases[size_t(i)].name) << i << int(Backend::Protobuf);
        }
    }
    void engine()
    {
        QFETCH(int, index);
        QFETCH(int, backend);
        const EngineCase& c = engineCases()[size_t(index)];
        PlayerSpec a = baseSpec(c.name), b = a;
        c.mutate(b);
        auto chunk = encode({frameOf({{"player_0", player(a)}}), frameOf({{"player_0", player(b)}})}, Backend(backend));
        DiffOptions opt;
        if (c.options)
            c.options(opt);
        FrameDiff d;
        diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), opt, d);
        QCOMPARE(changeList(d), c.expected);
        const BucketDiffCounts t = d.totals();
        QCOMPARE(t.changed, c.expected.isEmpty() ? 0u : 1u);
        QCOMPARE(t.unchanged, c.expected.isEmpty() ? 1u : 0u);
        // The same result without the hash short-circuit: it only saves work.
        opt.useContentHash = false;
        FrameDiff slow;
        diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), opt, slow);
        QCOMPARE(changeList(slow), c.expected);
    }

    void valuesAndDeltas()
    {
        PlayerSpec a, b;
        b.health = 87.5f;
        b.position = {1, 2, 4};
        b.team = 3;
        auto chunk = encode({frameOf({{"p", player(a)}}), frameOf({{"p", player(b)}})}, Backend::FlatBuffers);
        FrameDiff d;
        diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), {}, d);
        const Schema& s = shooterSchema();
        QCOMPARE(d.entities.size(), size_t(1));
        std::map<std::string, const PropertyChange*> byPath;
        for (const auto& c : d.changesOf(d.entities[0]))
            byPath[d.pathText(c, s)] = &c;
        QCOMPARE(byPath.size(), size_t(3));
        QCOMPARE(byPath["Health"]->a().number, 100.0);
        QCOMPARE(byPath["Health"]->b().number, 87.5);
        QCOMPARE(deltaJson(byPath["Health"]->a(), byPath["Health"]->b()).dump(), std::string("-12.5"));
        QCOMPARE(deltaJson(byPath["Position"]->a(), byPath["Position"]->b()).dump(), std::string("[0.0,0.0,1.0]"));
        QCOMPARE(deltaJson(byPath["Team"]->a(), byPath["Team"]->b()).dump(), std::string("2"));
        QCOMPARE(formatValue(byPath["Position"]->b()), std::string("(1, 2, 4)"));
        QCOMPARE(d.leafName(*byPath["Position"], s), std::string("Position"));
        // int64 extremes: the exact difference overflows int64, so the delta is a double.
        const Value lo = Value::ofInt(std::numeric_limits<int64_t>::min()), hi = Value::ofInt(std::numeric_limits<int64_t>::max());
        QCOMPARE(deltaJson(lo, hi).get<double>(), 18446744073709551615.0);
        QCOMPARE(deltaJson(hi, lo).get<double>(), -18446744073709551615.0);
        QCOMPARE(deltaOf(lo, hi)->values[0], 18446744073709551615.0);
        QCOMPARE(deltaJson(Value::ofInt(-5), Value::ofInt(7)).get<int64_t>(), int64_t(12));
    }

    void entitiesMatchedByUniqueId_data()
    {
        QTest::addColumn<QStringList>("idsA");
        QTest::addColumn<QStringList>("idsB");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("same order") << QStringList{"a", "b", "c"} << QStringList{"a", "b", "c"} << QStringList{};
        QTest::newRow("reordered") << QStringList{"a", "b", "c"} << QStringList{"c", "a", "b"} << QStringList{};
        QTest::newRow("added") << QStringList{"a", "b"} << QStringList{"a", "x", "b"} << QStringList{"x added"};
        QTest::newRow("removed") << QStringList{"a", "b", "c"} << QStringList{"c", "a"} << QStringList{"b removed"};
        QTest::newRow("replaced") << QStringList{"a", "b"} << QStringList{"b", "z"} << QStringList{"a removed", "z added"};
        QTest::newRow("all new") << QStringList{} << QStringList{"a"} << QStringList{"a added"};
        QTest::newRow("all gone") << QStringList{"a"} << QStringList{} << QStringList{"a removed"};
    }
    void entitiesMatchedByUniqueId()
    {
        QFETCH(QStringList, idsA);
        QFETCH(QStringList, idsB);
        QFETCH(QStringList, expected);
        // Entity content depends on the id only, so matched pairs are equal.
        auto build = [](const QStringList& ids) {
            std::vector<std::pair<std::string, PropertyContainerData>> v;
            for (const QString& id : ids) {
                PlayerSpec p;
                p.name = id.toStdString();
                v.emplace_back(id.toStdString(), player(p));
            }
            return frameOf(std::move(v));
        };
        for (Backend be : {Backend::FlatBuffers, Backend::Protobuf}) {
            auto chunk = encode({build(idsA), build(idsB)}, be);
            FrameDiff d;
            diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), {}, d);
            QCOMPARE(changeList(d), expected);
        }
    }

    void typeChangeAndOnlySelected()
    {
        const Schema& s = shooterSchema();
        PropertyContainerData proj = vtxgen::makeContainer(s, "Projectile");
        ContainerFiller(s, "Projectile", proj).set("Kind", "he");
        PlayerSpec p1, p2 = p1;
        p2.health = 5;
        auto chunk = encode({frameOf({{"x", player(p1)}, {"y", player(p1)}}), frameOf({{"x", proj}, {"y", player(p2)}})}, Backend::FlatBuffers);
        FrameDiff d;
        diffFrames(chunk->frame(0), chunk->frame(1), s, {}, d);
        QCOMPARE(changeList(d), (QStringList{":type_changed", "Health:changed"}));
        QCOMPARE(d.entities[0].typeIdA, s.structByName("Player")->typeId);
        QCOMPARE(d.entities[0].typeIdB, s.structByName("Projectile")->typeId);
        DiffOptions only;
        only.only = {{0, "y"}};
        diffFrames(chunk->frame(0), chunk->frame(1), s, only, d);
        QCOMPARE(changeList(d), QStringList{"Health:changed"});
        only.only = {{1, "y"}}; // another bucket: nothing selected
        diffFrames(chunk->frame(0), chunk->frame(1), s, only, d);
        QVERIFY(d.entities.empty());
    }

    void everyBucketIsCompared()
    {
        PlayerSpec p, q;
        q.team = 9;
        FrameData a = frameOf({{"e", player(p)}}), b = frameOf({{"e", player(p)}});
        a.buckets.resize(3);
        b.buckets.resize(3);
        a.buckets[2].uniqueIds = {"bone"};
        a.buckets[2].entities = {player(p)};
        b.buckets[2].uniqueIds = {"bone"};
        b.buckets[2].entities = {player(q)};
        auto chunk = encode({a, b}, Backend::Protobuf);
        const auto trust = trustFrom(*chunk);
        DiffOptions opt;
        opt.hashTrust = trust.get();
        FrameDiff d;
        diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), opt, d);
        QCOMPARE(d.buckets.size(), size_t(3));
        QCOMPARE(d.entities.size(), size_t(1));
        QCOMPARE(d.entities[0].bucket, 2u);
        QCOMPARE(changeList(d), QStringList{"Team:changed"});
        QCOMPARE(d.buckets[0].skippedByHash, 1u);
    }

    void equalHashesSkipTheValues()
    {
        // A forged stored hash proves the short-circuit: values differ, hashes claim equality.
        // The trust comes from a clean sample (frame 0 only), as when the forged frame is one
        // the file's sampling did not look at.
        PlayerSpec p, q;
        q.health = 1;
        PropertyContainerData a = player(p), b = player(q);
        fillContentHashes(a);
        fillContentHashes(b);
        b.contentHash = a.contentHash;
        auto trust = std::make_shared<HashTrust>(shooterSchema().structs().size());
        auto chunk = encode({frameOf({{"e", a}}), frameOf({{"e", b}})}, Backend::FlatBuffers, trust);
        trust->observeFrame(chunk->frame(0), 0);
        FrameDiff d;
        diffFrames(FrameHandle(chunk, 0), FrameHandle(chunk, 1), shooterSchema(), {}, d);
        QVERIFY(d.entities.empty());
        QCOMPARE(d.totals().skippedByHash, 1u);
        // Once the sample sees the forged frame, its hash matches neither variant: no shortcut.
        trust->observeFrame(chunk->frame(1), 1);
        QCOMPARE(trust->verdict(a.typeId), HashVerdict::Neither);
        diffFrames(FrameHandle(chunk, 0), FrameHandle(chunk, 1), shooterSchema(), {}, d);
        QCOMPARE(changeList(d), QStringList{"Health:changed"});
        QCOMPARE(d.totals().skippedByHash, 0u);
        DiffOptions noHash;
        noHash.useContentHash = false;
        diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), noHash, d);
        QCOMPARE(changeList(d), QStringList{"Health:changed"});
        QCOMPARE(d.totals().skippedByHash, 0u);
    }

    void longArraysAreBounded()
    {
        PlayerSpec p, q;
        p.shots.assign(5000, 1.0);
        q.shots.assign(5000, 2.0);
        auto chunk = encode({frameOf({{"e", player(p)}}), frameOf({{"e", player(q)}})}, Backend::FlatBuffers);
        DiffOptions opt;
        opt.maxChangesPerProperty = 100;
        FrameDiff d;
        diffFrames(chunk->frame(0), chunk->frame(1), shooterSchema(), opt, d);
        QCOMPARE(d.changes.size(), size_t(100));
        QCOMPARE(d.omittedChanges, uint64_t(4900));
    }

    void sdkBackendsGiveIdenticalDiffs_data()
    {
        QTest::addColumn<QString>("fbs");
        QTest::addColumn<QString>("proto");
        QTest::newRow("arena") << "arena_from_fbs_ds.vtx"
                               << "arena_from_proto_ds.vtx";
        QTest::newRow("allkinds") << "allkinds_fbs.vtx"
                                  << "allkinds_proto.vtx";
    }
    void sdkBackendsGiveIdenticalDiffs()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, fbs);
        QFETCH(QString, proto);
        auto f = ReplayFile::open(vtxtest::samplePath(fbs.toStdString()));
        auto p = ReplayFile::open(vtxtest::samplePath(proto.toStdString()));
        VTX_VERIFY_OK(f);
        VTX_VERIFY_OK(p);
        const int32_t last = (*f)->frameCount() - 1;
        QCOMPARE((*p)->frameCount(), (*f)->frameCount());
        size_t nonEmpty = 0;
        for (auto [x, y] : {std::pair{0, 1}, {0, last}, {last / 2, last / 2 + 1}, {last, 0}, {7, 7}}) {
            auto fa = (*f)->frame(x), fb = (*f)->frame(y), pa = (*p)->frame(x), pb = (*p)->frame(y);
            VTX_VERIFY_OK(fa);
            VTX_VERIFY_OK(pb);
            const Json jf = diffJson(diffFrames(*fa, *fb, (*f)->schema()), (*f)->schema(), {});
            const Json jp = diffJson(diffFrames(*pa, *pb, (*p)->schema()), (*p)->schema(), {});
            QCOMPARE(QString::fromStdString(jp.dump()), QString::fromStdString(jf.dump()));
            nonEmpty += jf["entities"].empty() ? 0 : 1;
            if (x == y)
                QVERIFY(jf["entities"].empty());
        }
        QVERIFY(nonEmpty >= 3); // the pairs really differ
    }

    // The diff streams a cold frame in through FrameView::bytes(): check on files from our
    // writer and from the SDK (both backends) that the range really holds the frame's entities.
    void frameBytesHoldTheirFrame_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("sample");
        QTest::newRow("demo (vtxscope writer)") << "demo" << false;
        QTest::newRow("SDK FlatBuffers") << "arena_from_fbs_ds.vtx" << true;
        QTest::newRow("SDK Protobuf") << "arena_from_proto_ds.vtx" << true;
        QTest::newRow("SDK all kinds FlatBuffers") << "allkinds_fbs.vtx" << true;
    }
    void frameBytesHoldTheirFrame()
    {
        QFETCH(QString, file);
        QFETCH(bool, sample);
        if (sample)
            VTX_REQUIRE_SAMPLES();
        auto f = ReplayFile::open(sample ? vtxtest::samplePath(file.toStdString()) : vtxtest::sourceDir() + "/fixtures/demo.vtx");
        VTX_VERIFY_OK(f);
        auto chunk = (*f)->decodeChunk(0);
        VTX_VERIFY_OK(chunk);
        const auto& c = **chunk;
        QVERIFY(c.frameCount() > 1);
        std::vector<std::pair<const uint8_t*, const uint8_t*>> ranges;
        size_t entities = 0;
        for (size_t i = 0; i < c.frameCount(); ++i) {
            const FrameView v = c.frame(i);
            const auto bytes = v.bytes();
            QVERIFY2(!bytes.empty(), qPrintable(QString("frame %1 has no byte range").arg(i)));
            ranges.emplace_back(bytes.data(), bytes.data() + bytes.size());
            for (size_t b = 0; b < v.bucketCount(); ++b) {
                const ContainerList list = v.bucket(b).entities();
                for (size_t e = 0; e < list.size(); ++e) {
                    const auto* t = reinterpret_cast<const uint8_t*>(list[e].raw());
                    QVERIFY2(t >= bytes.data() && t < bytes.data() + bytes.size(),
                             qPrintable(QString("frame %1 bucket %2 entity %3 outside the frame's bytes").arg(i).arg(b).arg(e)));
                    ++entities;
                }
            }
        }
        QVERIFY(entities > 0);
        std::sort(ranges.begin(), ranges.end());
        for (size_t i = 1; i < ranges.size(); ++i)
            QVERIFY2(ranges[i - 1].second <= ranges[i].first, "frame byte ranges overlap");
    }

    void propertyPaths_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("float") << "Health"
                               << "100";
        QTest::newRow("string") << "Name"
                                << "\"Delta\"";
        QTest::newRow("vector") << "Position"
                                << "(1, 2, 3)";
        QTest::newRow("vector component") << "Position.z"
                                          << "3";
        QTest::newRow("quat component") << "ViewAngles.w"
                                        << "1";
        QTest::newRow("transform part") << "Pose.translation.y"
                                        << "5";
        QTest::newRow("nested") << "ActiveWeapon.Attachment.Name"
                                << "\"scope\"";
        QTest::newRow("array") << "Grenades"
                               << "[2]";
        QTest::newRow("array element") << "Inventory[1]"
                                       << "\"ak47\"";
        QTest::newRow("vector array component") << "Trail[1].x"
                                                << "1";
        QTest::newRow("struct array field") << "Utility[1].Name"
                                            << "\"smoke\"";
        QTest::newRow("map") << "RoundStats"
                             << "{2}";
        QTest::newRow("map value field") << "RoundStats[r1].Damage"
                                         << "50";
        QTest::newRow("missing key") << "RoundStats[r9].Damage"
                                     << "—";
        QTest::newRow("out of range") << "Grenades[5]"
                                      << "—";
        QTest::newRow("unknown field") << "Nope"
                                       << "—";
        QTest::newRow("component of scalar") << "Health.x"
                                             << "—";
    }
    void propertyPaths()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        auto chunk = encode({frameOf({{"e", player({})}})}, Backend::Protobuf);
        auto p = PropertyPath::parse(path.toStdString());
        VTX_VERIFY_OK(p);
        const ContainerView e = chunk->frame(0).bucket(0).entity(0);
        QCOMPARE(QString::fromStdString(formatValue(p->evaluate(e, shooterSchema()))), expected);
        // Evaluating twice goes through the field cache and must agree.
        QCOMPARE(QString::fromStdString(formatValue(p->evaluate(e, shooterSchema()))), expected);
    }

    void badPathsAndConditions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("isCondition");
        QTest::newRow("empty path") << "" << false;
        QTest::newRow("trailing dot") << "Weapon." << false;
        QTest::newRow("double dot") << "A..B" << false;
        QTest::newRow("unclosed bracket") << "Trail[2" << false;
        QTest::newRow("no operator") << "Health 20" << true;
        QTest::newRow("no value") << "Health <" << true;
        QTest::newRow("bad operator") << "Health =< 3" << true;
        QTest::newRow("no path") << "< 3" << true;
        QTest::newRow("unknown property") << "Nope != 1" << true;
        QTest::newRow("bare string") << "Name != Echo" << true;
    }
    void badPathsAndConditions()
    {
        QFETCH(QString, text);
        QFETCH(bool, isCondition);
        if (isCondition) {
            query::ExpressionError error;
            QVERIFY(!query::Expression::compile(text.toStdString(), shooterSchema(), &error));
            QVERIFY(!error.message.empty());
        } else {
            auto p = PropertyPath::parse(text.toStdString());
            QVERIFY(!p.isOk());
            QVERIFY(p.message().find("property path") != std::string::npos);
        }
    }

    // Conditions of the query language on one entity of the shooter schema (the full language
    // is tested in tst_expression).
    void conditions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("holds");
        QTest::newRow("less") << "Health < 120" << true;
        QTest::newRow("less false") << "Health < 20" << false;
        QTest::newRow("greater equal") << "Health >= 100" << true;
        QTest::newRow("bool") << "IsAlive == true" << true;
        QTest::newRow("bool false") << "IsAlive == false" << false;
        QTest::newRow("string quoted") << "Name == \"Delta\"" << true;
        QTest::newRow("string !=") << "Name != \"Echo\"" << true;
        QTest::newRow("nested") << "ActiveWeapon.Clip <= 30" << true;
        QTest::newRow("map key with operator chars") << "RoundStats[r1].Kills > 0" << true;
        QTest::newRow("map key absent never holds") << "RoundStats[nope].Kills != 1" << false;
    }
    void conditions()
    {
        QFETCH(QString, text);
        QFETCH(bool, holds);
        auto chunk = encode({frameOf({{"e", player({})}})}, Backend::FlatBuffers);
        query::ExpressionError error;
        auto c = query::Expression::compile(text.toStdString(), shooterSchema(), &error);
        QVERIFY2(c, error.text().c_str());
        c->setFrame(chunk->frame(0));
        QCOMPARE(c->matchesEntity(0, 0), holds);
    }

    void seekByChange_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("condition");
        QTest::addColumn<int>("from");
        QTest::addColumn<bool>("forward");
        for (bool fwd : {true, false}) {
            const char* dir = fwd ? "forward" : "backward";
            QTest::addRow("Health change %s", dir) << "Health"
                                                   << "" << 900 << fwd;
            QTest::addRow("Position change %s", dir) << "Position"
                                                     << "" << 900 << fwd;
            QTest::addRow("Clip change %s", dir) << "ActiveWeapon.Clip"
                                                 << "" << 900 << fwd;
            QTest::addRow("Trail change %s", dir) << "Trail"
                                                  << "" << 900 << fwd;
            QTest::addRow("Health < 60 %s", dir) << ""
                                                 << "id == \"player_3\" && Health < 60" << 900 << fwd;
            QTest::addRow("IsAlive false %s", dir) << ""
                                                   << "IsAlive == false" << 900 << fwd;
            QTest::addRow("any player below 40 %s", dir) << ""
                                                         << "any(Player.Health < 40)" << 900 << fwd;
            QTest::addRow("changed Money %s", dir) << ""
                                                   << "changed(Money) && Team == 2" << 900 << fwd;
            QTest::addRow("from the edge %s", dir) << "Health"
                                                   << "" << (fwd ? 0 : 1799) << fwd;
        }
    }
    void seekByChange()
    {
        QFETCH(QString, path);
        QFETCH(QString, condition);
        QFETCH(int, from);
        QFETCH(bool, forward);
        auto file = ReplayFile::open(vtxtest::sourceDir() + "/fixtures/demo.vtx");
        VTX_VERIFY_OK(file);
        const ReplayFile& f = **file;
        FrameScanRequest req;
        req.entity = {0, "player_3"};
        req.from = from;
        req.forward = forward;
        if (condition.isEmpty()) {
            req.mode = FrameScanRequest::Mode::NextChange;
            req.path = path.toStdString();
        } else {
            query::ExpressionError error;
            auto c = query::Expression::compile(condition.toStdString(), f.schema(), &error);
            QVERIFY2(c, error.text().c_str());
            req.mode = FrameScanRequest::Mode::ConditionBecomesTrue;
            req.condition = *c;
        }
        int64_t lastDone = -1, total = -1;
        FrameScanControl ctl;
        ctl.progress = [&](int64_t done, int64_t all) {
            QVERIFY(done >= lastDone);
            lastDone = done;
            total = all;
        };
        auto r = scanFrames(f, req, ctl);
        VTX_VERIFY_OK(r);
        QVERIFY(!r->cancelled);
        // Handing over the chunk on screen (as the GUI does) changes nothing but the work.
        auto held = f.decodeChunk(*f.chunkForFrame(from));
        VTX_VERIFY_OK(held);
        FrameScanControl withHeld;
        withHeld.decoded = {*held};
        auto r2 = scanFrames(f, req, withHeld);
        VTX_VERIFY_OK(r2);
        QCOMPARE(r2->frame, r->frame);

        // Brute force: the value of every frame, then the first change point after `from`.
        auto p = PropertyPath::parse(condition.isEmpty() ? path.toStdString() : "Health");
        VTX_VERIFY_OK(p);
        std::optional<query::Expression> brute = req.condition;
        std::vector<std::shared_ptr<const DecodedChunk>> keep; // previousView's chunk stays alive
        FrameView previousView;
        std::vector<std::string> text;
        std::vector<bool> holds;
        for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
            auto chunk = f.decodeChunk(ci);
            VTX_VERIFY_OK(chunk);
            keep.push_back(*chunk);
            for (size_t k = 0; k < (*chunk)->frameCount(); ++k) {
                const Value v = p->evaluate(findEntity((*chunk)->frame(k), 0, "player_3"), f.schema());
                text.push_back(formatValue(v) + "#" + std::to_string(v.digest) + "#" + std::to_string(v.count));
                if (brute) { // the whole frame, with the frame before it for changed()
                    brute->setFrame((*chunk)->frame(k), previousView);
                    holds.push_back(brute->matchesFrame());
                    previousView = (*chunk)->frame(k);
                } else {
                    holds.push_back(false);
                }
            }
        }
        QCOMPARE(int(text.size()), f.frameCount());
        auto isHit = [&](int32_t i) {
            if (i <= 0)
                return false;
            return condition.isEmpty() ? text[size_t(i)] != text[size_t(i - 1)] : (holds[size_t(i)] && !holds[size_t(i - 1)]);
        };
        std::optional<int32_t> expected;
        if (forward) {
            for (int32_t i = from + 1; i < f.frameCount() && !expected; ++i)
                if (isHit(i))
                    expected = i;
        } else {
            for (int32_t i = from - 1; i > 0 && !expected; --i)
                if (isHit(i))
                    expected = i;
        }
        QCOMPARE(r->frame, expected);
        if (qEnvironmentVariableIsSet("VTX_TEST_VERBOSE"))
            qInfo("found %d", expected ? *expected : -1);
        if (!expected)
            QCOMPARE(lastDone, total);
    }

    void scanIsCancellable()
    {
        auto file = ReplayFile::open(vtxtest::sourceDir() + "/fixtures/demo.vtx");
        VTX_VERIFY_OK(file);
        FrameScanRequest req;
        req.entity = {0, "nobody"};
        req.path = "Health";
        std::atomic<bool> cancel{false};
        FrameScanControl ctl;
        ctl.cancel = &cancel;
        ctl.progress = [&](int64_t done, int64_t) {
            if (done > 0)
                cancel = true;
        };
        auto r = scanFrames(**file, req, ctl);
        VTX_VERIFY_OK(r);
        QVERIFY(r->cancelled);
        QVERIFY(!r->frame);
        QVERIFY(r->framesScanned < (*file)->frameCount() - 1);
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
