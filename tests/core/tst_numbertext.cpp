// SPDX-License-Identifier: MIT
// Number text (issue 21 item 3): every float32 and float64 is printed — in JSON (jsonText), CSV
// and the inspector (formatFloat / formatDouble) — as the shortest decimal that reads back
// bit-exactly at the value's own width; -0 stays -0; NaN and ±infinity have one spelling each.
// "Shortest" is checked independently of the code under test: by trying every precision of
// %.*g from 1 digit up.

#include "TestSupport.hpp"
#include "vtx/model/PropertyTree.hpp"
#include "vtx/model/Value.hpp"

#include <QtTest>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <unordered_set>

Q_DECLARE_METATYPE(vtx::Value)

using namespace vtx;

namespace {

// Significant digits of a decimal text ("-0.00120e+05" -> 2).
int significantDigits(std::string_view text)
{
    if (const size_t e = text.find_first_of("eE"); e != std::string_view::npos)
        text = text.substr(0, e);
    std::string digits;
    for (char c : text)
        if (c >= '0' && c <= '9')
            digits += c;
    const size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos)
        return 1;
    const size_t last = digits.find_last_not_of('0');
    return int(last - first + 1);
}

template <class T> T parse(const std::string& s)
{
    if constexpr (std::is_same_v<T, float>)
        return std::strtof(s.c_str(), nullptr);
    else
        return std::strtod(s.c_str(), nullptr);
}

template <class T> bool sameBits(T a, T b)
{
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): the bits are the point (-0, NaN payloads)
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The fewest significant digits with which some decimal reads back as `v`.
template <class T> int shortestDigits(T v)
{
    // Reading back is monotonic in the digit count (p digits suffice => p + 1 do), so a binary
    // search over 1..9 (float32) or 1..17 (float64) finds the least.
    char buf[64];
    int lo = 1, hi = std::is_same_v<T, float> ? 9 : 17;
    while (lo < hi) {
        const int p = (lo + hi) / 2;
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, double(v));
        if (sameBits(parse<T>(buf), v))
            hi = p;
        else
            lo = p + 1;
    }
    return lo;
}

// Empty when `text` is the right spelling of `v`, else what is wrong.
template <class T> std::string checkText(T v, const std::string& text, bool jsonString)
{
    if (std::isnan(v) || std::isinf(v)) {
        const std::string want = std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
        const std::string quoted = jsonString ? "\"" + want + "\"" : want;
        return text == quoted ? "" : "non-finite spelled " + text + ", want " + quoted;
    }
    if (!sameBits(parse<T>(text), v))
        return text + " does not read back as the same value";
    const int shortest = shortestDigits(v);
    if (significantDigits(text) != shortest)
        return text + " has " + std::to_string(significantDigits(text)) + " significant digits; " + std::to_string(shortest) + " suffice";
    return {};
}

template <class T> std::string checkAll(T v)
{
    const std::string json = jsonText(std::is_same_v<T, float> ? f32Json(float(v)) : f64Json(double(v)));
    if (std::string e = checkText(v, json, true); !e.empty())
        return "JSON: " + e;
    const std::string plain = std::is_same_v<T, float> ? formatFloat(float(v)) : formatDouble(double(v));
    if (std::string e = checkText(v, plain, false); !e.empty())
        return "text: " + e;
    return {};
}

// Every float32 and float64 stored in a container and everything nested in it.
struct NumberCollector {
    std::unordered_set<uint32_t> floats;
    std::unordered_set<uint64_t> doubles;

    void f(float v)
    {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        floats.insert(b);
    }
    void d(double v)
    {
        uint64_t b;
        std::memcpy(&b, &v, 8);
        doubles.insert(b);
    }
    void vec(const Vec3& v) { d(v.x), d(v.y), d(v.z); }
    void quat(const Quat& q) { f(q.x), f(q.y), f(q.z), f(q.w); }
    void transform(const Transform& t) { vec(t.translation), quat(t.rotation), vec(t.scale); }
    void range(const FloatRange& r) { f(r.min), f(r.max), f(r.valueNormalized); }

