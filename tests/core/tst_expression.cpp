// SPDX-License-Identifier: MIT
// The query language (core/vtx/query): precedence, every operator on every property kind
// (NaN, ±0, int64 beyond 2^53, float32 literals, quotes and Unicode in strings), type
// qualification, any/all, changed across frames and chunks, errors with their column and
// suggestion, allocation-free evaluation, and the whole-file scan against frame-by-frame reads.

#include "TestSupport.hpp"

#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/ReplayWriter.hpp"
#include "vtx/query/Expression.hpp"
#include "vtx/query/QueryScan.hpp"
#include "vtx/query/QueryVocabulary.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

// Counts heap allocations so a test can show that evaluation makes none.
namespace {
std::atomic<size_t> g_allocations{0};
}
void* operator new(size_t n)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, size_t) noexcept
{
    std::free(p);
}
// Every form that pairs with the deletes above goes through malloc too: under AddressSanitizer
// a form left out (the nothrow new std::stable_sort's buffer uses) comes from ASan's own
// operator new, and freeing it here is an alloc-dealloc mismatch.
void* operator new(size_t n, const std::nothrow_t&) noexcept
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n ? n : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}
void* operator new[](size_t n)
{
    return operator new(n);
}
void* operator new[](size_t n, const std::nothrow_t& t) noexcept
{
    return operator new(n, t);
}
void operator delete[](void* p) noexcept
{
    std::free(p);
}
void operator delete[](void* p, size_t) noexcept
{
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}

// No raw string literals in this file: Qt 6.4 moc misparses R"(...'...)" and then finds no class.
using namespace vtx;
using namespace vtx::query;

namespace {

std::string field(const std::string& name, const std::string& type, const std::string& container = "None", const std::string& structType = "")
{
    return "{\"name\":\"" + name + "\",\"typeId\":\"" + type + "\",\"containerType\":\"" + container + "\",\"structType\":\"" + structType +
        "\",\"keyId\":\"None\"}";
}

// Player: every scalar kind, a vector, a float array, a nested Weapon struct and a Unicode name.
// Weapon is a type and also the name of Player's nested field: `Weapon.Ammo` is type-qualified.
std::string schemaJson()
{
    return "{\"buckets\":[\"entity\"],\"property_mapping\":[{\"struct\":\"Player\",\"values\":[" + field("Health", "Float") + "," +
        field("Armor", "Int32") + "," + field("Score", "Int64") + "," + field("Speed", "Double") + "," + field("Alive", "Bool") + "," +
        field("Name", "String") + "," + field("Position", "Vector") + "," + field("Trail", "Float", "array") + "," +
        field("Weapon", "Struct", "None", "Weapon") + "," + field("Höhe", "Float") + "]},{\"struct\":\"Weapon\",\"values\":[" +
        field("Ammo", "Int32") + "," + field("Name", "String") + "]}]}";
}

struct PlayerSpec {
    std::string id;
    float health;
    int32_t armor;
    int64_t score;
    double speed;
    bool alive;
    std::string name;
    Vec3 position;
    std::vector<float> trail;
    int32_t weaponAmmo;
    float hoehe;
};

PropertyContainerData player(const PlayerSpec& s)
{
    PropertyContainerData c;
    c.typeId = 0;
    c.floats = {s.health, s.hoehe}; // float slots in field order: Health, Höhe
    c.int32s = {s.armor};
    c.int64s = {s.score};
    c.doubles = {s.speed};
    c.bools = {uint8_t(s.alive)};
    c.strings = {s.name};
    c.vectors = {s.position};
    c.floatArrays.push(s.trail);
    PropertyContainerData w;
    w.typeId = 1;
    w.int32s = {s.weaponAmmo};
    w.strings = {"Glock"};
    c.structs = {w};
    return c;
}

PropertyContainerData weapon(int32_t ammo, const std::string& name)
{
    PropertyContainerData w;
    w.typeId = 1;
    w.int32s = {ammo};
    w.strings = {name};
    return w;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Frame 0 then frame 1 (the frame the rows evaluate); p2 appears in frame 1.
std::vector<std::vector<std::pair<std::string, PropertyContainerData>>> frames()
{
    const PlayerSpec p0a{"p0", 20.0f, 0, 9007199254740993LL, kNaN, true, "Dan \"the man\"", {1, 2, 3}, {1, 2, 3}, 6, -0.0f};
    PlayerSpec p0b = p0a;
    p0b.health = 15.5f;
    p0b.weaponAmmo = 5;
    const PlayerSpec p1{"p1", 100.0f, 50, 1, 0.1, false, "Zoë 🎮", {4, 5, 6}, {}, 12, 1.0f};
    const PlayerSpec p2{"p2", 0.1f, -5, -1, 0.0, true, "", {7, 8, 9}, {9}, 0, 0.0f};
    return {
        {{"p0", player(p0a)}, {"p1", player(p1)}, {"w0", weapon(30, "AK-47")}},
        {{"p0", player(p0b)}, {"p1", player(p1)}, {"p2", player(p2)}, {"w0", weapon(30, "AK-47")}},
    };
}

} // namespace

class TestExpression : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<ReplayFile> m_file;
    std::shared_ptr<const DecodedChunk> m_chunk;

