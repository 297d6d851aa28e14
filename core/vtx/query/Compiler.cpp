// SPDX-License-Identifier: MIT
// Parser and binder of the query language: tokens → node tree, every path resolved against the
// schema per entity type, so evaluation never looks a name up. Grammar in Expression.hpp.

#include "vtx/query/Expression.hpp"
#include "vtx/query/Lexer.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace vtx::query {

std::string ExpressionError::text() const
{
    std::string s = "column " + std::to_string(column) + ": " + message;
    if (!suggestion.empty())
        s += " (did you mean '" + suggestion + "'?)";
    return s;
}

std::string closestName(std::string_view name, const std::vector<std::string_view>& candidates)
{
    auto lower = [](unsigned char c) { return char(std::tolower(c)); };
    std::string best;
    size_t bestDistance = std::numeric_limits<size_t>::max();
    std::vector<size_t> row;
    for (std::string_view c : candidates) {
        // Levenshtein distance, case-insensitive: "health" finds "Health" at distance 0.
        row.assign(c.size() + 1, 0);
        for (size_t j = 0; j <= c.size(); ++j)
            row[j] = j;
        for (size_t i = 1; i <= name.size(); ++i) {
            size_t diag = row[0];
            row[0] = i;
            for (size_t j = 1; j <= c.size(); ++j) {
                const size_t up = row[j];
                const size_t cost = lower(static_cast<unsigned char>(name[i - 1])) == lower(static_cast<unsigned char>(c[j - 1])) ? 0 : 1;
                row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
                diag = up;
            }
        }
        const size_t d = row[c.size()];
        if (d < bestDistance || (d == bestDistance && c < best)) {
            bestDistance = d;
            best = std::string(c);
        }
    }
    // A likely typo: at most a third of the name wrong (and at least 1-2 edits allowed).
    const size_t allowed = std::max<size_t>(2, name.size() / 3);
    return bestDistance <= allowed ? best : std::string{};
}

namespace {

using Node = Expression::Node;
using NodeKind = Expression::NodeKind;
using Op = Expression::Op;

/// What a path (or literal) yields, for the compile-time "cannot compare" check.
enum class Leaf : uint8_t { Number, Bool, String, Other, Unknown };

const char* leafName(Leaf l)
{
    switch (l) {
    case Leaf::Number: return "a number";
    case Leaf::Bool: return "a bool";
    case Leaf::String: return "a string";
    case Leaf::Other: return "not a single number, bool or string";
    case Leaf::Unknown: return "of unknown type";
    }
    return "";
}

struct Segment {
    size_t offset = 0; ///< byte offset in the path text
    std::string text;
    bool bracket = false;
};

/// The path's segments with their offsets (PropertyPath's splitting, which keeps none).
std::vector<Segment> splitPath(std::string_view p)
{
    std::vector<Segment> out;
    size_t i = 0;
    while (i < p.size()) {
        if (p[i] == '.') {
            ++i;
            continue;
        }
        if (p[i] == '[') {
            const size_t close = p.find(']', i + 1);
            out.push_back({i, std::string(p.substr(i + 1, close - i - 1)), true});
            i = close + 1;
            continue;
        }
        size_t end = i;
        while (end < p.size() && p[end] != '.' && p[end] != '[')
            ++end;
        out.push_back({i, std::string(p.substr(i, end - i)), false});
        i = end;
    }
    return out;
}

/// Walks a path through the schema from one struct type, as PropertyPath::evaluate will on data.
class PathResolver {
public:
    PathResolver(const Schema& s, const std::vector<Segment>& segs) : m_schema(s), m_segs(segs) { }

    struct Outcome {
        bool ok = false;
        Leaf leaf = Leaf::Unknown;
        size_t badSegment = 0;
        std::string why;
        std::string suggestion;
    };