    void container(ContainerView c, int depth = 0)
    {
        if (c.isNull() || depth > 64)
            return;
        for (float v : c.floats())
            f(v);
        for (double v : c.doubles())
            d(v);
        for (const Vec3& v : c.vectors())
            vec(v);
        for (const Quat& q : c.quats())
            quat(q);
        for (const Transform& t : c.transforms())
            transform(t);
        for (const FloatRange& r : c.ranges())
            range(r);
        for (float v : c.floatArrays().data)
            f(v);
        for (double v : c.doubleArrays().data)
            d(v);
        for (const Vec3& v : c.vectorArrays().data)
            vec(v);
        for (const Quat& q : c.quatArrays().data)
            quat(q);
        for (const Transform& t : c.transformArrays().data)
            transform(t);
        for (const FloatRange& r : c.rangeArrays().data)
            range(r);
        const ContainerList s = c.structs();
        for (size_t i = 0; i < s.size(); ++i)
            container(s[i], depth + 1);
        const auto sa = c.structArrays();
        for (size_t i = 0; i < sa.data.size(); ++i)
            container(sa.data[i], depth + 1);
        const MapList maps = c.maps();
        for (size_t m = 0; m < maps.size(); ++m) {
            const ContainerList v = maps[m].values();
            for (size_t i = 0; i < v.size(); ++i)
                container(v[i], depth + 1);
        }
        const auto ma = c.mapArrays();
        for (size_t m = 0; m < ma.data.size(); ++m) {
            const ContainerList v = ma.data[m].values();
            for (size_t i = 0; i < v.size(); ++i)
                container(v[i], depth + 1);
        }
    }
};

} // namespace

class TestNumberText : public QObject {
    Q_OBJECT

private slots:
    void float32_data()
    {
        QTest::addColumn<float>("value");
        QTest::newRow("0") << 0.0f;
        QTest::newRow("-0") << -0.0f;
        QTest::newRow("1") << 1.0f;
        QTest::newRow("100") << 100.0f;
        QTest::newRow("0.1") << 0.1f;
        QTest::newRow("1/3") << 1.0f / 3.0f;
        QTest::newRow("-0.6239537 (issue)") << -0.6239537f;
        QTest::newRow("29.227074 (issue)") << 29.227074f;
        QTest::newRow("tie -0.0014648438") << -0.0014648438f;
        QTest::newRow("smallest normal") << FLT_MIN;
        QTest::newRow("smallest subnormal") << std::numeric_limits<float>::denorm_min();
        QTest::newRow("largest subnormal") << std::nextafter(FLT_MIN, 0.0f);
        QTest::newRow("max") << FLT_MAX;
        QTest::newRow("lowest") << -FLT_MAX;
        QTest::newRow("2^24+2") << 16777218.0f;
        QTest::newRow("1e10") << 1e10f;
        QTest::newRow("nan") << std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("-nan") << -std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("inf") << std::numeric_limits<float>::infinity();
        QTest::newRow("-inf") << -std::numeric_limits<float>::infinity();
    }
    void float32()
    {
        QFETCH(float, value);
        const std::string e = checkAll(value);
        QVERIFY2(e.empty(), e.c_str());
    }

    void float64_data()
    {
        QTest::addColumn<double>("value");
        QTest::newRow("0") << 0.0;
        QTest::newRow("-0") << -0.0;
        QTest::newRow("0.1") << 0.1;
        QTest::newRow("0.1+0.2") << 0.1 + 0.2;
        QTest::newRow("29.227074000000002") << 29.227074000000002;
        QTest::newRow("1e23") << 1e23;
        QTest::newRow("2^53+2") << 9007199254740994.0;
        QTest::newRow("smallest normal") << DBL_MIN;
        QTest::newRow("smallest subnormal") << std::numeric_limits<double>::denorm_min();
        QTest::newRow("max") << DBL_MAX;
        QTest::newRow("float32 widened") << double(-0.6239537f);
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("inf") << std::numeric_limits<double>::infinity();
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity();
    }
    void float64()
    {
        QFETCH(double, value);
        const std::string e = checkAll(value);
        QVERIFY2(e.empty(), e.c_str());
    }

