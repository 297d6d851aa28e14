// SPDX-License-Identifier: MIT
// The regression gate, `vtxscope-cli diverge --baseline GOLD RUN...`: exit codes and their
// precedence, the JUnit report (parsed: test-case count and order, failure and error texts;
// valid against python/tests/junit.xsd with xmllint), golden JSON on a fixed set of runs, the
// same answer whatever --jobs is, and the SDK samples.
//
// The runs beside the baseline (100 frames of three players, tests/support/PlayerReplays.hpp):
// a byte copy, the same values stored by Protobuf, Health changed beyond and within the
// tolerance, ten frames short, cut to two thirds of its bytes, and random bytes.

#include "TestSupport.hpp"

#include "PlayerReplays.hpp"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <random>

using namespace vtx;
using namespace vtxtest::players;

namespace {

/// One <testcase>: its name and, when present, its <failure> or <error> child.
struct JunitCase {
    QString name;
    QString problem; ///< "failure", "error" or empty
    QString type, message, text;
};

struct Junit {
    QString suite;
    int tests = -1, failures = -1, errors = -1;
    std::vector<JunitCase> cases;
    QString parseError;
};

Junit parseJunit(const QByteArray& xml)
{
    Junit j;
    QXmlStreamReader r(xml);
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement())
            continue;
        const auto a = r.attributes();
        if (r.name() == u"testsuite") {
            j.suite = a.value("name").toString();
            j.tests = a.value("tests").toInt();
            j.failures = a.value("failures").toInt();
            j.errors = a.value("errors").toInt();
        } else if (r.name() == u"testcase") {
            j.cases.push_back({a.value("name").toString(), {}, {}, {}, {}});
        } else if ((r.name() == u"failure" || r.name() == u"error") && !j.cases.empty()) {
            JunitCase& c = j.cases.back();
            c.problem = r.name().toString();
            c.type = a.value("type").toString();
            c.message = a.value("message").toString();
            c.text = r.readElementText();
        }
    }
    if (r.hasError())
        j.parseError = r.errorString();
    return j;
}

} // namespace