    Outcome fromStruct(int32_t typeId, size_t i)
    {
        const StructDef* def = m_schema.structById(typeId);
        if (!def)
            return ok(Leaf::Unknown);
        if (i == m_segs.size())
            return ok(Leaf::Other);
        const Segment& s = m_segs[i];
        if (s.bracket)
            return fail(i, "expected a property name of " + def->name + ", found '[" + s.text + "]'");
        const FieldDef* f = def->field(s.text);
        if (!f || !f->key.valid()) {
            std::vector<std::string_view> names;
            for (const FieldDef& fd : def->fields)
                names.push_back(fd.name);
            Outcome o = fail(i, def->name + " has no property '" + s.text + "'");
            o.suggestion = closestName(s.text, names);
            return o;
        }
        const PropertyKey& k = f->key;
        if (k.container == ContainerKind::Array || k.container == ContainerKind::Map) {
            if (i + 1 == m_segs.size())
                return ok(Leaf::Other);
            if (!m_segs[i + 1].bracket)
                return fail(i + 1,
                            "'" + s.text + "' is " + (k.container == ContainerKind::Array ? "an array: expected [index]" : "a map: expected [key]"));
            if (k.container == ContainerKind::Array) {
                size_t index = 0;
                const std::string& t = m_segs[i + 1].text;
                auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), index);
                if (ec != std::errc() || p != t.data() + t.size())
                    return fail(i + 1, "'" + s.text + "' is an array: expected a number in [], found '" + t + "'");
                return element(k.type, k.structTypeId, i + 2);
            }
            return fromStruct(k.structTypeId, i + 2);
        }
        return element(k.type, k.structTypeId, i + 1);
    }

private:
    Outcome ok(Leaf l)
    {
        Outcome o;
        o.ok = true;
        o.leaf = l;
        return o;
    }
    Outcome fail(size_t seg, std::string why)
    {
        Outcome o;
        o.badSegment = seg;
        o.why = std::move(why);
        return o;
    }
    Outcome members(size_t i, std::initializer_list<const char*> names, Leaf leaf, const char* what)
    {
        if (i == m_segs.size())
            return ok(Leaf::Other);
        const Segment& s = m_segs[i];
        for (const char* n : names)
            if (!s.bracket && s.text == n)
                return i + 1 == m_segs.size() ? ok(leaf) : fail(i + 1, std::string("'") + n + "' is a number: it has no members");
        std::vector<std::string_view> cand(names.begin(), names.end());
        Outcome o = fail(i, std::string("a ") + what + " has no member '" + s.text + "'");
        o.suggestion = closestName(s.text, cand);
        return o;
    }
    Outcome element(FieldType t, int32_t structTypeId, size_t i)
    {
        switch (t) {
        case FieldType::Struct: return fromStruct(structTypeId, i);
        case FieldType::Vector: return members(i, {"x", "y", "z"}, Leaf::Number, "vector");
        case FieldType::Quat: return members(i, {"x", "y", "z", "w"}, Leaf::Number, "quaternion");
        case FieldType::Transform: {
            if (i == m_segs.size())
                return ok(Leaf::Other);
            const Segment& s = m_segs[i];
            if (!s.bracket && (s.text == "translation" || s.text == "scale"))
                return members(i + 1, {"x", "y", "z"}, Leaf::Number, "vector");
            if (!s.bracket && s.text == "rotation")
                return members(i + 1, {"x", "y", "z", "w"}, Leaf::Number, "quaternion");
            Outcome o = fail(i, "a transform has no member '" + s.text + "'");
            o.suggestion = closestName(s.text, {"translation", "rotation", "scale"});
            return o;
        }
        case FieldType::None: return ok(Leaf::Unknown);
        default: break;
        }
        if (i != m_segs.size())
            return fail(i,
                        std::string("'") + m_segs[i - 1].text + "' is " +
                            (t == FieldType::String     ? "a string"
                                 : t == FieldType::Bool ? "a bool"
                                                        : "a number") +
                            ": it has no members");
        if (t == FieldType::String)
            return ok(Leaf::String);
        if (t == FieldType::Bool)
            return ok(Leaf::Bool);
        return ok(Leaf::Number);
    }

    const Schema& m_schema;
    const std::vector<Segment>& m_segs;
};

class Compiler {
public:
    Compiler(std::string_view text, const Schema& schema, Expression& out) : m_text(text), m_schema(schema), m_out(out) { }

    bool run(ExpressionError* error)
    {
        m_tokens = tokenize(m_text);
        if (m_tokens.back().kind == TokenKind::Error) {
            // Everything before the bad token is fine; report the bad token itself, in the
            // lexer's own words (each a whole phrase: "a number followed by letters").
            const Token& t = m_tokens.back();
            return failAt(t.offset, t.text, error);
        }
        if (peek().kind == TokenKind::End)
            return failAt(0, "empty expression: expected a condition such as Health < 20", error);
        Parsed root = parseOr();
        if (!m_failed && peek().kind != TokenKind::End) {
            const Token& t = peek();
            if (isComparison(t))
                setError(t.offset, "expected '&&', '||' or the end, found " + describe(t) + " (comparisons do not chain)");
            else if (t.kind == TokenKind::RParen)
                setError(t.offset, "found ')' without a matching '('");
            else
                setError(t.offset, "expected '&&', '||' or the end, found " + describe(t));
        }
        if (m_failed) {
            if (error)
                *error = m_error;
            return false;
        }
        m_out.m_root = root.node;
        m_out.m_perEntity = root.perEntity;
        return true;
    }

private:
    struct Parsed {
        int32_t node = -1;
        bool perEntity = false;
        bool condition = false; ///< a bool-valued node (test() applies)
        Leaf leaf = Leaf::Unknown;
        size_t offset = 0, end = 0; ///< byte span in the text, for messages
        const Token* pathToken = nullptr;
    };