    // The inspector's reading form (issue 20 item 7): doubles to 9 significant digits at most,
    // integers grouped; the exact text stays formatDouble's.
    void readable_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("float32 data in a double") << 29.227074000000002 << "29.227074";
        QTest::newRow("17 digits") << -29.391735460130228 << "-29.3917355";
        QTest::newRow("0.1 + 0.2") << 0.1 + 0.2 << "0.3";
        QTest::newRow("short stays") << 0.125 << "0.125";
        QTest::newRow("integral") << 100.0 << "100";
        QTest::newRow("large") << 8.824752446135868e+19 << "8.82475245e+19";
        QTest::newRow("-0") << -0.0 << "-0";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "nan";
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-inf";
    }
    void readable()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(readableDouble(value)), text);
    }
    // Review item 11: the same double reads the same under a Vector and under a Transform
    // (allkinds' Alpha at frame 450: Position.x 55.1128686, Pose "T(55.112868620024486, …").
    void readableTreeText()
    {
        VTX_REQUIRE_SAMPLES();
        for (const char* file : {"allkinds_fbs.vtx", "allkinds_proto.vtx"}) {
            auto f = ReplayFile::open(vtxtest::samplePath(file));
            VTX_VERIFY_OK(f);
            auto frame = (*f)->frame(450);
            VTX_VERIFY_OK(frame);
            bool seen = false;
            for (size_t b = 0; b < frame->view().bucketCount(); ++b)
                for (size_t e = 0; e < frame->view().bucket(b).entityCount(); ++e) {
                    if (frame->view().bucket(b).uniqueId(e) != "hero_0")
                        continue;
                    const auto nodes = buildPropertyTree(frame->view().bucket(b).entity(e), (*f)->schema());
                    auto find = [&](const std::string& path) -> const PropertyNode& {
                        for (const PropertyNode& n : nodes)
                            if (n.path == path)
                                return n;
                        return nodes.front();
                    };
                    const PropertyNode& position = find("Position");
                    const PropertyNode& pose = find("Pose");
                    QCOMPARE(QString::fromStdString(position.type), QString("Vector"));
                    QCOMPARE(QString::fromStdString(pose.type), QString("Transform"));
                    const std::string pos = readableText(nodes, position);
                    QCOMPARE(QString::fromStdString(pos), QString("(55.1128686, 2.52462652, -8.22553544)"));
                    const std::string text = readableText(nodes, pose);
                    QVERIFY2(text.rfind("T" + pos + " R(", 0) == 0 && text.size() > pos.size() + 4, text.c_str());
                    QVERIFY2(text.find(" S(1, 1, 1)") != std::string::npos, text.c_str());
                    QVERIFY(pose.value.find("55.112868620024486") != std::string::npos); // the exact text stays for copies
                    // A struct reads as its first fields, a nested struct as {…} (review item 7:
                    // an array's or a map's struct rows were blank); its own text stays empty.
                    const PropertyNode& weapon = find("Weapon");
                    QCOMPARE(QString::fromStdString(weapon.value), QString());
                    QCOMPARE(QString::fromStdString(readableText(nodes, weapon)), QString("{Kind: \"axe\", Damage: 16.184181, Ammo: 230, …}"));
                    const PropertyNode& mod = nodes[size_t(weapon.children.back())];
                    QCOMPARE(QString::fromStdString(mod.name), QString("Mod"));
                    QCOMPARE(QString::fromStdString(readableText(nodes, mod)), QString("{Label: \"mod-3\", Power: -35296.9661, Notes: [1]}"));
                    int mapValues = 0;
                    for (const PropertyNode& n : nodes)
                        if (n.name == "[primary]" || n.name == "[secondary]") {
                            QVERIFY2(readableText(nodes, n).rfind("{Kind: ", 0) == 0, readableText(nodes, n).c_str());
                            ++mapValues;
                        }
                    QCOMPARE(mapValues, 2);
                    QCOMPARE(QString::fromStdString(readableText(nodes, find("Loadout"))), QString("{2}")); // a map keeps its count
                    seen = true;
                }
            QVERIFY2(seen, file);
        }
    }

    // Issue 26 item 3: a delta on screen has the precision of its values, a rotation's change
    // is the angle turned; exports keep the exact text.
    void deltaOnScreen_data()
    {
        QTest::addColumn<Value>("a");
        QTest::addColumn<Value>("b");
        QTest::addColumn<QString>("shown");
        const double s45 = std::sqrt(0.5);
        const Quat identity{0, 0, 0, 1}, quarterTurn{0, 0, float(s45), float(s45)};
        QTest::newRow("float noise") << Value::ofFloat(891.93f) << Value::ofFloat(892.01f) << "+0.08";
        QTest::newRow("float finer operand") << Value::ofFloat(1.5f) << Value::ofFloat(1.5000001f) << "+0.0000001";
        QTest::newRow("double") << Value::ofDouble(1.5) << Value::ofDouble(1.25) << "-0.25";
        QTest::newRow("double exponent") << Value::ofDouble(1e-20) << Value::ofDouble(2e-20) << "+1e-20";
        QTest::newRow("int") << Value::ofInt(5) << Value::ofInt(3) << "-2";
        QTest::newRow("vector") << Value::ofVector({882.9375, -271.40625, 4.96875}) << Value::ofVector({883.1875, -271.40625, 5.0})
                                << "(+0.25, 0, +0.03125)";
        QTest::newRow("quarter turn") << Value::ofQuat(identity) << Value::ofQuat(quarterTurn) << "∠90.0°";
        QTest::newRow("same rotation, other sign") << Value::ofQuat(quarterTurn) << Value::ofQuat({0, 0, -float(s45), -float(s45)}) << "∠0°";
        Transform t{{1, 2, 3}, identity, {1, 1, 1}}, turned = t, scaled = t;
        turned.rotation = quarterTurn;
        scaled.scale = {2, 1, 1};
        QTest::newRow("transform turned") << Value::ofTransform(t) << Value::ofTransform(turned) << "(0, 0, 0) ∠90.0°";
        QTest::newRow("transform scaled") << Value::ofTransform(t) << Value::ofTransform(scaled) << "(0, 0, 0) scale (+1, 0, 0)";
    }
    void deltaOnScreen()
    {
        QFETCH(Value, a);
        QFETCH(Value, b);
        QFETCH(QString, shown);
        QCOMPARE(QString::fromStdString(formatDeltaOf(a, b, true)), shown);
        // Exports: every component's exact difference, as before.
        const auto d = deltaOf(a, b);
        QVERIFY(d);
        const std::string exact = formatDeltaOf(a, b, false);
        for (size_t i = 0; i < d->size; ++i)
            QVERIFY2(exact.find(formatDelta(a.kind, d->values[i], false)) != std::string::npos, exact.c_str());
    }
    void groupedDigits_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("4 digits") << "1234"
                                  << "1234";
        QTest::newRow("5 digits") << "12345" << QString("12\u202f345");
        QTest::newRow("negative") << "-1234567" << QString("-1\u202f234\u202f567");
        QTest::newRow("15 digits") << "-123456789012345" << QString("-123\u202f456\u202f789\u202f012\u202f345");
        QTest::newRow("steam id (17 digits)") << "76561198000000000"
                                              << "76561198000000000";
        QTest::newRow("16 digits") << "1234567890123456"
                                   << "1234567890123456";
        QTest::newRow("not an integer") << "12.345678"
                                        << "12.345678";
        QTest::newRow("text") << "abcdefgh"
                              << "abcdefgh";
    }
    void groupedDigits()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(groupDigits(in.toStdString())), out);
    }

    // A value's text for a cell too narrow for it: shorter numbers, not cut ones.
    void decimalsAtMost_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("out");
        QTest::newRow("vector") << "(885.5625, -272.16346, 12)" << 2 << "(885.56, -272.16, 12)";
        QTest::newRow("vector, 0 decimals") << "(885.5625, -272.16346, 12)" << 0 << "(886, -272, 12)";
        QTest::newRow("transform") << "T(-19.123456, 4.5, 1) R(0, 0, 0.70710677, 0.70710677) S(1, 1, 1)" << 1
                                   << "T(-19.1, 4.5, 1) R(0, 0, 0.71, 0.71) S(1, 1, 1)";
        QTest::newRow("already short") << "(1.5, 2.25)" << 3 << "(1.5, 2.25)";
        QTest::newRow("rounds up") << "0.996" << 2 << "1";
        QTest::newRow("negative to zero") << "-0.4" << 0 << "-0.4";
        QTest::newRow("keeps two significant digits") << "0.004123" << 2 << "0.0041";
        QTest::newRow("a quaternion at 0 decimals") << "R(0.0178, -0.0412, 0.70710677, 0.70710677)" << 0 << "R(0.018, -0.041, 0.71, 0.71)";
        QTest::newRow("units at 0 decimals") << "(6.4712, 1.5)" << 0 << "(6.5, 1.5)";
        QTest::newRow("zero") << "0.000" << 1 << "0";
        QTest::newRow("integers untouched") << QString("12\u202f345 and 76561198000000000") << 0 << QString("12\u202f345 and 76561198000000000");
        QTest::newRow("scientific untouched") << "1.2345678e-07, 8.824752446135868e+19" << 2 << "1.2345678e-07, 8.824752446135868e+19";
        QTest::newRow("inside words untouched") << "player_765.123 v1.2.3 x2.55" << 0 << "player_765.123 v1.2.3 x2.55";
        QTest::newRow("delta") << "(+0.12345, -3.5)" << 2 << "(+0.12, -3.5)";
        QTest::newRow("unicode minus") << QString("(\u22121.0625, \u221219.57, +0.5)") << 1 << QString("(\u22121.1, \u221219.6, +0.5)");
        QTest::newRow("unicode minus to zero") << QString("\u22120.04") << 1 << QString("\u22120.04");
    }
    void decimalsAtMost()
    {
        QFETCH(QString, in);
        QFETCH(int, decimals);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(withDecimalsAtMost(in.toStdString(), decimals)), out);
    }

    // -0 keeps its sign and integral values stay numbers with a fraction ("100.0"), so a JSON
    // reader sees a float; the layout is Json::dump's.
    void jsonLayout()
    {
        const Json j{{"a", f32Json(-0.0f)}, {"b", f64Json(100.0)}, {"c", Json::array({1, "x\n\"y\""})}, {"d", Json::object()}};
        QCOMPARE(QString::fromStdString(jsonText(j)), QStringLiteral("{\"a\":-0.0,\"b\":100.0,\"c\":[1,\"x\\n\\\"y\\\"\"],\"d\":{}}"));
        QCOMPARE(jsonText(j, 1), j.dump(1));
        const Json parsed = Json::parse(jsonText(j, 2));
        QVERIFY(std::signbit(parsed["a"].get<double>()));
    }

    // Every float32 and float64 value stored in the sample files (distinct bit patterns).
    void everySampleValue_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"allkinds_fbs.vtx", "allkinds_proto.vtx", "arena_from_fbs_ds.vtx", "arena_from_proto_ds.vtx", "sdk_cs_fbs.vtx",
                              "sdk_cs_proto.vtx", "sdk_rl_fbs.vtx", "sdk_rl_proto.vtx"})
            QTest::newRow(f) << QString(f);
    }
    void everySampleValue()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        NumberCollector numbers;
        for (size_t c = 0; c < (*f)->chunks().size(); ++c) {
            auto chunk = (*f)->decodeChunk(c); // once per chunk: ReplayFile::frame decodes per call
            VTX_VERIFY_OK(chunk);
            for (size_t i = 0; i < (*chunk)->frameCount(); ++i) {
                const FrameView v = (*chunk)->frame(i);
                for (size_t b = 0; b < v.bucketCount(); ++b)
                    for (size_t e = 0; e < v.bucket(b).entityCount(); ++e)
                        numbers.container(v.bucket(b).entity(e));
            }
        }
        QVERIFY(numbers.floats.size() + numbers.doubles.size() > 100);
        for (uint32_t bits : numbers.floats) {
            float v;
            std::memcpy(&v, &bits, 4);
            const std::string e = checkAll(v);
            QVERIFY2(e.empty(), e.c_str());
        }
        for (uint64_t bits : numbers.doubles) {
            double v;
            std::memcpy(&v, &bits, 8);
            const std::string e = checkAll(v);
            QVERIFY2(e.empty(), e.c_str());
        }
        qInfo("%zu distinct float32, %zu distinct float64 values", numbers.floats.size(), numbers.doubles.size());
    }
};

QTEST_GUILESS_MAIN(TestNumberText)
#include "tst_numbertext.moc"