class TestDivergeGate : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Run {
        int exitCode;
        QByteArray out, err;
    };
    /// The CLI in the runs' folder, so that the reports name the runs as given (relative).
    Run runCli(const QStringList& args)
    {
        QProcess p;
        p.setWorkingDirectory(m_dir.path());
        p.start(QString::fromStdString(vtxtest::cliPath()), args);
        if (!p.waitForFinished(300000))
            qFatal("vtxscope-cli did not finish");
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    }
    QByteArray readFile(const QString& name)
    {
        QFile f(m_dir.filePath(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    void writeFile(const QString& name, const QByteArray& bytes)
    {
        QFile f(m_dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
    }
    static QStringList allRuns() { return {"same.vtx", "proto.vtx", "beyond.vtx", "within.vtx", "short.vtx", "truncated.vtx", "random.vtx"}; }
    /// xmllint --schema python/tests/junit.xsd: "" when valid, else what xmllint said.
    QString schemaErrors(const QString& xmlName)
    {
        const QString xmllint = QStandardPaths::findExecutable("xmllint");
        if (xmllint.isEmpty())
            return "xmllint is not installed (Debian libxml2-utils; scripts/setup installs it)";
        QProcess p;
        p.start(xmllint, {"--noout", "--schema", QString::fromStdString(vtxtest::sourceDir()) + "/python/tests/junit.xsd", m_dir.filePath(xmlName)});
        if (!p.waitForFinished(60000))
            return "xmllint did not finish";
        return p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAllStandardError());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeReplay(m_dir, "base.vtx", {});
        const QByteArray base = readFile("base.vtx");
        QVERIFY(!base.isEmpty());
        writeFile("same.vtx", base);
        ReplaySpec proto;
        proto.backend = Backend::Protobuf;
        writeReplay(m_dir, "proto.vtx", proto);
        ReplaySpec beyond; // beyond --epsilon 0.01
        beyond.perturb = [](int32_t f, int p, PropertyContainerData& c) {
            if (f >= 30 && f <= 32 && p == 1)
                health(c) -= 0.5f;
        };
        writeReplay(m_dir, "beyond.vtx", beyond);
        ReplaySpec within; // within --epsilon 0.01
        within.perturb = [](int32_t f, int p, PropertyContainerData& c) {
            if (f == 50 && p == 1)
                health(c) -= 0.001f;
        };
        writeReplay(m_dir, "within.vtx", within);
        ReplaySpec shorter;
        shorter.frames = 90;
        writeReplay(m_dir, "short.vtx", shorter);
        writeFile("truncated.vtx", base.left(base.size() * 2 / 3));
        std::mt19937 random(27);
        QByteArray noise(8192, '\0');
        for (char& c : noise)
            c = char(random() & 0xff);
        writeFile("random.vtx", noise);
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrHas");
        const QStringList gate{"diverge", "--epsilon", "0.01", "--baseline", "base.vtx"};
        QTest::newRow("all agree") << gate + QStringList{"same.vtx", "proto.vtx", "within.vtx"} << 0 << "";
        QTest::newRow("within epsilon only with it") << QStringList{"diverge", "--baseline", "base.vtx", "within.vtx"} << 1 << "";
        QTest::newRow("one diverges") << gate + QStringList{"same.vtx", "beyond.vtx", "within.vtx"} << 1 << "";
        QTest::newRow("shorter run diverges") << gate + QStringList{"short.vtx"} << 1 << "";
        QTest::newRow("error decides over divergence") << gate + QStringList{"beyond.vtx", "truncated.vtx"} << 2 << "";
        QTest::newRow("random bytes") << gate + QStringList{"same.vtx", "random.vtx"} << 2 << "";
        QTest::newRow("missing run") << gate + QStringList{"same.vtx", "nope.vtx"} << 2 << "";
        QTest::newRow("baseline missing") << QStringList{"diverge", "--baseline", "nope.vtx", "same.vtx"} << 2 << "baseline:";
        QTest::newRow("baseline truncated") << QStringList{"diverge", "--baseline", "truncated.vtx", "same.vtx"} << 2 << "baseline:";
        QTest::newRow("no runs") << QStringList{"diverge", "--baseline", "base.vtx"} << 2 << "one or more RUN files";
        QTest::newRow("jobs 0") << gate + QStringList{"same.vtx", "--jobs", "0"} << 2 << "bad option --jobs";
        QTest::newRow("jobs not a number") << gate + QStringList{"same.vtx", "--jobs", "two"} << 2 << "bad option --jobs";
        QTest::newRow("junit without baseline") << QStringList{"diverge", "base.vtx", "same.vtx", "--junit", "x.xml"} << 2
                                                << "belong to diverge --baseline";
        QTest::newRow("two files form unchanged") << QStringList{"diverge", "base.vtx", "beyond.vtx", "--epsilon", "0.01"} << 1 << "";
    }
    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrHas);
        const Run r = runCli(args);
        QVERIFY2(r.exitCode == exitCode, (r.out + r.err).constData());
        QVERIFY2(r.err.contains(stderrHas.toUtf8()), r.err.constData());
        // A gate that compared something says so (a usage error is exit 2 too).
        if (args.contains("--baseline") && stderrHas.isEmpty())
            QVERIFY2(r.out.contains(" agree, ") && r.out.endsWith(QByteArray("(exit ") + QByteArray::number(exitCode) + ")\n"), r.out.constData());
    }

    // Every run a test case, in the order given; the texts a CI page shows.
    void junitReport()
    {
        const Run r = runCli(QStringList{"diverge", "--baseline", "base.vtx", "--epsilon", "0.01", "--junit", "report.xml"} + allRuns());
        QCOMPARE(r.exitCode, 2);
        const Junit j = parseJunit(readFile("report.xml"));
        QVERIFY2(j.parseError.isEmpty(), qPrintable(j.parseError));
        QCOMPARE(j.suite, QString("vtxscope-diverge"));
        QCOMPARE(j.tests, 7);
        QCOMPARE(j.failures, 2);
        QCOMPARE(j.errors, 2);
        QCOMPARE(int(j.cases.size()), 7);
        QStringList names;
        for (const JunitCase& c : j.cases)
            names << c.name;
        QCOMPARE(names, allRuns());
        for (int i : {0, 1, 3})
            QVERIFY2(j.cases[size_t(i)].problem.isEmpty(), qPrintable(j.cases[size_t(i)].name));

        const JunitCase& beyond = j.cases[2];
        QCOMPARE(beyond.problem, QString("failure"));
        QCOMPARE(beyond.type, QString("divergence"));
        QCOMPARE(beyond.message,
                 QString("diverges from base.vtx at frame 30 (baseline frame 30): Player player_1 (0:p1) Health 91.5 -> 91, "
                         "deviation 0.5 (epsilon 0.01)"));
        QVERIFY2(beyond.text.contains("3 of 100 frame pairs differ"), qPrintable(beyond.text));
        QVERIFY2(beyond.text.contains("Player.Health: 3 frames, 3 entity-frames, max deviation 0.5 at frame 30"), qPrintable(beyond.text));

        const JunitCase& shorter = j.cases[4];
        QCOMPARE(shorter.problem, QString("failure"));
        QVERIFY2(shorter.message.contains("the run has 90 frames, the baseline 100"), qPrintable(shorter.message));

        const JunitCase& truncated = j.cases[5];
        QCOMPARE(truncated.problem, QString("error"));
        QCOMPARE(truncated.type, QString("recovered"));
        QVERIFY2(truncated.message.startsWith("open: recovered: truncated.vtx: ") && truncated.message.contains("without a usable footer"),
                 qPrintable(truncated.message));
        QVERIFY2(truncated.text.contains("code: recovered\nstage: open\nbaseline: base.vtx"), qPrintable(truncated.text));

        const JunitCase& random = j.cases[6];
        QCOMPARE(random.problem, QString("error"));
        QCOMPARE(random.type, QString("failed")); // the core's Errc
        QVERIFY2(random.message.contains("random.vtx: unknown file format"), qPrintable(random.message));

        // Text on stdout: a line per run in the same order, then the summary.
        const QList<QByteArray> lines = r.out.split('\n');
        QStringList order;
        for (const QByteArray& l : lines) {
            const auto m = QRegularExpression("^(agrees|DIVERGES|ERROR) +([a-z.]+)").match(QString::fromUtf8(l));
            if (m.hasMatch())
                order << m.captured(2).remove(QRegularExpression(":$"));
        }
        QCOMPARE(order, allRuns());
        QVERIFY2(r.out.endsWith("7 runs: 3 agree, 2 diverge, 2 errors (exit 2)\n"), r.out.constData());
    }

    void junitValidatesAgainstSchema_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("report");
        QTest::newRow("every kind of run") << QStringList{"--baseline", "base.vtx", "--epsilon", "0.01"} + allRuns() << "all.xml";
        QTest::newRow("all agree") << QStringList{"--baseline", "base.vtx", "same.vtx"} << "agree.xml";
        QTest::newRow("baseline unreadable") << QStringList{"--baseline", "random.vtx", "same.vtx", "beyond.vtx"} << "nobase.xml";
    }
    void junitValidatesAgainstSchema()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, report);
        const Run r = runCli(QStringList{"diverge", "--junit", report} + args);
        QVERIFY(r.exitCode >= 0 && r.exitCode <= 2);
        QVERIFY(!readFile(report).isEmpty());
        const QString errors = schemaErrors(report);
        if (errors.startsWith("xmllint is not installed") && !vtxtest::runningInCi())
            QSKIP(qPrintable(errors));
        QVERIFY2(errors.isEmpty(), qPrintable(errors + "\n" + QString::fromUtf8(readFile(report))));
        const Junit j = parseJunit(readFile(report));
        QCOMPARE(j.tests, int(args.size()) - (args.contains("--epsilon") ? 4 : 2));
        QCOMPARE(int(j.cases.size()), j.tests);
        if (report == "nobase.xml")
            for (const JunitCase& c : j.cases)
                QVERIFY2(c.problem == "error" && c.message.startsWith("baseline: failed: random.vtx"), qPrintable(c.message));
    }

    // The answer does not depend on how many runs are compared at once, nor on which finishes first.
    void jobsDoNotChangeResults()
    {
        const QStringList args = QStringList{"diverge", "--baseline", "base.vtx", "--epsilon", "0.01"} + allRuns() + allRuns();
        QByteArray json1, junit1, text1;
        for (const char* jobs : {"1", "2", "3", "16"}) {
            const Run j = runCli(args + QStringList{"--jobs", jobs, "--json", "--junit", QString("jobs%1.xml").arg(jobs)});
            QCOMPARE(j.exitCode, 2);
            const Run t = runCli(args + QStringList{"--jobs", jobs});
            QCOMPARE(t.exitCode, 2);
            // Timings are the only difference allowed in the JUnit report.
            const QByteArray junit =
                QString::fromUtf8(readFile(QString("jobs%1.xml").arg(jobs))).remove(QRegularExpression(R"( time="[0-9.]+")")).toUtf8();
            if (json1.isEmpty()) {
                json1 = j.out;
                junit1 = junit;
                text1 = t.out;
                continue;
            }
            QCOMPARE(j.out, json1);
            QCOMPARE(junit, junit1);
            QCOMPARE(t.out, text1);
        }
        QVERIFY(json1.size() > 1000);
    }

    void goldenJson()
    {
        const Run r = runCli(QStringList{"diverge", "--baseline", "base.vtx", "--epsilon", "0.01", "--json"} + allRuns());
        QCOMPARE(r.exitCode, 2);
        const auto ours = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY(!ours.is_discarded());
        const QString path = QString::fromStdString(vtxtest::sourceDir()) + "/tests/golden/diverge_gate.json";
        if (qgetenv("VTXSCOPE_UPDATE_GOLDEN") == "1") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(r.out);
        }
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path + " missing (run with VTXSCOPE_UPDATE_GOLDEN=1 to create)"));
        const auto expected = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        QVERIFY(!expected.is_discarded());
        const auto d = vtxtest::jsonDiff(ours, expected);
        QVERIFY2(d.empty(), vtxtest::joinDiff(d).c_str());
    }

    // The SDK's files: the CS-like replay against its Protobuf twin and a byte copy (agree), the
    // RL-like replay (another schema and length: diverges), and the CS-like replay cut to 900 kB
    // (no complete chunk: an error).
    void sdkSamples()
    {
        VTX_REQUIRE_SAMPLES();
        const QString cs = QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx"));
        QFile in(cs);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        writeFile("sdk_copy.vtx", bytes);
        writeFile("sdk_cut.vtx", bytes.left(900000));
        const QStringList runs{QString::fromStdString(vtxtest::samplePath("sdk_cs_proto.vtx")), "sdk_copy.vtx",
                               QString::fromStdString(vtxtest::samplePath("sdk_rl_fbs.vtx")), "sdk_cut.vtx"};
        const Run r = runCli(QStringList{"diverge", "--baseline", cs, "--json", "--jobs", "2", "--junit", "sdk.xml"} + runs);
        QCOMPARE(r.exitCode, 2);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["runs"].size(), size_t(4));
        QCOMPARE(j["runs"][0]["verdict"].get<std::string>(), std::string("agrees"));
        QCOMPARE(j["runs"][0]["pairs_compared"].get<int>(), 400);
        QCOMPARE(j["runs"][1]["verdict"].get<std::string>(), std::string("agrees"));
        QCOMPARE(j["runs"][2]["verdict"].get<std::string>(), std::string("diverges"));
        QCOMPARE(j["runs"][2]["compared_by"].get<std::string>(), std::string("name"));
        QVERIFY(j["runs"][2]["length_differs"].get<bool>());
        QCOMPARE(j["runs"][3]["verdict"].get<std::string>(), std::string("error"));
        QCOMPARE(j["runs"][3]["error"]["code"].get<std::string>(), std::string("recovered"));
        QCOMPARE(j["summary"]["error"].get<int>(), 1);
        const Junit x = parseJunit(readFile("sdk.xml"));
        QCOMPARE(x.tests, 4);
        QCOMPARE(x.failures, 1);
        QCOMPARE(x.errors, 1);
        QVERIFY2(x.cases[2].message.startsWith("diverges from sdk_cs_fbs.vtx at frame 0 (baseline frame 0): "), qPrintable(x.cases[2].message));
        const QString errors = schemaErrors("sdk.xml");
        if (!errors.startsWith("xmllint is not installed") || vtxtest::runningInCi())
            QVERIFY2(errors.isEmpty(), qPrintable(errors));
    }
};

QTEST_GUILESS_MAIN(TestDivergeGate)
#include "tst_divergegate.moc"