    const Token& peek() const { return m_tokens[std::min(m_pos, m_tokens.size() - 1)]; }
    const Token& take() { return m_tokens[std::min(m_pos++, m_tokens.size() - 1)]; }
    static bool isComparison(const Token& t)
    {
        switch (t.kind) {
        case TokenKind::Equal:
        case TokenKind::NotEqual:
        case TokenKind::Less:
        case TokenKind::LessEqual:
        case TokenKind::Greater:
        case TokenKind::GreaterEqual: return true;
        case TokenKind::Path: return t.text == "contains";
        default: return false;
        }
    }
    bool failAt(size_t offset, std::string message, ExpressionError* error)
    {
        setError(offset, std::move(message));
        if (error)
            *error = m_error;
        return false;
    }
    void setError(size_t offset, std::string message, std::string suggestion = {})
    {
        if (m_failed)
            return; // the first error is the one that explains the rest
        m_failed = true;
        m_error.column = columnOf(m_text, offset);
        m_error.message = std::move(message);
        m_error.suggestion = std::move(suggestion);
    }
    int32_t add(Node n)
    {
        m_out.m_nodes.push_back(std::move(n));
        return int32_t(m_out.m_nodes.size() - 1);
    }
    Parsed bail() { return Parsed{}; }

    Parsed parseOr()
    {
        Parsed left = parseAnd();
        while (!m_failed && peek().kind == TokenKind::Or) {
            take();
            Parsed right = parseAnd();
            left = logical(NodeKind::Or, left, right);
        }
        return left;
    }
    Parsed parseAnd()
    {
        Parsed left = parseNot();
        while (!m_failed && peek().kind == TokenKind::And) {
            take();
            Parsed right = parseNot();
            left = logical(NodeKind::And, left, right);
        }
        return left;
    }
    Parsed logical(NodeKind k, const Parsed& a, const Parsed& b)
    {
        if (m_failed)
            return bail();
        Node n;
        n.kind = k;
        n.a = a.node;
        n.b = b.node;
        Parsed p;
        p.node = add(std::move(n));
        p.perEntity = a.perEntity || b.perEntity;
        p.condition = true;
        p.leaf = Leaf::Bool;
        p.offset = a.offset;
        p.end = b.end;
        return p;
    }
    Parsed parseNot()
    {
        const Token& t = peek();
        if (t.kind == TokenKind::Not) {
            take();
            Parsed inner = parseNot();
            if (m_failed)
                return bail();
            Node n;
            n.kind = NodeKind::Not;
            n.a = inner.node;
            Parsed p = inner;
            p.node = add(std::move(n));
            p.offset = t.offset;
            return p;
        }
        if (t.kind == TokenKind::LParen) {
            take();
            Parsed inner = parseOr();
            if (m_failed)
                return bail();
            const Token& close = peek();
            if (close.kind != TokenKind::RParen) {
                setError(close.offset,
                         "expected ')' to close the '(' at column " + std::to_string(columnOf(m_text, t.offset)) + ", found " + describe(close));
                return bail();
            }
            take();
            inner.offset = t.offset;
            inner.end = close.offset + 1;
            return inner;
        }
        return parseComparison();
    }

    static Op opOf(const Token& t)
    {
        switch (t.kind) {
        case TokenKind::Equal: return Op::Equal;
        case TokenKind::NotEqual: return Op::NotEqual;
        case TokenKind::Less: return Op::Less;
        case TokenKind::LessEqual: return Op::LessEqual;
        case TokenKind::Greater: return Op::Greater;
        case TokenKind::GreaterEqual: return Op::GreaterEqual;
        default: return Op::Contains;
        }
    }
    static bool comparable(Leaf a, Leaf b)
    {
        if (a == Leaf::Unknown || b == Leaf::Unknown)
            return true;
        const bool na = a == Leaf::Number || a == Leaf::Bool, nb = b == Leaf::Number || b == Leaf::Bool;
        return (na && nb) || (a == Leaf::String && b == Leaf::String);
    }