    Expression compileOrFail(const QString& text)
    {
        ExpressionError error;
        auto e = Expression::compile(text.toStdString(), m_file->schema(), &error);
        if (!e)
            qFatal("%s: %s", qPrintable(text), error.text().c_str());
        return *e;
    }
    /// Sorted ids of the entities of frame `f` that match.
    QString matches(Expression& e, int f)
    {
        e.setFrame(m_chunk->frame(size_t(f)), f > 0 ? m_chunk->frame(size_t(f - 1)) : FrameView{});
        QStringList ids;
        e.forEachMatch([&](uint32_t b, size_t i) { ids << QString::fromStdString(std::string(m_chunk->frame(size_t(f)).bucket(b).uniqueId(i))); });
        ids.sort();
        return ids.join(',');
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::string path = m_dir.path().toStdString() + "/expr.vtx";
        ReplayHeader header;
        header.schemaJson = schemaJson();
        WriterOptions wo;
        wo.groupBucket0ByType = false; // keep the order written, so row expectations read plainly
        auto w = ReplayWriter::create(path, header, wo);
        VTX_VERIFY_OK(w);
        int64_t t = 0;
        for (auto& frame : frames()) {
            FrameData fd;
            BucketData b;
            for (auto& [id, c] : frame) {
                b.uniqueIds.push_back(id);
                b.entities.push_back(c);
            }
            fd.buckets.push_back(std::move(b));
            QVERIFY((*w)->addFrame(std::move(fd), t, t).isOk());
            t += 1000;
        }
        auto stats = (*w)->finish();
        VTX_VERIFY_OK(stats);
        auto file = ReplayFile::open(path);
        VTX_VERIFY_OK(file);
        m_file = *file;
        auto chunk = m_file->decodeChunk(0);
        VTX_VERIFY_OK(chunk);
        m_chunk = *chunk;
        QCOMPARE(m_chunk->frameCount(), size_t(2));
    }

    void evaluate_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("expected"); // matching ids in frame 1, sorted

