// SPDX-License-Identifier: MIT
// The schema registry's token table and slot rule (spec §5), case by case.

#include "TestSupport.hpp"
#include "vtx/model/Schema.hpp"

#include <QtTest>

using namespace vtx;

namespace {
std::string schemaWith(const std::string& values, const std::string& extra = "")
{
    return R"({"buckets":["entity"],"property_mapping":[{"struct":"S","values":[)" + values + "]}" + extra + "]}";
}
std::string field(const std::string& name, const std::string& type, const std::string& container = "None")
{
    return R"({"name":")" + name + R"(","typeId":")" + type + R"(","containerType":")" + container + R"(","structType":"","keyId":"None"})";
}
} // namespace

class TestSchema : public QObject {
    Q_OBJECT
private slots:
    void tokens_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<int>("type");
        const std::pair<const char*, FieldType> cases[] = {
            {"int8", FieldType::Int8},     {"UInt8", FieldType::Int8},          {"int32", FieldType::Int32},   {"uint32", FieldType::Int32},
            {"Int", FieldType::Int32},     {"long", FieldType::Int64},          {"UInt64", FieldType::Int64},  {"float", FieldType::Float},
            {"Double", FieldType::Double}, {"bool", FieldType::Bool},           {"String", FieldType::String}, {"vector", FieldType::Vector},
            {"Quat", FieldType::Quat},     {"transform", FieldType::Transform}, {"Struct", FieldType::Struct}, {"FloatRange", FieldType::None},
            {"range", FieldType::None},    {"Enum", FieldType::None},           {"byte", FieldType::None},     {"boolean", FieldType::None},
            {"None", FieldType::None},     {"FLOAT", FieldType::None},          {"", FieldType::None},
        };
        for (auto [tok, type] : cases)
            QTest::newRow(*tok ? tok : "<empty>") << tok << int(type);
    }
    void tokens()
    {
        QFETCH(QString, token);
        QFETCH(int, type);
        QCOMPARE(int(fieldTypeFromToken(token.toStdString())), type);
    }

    void containers_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<int>("kind");
        QTest::newRow("array") << "array" << int(ContainerKind::Array);
        QTest::newRow("map") << "map" << int(ContainerKind::Map);
        QTest::newRow("Array is scalar") << "Array" << int(ContainerKind::Scalar);
        QTest::newRow("Map is scalar") << "Map" << int(ContainerKind::Scalar);
        QTest::newRow("None") << "None" << int(ContainerKind::Scalar);
        QTest::newRow("empty") << "" << int(ContainerKind::Scalar);
    }
    void containers()
    {
        QFETCH(QString, token);
        QFETCH(int, kind);
        QCOMPARE(int(containerKindFromToken(token.toStdString())), kind);
    }

    void slotRule_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("property");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("container");
        QTest::addColumn<int>("slot");
        const std::string mixed =
            schemaWith(field("A", "int32") + "," + field("B", "float") + "," + field("C", "Int") + "," + field("D", "int32", "array") + "," +
                       field("E", "uint32") + "," + field("F", "int32", "map") + "," + field("G", "FloatRange") + "," + field("H", "int32", "Array") +
                       "," + field("I", "int8") + "," + field("J", "int32", "array"));
        auto row = [&](const char* name, const char* prop, FieldType t, ContainerKind c, int slot) {
            QTest::newRow(name) << QString::fromStdString(mixed) << prop << int(t) << int(c) << slot;
        };
        row("first int32", "A", FieldType::Int32, ContainerKind::Scalar, 0);
        row("float has its own counter", "B", FieldType::Float, ContainerKind::Scalar, 0);
        row("Int shares the Int32 counter", "C", FieldType::Int32, ContainerKind::Scalar, 1);
        row("int32 array counts separately", "D", FieldType::Int32, ContainerKind::Array, 0);
        row("uint32 is Int32", "E", FieldType::Int32, ContainerKind::Scalar, 2);
        row("int32 map counts separately", "F", FieldType::Int32, ContainerKind::Map, 0);
        row("FloatRange is not addressable", "G", FieldType::None, ContainerKind::Scalar, 0);
        row("capital Array is a scalar", "H", FieldType::Int32, ContainerKind::Scalar, 3);
        row("Int8 has its own counter", "I", FieldType::Int8, ContainerKind::Scalar, 0);
        row("second int32 array", "J", FieldType::Int32, ContainerKind::Array, 1);
        const std::string dup = schemaWith(field("X", "float") + "," + field("Y", "float") + "," + field("X", "float"));
        QTest::newRow("duplicate name: later wins") << QString::fromStdString(dup) << "X" << int(FieldType::Float) << int(ContainerKind::Scalar) << 2;
    }
    void slotRule()
    {
        QFETCH(QString, json);
        QFETCH(QString, property);
        QFETCH(int, type);
        QFETCH(int, container);
        QFETCH(int, slot);
        auto s = Schema::parse(json.toStdString());
        VTX_VERIFY_OK(s);
        const FieldDef* f = s->structByName("S")->field(property.toStdString());
        QVERIFY(f);
        QCOMPARE(int(f->key.type), type);
        QCOMPARE(int(f->key.container), container);
        QCOMPARE(int(f->key.slot), slot);
    }

    void typeIdsAndStructRefs()
    {
        const std::string json =
            R"({"property_mapping":[{"struct":"A","values":[{"name":"child","typeId":"Struct","containerType":"None","structType":"C"}]},
            {"struct":"","values":[]},{"values":[]},{"struct":"B","values":[]},{"struct":"C","values":[]}]})";
        auto s = Schema::parse(json);
        VTX_VERIFY_OK(s);
        QCOMPARE(s->structByName("A")->typeId, 0);
        QCOMPARE(s->structByName("B")->typeId, 1); // unnamed entries consume no id
        QCOMPARE(s->structByName("C")->typeId, 2);
        QCOMPARE(s->key("A", "child").structTypeId, 2);
        QCOMPARE(s->bucketName(0), std::string("bucket_0"));
        QVERIFY(!s->key("A", "nope").valid());
        QVERIFY(!s->key("Nope", "child").valid());
    }

    void invalidSchemas_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("not json") << "{not json";
        QTest::newRow("not an object") << "[1,2]";
        QTest::newRow("no property_mapping") << R"({"buckets":[]})";
        QTest::newRow("property_mapping not array") << R"({"property_mapping":{}})";
        QTest::newRow("entry not object") << R"({"property_mapping":[3]})";
        QTest::newRow("struct not string") << R"({"property_mapping":[{"struct":5,"values":[]}]})";
        QTest::newRow("value not object") << R"({"property_mapping":[{"struct":"S","values":["x"]}]})";
        QTest::newRow("name not string") << R"({"property_mapping":[{"struct":"S","values":[{"name":1}]}]})";
        QTest::newRow("typeId not string") << R"({"property_mapping":[{"struct":"S","values":[{"name":"a","typeId":[]}]}]})";
        QTest::newRow("meta not object") << R"({"property_mapping":[{"struct":"S","values":[{"name":"a","typeId":"int","meta":"m"}]}]})";
        QTest::newRow("buckets not strings") << R"({"buckets":[1],"property_mapping":[]})";
    }
    void invalidSchemas()
    {
        QFETCH(QString, json);
        auto s = Schema::parse(json.toStdString());
        QVERIFY(!s.isOk());
        QVERIFY(s.message().rfind("schema:", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