    Parsed parseComparison()
    {
        // `type == Player`: the right side names a type, not a property.
        const bool typeOnLeft = peek().kind == TokenKind::Path && peek().text == "type";
        Parsed left = parseValue();
        if (m_failed)
            return bail();
        const Token& opTok = peek();
        if (!isComparison(opTok)) {
            if (left.condition)
                return left;
            if (left.leaf == Leaf::Bool || left.leaf == Leaf::Unknown) {
                Node n;
                n.kind = NodeKind::Truthy;
                n.a = left.node;
                Parsed p = left;
                p.node = add(std::move(n));
                p.condition = true;
                return p;
            }
            setError(opTok.offset,
                     "expected a comparison (== != < <= > >= contains) after '" + std::string(m_text.substr(left.offset, left.end - left.offset)) +
                         "' (it is " + leafName(left.leaf) + "), found " + describe(opTok));
            return bail();
        }
        take();
        const Op op = opOf(opTok);
        const Token& rightTok = peek();
        if (typeOnLeft && (op == Op::Equal || op == Op::NotEqual) &&
            (rightTok.kind == TokenKind::String || (rightTok.kind == TokenKind::Path && rightTok.text.find_first_of(".[") == std::string::npos))) {
            take();
            const StructDef* def = m_schema.structByName(rightTok.text);
            if (!def) {
                std::vector<std::string_view> names;
                for (const StructDef& s : m_schema.structs())
                    names.push_back(s.name);
                setError(rightTok.offset, "unknown type '" + rightTok.text + "'", closestName(rightTok.text, names));
                return bail();
            }
            Node n;
            n.kind = NodeKind::TypeIs;
            n.index = def->typeId;
            n.flag = op == Op::NotEqual;
            Parsed p;
            p.node = add(std::move(n));
            p.perEntity = true;
            p.condition = true;
            p.leaf = Leaf::Bool;
            p.offset = left.offset;
            p.end = rightTok.offset + rightTok.length;
            return p;
        }
        if (rightTok.kind == TokenKind::End) {
            setError(rightTok.offset, "expected a value after " + describe(opTok) + ", found the end");
            return bail();
        }
        m_stringContext = left.leaf == Leaf::String;
        Parsed right = parseValue();
        m_stringContext = false;
        if (m_failed)
            return bail();
        if (op == Op::Contains) {
            if ((left.leaf != Leaf::String && left.leaf != Leaf::Unknown) || (right.leaf != Leaf::String && right.leaf != Leaf::Unknown)) {
                const Parsed& bad = left.leaf != Leaf::String && left.leaf != Leaf::Unknown ? left : right;
                setError(bad.offset,
                         "'contains' compares strings; '" + std::string(m_text.substr(bad.offset, bad.end - bad.offset)) + "' is " +
                             leafName(bad.leaf));
                return bail();
            }
        } else if (!comparable(left.leaf, right.leaf)) {
            setError(right.offset,
                     "cannot compare '" + std::string(m_text.substr(left.offset, left.end - left.offset)) + "' (" + leafName(left.leaf) + ") with '" +
                         std::string(m_text.substr(right.offset, right.end - right.offset)) + "' (" + leafName(right.leaf) + ")");
            return bail();
        }
        Node n;
        n.kind = NodeKind::Compare;
        n.op = op;
        n.a = left.node;
        n.b = right.node;
        Parsed p;
        p.node = add(std::move(n));
        p.perEntity = left.perEntity || right.perEntity;
        p.condition = true;
        p.leaf = Leaf::Bool;
        p.offset = left.offset;
        p.end = right.end;
        return p;
    }

    Parsed literal(const Token& t, Value v, Leaf leaf, bool number, size_t begin)
    {
        Node n;
        n.kind = NodeKind::Literal;
        n.literal = v;
        n.numberLiteral = number;
        if (leaf == Leaf::String)
            n.str = t.text;
        Parsed p;
        p.node = add(std::move(n));
        p.leaf = leaf;
        p.offset = begin;
        p.end = t.offset + t.length;
        return p;
    }