        // float32: literals are rounded to float32 against a float property.
        QTest::newRow("float <") << "Health < 20"
                                 << "p0,p2";
        QTest::newRow("float <=") << "Health <= 15.5"
                                  << "p0,p2";
        QTest::newRow("float == 0.1 (float32 literal)") << "Health == 0.1"
                                                        << "p2";
        QTest::newRow("float >") << "Health > 0.1"
                                 << "p0,p1";
        QTest::newRow("float >=") << "Health >= 100"
                                  << "p1";
        QTest::newRow("float !=") << "Health != 100"
                                  << "p0,p2";
        QTest::newRow("float == 100.0") << "Health == 100.0"
                                        << "p1";
        QTest::newRow("float exponent, negative") << "Health > -1e3"
                                                  << "p0,p1,p2";
        // int32
        QTest::newRow("int ==") << "Armor == 0"
                                << "p0";
        QTest::newRow("int < negative") << "Armor < 0"
                                        << "p2";
        QTest::newRow("int !=") << "Armor != 0"
                                << "p1,p2";
        QTest::newRow("int >= -5") << "Armor >= -5"
                                   << "p0,p1,p2";
        QTest::newRow("int > fraction") << "Armor > 49.5"
                                        << "p1";
        // int64: exact beyond 2^53 (as doubles 2^53 + 1 == 2^53)
        QTest::newRow("int64 exact") << "Score == 9007199254740993"
                                     << "p0";
        QTest::newRow("int64 exact, off by one") << "Score == 9007199254740992"
                                                 << "";
        QTest::newRow("int64 <") << "Score < 0"
                                 << "p2";
        // double, NaN (IEEE: unequal to everything, itself included)
        QTest::newRow("NaN == nan") << "Speed == nan"
                                    << "";
        QTest::newRow("!= nan is always true") << "Speed != nan"
                                               << "p0,p1,p2";
        QTest::newRow("x != x finds NaN") << "Speed != Speed"
                                          << "p0";
        QTest::newRow("x == x skips NaN") << "Speed == Speed"
                                          << "p1,p2";
        QTest::newRow("NaN < 1 false") << "Speed < 1"
                                       << "p1,p2";
        QTest::newRow("NaN >= 0 false") << "Speed >= 0"
                                        << "p1,p2";
        QTest::newRow("double 0.1 exact") << "Speed == 0.1"
                                          << "p1";
        QTest::newRow("not over absent") << "!(Speed > 0)"
                                         << "p0,p2,w0";
        QTest::newRow("double == -0.0") << "Speed == -0.0"
                                        << "p2";
        // ±0
        QTest::newRow("-0 == 0") << "Höhe == 0"
                                 << "p0,p2";
        QTest::newRow("+0 == -0") << "Höhe == -0"
                                  << "p0,p2";
        QTest::newRow("-0 < 0 false") << "Höhe < 0"
                                      << "";
        QTest::newRow("-0 <= 0") << "Höhe <= 0"
                                 << "p0,p2";
        // bool
        QTest::newRow("bool bare") << "Alive"
                                   << "p0,p2";
        QTest::newRow("bool negated (absent is false)") << "!Alive"
                                                        << "p1,w0";
        QTest::newRow("bool == true") << "Alive == true"
                                      << "p0,p2";
        QTest::newRow("bool != true") << "Alive != true"
                                      << "p1";
        QTest::newRow("bool == false") << "Alive == false"
                                       << "p1";
        QTest::newRow("bool == 1") << "Alive == 1"
                                   << "p0,p2";
        // strings: quotes, Unicode, bytewise order
        QTest::newRow("string with quotes") << "Name == \"Dan \\\"the man\\\"\""
                                            << "p0";
        QTest::newRow("single-quoted with a double quote") << "Name contains 'man\"'"
                                                           << "p0";
        QTest::newRow("contains") << "Name contains \"the\""
                                  << "p0";
        QTest::newRow("empty string") << "Name == \"\""
                                      << "p2";
        QTest::newRow("contains empty") << "Name contains \"\""
                                        << "p0,p1,p2,w0";
        QTest::newRow("Unicode ==") << "Name == \"Zoë 🎮\""
                                    << "p1";
        QTest::newRow("Unicode contains") << "Name contains \"🎮\""
                                          << "p1";
        QTest::newRow("string >") << "Name > \"Z\""
                                  << "p1";
        QTest::newRow("string <") << "Name < \"B\""
                                  << "p2,w0";
        QTest::newRow("string !=") << "Name != \"AK-47\""
                                   << "p0,p1,p2";
        QTest::newRow("string <= >=") << "Name >= \"AK-47\" && Name <= \"AK-47\""
                                      << "w0";
        // type and id
        QTest::newRow("type ==") << "type == Player"
                                 << "p0,p1,p2";
        QTest::newRow("type !=") << "type != Player"
                                 << "w0";
        QTest::newRow("type == string") << "type == \"Weapon\""
                                        << "w0";
        QTest::newRow("type contains") << "type contains \"eap\""
                                       << "w0";
        QTest::newRow("id") << "id == \"p1\""
                            << "p1";
        QTest::newRow("id contains") << "id contains \"p\""
                                     << "p0,p1,p2";
        // type qualification: Weapon is a type, so Weapon.Ammo means Weapon entities
        QTest::newRow("qualified") << "Player.Health < 20"
                                   << "p0,p2";
        QTest::newRow("qualified other type") << "Weapon.Ammo == 30"
                                              << "w0";
        QTest::newRow("qualified string") << "Player.Name == \"AK-47\""
                                          << "";
        QTest::newRow("qualified nested") << "Player.Weapon.Ammo < 10"
                                          << "p0,p2";
        QTest::newRow("unqualified nested") << "Weapon.Name == \"Glock\""
                                            << "";
        // nested values
        QTest::newRow("vector component") << "Position.x == 1"
                                          << "p0";
        QTest::newRow("array element") << "Trail[1] == 2"
                                       << "p0";
        QTest::newRow("array element out of range") << "Trail[5] == 2"
                                                    << "";
        QTest::newRow("path vs path") << "Position.x < Position.y"
                                      << "p0,p1,p2";
        // precedence: ! over comparison? no: ! applies to the comparison; && over ||
        QTest::newRow("&& binds tighter than ||") << "Armor == 50 || Health < 20 && Alive"
                                                  << "p0,p1,p2";
        QTest::newRow("parentheses") << "(Armor == 50 || Health < 20) && Alive"
                                     << "p0,p2";
        QTest::newRow("! binds tighter than &&") << "!Alive && Armor == 50"
                                                 << "p1";
        QTest::newRow("! of a group") << "!(Alive && Armor == 0)"
                                      << "p1,p2,w0";
        QTest::newRow("! of a comparison") << "!Health < 20"
                                           << "p1,w0";
        QTest::newRow("double negation") << "!!Alive"
                                         << "p0,p2";
        QTest::newRow("|| left to right") << "Armor == 0 || Armor == 50 || Armor == -5"
                                          << "p0,p1,p2";
        QTest::newRow("literals") << "true && !false"
                                  << "";
        // any / all over the frame's entities
        QTest::newRow("any") << "type == Weapon && any(Player.Health < 1)"
                             << "w0";
        QTest::newRow("all false") << "type == Weapon && all(Player.Health < 1)"
                                   << "";
        QTest::newRow("all true") << "type == Weapon && all(type != Player || Health > 0)"
                                  << "w0";
        QTest::newRow("any negated") << "Alive && !any(Armor > 100)"
                                     << "p0,p2";
        QTest::newRow("condition compared") << "Alive && any(Armor == 50) == true"
                                            << "p0,p2";
        // changed(): against the same entity in frame 0; p2 appears (changed), NaN stays NaN
        QTest::newRow("changed") << "changed(Health)"
                                 << "p0,p2";
        QTest::newRow("changed NaN stays") << "changed(Speed)"
                                           << "p2";
        QTest::newRow("changed qualified nested") << "changed(Player.Weapon.Ammo)"
                                                  << "p0,p2";
        QTest::newRow("changed type-qualified") << "changed(Weapon.Ammo)"
                                                << "";
        QTest::newRow("changed negated") << "type == Player && !changed(Health)"
                                         << "p1";
    }
    void evaluate()
    {
        QFETCH(QString, expression);
        QFETCH(QString, expected);
        Expression e = compileOrFail(expression);
        QCOMPARE(matches(e, 1), expected);
        // The frame answer agrees with the entity answers.
        e.setFrame(m_chunk->frame(1), m_chunk->frame(0));
        if (e.perEntity())
            QCOMPARE(e.matchesFrame(), !expected.isEmpty());
    }

    void frameLevel_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("frame0");
        QTest::addColumn<bool>("frame1");
        QTest::newRow("any") << "any(Health < 1)" << false << true;
        QTest::newRow("all") << "all(Name != \"\")" << true << false;
        QTest::newRow("any || all") << "any(Armor < 0) || all(type == Player)" << false << true;
        QTest::newRow("not any") << "!any(type == Weapon)" << false << false;
        QTest::newRow("true") << "true" << true << true;
    }
    void frameLevel()
    {
        QFETCH(QString, expression);
        QFETCH(bool, frame0);
        QFETCH(bool, frame1);
        Expression e = compileOrFail(expression);
        QVERIFY(!e.perEntity());
        QCOMPARE(matches(e, 0), QString()); // a frame-level expression lists no entities
        e.setFrame(m_chunk->frame(0));
        QCOMPARE(e.matchesFrame(), frame0);
        e.setFrame(m_chunk->frame(1), m_chunk->frame(0));
        QCOMPARE(e.matchesFrame(), frame1);
    }

    void changedWithoutPreviousFrame()
    {
        Expression e = compileOrFail("changed(Health)");
        QVERIFY(e.usesPrevious());
        QCOMPARE(matches(e, 0), QString()); // frame 0: no previous frame, nothing changed
        QVERIFY(!compileOrFail("Health < 20").usesPrevious());
    }

    void errors_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message"); // a part of the message
        QTest::addColumn<QString>("suggestion");
        QTest::newRow("unknown property") << "Helth < 20" << 0 << "unknown property 'Helth'"
                                          << "Health";
        QTest::newRow("case typo") << "health < 20" << 0 << "unknown property 'health'"
                                   << "Health";
        QTest::newRow("nothing close") << "Xyzzyq < 20" << 0 << "unknown property 'Xyzzyq'"
                                       << "";
        QTest::newRow("qualified unknown") << "Player.Helth > 1" << 7 << "Player has no property 'Helth'"
                                           << "Health";
        QTest::newRow("unknown type") << "type == Plyer" << 8 << "unknown type 'Plyer'"
                                      << "Player";
        QTest::newRow("vector member") << "Position.w > 0" << 9 << "a vector has no member 'w'"
                                       << "x";
        QTest::newRow("member of a number") << "Health.x > 0" << 7 << "'Health' is a number"
                                            << "";
        QTest::newRow("array needs an index") << "Trail.x > 0" << 6 << "an array: expected [index]"
                                              << "";
        QTest::newRow("missing value") << "Health <" << 8 << "expected a value after '<', found the end"
                                       << "";
        QTest::newRow("missing operand after &&") << "Health < 20 &&" << 14 << "expected a value"
                                                  << "";
        QTest::newRow("unclosed paren") << "(Health < 20" << 12 << "expected ')' to close the '(' at column 0"
                                        << "";
        QTest::newRow("stray paren") << "Health < 20)" << 11 << "')' without a matching '('"
                                     << "";
        QTest::newRow("unclosed string") << "Name == \"abc" << 8 << "closing quote"
                                         << "";
        QTest::newRow("single =") << "Health = 20" << 7 << "'=='"
                                  << "";
        QTest::newRow("single &") << "Alive & Alive" << 6 << "'&&'"
                                  << "";
        QTest::newRow("bad character") << "Health < 20 # x" << 12 << "unexpected character '#'"
                                       << "";
        QTest::newRow("string vs number") << "Name < 5" << 7 << "cannot compare 'Name' (a string) with '5' (a number)"
                                          << "";
        QTest::newRow("contains on a number") << "Health contains \"x\"" << 0 << "'contains' compares strings"
                                              << "";
        QTest::newRow("vector vs number") << "Position == 1" << 12 << "cannot compare"
                                          << "";
        QTest::newRow("number alone") << "Health" << 6 << "expected a comparison"
                                      << "";
        QTest::newRow("chained comparison") << "Health < 20 < 30" << 12 << "comparisons do not chain"
                                            << "";
        QTest::newRow("column counts code points") << "Name == \"Zoë\" && Helth < 1" << 17 << "unknown property 'Helth'"
                                                   << "Health";
        QTest::newRow("empty") << "" << 0 << "empty expression"
                               << "";
        QTest::newRow("blank") << "   " << 0 << "empty expression"
                               << "";
        QTest::newRow("any without entity") << "any(1 < 2)" << 4 << "expected a condition on the entity"
                                            << "";
        QTest::newRow("changed needs a path") << "changed(5)" << 8 << "expected a property path"
                                              << "";
        QTest::newRow("unclosed any") << "any(Alive" << 9 << "expected ')' to close any("
                                      << "";
        QTest::newRow("bare string needs quotes") << "Name == Xyzzyq" << 8 << "a string needs quotes"
                                                  << "";
        QTest::newRow("minus without number") << "Health < -Armor" << 10 << "expected a number after '-'"
                                              << "";
        QTest::newRow("number with letters") << "Health < 20abc" << 9 << "a number followed by letters"
                                             << "";
        QTest::newRow("unclosed bracket") << "Trail[1 > 0" << 0 << "'[' without a closing ']'"
                                          << "";
        QTest::newRow("operator first") << "< 20" << 0 << "expected a value"
                                        << "";
    }
    void errors()
    {
        QFETCH(QString, expression);
        QFETCH(int, column);
        QFETCH(QString, message);
        QFETCH(QString, suggestion);
        ExpressionError error;
        auto e = Expression::compile(expression.toStdString(), m_file->schema(), &error);
        QVERIFY2(!e, qPrintable(expression + " compiled"));
        QVERIFY2(QString::fromStdString(error.message).contains(message), error.message.c_str());
        // Messages read as English (issue 26 8k: "unexpected a number followed by letters").
        QVERIFY2(!QString::fromStdString(error.message).startsWith("unexpected a "), error.message.c_str());
        QCOMPARE(int(error.column), column);
        QCOMPARE(QString::fromStdString(error.suggestion), suggestion);
        QVERIFY(QString::fromStdString(error.text()).startsWith("column " + QString::number(column) + ": "));
    }

    void evaluationDoesNotAllocate()
    {
        Expression e = compileOrFail("Player.Health < 20 && Name contains \"a\" || changed(Weapon.Ammo) || any(Score > 5) && id != \"x\"");
        Expression f = compileOrFail("all(Alive) || Position.x > Speed");
        size_t hits = 0;
        const size_t before = g_allocations.load();
        for (int round = 0; round < 100; ++round)
            for (Expression* x : {&e, &f}) {
                x->setFrame(m_chunk->frame(1), m_chunk->frame(0));
                x->forEachMatch([&](uint32_t, size_t) { ++hits; });
                hits += x->matchesFrame();
            }
        QCOMPARE(g_allocations.load() - before, size_t(0));
        QVERIFY(hits > 0);
    }

    void closestName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one edit") << "Helth"
                                  << "Health";
        QTest::newRow("case") << "HEALTH"
                              << "Health";
        QTest::newRow("transposed") << "Haelth"
                                    << "Health";
        QTest::newRow("too far") << "Shield"
                                 << "";
    }
    void closestName()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(vtx::query::closestName(name.toStdString(), {"Health", "Armor", "Name", "Position"})), expected);
    }

    // Issue 26 item 6: the query bar completes the word being typed from the schema.
    void completion_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("candidates");
        QTest::newRow("type name") << "Pl"
                                   << "Player";
        QTest::newRow("after a type") << "Player."
                                      << "Alive,Armor,Health,Höhe,Name,Position,Score,Speed,Trail,Weapon";
        QTest::newRow("after a type, typed") << "Player.He"
                                             << "Health";
        QTest::newRow("after a struct property") << "Player.Weapon."
                                                 << "Ammo,Name";
        QTest::newRow("after a vector") << "Position."
                                        << "x,y,z";
        QTest::newRow("keywords and names") << "Health < 20 && a"
                                            << "Alive,all(,Ammo,any(,Armor";
        QTest::newRow("non-ASCII") << "Hö"
                                   << "Höhe";
        QTest::newRow("inside a string") << "Name contains \"Pl"
                                         << "";
        QTest::newRow("a number") << "Health < 2"
                                  << "";
        QTest::newRow("after an array element") << "Trail[2]."
                                                << "";
        QTest::newRow("a whole word") << "Player"
                                      << "";
    }
    void completion()
    {
        QFETCH(QString, before);
        QFETCH(QString, candidates);
        const std::string text = before.toStdString();
        const vtx::query::Completion c = vtx::query::complete(m_file->schema(), text);
        QStringList got;
        for (const std::string& w : c.candidates)
            got << QString::fromStdString(w);
        QCOMPARE(got.join(','), candidates);
        QCOMPARE(c.tokenStart + c.prefix.size(), text.size());
        QVERIFY(text.compare(c.tokenStart, std::string::npos, c.prefix) == 0);
    }

    // Every example the bar shows compiles against the file it is shown for: this schema, the
    // SDK's samples and every generated kind.
    void examplesCompile()
    {
        std::vector<std::string> paths;
        if (vtxtest::samplesAvailable())
            for (const char* s : {"sdk_cs_fbs.vtx", "sdk_cs_proto.vtx", "sdk_rl_fbs.vtx", "sdk_rl_proto.vtx", "arena_from_fbs_ds.vtx",
                                  "arena_from_proto_ds.vtx", "allkinds_fbs.vtx"})
                paths.push_back(vtxtest::samplePath(s));
        for (vtxgen::Kind kind : {vtxgen::Kind::Demo, vtxgen::Kind::Cs2, vtxgen::Kind::Rl})
            paths.push_back(vtxtest::generatedReplay(m_dir.path(), kind, vtx::Backend::FlatBuffers, 40, 20));
        auto check = [](const vtx::Schema& schema, const std::string& what) {
            for (bool withChanged : {false, true}) {
                const auto examples = vtx::query::exampleExpressions(schema, withChanged);
                QVERIFY2(examples.size() >= 3, what.c_str());
                for (const std::string& e : examples) {
                    ExpressionError error;
                    const bool compiles = Expression::compile(e, schema, &error).has_value();
                    QVERIFY2(
                        compiles,
                        qPrintable(QString::fromStdString(what) + ": " + QString::fromStdString(e) + ": " + QString::fromStdString(error.text())));
                    QVERIFY2(withChanged || e.find("changed(") == std::string::npos, e.c_str());
                }
            }
        };
        check(m_file->schema(), "test schema");
        for (const std::string& p : paths) {
            auto f = ReplayFile::open(p);
            VTX_VERIFY_OK(f);
            check((*f)->schema(), p);
        }
    }

    // The direct read of a plain field (PropertyPath::scalarKey and readScalar: what a query
    // takes for `Health`) gives what walking the path gives, for every such field of every
    // entity at the first, a middle and the last frame of every SDK sample and generated kind.
    void plainFieldReadEqualsPathWalk_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* s : {"sdk_cs_fbs.vtx", "sdk_cs_proto.vtx", "sdk_rl_fbs.vtx", "sdk_rl_proto.vtx", "arena_from_fbs_ds.vtx",
                              "arena_from_proto_ds.vtx", "allkinds_fbs.vtx", "allkinds_proto.vtx"})
            QTest::newRow(s) << QString::fromStdString(vtxtest::samplePath(s));
        for (vtxgen::Kind kind : {vtxgen::Kind::Demo, vtxgen::Kind::Cs2, vtxgen::Kind::Rl})
            for (Backend backend : {Backend::FlatBuffers, Backend::Protobuf}) {
                const std::string p = vtxtest::generatedReplay(m_dir.path(), kind, backend, 40, 20);
                QTest::newRow(p.substr(p.rfind('/') + 1).c_str()) << QString::fromStdString(p);
            }
    }
    void plainFieldReadEqualsPathWalk()
    {
        QFETCH(QString, path);
        if (!QFile::exists(path))
            VTX_REQUIRE_SAMPLES();
        auto file = ReplayFile::open(path.toStdString());
        VTX_VERIFY_OK(file);
        const Schema& schema = (*file)->schema();
        auto same = [](const Value& a, const Value& b) {
            const bool numbersSame = a.number == b.number || (std::isnan(a.number) && std::isnan(b.number));
            return a.kind == b.kind && a.integer == b.integer && numbersSame && std::signbit(a.number) == std::signbit(b.number) && a.text == b.text;
        };
        // Per type, its plain fields as paths with their keys; and a field that is not plain
        // (nested, array, vector) has no key.
        std::vector<std::vector<std::pair<PropertyPath, PropertyKey>>> plain(schema.structs().size());
        for (const StructDef& def : schema.structs())
            for (const FieldDef& f : def.fields) {
                if (f.shadowed)
                    continue;
                auto pp = PropertyPath::parse(f.name);
                VTX_VERIFY_OK(pp);
                const PropertyKey k = pp->scalarKey(schema, def.typeId);
                const bool isPlain = f.key.container == ContainerKind::Scalar &&
                    (f.key.type == FieldType::Bool || f.key.type == FieldType::Int8 || f.key.type == FieldType::Int32 ||
                     f.key.type == FieldType::Int64 || f.key.type == FieldType::Float || f.key.type == FieldType::Double ||
                     f.key.type == FieldType::String);
                QCOMPARE(k.valid(), isPlain);
                if (isPlain)
                    plain[size_t(def.typeId)].emplace_back(std::move(*pp), k);
                for (const std::string& deeper : {f.name + ".x", f.name + "[0]"}) { // more than one step: never direct
                    auto dp = PropertyPath::parse(deeper);
                    VTX_VERIFY_OK(dp);
                    QVERIFY(!dp->scalarKey(schema, def.typeId).valid());
                }
            }
        const int32_t n = (*file)->frameCount();
        QVERIFY(n > 2);
        size_t compared = 0;
        for (const int32_t at : {0, n / 2, n - 1}) {
            auto frame = (*file)->frame(at);
            VTX_VERIFY_OK(frame);
            for (const FrameEntity e : frame->view().entities()) {
                const int32_t t = e.entity.typeId();
                if (t < 0 || size_t(t) >= plain.size())
                    continue;
                for (const auto& [pp, key] : plain[size_t(t)]) {
                    const Value walked = pp.evaluate(e.entity, schema), read = readScalar(e.entity, key);
                    QVERIFY2(same(walked, read),
                             qPrintable(QString("frame %1, %2 %3: %4 walked, %5 read")
                                            .arg(at)
                                            .arg(QString::fromStdString(std::string(e.uniqueId())), QString::fromStdString(pp.text()),
                                                 QString::fromStdString(formatValue(walked)), QString::fromStdString(formatValue(read)))));
                    ++compared;
                }
            }
        }
        QVERIFY2(compared > 0, "no plain field compared");
    }

    // The scan (chunk by chunk, the previous frame kept across chunk boundaries) gives what
    // evaluating each frame read on its own gives.
    void scanAgreesWithFrameByFrame_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::newRow("changed across chunks") << "changed(Health)";
        QTest::newRow("threshold") << "Health < 90";
        QTest::newRow("any") << "any(Health < 70)";
    }
    void scanAgreesWithFrameByFrame()
    {
        QFETCH(QString, expression);
        const std::string path = vtxtest::generatedReplay(m_dir.path(), vtxgen::Kind::Demo, Backend::FlatBuffers, 300, 64);
        auto file = ReplayFile::open(path);
        VTX_VERIFY_OK(file);
        const ReplayFile& f = **file;
        QVERIFY(f.chunks().size() > 2);
        ExpressionError error;
        auto expr = Expression::compile(expression.toStdString(), f.schema(), &error);
        QVERIFY2(expr, error.text().c_str());
        QueryScanOptions opt;
        opt.from = 10;
        opt.to = 250;
        int64_t lastDone = -1;
        opt.progress = [&](int64_t done, int64_t total) {
            QVERIFY(done > lastDone && done <= total);
            lastDone = done;
        };
        auto scan = scanQuery(f, *expr, opt);
        VTX_VERIFY_OK(scan);
        QCOMPARE(scan->framesScanned, int64_t(241));
        QCOMPARE(lastDone, int64_t(241));
        QVERIFY(scan->problems.empty());
        std::vector<int32_t> slow;
        int64_t slowEntities = 0;
        Expression e = *expr;
        for (int32_t n = opt.from; n <= opt.to; ++n) {
            auto now = f.frame(n);
            auto before = f.frame(n - 1);
            VTX_VERIFY_OK(now);
            VTX_VERIFY_OK(before);
            e.setFrame(now->view(), before->view());
            size_t k = 0;
            e.forEachMatch([&](uint32_t, size_t) { ++k; });
            slowEntities += int64_t(k);
            if (e.matchesFrame())
                slow.push_back(n);
        }
        std::vector<int32_t> fast;
        for (const FrameMatch& m : scan->frames)
            fast.push_back(m.frame);
        QCOMPARE(fast, slow);
        QCOMPARE(scan->entityMatches, slowEntities);
        QVERIFY(!fast.empty());
        QVERIFY(fast.size() < size_t(241)); // the rows pick expressions that do not match everywhere
    }

    void scanRangeAndCancel()
    {
        Expression e = compileOrFail("Health < 20");
        QueryScanOptions bad;
        bad.from = 1;
        bad.to = 5;
        auto r = scanQuery(*m_file, e, bad);
        QVERIFY(!r);
        QCOMPARE(r.code(), Errc::OutOfRange);
        std::atomic<bool> cancel{true};
        QueryScanOptions opt;
        opt.cancel = &cancel;
        auto c = scanQuery(*m_file, e, opt);
        VTX_VERIFY_OK(c);
        QVERIFY(c->cancelled);
        QVERIFY(c->frames.empty());
        QueryScanOptions all;
        auto full = scanQuery(*m_file, e, all);
        VTX_VERIFY_OK(full);
        QCOMPARE(full->frames.size(), size_t(1)); // frame 0: p0 has 20, not < 20
        QCOMPARE(full->frames[0].frame, 1);
        QCOMPARE(full->frames[0].entities.size(), size_t(2));
        QCOMPARE(full->frames[0].entities[0].uniqueId, std::string("p0"));
        QCOMPARE(full->frames[0].entities[1].uniqueId, std::string("p2"));
    }
};

QTEST_GUILESS_MAIN(TestExpression)
#include "tst_expression.moc"
