// SPDX-License-Identifier: MIT
// Which property names an entity of each type (vtx::EntityLabels), on the SDK samples and the
// other shared samples: DisplayName where the schema has it, a sensible fallback elsewhere, and
// the id alone (an empty label) when a type has no name.

#include "TestSupport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/ReplayWriter.hpp"
#include "vtx/model/EntityLabels.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace vtx;

namespace {
// Kept out of the test class: moc does not read raw string literals.
std::string field(const char* name, const char* type)
{
    return std::string(R"({"name":")") + name + R"(","typeId":")" + type + R"(","containerType":"None","structType":"","keyId":"None"})";
}
std::string playerSchema()
{
    return R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + field("UniqueID", "String") + "," +
        field("DisplayName", "String") + "," + field("Health", "Float") + "]}]}";
}
} // namespace

class TestEntityLabels : public QObject {
    Q_OBJECT

    static std::shared_ptr<ReplayFile> open(const QString& file)
    {
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        return f ? *f : nullptr;
    }

private slots:
    void chosenField_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("field"); // "" = id only
        for (const char* b : {"fbs", "proto"}) {
            const QString cs = QString("sdk_cs_%1.vtx").arg(b), rl = QString("sdk_rl_%1.vtx").arg(b);
            QTest::addRow("cs_%s Player", b) << cs << "Player"
                                             << "DisplayName";
            QTest::addRow("cs_%s Weapon", b) << cs << "Weapon"
                                             << "DisplayName";
            QTest::addRow("cs_%s Entity", b) << cs << "Entity"
                                             << "DisplayName";
            QTest::addRow("cs_%s MatchInfo: MapName, not an id", b) << cs << "MatchInfo"
                                                                    << "MapName";
            QTest::addRow("cs_%s OptimizedBoneData: id only", b) << cs << "OptimizedBoneData"
                                                                 << "";
            QTest::addRow("rl_%s Car", b) << rl << "Car"
                                          << "DisplayName";
            QTest::addRow("rl_%s Player", b) << rl << "Player"
                                             << "DisplayName";
            QTest::addRow("rl_%s Team", b) << rl << "Team"
                                           << "DisplayName";
            QTest::addRow("arena_%s Player: Name", b) << QString("arena_from_%1_ds.vtx").arg(b) << "Player"
                                                      << "Name";
            QTest::addRow("arena_%s Projectile: id only", b) << QString("arena_from_%1_ds.vtx").arg(b) << "Projectile"
                                                             << "";
            QTest::addRow("arena_%s MatchState: id only", b) << QString("arena_from_%1_ds.vtx").arg(b) << "MatchState"
                                                             << "";
            QTest::addRow("allkinds_%s Hero: Name", b) << QString("allkinds_%1.vtx").arg(b) << "Hero"
                                                       << "Name";
            QTest::addRow("allkinds_%s GameState: id only", b) << QString("allkinds_%1.vtx").arg(b) << "GameState"
                                                               << "";
        }
    }
    void chosenField()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        QFETCH(QString, type);
        QFETCH(QString, field);
        auto f = open(file);
        QVERIFY(f);
        const StructDef* def = f->schema().structByName(type.toStdString());
        QVERIFY2(def, qPrintable(type));
        const EntityLabels labels = EntityLabels::choose(f->schema());
        QCOMPARE(QString::fromStdString(std::string(labels.field(def->typeId))), field);
    }

    void labelsAtFrame_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("frame");
        QTest::addColumn<int>("bucket");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("label"); // "" = the id is shown
        for (const char* b : {"fbs", "proto"}) {
            const QString cs = QString("sdk_cs_%1.vtx").arg(b);
            QTest::addRow("cs_%s s1mple", b) << cs << 0 << 0 << "player_76561198000000000"
                                             << "s1mple";
            QTest::addRow("cs_%s M4A4", b) << cs << 200 << 0 << "weapon_1000"
                                           << "M4A4";
            QTest::addRow("cs_%s map", b) << cs << 399 << 0 << "matchinfo"
                                          << "de_mirage";
            QTest::addRow("cs_%s bones: id", b) << cs << 0 << 1 << "player_76561198000000000"
                                                << "";
            QTest::addRow("rl_%s car", b) << QString("sdk_rl_%1.vtx").arg(b) << 1200 << 0 << "car_0"
                                          << "Zen";
            QTest::addRow("rl_%s ball", b) << QString("sdk_rl_%1.vtx").arg(b) << 0 << 0 << "ball_0"
                                           << "Ball";
            QTest::addRow("allkinds_%s hero", b) << QString("allkinds_%1.vtx").arg(b) << 0 << 0 << "hero_0"
                                                 << "Alpha";
            QTest::addRow("allkinds_%s state: id", b) << QString("allkinds_%1.vtx").arg(b) << 0 << 0 << "state"
                                                      << "";
        }
    }
    void labelsAtFrame()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        QFETCH(int, frame);
        QFETCH(int, bucket);
        QFETCH(QString, id);
        QFETCH(QString, label);
        auto f = open(file);
        QVERIFY(f);
        auto h = f->frame(frame);
        VTX_VERIFY_OK(h);
        const EntityLabels labels = EntityLabels::choose(f->schema());
        const BucketView bk = h->view().bucket(size_t(bucket));
        bool found = false;
        for (size_t e = 0; e < bk.entityCount(); ++e)
            if (bk.uniqueId(e) == id.toStdString()) {
                found = true;
                QCOMPARE(QString::fromStdString(std::string(labels.label(bk.entity(e)))), label);
            }
        QVERIFY2(found, qPrintable(id));
    }

    void labelIsTheFramesValue()
    {
        // Every labelled entity's label is its label property's value in that very frame.
        VTX_REQUIRE_SAMPLES();
        auto f = open("sdk_rl_fbs.vtx");
        QVERIFY(f);
        const EntityLabels labels = EntityLabels::choose(f->schema());
        for (int frame : {0, 1200, 2399}) {
            auto h = f->frame(frame);
            VTX_VERIFY_OK(h);
            const BucketView bk = h->view().bucket(0);
            for (size_t e = 0; e < bk.entityCount(); ++e) {
                const ContainerView c = bk.entity(e);
                const std::string_view field = labels.field(c.typeId());
                if (field.empty()) {
                    QVERIFY(labels.label(c).empty());
                    continue;
                }
                const auto value = c.get<std::string_view>(f->schema().key(c.typeId(), field));
                QCOMPARE(labels.label(c), value.value_or(std::string_view{}));
            }
        }
    }

    // A name that changes, goes missing and comes back: each frame's label is that frame's
    // value, and a frame whose entity lacks it (or holds "") has no label — never the old one.
    void labelFollowsTheFrame()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/renamed.vtx").toStdString();
        ReplayHeader header;
        header.schemaJson = playerSchema();
        auto writer = ReplayWriter::create(path, header);
        VTX_VERIFY_OK(writer);
        const std::vector<std::vector<std::string>> strings = {{"p1", "Alpha"}, {"p1", "Bravo"}, {"p1"}, {"p1", ""}, {"p1", "Alpha"}};
        for (size_t i = 0; i < strings.size(); ++i) {
            FrameData f;
            f.buckets.resize(1);
            PropertyContainerData e;
            e.typeId = 0;
            e.strings = strings[i];
            e.floats = {100.0f};
            f.buckets[0].entities.push_back(std::move(e));
            f.buckets[0].uniqueIds.push_back("p1");
            VTX_VERIFY_OK((*writer)->addFrame(std::move(f), int64_t(i) * 166666, 1 + int64_t(i) * 166666));
        }
        VTX_VERIFY_OK((*writer)->finish());
        auto f = ReplayFile::open(path);
        VTX_VERIFY_OK(f);
        const EntityLabels labels = EntityLabels::choose((*f)->schema());
        QCOMPARE(labels.field(0), std::string_view("DisplayName"));
        const char* want[] = {"Alpha", "Bravo", "", "", "Alpha"};
        for (int i = 0; i < 5; ++i) {
            auto h = (*f)->frame(i);
            VTX_VERIFY_OK(h);
            QCOMPARE(QString::fromStdString(std::string(labels.label(h->view().bucket(0).entity(0)))), QString(want[i]));
        }
    }

    void neverLies()
    {
        // A null entity, an unknown type and an entity that does not hold the property: no label.
        EntityLabels none;
        QVERIFY(none.label(ContainerView{}).empty());
        VTX_REQUIRE_SAMPLES();
        auto f = open("sdk_cs_fbs.vtx");
        QVERIFY(f);
        EntityLabels labels = EntityLabels::choose(f->schema());
        QVERIFY(labels.label(ContainerView{}).empty());
        QCOMPARE(labels.field(-1), std::string_view{});
        QCOMPARE(labels.field(1000), std::string_view{});
    }

    void overrides_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("field");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("label"); // of player_76561198000000000 at frame 0 afterwards
        QTest::newRow("UserName") << "Player"
                                  << "UserName" << true << "s1mple";
        QTest::newRow("MeshName") << "Player"
                                  << "MeshName" << true << "characters/models/ctm_sas/ctm_sas.vmdl";
        QTest::newRow("id only") << "Player"
                                 << "" << true << "";
        QTest::newRow("not a string") << "Player"
                                      << "Health" << false << "s1mple";
        QTest::newRow("unknown field") << "Player"
                                       << "Nope" << false << "s1mple";
        QTest::newRow("unknown type") << "Nope"
                                      << "DisplayName" << false << "s1mple";
    }
    void overrides()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, type);
        QFETCH(QString, field);
        QFETCH(bool, accepted);
        QFETCH(QString, label);
        auto f = open("sdk_cs_fbs.vtx");
        QVERIFY(f);
        EntityLabels labels = EntityLabels::choose(f->schema());
        QCOMPARE(labels.setField(f->schema(), type.toStdString(), field.toStdString()), accepted);
        auto h = f->frame(0);
        VTX_VERIFY_OK(h);
        const BucketView bk = h->view().bucket(0);
        for (size_t e = 0; e < bk.entityCount(); ++e)
            if (bk.uniqueId(e) == "player_76561198000000000")
                QCOMPARE(QString::fromStdString(std::string(labels.label(bk.entity(e)))), label);
        const StructDef* player = f->schema().structByName("Player");
        const auto c = EntityLabels::candidates(*player);
        QVERIFY(std::find(c.begin(), c.end(), "DisplayName") != c.end());
        QVERIFY(std::find(c.begin(), c.end(), "Health") == c.end());
    }
};

QTEST_GUILESS_MAIN(TestEntityLabels)
#include "tst_entitylabels.moc"