    std::optional<Value> number(const Token& t, bool negative)
    {
        const std::string& s = t.text;
        if (s == "inf")
            return Value::ofDouble(negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
        if (s == "nan")
            return Value::ofDouble(std::numeric_limits<double>::quiet_NaN());
        if (s.find_first_of(".eE") == std::string::npos) {
            int64_t v = 0;
            auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (ec == std::errc() && p == s.data() + s.size())
                return Value::ofInt(negative ? -v : v);
        }
        double d = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
        if (ec != std::errc() || p != s.data() + s.size())
            return std::nullopt;
        return Value::ofDouble(negative ? -d : d);
    }

    Parsed parseValue()
    {
        const Token& t = take();
        switch (t.kind) {
        case TokenKind::Number: {
            auto v = number(t, false);
            if (!v) {
                setError(t.offset, "'" + t.text + "' is not a number");
                return bail();
            }
            return literal(t, *v, Leaf::Number, true, t.offset);
        }
        case TokenKind::Minus: {
            const Token& n = take();
            if (n.kind != TokenKind::Number && !(n.kind == TokenKind::Path && n.text == "inf")) {
                setError(n.offset, "expected a number after '-', found " + describe(n));
                return bail();
            }
            auto v = number(n, true);
            if (!v) {
                setError(n.offset, "'" + n.text + "' is not a number");
                return bail();
            }
            return literal(n, *v, Leaf::Number, true, t.offset);
        }
        case TokenKind::String: return literal(t, Value::ofString({}), Leaf::String, false, t.offset);
        case TokenKind::Path: break;
        default:
            setError(t.offset,
                     "expected a value (a property, number, string, true, false, type, id, any(), all() or changed()), found " + describe(t));
            return bail();
        }
        const std::string& w = t.text;
        if (w == "true" || w == "false") {
            Parsed p = literal(t, Value::ofBool(w == "true"), Leaf::Bool, false, t.offset);
            m_out.m_nodes[size_t(p.node)].kind = NodeKind::Const;
            m_out.m_nodes[size_t(p.node)].flag = w == "true";
            p.condition = true;
            return p;
        }
        if (w == "inf" || w == "nan")
            return literal(t, *number(t, false), Leaf::Number, true, t.offset);
        if (w == "contains") {
            setError(t.offset, "expected a value before 'contains'");
            return bail();
        }
        if (w == "type" || w == "id") {
            Node n;
            n.kind = w == "type" ? NodeKind::TypeName : NodeKind::Id;
            Parsed p;
            p.node = add(std::move(n));
            p.perEntity = true;
            p.leaf = Leaf::String;
            p.offset = t.offset;
            p.end = t.offset + t.length;
            return p;
        }
        if ((w == "any" || w == "all" || w == "changed") && peek().kind == TokenKind::LParen) {
            take();
            Parsed p;
            Node n;
            if (w == "changed") {
                const Token& pt = take();
                if (pt.kind != TokenKind::Path) {
                    setError(pt.offset, "expected a property path in changed(), found " + describe(pt));
                    return bail();
                }
                const int32_t path = bindPath(pt);
                if (m_failed)
                    return bail();
                n.kind = NodeKind::Changed;
                n.index = path;
                p.perEntity = true;
                m_out.m_usesPrevious = true;
            } else {
                Parsed inner = parseOr();
                if (m_failed)
                    return bail();
                if (!inner.perEntity) {
                    setError(inner.offset, "expected a condition on the entity inside " + w + "(), such as " + w + "(Health < 20)");
                    return bail();
                }
                n.kind = w == "any" ? NodeKind::Any : NodeKind::All;
                n.a = inner.node;
                n.index = m_out.m_cacheSlots++;
                p.perEntity = false; // about the frame, whatever entity is being evaluated
            }
            const Token& close = peek();
            if (close.kind != TokenKind::RParen) {
                setError(close.offset, "expected ')' to close " + w + "(, found " + describe(close));
                return bail();
            }
            take();
            p.node = add(std::move(n));
            p.condition = true;
            p.leaf = Leaf::Bool;
            p.offset = t.offset;
            p.end = close.offset + 1;
            return p;
        }
        Parsed p;
        p.node = -1;
        const int32_t path = bindPath(t, &p.leaf);
        if (m_failed)
            return bail();
        Node n;
        n.kind = NodeKind::Path;
        n.index = path;
        p.node = add(std::move(n));
        p.perEntity = true;
        p.offset = t.offset;
        p.end = t.offset + t.length;
        p.pathToken = &t;
        return p;
    }

    /// Resolves `t` (a Path token) per entity type; sets the error and returns -1 when no type
    /// has it. `leaf`: what it yields (Unknown when types disagree).
    int32_t bindPath(const Token& t, Leaf* leaf = nullptr)
    {
        const std::vector<Segment> segs = splitPath(t.text);
        Expression::BoundPath bound;
        bound.text = t.text;
        bound.byType.resize(m_schema.structs().size());
        std::optional<Leaf> common;
        auto merge = [&](Leaf l) { common = !common || *common == l ? l : Leaf::Unknown; };
        auto parsePart = [&](size_t fromSeg) -> std::optional<PropertyPath> {
            auto pp = PropertyPath::parse(std::string_view(t.text).substr(segs[fromSeg].offset));
            if (!pp) {
                setError(t.offset, pp.message());
                return std::nullopt;
            }
            return std::move(*pp);
        };
        PathResolver resolver(m_schema, segs);
        // Type-qualified: `Player.Health`, when Player is a type and the rest resolves there.
        if (segs.size() >= 2 && !segs[0].bracket && !segs[1].bracket) {
            if (const StructDef* def = m_schema.structByName(segs[0].text)) {
                PathResolver::Outcome o = resolver.fromStruct(def->typeId, 1);
                if (!o.ok && !anyStructHasField(segs[0].text)) {
                    setError(t.offset + segs[o.badSegment].offset, o.why, o.suggestion);
                    return -1;
                }
                if (o.ok) {
                    auto pp = parsePart(1);
                    if (!pp)
                        return -1;
                    bound.byType[size_t(def->typeId)] = std::move(*pp);
                    if (leaf)
                        *leaf = o.leaf;
                    return addPath(std::move(bound));
                }
            }
        }
        // Unqualified: bound in every type where it resolves.
        PathResolver::Outcome deepest;
        bool firstExists = false;
        for (const StructDef& s : m_schema.structs()) {
            PathResolver::Outcome o = resolver.fromStruct(s.typeId, 0);
            if (o.ok) {
                auto pp = parsePart(0);
                if (!pp)
                    return -1;
                bound.byType[size_t(s.typeId)] = std::move(*pp);
                merge(o.leaf);
            } else if (o.badSegment > 0 && (!firstExists || o.badSegment > deepest.badSegment)) {
                firstExists = true;
                deepest = o;
            }
        }
        if (!common) {
            if (firstExists) {
                setError(t.offset + segs[deepest.badSegment].offset, deepest.why, deepest.suggestion);
                return -1;
            }
            std::vector<std::string_view> names;
            for (const StructDef& s : m_schema.structs()) {
                names.push_back(s.name);
                for (const FieldDef& f : s.fields)
                    names.push_back(f.name);
            }
            std::string message = "unknown property '" + segs[0].text + "'";
            std::string suggestion = closestName(segs[0].text, names);
            if (m_stringContext && suggestion.empty())
                message += "; a string needs quotes: \"" + t.text + "\"";
            setError(t.offset, std::move(message), std::move(suggestion));
            return -1;
        }
        if (leaf)
            *leaf = *common;
        return addPath(std::move(bound));
    }

    /// Adds a bound path (with its plain-field keys) to the expression; its index.
    int32_t addPath(Expression::BoundPath&& bound)
    {
        bound.scalarByType.resize(bound.byType.size());
        for (size_t t = 0; t < bound.byType.size(); ++t)
            if (bound.byType[t])
                bound.scalarByType[t] = bound.byType[t]->scalarKey(m_schema, int32_t(t));
        m_out.m_paths.push_back(std::move(bound));
        return int32_t(m_out.m_paths.size() - 1);
    }

    bool anyStructHasField(const std::string& name) const
    {
        for (const StructDef& s : m_schema.structs())
            if (s.field(name))
                return true;
        return false;
    }

    std::string_view m_text;
    const Schema& m_schema;
    Expression& m_out;
    std::vector<Token> m_tokens;
    size_t m_pos = 0;
    bool m_failed = false;
    bool m_stringContext = false;
    ExpressionError m_error;
};

} // namespace

std::optional<Expression> Expression::compile(std::string_view text, const Schema& schema, ExpressionError* error)
{
    Expression e;
    e.m_text = std::string(text);
    Compiler c(text, schema, e);
    if (!c.run(error))
        return std::nullopt;
    e.m_schema = std::make_shared<const Schema>(schema);
    for (const StructDef& s : schema.structs())
        e.m_typeNames.push_back(s.name);
    e.m_cache.assign(size_t(e.m_cacheSlots), -1);
    return e;
}

} // namespace vtx::query
