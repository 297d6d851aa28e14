// SPDX-License-Identifier: MIT
// vtxscope-cli: golden JSON on the committed demo replay, reference values on the SDK samples,
// and the error contract (non-zero exit, one line on stderr).

#include "CorruptCopy.hpp"
#include "TestSupport.hpp"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <optional>

class TestCli : public QObject {
    Q_OBJECT

    struct Run {
        int exitCode;
        QByteArray out, err;
    };
    Run run(const QStringList& args)
    {
        QProcess p;
        p.start(QString::fromStdString(vtxtest::cliPath()), args);
        if (!p.waitForFinished(120000))
            qFatal("vtxscope-cli did not finish");
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    }
    QString demo() const { return QString::fromStdString(vtxtest::sourceDir() + "/fixtures/demo.vtx"); }

    QTemporaryDir m_dir;
    nlohmann::json m_rlInfo; // `info --json` of rl.vtx

    /// An RL-like replay of 3000 frames (generated once, FlatBuffers) as it is ("intact") or
    /// damaged as a reviewer's files were: "no footer" (cut at 60 %: recovered, frame times
    /// lost), "no frames" (cut inside the first chunk record: recovered, 0 frames), "chunk 1
    /// corrupt" (its blob overwritten; the footer intact).
    QString rlReplay(const QString& how)
    {
        QString intact = m_dir.filePath("rl.vtx");
        if (!QFile::exists(intact)) {
            const Run g = run({"generate", "rl", intact, "--frames", "3000"});
            if (g.exitCode != 0)
                qFatal("generate rl failed: %s", g.err.constData());
            m_rlInfo = nlohmann::json::parse(run({"info", intact, "--json"}).out.toStdString());
        }
        if (how == "intact")
            return intact;
        QFile in(intact);
        if (!in.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(intact));
        QByteArray bytes = in.readAll();
        const auto& chunks = m_rlInfo["chunks"];
        if (chunks.size() < 3)
            qFatal("rl.vtx has %d chunks, the damage needs 3", int(chunks.size()));
        if (how == "no footer") {
            bytes.truncate(bytes.size() * 6 / 10);
        } else if (how == "no frames") {
            bytes.truncate(qsizetype(chunks[0]["file_offset"].get<uint64_t>()) + 16);
        } else if (how == "chunk 1 corrupt") {
            // The size prefix stays (the records still line up); the blob is noise.
            const auto offset = qsizetype(chunks[1]["file_offset"].get<uint64_t>());
            const auto size = qsizetype(chunks[1]["chunk_size_bytes"].get<uint64_t>());
            for (qsizetype i = offset + 4; i < offset + size; ++i)
                bytes[i] = char(uint8_t(i * 37 + 11));
        } else {
            qFatal("unknown damage %s", qPrintable(how));
        }
        QString path = m_dir.filePath(QString(how).replace(' ', '_') + ".vtx");
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
    /// `script` runs the command on a pseudo-terminal (info prints its summary only there).
    std::optional<QByteArray> onTerminal(const QStringList& args)
    {
        const QString script = QStandardPaths::findExecutable("script");
        if (script.isEmpty())
            return std::nullopt;
        QString command = "'" + QString::fromStdString(vtxtest::cliPath()) + "'";
        for (const QString& a : args)
            command += " '" + a + "'";
        QProcess p;
        p.start(script, {"-qec", command, "/dev/null"});
        if (!p.waitForFinished(120000) || p.exitCode() != 0)
            return std::nullopt;
        return p.readAllStandardOutput().replace("\r\n", "\n");
    }

private slots:
    void golden_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("golden");
        QTest::newRow("info") << QStringList{"info", demo()} << "demo_info.json";
        QTest::newRow("frame 0") << QStringList{"frame", demo(), "0"} << "demo_frame_0.json";
        QTest::newRow("frame 1000") << QStringList{"frame", demo(), "1000"} << "demo_frame_1000.json";
        QTest::newRow("last frame") << QStringList{"frame", demo(), "1799"} << "demo_frame_1799.json";
        QTest::newRow("diff consecutive") << QStringList{"diff", demo(), "1000", "1001", "--json"} << "demo_diff_1000_1001.json";
        QTest::newRow("diff first last") << QStringList{"diff", demo(), "0", "last", "--json", "--epsilon", "0.01"} << "demo_diff_0_last.json";
        QTest::newRow("query entities") << QStringList{"query", demo(),  "Player.Health < 50 || changed(Money)", "--from", "540", "--to",
                                                       "580",   "--json"}
                                        << "demo_query_health_money.json";
        QTest::newRow("query frame-level") << QStringList{"query", demo(),  "any(Health < 40) && !all(IsAlive)", "--from", "370", "--to",
                                                          "400",   "--json"}
                                           << "demo_query_any_all.json";
        QTest::newRow("query bad expression") << QStringList{"query", demo(), "Player.Helth < 20", "--json"} << "demo_query_error.json";
    }
    void golden()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, golden);
        const Run r = run(args);
        // A bad expression is exit 2 with the error as JSON (and a caret line on stderr).
        const bool expectError = golden.endsWith("_error.json");
        QCOMPARE(r.exitCode, expectError ? 2 : 0);
        QVERIFY(r.err.isEmpty() != expectError);
        const QString path = QString::fromStdString(vtxtest::sourceDir()) + "/tests/golden/" + golden;
        if (qgetenv("VTXSCOPE_UPDATE_GOLDEN") == "1") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(r.out);
        }
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path + " missing (run with VTXSCOPE_UPDATE_GOLDEN=1 to create)"));
        const auto ours = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
        const auto expected = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        QVERIFY(!ours.is_discarded() && !expected.is_discarded());
        const auto d = vtxtest::jsonDiff(ours, expected);
        QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
    }

    // Issue 26 item 2: frame, diff and query JSON name each entity by its label in the frame
    // they read (the SDK's CS-like schema has DisplayName), null where it has none.
    void displayNames_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("pointer"); // JSON pointer to a list of entities
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("name"); // "" = null
        const QString cs = QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"));
        QTest::newRow("frame player") << QStringList{"frame", cs, "0"} << "/buckets/0/entities"
                                      << "player_76561198000000000"
                                      << "s1mple";
        QTest::newRow("frame bones: none") << QStringList{"frame", cs, "0"} << "/buckets/1/entities"
                                           << "player_76561198000000000"
                                           << "";
        QTest::newRow("diff player") << QStringList{"diff", cs, "0", "200", "--json"} << "/entities"
                                     << "weapon_1000"
                                     << "M4A4";
        QTest::newRow("query player") << QStringList{"query", cs, "Player.Health < 90", "--json"} << "/frames/0/entities"
                                      << ""
                                      << "";
    }
    void displayNames()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QStringList, args);
        QFETCH(QString, pointer);
        QFETCH(QString, id);
        QFETCH(QString, name);
        const Run r = run(args);
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        const auto& list = j.at(nlohmann::json::json_pointer(pointer.toStdString()));
        QVERIFY(!list.empty());
        nlohmann::json e = list[0];
        for (const auto& x : list)
            if (x.value("unique_id", std::string()) == id.toStdString())
                e = x;
        QVERIFY2(e.contains("display_name"), e.dump().c_str());
        if (!id.isEmpty())
            QCOMPARE(QString::fromStdString(e["unique_id"].get<std::string>()), id);
        if (args[0] == "query") {
            // Whichever player matched: named as that player is in that frame (the frame's JSON says).
            const Run fr = run({"frame", args[1], QString::number(j["frames"][0]["frame"].get<int>())});
            const auto jf = nlohmann::json::parse(fr.out.toStdString());
            bool found = false;
            for (const auto& b : jf["buckets"])
                for (const auto& x : b["entities"])
                    if (b["name"] == e["bucket"] && x["unique_id"] == e["id"]) {
                        found = true;
                        QCOMPARE(e["display_name"], x["display_name"]);
                        QVERIFY(e["display_name"].is_string());
                    }
            QVERIFY(found);
            return;
        }
        if (name.isEmpty())
            QVERIFY2(e["display_name"].is_null(), e["display_name"].dump().c_str());
        else
            QCOMPARE(QString::fromStdString(e["display_name"].get<std::string>()), name);
    }

    void samplesPrintReferenceValues_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("flatbuffers") << "arena_from_fbs_ds.vtx";
        QTest::newRow("protobuf") << "arena_from_proto_ds.vtx";
    }
    void samplesPrintReferenceValues()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        nlohmann::json ref;
        for (const auto& r : vtxtest::loadJson(vtxtest::samplePath("reference_values.json")))
            if (r["file"] == file.toStdString())
                ref = r;
        const QString path = QString::fromStdString(vtxtest::samplePath(file.toStdString()));
        const Run info = run({"info", path});
        QCOMPARE(info.exitCode, 0);
        const auto ji = nlohmann::json::parse(info.out.toStdString());
        QCOMPARE(ji["total_frames"], ref["footer"]["total_frames"]);
        QCOMPARE(ji["header"]["replay_uuid"], ref["header"]["replay_uuid"]);
        QCOMPARE(ji["chunks"].size(), ref["chunks"].size());
        for (size_t i = 0; i < ji["chunks"].size(); ++i)
            for (const char* k : {"chunk_index", "start_frame", "end_frame", "file_offset", "chunk_size_bytes"})
                QCOMPARE(ji["chunks"][i][k], ref["chunks"][i][k]);
        for (auto [key, frame] : {std::pair{"frame0", QString("0")}, std::pair{"frame_last", QString("3599")}}) {
            const Run fr = run({"frame", path, frame});
            QCOMPARE(fr.exitCode, 0);
            const auto jf = nlohmann::json::parse(fr.out.toStdString());
            const auto& rents = ref[key][0]["entities"];
            for (size_t e = 0; e < rents.size(); ++e) {
                auto values = rents[e]["values"];
                values.erase("<struct>");
                const auto d = vtxtest::jsonDiff(jf["buckets"][0]["entities"][e]["properties"], values);
                QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
                QCOMPARE(jf["buckets"][0]["entities"][e]["content_hash"], rents[e]["content_hash"]);
            }
        }
    }

    // `query` on the SDK's CS-like pair: golden JSON on the FlatBuffers file, and the Protobuf
    // file gives the same output (the two hold the same values).
    void querySamples_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("golden"); // empty: compare the pair only
        QTest::newRow("three terms") << "Player.Health < 90 && Team == 3 || changed(Player.Health)"
                                     << "sdk_cs_query.json";
        QTest::newRow("nested struct array") << "Player.PlayerEquipment.Weapons[0].WeaponId > 0 && Health < 50"
                                             << "";
        QTest::newRow("type and strings") << "type == Player && UserName contains \"o\" && Health < 100"
                                          << "";
        QTest::newRow("frame-level") << "any(Player.Health < 50) && all(type != Player || Health > 0)"
                                     << "";
    }
    void querySamples()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, expression);
        QFETCH(QString, golden);
        const Run fbs = run({"query", QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx")), expression, "--json"});
        const Run proto = run({"query", QString::fromStdString(vtxtest::samplePath("sdk_cs_proto.vtx")), expression, "--json"});
        QCOMPARE(fbs.exitCode, 0);
        QCOMPARE(proto.exitCode, 0);
        const auto a = nlohmann::json::parse(fbs.out.toStdString());
        const auto b = nlohmann::json::parse(proto.out.toStdString());
        QVERIFY(a["frames_scanned"] == 400);
        QVERIFY(a["matching_frames"].get<int>() > 0);
        QVERIFY(a["matching_frames"].get<int>() < 400);
        const auto d = vtxtest::jsonDiff(a, b);
        QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
        if (golden.isEmpty())
            return;
        const QString path = QString::fromStdString(vtxtest::sourceDir()) + "/tests/golden/" + golden;
        if (qgetenv("VTXSCOPE_UPDATE_GOLDEN") == "1") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(fbs.out);
        }
        const auto expected = vtxtest::loadJson(path.toStdString());
        const auto g = vtxtest::jsonDiff(a, expected);
        QVERIFY2(g.empty(), vtxtest::joinDiff(g).c_str());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList{} << 2 << "no command given";
        QTest::newRow("unknown command") << QStringList{"bogus"} << 2 << "unknown command";
        QTest::newRow("missing file") << QStringList{"info", "/nonexistent/x.vtx"} << 1 << "Failed to open file: /nonexistent/x.vtx";
        QTest::newRow("frame out of range") << QStringList{"frame", demo(), "99999"} << 1 << "out of range";
        QTest::newRow("frame not a number") << QStringList{"frame", demo(), "abc"} << 2 << "frame takes FILE and a frame number";
        QTest::newRow("not a replay") << QStringList{"info", QString::fromStdString(vtxtest::sourceDir()) + "/CMakeLists.txt"} << 1
                                      << "unknown file format";
        QTest::newRow("diff frame out of range") << QStringList{"diff", demo(), "0", "5000"} << 1 << "frame 5000 is out of range";
        QTest::newRow("diff missing frames") << QStringList{"diff", demo(), "0"} << 2 << "diff takes FILE, frame A and frame B";
        QTest::newRow("diff bad epsilon") << QStringList{"diff", demo(), "0", "1", "--epsilon", "-1"} << 2 << "bad option --epsilon";
        QTest::newRow("diff unknown bucket") << QStringList{"diff", demo(), "0", "1", "--only", "nope:x"} << 1 << "no bucket named 'nope'";
        QTest::newRow("query bad expression") << QStringList{"query", demo(), "Health <"} << 2 << "column 8: expected a value after '<'";
        QTest::newRow("query unknown type") << QStringList{"query", demo(), "type == Plyer"} << 2 << "did you mean 'Player'";
        QTest::newRow("query missing expression") << QStringList{"query", demo()} << 2 << "query takes FILE and an expression";
        QTest::newRow("query from out of range") << QStringList{"query", demo(), "Health < 5", "--from", "9999"} << 1 << "frame 9999 is out of range";
        QTest::newRow("query from after to") << QStringList{"query", demo(), "Health < 5", "--from", "50", "--to", "10"} << 2 << "is after --to";
        QTest::newRow("query bad option") << QStringList{"query", demo(), "Health < 5", "--frm", "1"} << 2 << "bad option --frm";
        QTest::newRow("bad kind") << QStringList{"generate", "nope", "/tmp/x.vtx"} << 2 << "unknown replay kind";
        QTest::newRow("generate fps 0") << QStringList{"generate", "demo", "/tmp/x.vtx", "--fps", "0"} << 2 << "bad option --fps 0";
        QTest::newRow("generate fps too high") << QStringList{"generate", "demo", "/tmp/x.vtx", "--fps", "2e6"} << 2 << "bad option --fps 2e6";
        QTest::newRow("generate fps not a number") << QStringList{"generate", "demo", "/tmp/x.vtx", "--fps", "nan"} << 2 << "bad option --fps nan";
        QTest::newRow("info bad option") << QStringList{"info", demo(), "--jsn"} << 2 << "bad option --jsn";
        QTest::newRow("frame last of nothing") << QStringList{"frame", demo(), "lastt"} << 2 << "a frame number or \"last\"";
    }

    // Issue 26 8i: `frame FILE last` is accepted as `diff` and `query` accept it.
    void frameLast()
    {
        const Run last = run({"frame", demo(), "last"});
        QCOMPARE(last.exitCode, 0);
        const Run numbered = run({"frame", demo(), "1799"});
        QCOMPARE(numbered.exitCode, 0);
        QCOMPARE(last.out, numbered.out);
        QCOMPARE(nlohmann::json::parse(last.out.toStdString())["frame"].get<int>(), 1799);
    }

    // Issue 26 8i: `validate` keys per-type figures by the schema's type names; `type_ids` keeps
    // the numeric index for each name.
    void validateKeysTypesByName()
    {
        const Run info = run({"info", demo()});
        QCOMPARE(info.exitCode, 0);
        std::map<std::string, int> ids; // name -> type id, from the schema
        const auto schema = nlohmann::json::parse(info.out.toStdString())["schema"];
        for (const auto& t : schema["structs"])
            ids[t["name"].get<std::string>()] = t["type_id"].get<int>();
        const Run r = run({"validate", demo()});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(!j["entities_per_type_total"].empty());
        QVERIFY(j.contains("type_ids"));
        for (const char* section : {"entities_per_type_total", "hash_variants_per_type"})
            for (auto it = j[section].begin(); it != j[section].end(); ++it) {
                QVERIFY2(ids.contains(it.key()), (std::string(section) + ": " + it.key()).c_str());
                QCOMPARE(j["type_ids"][it.key()].get<int>(), ids[it.key()]);
            }
        for (auto it = j["hash_variants_per_type"].begin(); it != j["hash_variants_per_type"].end(); ++it)
            QCOMPARE(it.value()["type_id"].get<int>(), ids[it.key()]);
        QCOMPARE(j["entities_per_type_total"]["Player"].get<int64_t>(), int64_t(1800 * 6));
    }

    // Issue 26 8i: `info` on a terminal is a summary for a person; with --json, or piped (every
    // other test here pipes), JSON. util-linux `script` gives the command a pseudo-terminal.
    void infoOnTerminal_data()
    {
        QTest::addColumn<bool>("json");
        QTest::newRow("terminal") << false;
        QTest::newRow("terminal --json") << true;
    }
    void infoOnTerminal()
    {
        QFETCH(bool, json);
        const QString script = QStandardPaths::findExecutable("script");
        if (script.isEmpty())
            QSKIP("util-linux `script` is not installed (Debian: bsdutils)");
        const QString command = "'" + QString::fromStdString(vtxtest::cliPath()) + "' info '" + demo() + "'" + (json ? " --json" : "");
        QProcess p;
        p.start(script, {"-qec", command, "/dev/null"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput().replace("\r\n", "\n");
        const auto j = nlohmann::json::parse(out.toStdString(), nullptr, false);
        if (json) {
            QVERIFY2(!j.is_discarded(), out.constData());
            QCOMPARE(j["total_frames"].get<int>(), 1800);
            return;
        }
        QVERIFY2(j.is_discarded(), out.constData()); // not JSON
        for (const char* line :
             {"demo.vtx: ", "1800 frames in 8 chunks", "15 events (first: RoundStart", "2 gaps, 1 segment", "Player (29)", "--json"})
            QVERIFY2(out.contains(line), (std::string(line) + " missing from:\n" + out.toStdString()).c_str());
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = run(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        if (exitCode == 1)
            QCOMPARE(r.err.count('\n'), 1); // exactly one line
    }

    // `generate --fps` sets the game time between frames (stored in 100 ns ticks); without it
    // the kind's own rate (demo: 64 fps).
    void generateFps_data()
    {
        QTest::addColumn<QStringList>("fps");
        QTest::addColumn<qint64>("ticksPerFrame");
        QTest::newRow("the kind's rate") << QStringList{} << qint64(156250);
        QTest::newRow("0.5 fps") << QStringList{"--fps", "0.5"} << qint64(20000000);
        QTest::newRow("0.25 fps") << QStringList{"--fps", "0.25"} << qint64(40000000);
        QTest::newRow("4 fps") << QStringList{"--fps", "4"} << qint64(2500000);
    }
    void generateFps()
    {
        QFETCH(QStringList, fps);
        QFETCH(qint64, ticksPerFrame);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath("fps.vtx");
        const Run g = run(QStringList{"generate", "demo", out, "--frames", "120"} + fps);
        QVERIFY2(g.exitCode == 0, g.err.constData());
        const Run info = run({"info", out, "--json"});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const auto first = nlohmann::json::parse(info.out.toStdString())["times"]["game_time_first"];
        QVERIFY(first.size() >= 2);
        QVERIFY(std::abs(first[1].get<int64_t>() - first[0].get<int64_t>() - ticksPerFrame) <= 1);
    }

    // Review 5 item 1: a time the file does not hold is null, not 0 (a recovered file lost its
    // frame times with the footer); a file with times keeps them, frame 0's genuine 0 included.
    void frameTimes_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("frame");
        QTest::addColumn<bool>("known");
        QTest::newRow("no footer: frame 0") << "no footer"
                                            << "0" << false;
        QTest::newRow("no footer: last") << "no footer"
                                         << "last" << false;
        QTest::newRow("intact: frame 0") << "intact"
                                         << "0" << true;
        QTest::newRow("intact: frame 1") << "intact"
                                         << "1" << true;
        QTest::newRow("intact: last") << "intact"
                                      << "last" << true;
    }
    void frameTimes()
    {
        QFETCH(QString, how);
        QFETCH(QString, frame);
        QFETCH(bool, known);
        const QString path = rlReplay(how);
        const Run fr = run({"frame", path, frame});
        QVERIFY2(fr.exitCode == 0, fr.err.constData());
        const auto j = nlohmann::json::parse(fr.out.toStdString());
        const Run info = run({"info", path, "--json"});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const auto ji = nlohmann::json::parse(info.out.toStdString());
        QCOMPARE(ji.contains("recovery"), !known);
        if (!known) {
            QVERIFY2(j["game_time"].is_null(), j["game_time"].dump().c_str());
            QVERIFY2(j["created_utc"].is_null(), j["created_utc"].dump().c_str());
            QVERIFY2(ji["duration_seconds"].is_null(), ji["duration_seconds"].dump().c_str());
            return;
        }
        QVERIFY(ji["duration_seconds"].is_number() && ji["duration_seconds"].get<double>() > 0);
        const int n = j["frame"].get<int>();
        const auto& times = ji["times"];
        const auto& first = times["game_time_first"];
        const auto& last = times["game_time_last"];
        if (n < int(first.size()))
            QCOMPARE(j["game_time"], first[size_t(n)]);
        else
            QCOMPARE(j["game_time"], last[last.size() - 1]);
        QVERIFY(j["created_utc"].is_number_integer());
    }

    // Review 5 item 1, the summary on a terminal: a lost duration, lost times and lost events
    // are said to be unknown, not 0 s, 0 frames and 0 events.
    void infoTextTimes_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("no footer") << "no footer" << QStringList{"game time unknown", "times      unknown", "events     unknown"}
                                   << QStringList{" s of game time", "game time for 0 frames", "0 events"};
        QTest::newRow("intact") << "intact" << QStringList{" s of game time", "game time for 3000 frames", "UTC for 3000"} << QStringList{"unknown"};
    }
    void infoTextTimes()
    {
        QFETCH(QString, how);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        if (QStandardPaths::findExecutable("script").isEmpty())
            QSKIP("util-linux `script` is not installed (Debian: bsdutils)");
        const auto out = onTerminal({"info", rlReplay(how)});
        QVERIFY(out);
        for (const QString& line : present)
            QVERIFY2(out->contains(line.toUtf8()), qPrintable(line + " missing from:\n" + *out));
        for (const QString& line : absent)
            QVERIFY2(!out->contains(line.toUtf8()), qPrintable(line + " in:\n" + *out));
    }

    // Review 5 item 2: a recovered file can hold no frame at all; every command that takes a
    // frame says so instead of "out of range (0..-1 or last)".
    void noFrames_data()
    {
        QTest::addColumn<QStringList>("args"); // FILE is put after the command
        QTest::newRow("frame 0") << QStringList{"frame", "0"};
        QTest::newRow("frame last") << QStringList{"frame", "last"};
        QTest::newRow("diff") << QStringList{"diff", "0", "last"};
        QTest::newRow("query") << QStringList{"query", "Car.Boost > 50", "--json"};
        QTest::newRow("query --from") << QStringList{"query", "Car.Boost > 50", "--from", "0"};
    }
    void noFrames()
    {
        QFETCH(QStringList, args);
        const QString path = rlReplay("no frames");
        args.insert(1, path);
        const Run r = run(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("recovered 0 frames"), r.err.constData()); // the warning
        QVERIFY2(r.err.contains("the file has no frames"), r.err.constData());
        QVERIFY2(!r.err.contains("0..-1"), r.err.constData());
        QVERIFY2(!r.err.contains("--to -1"), r.err.constData());
    }

    // Review 5 item 3: frames_scanned counts only the frames the expression was evaluated on;
    // the frames of an unreadable chunk are frames_unreadable, in JSON and in the text.
    void queryUnreadable_data()
    {
        QTest::addColumn<QString>("range"); // "all", "chunk 1" (only the unreadable chunk), "around" (chunk 0's last frame to chunk 2's first)
        QTest::addColumn<bool>("json");
        QTest::newRow("whole file, json") << "all" << true;
        QTest::newRow("whole file, text") << "all" << false;
        QTest::newRow("only chunk 1, json") << "chunk 1" << true;
        QTest::newRow("only chunk 1, text") << "chunk 1" << false;
        QTest::newRow("around chunk 1, json") << "around" << true;
        QTest::newRow("intact, json") << "intact" << true;
        QTest::newRow("intact, text") << "intact" << false;
    }
    void queryUnreadable()
    {
        QFETCH(QString, range);
        QFETCH(bool, json);
        const QString path = rlReplay(range == "intact" ? "intact" : "chunk 1 corrupt");
        const auto& c1 = m_rlInfo["chunks"][1];
        const int start = c1["start_frame"].get<int>(), end = c1["end_frame"].get<int>();
        int from = 0, to = 2999;
        if (range == "chunk 1")
            std::tie(from, to) = std::pair{start, end};
        else if (range == "around")
            std::tie(from, to) = std::pair{start - 1, end + 1};
        const int inRange = to - from + 1;
        const int unreadable = range == "intact" ? 0 : end - start + 1;
        QStringList args{"query", path, "Car.Boost >= 0", "--from", QString::number(from), "--to", QString::number(to)};
        if (json)
            args << "--json";
        const Run r = run(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        if (json) {
            const auto j = nlohmann::json::parse(r.out.toStdString());
            QCOMPARE(j["frames_scanned"].get<int>(), inRange - unreadable);
            QVERIFY2(j.contains("frames_unreadable"), r.out.left(300).constData());
            QCOMPARE(j["frames_unreadable"].get<int>(), unreadable);
            QCOMPARE(j["problems"].empty(), unreadable == 0);
            QVERIFY(j["matching_frames"].get<int>() <= inRange - unreadable);
            return;
        }
        const QByteArray counts = " of " + QByteArray::number(inRange - unreadable) + (inRange - unreadable == 1 ? " frame " : " frames ");
        QVERIFY2(r.out.contains(counts), r.out.right(400).constData());
        QCOMPARE(r.out.contains(QByteArray::number(unreadable) + " frames could not be read"), unreadable > 0);
    }

    // Review 5 item 2: counts in the query summary agree with their number.
    void queryTextCounts_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("summary"); // the start of the last line
        QTest::newRow("1 of 1, 6 entities") << "Car.Boost >= 0"
                                            << "5"
                                            << "5"
                                            << "1 of 1 frame matches (6 entity matches)";
        QTest::newRow("0 of 1") << "Car.Boost < -1"
                                << "5"
                                << "5"
                                << "0 of 1 frame match (0 entity matches)";
        QTest::newRow("2 of 2") << "Car.Boost >= 0"
                                << "5"
                                << "6"
                                << "2 of 2 frames match (12 entity matches)";
        QTest::newRow("1 entity") << "id == \"car_0\""
                                  << "5"
                                  << "5"
                                  << "1 of 1 frame matches (1 entity match)";
    }
    void queryTextCounts()
    {
        QFETCH(QString, expression);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, summary);
        const Run r = run({"query", rlReplay("intact"), expression, "--from", from, "--to", to});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QVERIFY2(lines.last().startsWith(summary.toUtf8()), r.out.constData());
    }

    // A recording cut short: every command works on what was recovered and says so on stderr.
    void recoveredFile()
    {
        QTemporaryDir dir;
        QFile in(demo());
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray whole = in.readAll();
        const QString cut = dir.path() + "/cut.vtx";
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(whole.left(whole.size() * 2 / 3));
        out.close();
        const Run info = run({"info", cut});
        QCOMPARE(info.exitCode, 0);
        QVERIFY2(info.err.contains("warning") && info.err.contains("without a usable footer"), info.err.constData());
        const auto j = nlohmann::json::parse(info.out.toStdString());
        QVERIFY(j.contains("recovery"));
        const int frames = j["recovery"]["frames"].get<int>();
        QVERIFY(frames > 0 && frames < 1800);
        QVERIFY(j["recovery"]["lost_bytes"].get<uint64_t>() > 0);
        QVERIFY(!j["recovery"]["lost"].get<std::string>().empty());
        const Run frame = run({"frame", cut, QString::number(frames - 1)});
        QCOMPARE(frame.exitCode, 0);
        QVERIFY(frame.err.contains("recovered"));
        QCOMPARE(run({"frame", cut, QString::number(frames)}).exitCode, 1);
    }

    /// Review 5, #3: `frame` reads the frame's whole chunk, so a frame that parses out of a
    /// damaged zstd chunk says so (integrity.chunk_damage) and one after the damage is an error,
    /// as `validate` finds the chunk.
    void frameFromADamagedChunk()
    {
        QTemporaryDir dir;
        const std::string good = vtxtest::generatedReplay(dir.path(), vtxgen::Kind::Cs2, vtx::Backend::Protobuf, 120, 40);
        const QString path = dir.path() + "/noisy.vtx";
        QVERIFY(vtxtest::writeNoisyChunkCopy(QString::fromStdString(good), path, 0, 5));
        const Run before = run({"frame", path, "0"});
        QCOMPARE(before.exitCode, 0);
        const auto j = nlohmann::json::parse(before.out.toStdString());
        const auto& damage = j["integrity"]["chunk_damage"];
        QVERIFY2(damage.is_object(), before.out.constData());
        QCOMPARE(damage["chunk"].get<int>(), 0);
        QVERIFY(damage["later_frames_lost"].get<bool>());
        const int first = damage["first_unreadable_frame"].get<int>();
        QVERIFY(first > 0 && first < 40);
        QVERIFY(!damage["reason"].get<std::string>().empty());
        const Run after = run({"frame", path, QString::number(first + 1)});
        QCOMPARE(after.exitCode, 1);
        QVERIFY2(after.err.contains("lost to the damage found at frame " + QByteArray::number(first)), after.err.constData());
        QCOMPARE(after.err.count(path.toUtf8()), 1); // the file named once
        // A frame of an intact chunk says nothing of damage.
        const Run other = run({"frame", path, "60"});
        QCOMPARE(other.exitCode, 0);
        QVERIFY(nlohmann::json::parse(other.out.toStdString())["integrity"]["chunk_damage"].is_null());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
