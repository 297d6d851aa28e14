// SPDX-License-Identifier: MIT
#include "vtx/query/QueryVocabulary.hpp"

#include "vtx/query/Expression.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace vtx::query {

namespace {

// Letters, digits, '_' and every byte of a multi-byte UTF-8 character ("Höhe" is one word).
bool isWordChar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || u >= 0x80;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (prefix.size() > text.size())
        return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    return true;
}

const StructDef* structNamed(const Schema& schema, std::string_view name)
{
    for (const StructDef& s : schema.structs())
        if (s.name == name)
            return &s;
    return nullptr;
}

// The members after "name.": a type's properties, or those of the type a property holds.
std::set<std::string> membersAfter(const Schema& schema, std::string_view name)
{
    std::set<std::string> out;
    auto addFields = [&](const StructDef& s) {
        for (const FieldDef& f : s.fields)
            if (!f.shadowed)
                out.insert(f.name);
    };
    if (const StructDef* s = structNamed(schema, name)) {
        addFields(*s);
        return out;
    }
    for (const StructDef& s : schema.structs())
        for (const FieldDef& f : s.fields) {
            if (f.shadowed || f.name != name)
                continue;
            switch (f.key.type) {
            case FieldType::Struct:
                if (const StructDef* nested = schema.structById(f.key.structTypeId))
                    addFields(*nested);
                break;
            case FieldType::Vector: out.insert({"x", "y", "z"}); break;
            case FieldType::Quat: out.insert({"x", "y", "z", "w"}); break;
            case FieldType::Transform: out.insert({"translation", "rotation", "scale"}); break;
            default: break;
            }
        }
    return out;
}

} // namespace

Completion complete(const Schema& schema, std::string_view before)
{
    Completion c;
    size_t start = before.size();
    while (start > 0 && isWordChar(before[start - 1]))
        --start;
    c.tokenStart = start;
    c.prefix = std::string(before.substr(start));
    // Inside a string literal nothing is completed: count the quotes before the word.
    size_t quotes = 0;
    for (size_t i = 0; i < start; ++i)
        if (before[i] == '"' && (i == 0 || before[i - 1] != '\\'))
            ++quotes;
    if (quotes % 2 == 1)
        return c;
    // A word starting with a digit is a number.
    if (!c.prefix.empty() && std::isdigit(static_cast<unsigned char>(c.prefix[0])))
        return c;
    std::set<std::string> words;
    if (start > 0 && before[start - 1] == '.') {
        // The segment before the dot, past an index or key in brackets ("Trail[2].").
        size_t end = start - 1;
        if (end > 0 && before[end - 1] == ']') {
            const size_t open = before.rfind('[', end - 1);
            if (open == std::string_view::npos)
                return c;
            end = open;
        }
        size_t segStart = end;
        while (segStart > 0 && isWordChar(before[segStart - 1]))
            --segStart;
        words = membersAfter(schema, before.substr(segStart, end - segStart));
    } else {
        words = {"type", "id", "any(", "all(", "changed(", "contains", "true", "false"};
        for (const StructDef& s : schema.structs()) {
            words.insert(s.name);
            for (const FieldDef& f : s.fields)
                if (!f.shadowed && f.key.valid())
                    words.insert(f.name);
        }
    }
    for (const std::string& w : words)
        if (w != c.prefix && startsWithNoCase(w, c.prefix))
            c.candidates.push_back(w);
    std::stable_sort(c.candidates.begin(), c.candidates.end(), [](const std::string& a, const std::string& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
            return std::tolower(static_cast<unsigned char>(x)) < std::tolower(static_cast<unsigned char>(y));
        });
    });
    return c;
}

std::vector<std::string> exampleExpressions(const Schema& schema, bool withChanged)
{
    // The first type with a numeric scalar property and the first with a string one: real names
    // from this file, so every example can be run as it is.
    // Entity types first: a struct that some property holds (BoneCompressionSettings inside
    // the bone data) makes a poor example, since no entity has that type.
    std::set<int32_t> nested;
    for (const StructDef& s : schema.structs())
        for (const FieldDef& f : s.fields)
            if (f.key.type == FieldType::Struct)
                nested.insert(f.key.structTypeId);
    std::vector<const StructDef*> order;
    for (bool wantNested : {false, true})
        for (const StructDef& s : schema.structs())
            if (nested.count(s.typeId) == size_t(wantNested))
                order.push_back(&s);
    // The property an example reads best with: a gameplay number (Health, Score, Speed…), else
    // a float (it changes), else an integer; never an id (SteamId < 20 says nothing).
    auto lower = [](std::string t) {
        for (char& c : t)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        return t;
    };
    auto isId = [&](const std::string& name) {
        const std::string l = lower(name);
        return l.size() >= 2 && l.compare(l.size() - 2, 2, "id") == 0;
    };
    auto numberScore = [&](const FieldDef& f) {
        if (isId(f.name))
            return 0;
        const std::string l = lower(f.name);
        for (const char* w : {"health", "hp", "score", "speed", "ammo", "money", "kills", "armor", "boost"})
            if (l.find(w) != std::string::npos)
                return 4;
        switch (f.key.type) {
        case FieldType::Float:
        case FieldType::Double: return 3;
        case FieldType::Int8:
        case FieldType::Int32:
        case FieldType::Int64: return 2;
        default: return 0;
        }
    };
    const StructDef* numericType = nullptr;
    const FieldDef* numericField = nullptr;
    int best = 0;
    for (const StructDef* sp : order)
        for (const FieldDef& f : sp->fields) {
            if (f.shadowed || f.key.container != ContainerKind::Scalar)
                continue;
            if (const int score = numberScore(f); score > best) {
                best = score;
                numericType = sp;
                numericField = &f;
            }
        }
    std::string numeric, text, typeName;
    if (numericField) {
        numeric = numericType->name + "." + numericField->name;
        typeName = numericType->name;
    } else if (!order.empty()) {
        typeName = order.front()->name;
    }
    // A string of the same type, a name rather than an id.
    for (const StructDef* sp : order) {
        if (!typeName.empty() && sp->name != typeName)
            continue;
        for (const FieldDef& f : sp->fields)
            if (!f.shadowed && f.key.container == ContainerKind::Scalar && f.key.type == FieldType::String && !isId(f.name) &&
                (text.empty() || lower(f.name).find("name") != std::string::npos) && text.find("Name") == std::string::npos)
                text = sp->name + "." + f.name;
    }
    std::vector<std::string> candidates;
    if (!numeric.empty()) {
        candidates.push_back(numeric + " < 20");
        candidates.push_back("any(" + numeric + " < 20)");
        if (withChanged)
            candidates.push_back("changed(" + numeric + ")");
    }
    if (!typeName.empty())
        candidates.push_back("type == " + typeName);
    if (!text.empty())
        candidates.push_back(text + " contains \"a\"");
    if (!numeric.empty())
        candidates.push_back("type == " + typeName + " && " + numeric + " >= 0");
    std::vector<std::string> out;
    for (const std::string& e : candidates) {
        ExpressionError error;
        if (Expression::compile(e, schema, &error))
            out.push_back(e);
    }
    return out;
}

} // namespace vtx::query
