// SPDX-License-Identifier: MIT
// Evaluation of a compiled expression on frame views. Nothing here allocates: values are views
// into the frame (or into the expression's own literals), any()/all() results are cached per
// frame in a vector sized at compile time.

#include "vtx/query/Expression.hpp"

namespace vtx::query {

void Expression::setFrame(FrameView frame, FrameView previous)
{
    m_frame = frame;
    m_previous = previous;
    std::fill(m_cache.begin(), m_cache.end(), int8_t(-1));
}

bool Expression::matchesEntity(uint32_t bucket, size_t index)
{
    if (m_root < 0 || bucket >= m_frame.bucketCount())
        return false;
    const BucketView b = m_frame.bucket(bucket);
    if (index >= b.entityCount())
        return false;
    return test(m_root, Ctx{b.entity(index), bucket, index});
}

bool Expression::matchesFrame()
{
    if (m_root < 0)
        return false;
    if (!m_perEntity)
        return test(m_root, Ctx{});
    for (const FrameEntity e : m_frame.entities())
        if (test(m_root, Ctx{e.entity, e.bucket, e.index}))
            return true;
    return false;
}

Value Expression::pathValue(int32_t pathIndex, ContainerView entity)
{
    if (entity.isNull())
        return {};
    const BoundPath& p = m_paths[size_t(pathIndex)];
    const int32_t t = entity.typeId();
    if (t < 0 || size_t(t) >= p.byType.size() || !p.byType[size_t(t)])
        return {}; // the property does not exist on this entity's type
    if (size_t(t) < p.scalarByType.size() && p.scalarByType[size_t(t)].valid())
        return readScalar(entity, p.scalarByType[size_t(t)]);
    return p.byType[size_t(t)]->evaluate(entity, *m_schema);
}

bool Expression::compare(Op op, const Value& a, const Value& b, bool aLiteral, bool bLiteral) const
{
    // An absent side makes every comparison false, != included: `Health != 5` does not match
    // entities that have no Health (write !(Health == 5) for that).
    if (a.isAbsent() || b.isAbsent())
        return false;
    if (op == Op::Contains)
        return a.kind == Value::Kind::String && b.kind == Value::Kind::String && a.text.find(b.text) != std::string_view::npos;
    auto order = [op](const auto& x, const auto& y) {
        switch (op) {
        case Op::Equal: return x == y;
        case Op::NotEqual: return x != y;
        case Op::Less: return x < y;
        case Op::LessEqual: return x <= y;
        case Op::Greater: return x > y;
        case Op::GreaterEqual: return x >= y;
        case Op::Contains: break;
        }
        return false;
    };
    if (a.isNumber() && b.isNumber()) {
        const bool ia = a.kind == Value::Kind::Int || a.kind == Value::Kind::Bool;
        const bool ib = b.kind == Value::Kind::Int || b.kind == Value::Kind::Bool;
        if (ia && ib)
            return order(a.integer, b.integer); // int64 exactly, beyond double's 2^53
        double x = a.number, y = b.number;
        // A float32 property holds the float nearest to what was written: compare the literal
        // as float32 too, so `x == 0.1` finds the 0.1f the game stored.
        if (a.kind == Value::Kind::Float && bLiteral)
            y = double(float(y));
        if (b.kind == Value::Kind::Float && aLiteral)
            x = double(float(x));
        return order(x, y); // IEEE: NaN unequal to everything (!= true), -0 == +0
    }
    if (a.kind == Value::Kind::String && b.kind == Value::Kind::String)
        return order(a.text, b.text); // bytewise: UTF-8 byte order is code point order
    return false;
}

Value Expression::value(int32_t n, const Ctx& c)
{
    const Node& node = m_nodes[size_t(n)];
    switch (node.kind) {
    case NodeKind::Literal: return node.literal.kind == Value::Kind::String ? Value::ofString(node.str) : node.literal;
    case NodeKind::Path: return pathValue(node.index, c.entity);
    case NodeKind::TypeName: {
        const int32_t t = c.entity.typeId();
        return t >= 0 && size_t(t) < m_typeNames.size() ? Value::ofString(m_typeNames[size_t(t)]) : Value{};
    }
    case NodeKind::Id:
        if (c.entity.isNull())
            return {};
        return Value::ofString(m_frame.bucket(c.bucket).uniqueId(c.index));
    default: return Value::ofBool(test(n, c));
    }
}

bool Expression::test(int32_t n, const Ctx& c)
{
    const Node& node = m_nodes[size_t(n)];
    switch (node.kind) {
    case NodeKind::Or: return test(node.a, c) || test(node.b, c);
    case NodeKind::And: return test(node.a, c) && test(node.b, c);
    case NodeKind::Not: return !test(node.a, c);
    case NodeKind::Const: return node.flag;
    case NodeKind::TypeIs: return !c.entity.isNull() && (c.entity.typeId() == node.index) != node.flag;
    case NodeKind::Compare: {
        const Value a = value(node.a, c), b = value(node.b, c);
        return compare(node.op, a, b, m_nodes[size_t(node.a)].numberLiteral, m_nodes[size_t(node.b)].numberLiteral);
    }
    case NodeKind::Truthy: {
        const Value v = value(node.a, c);
        return v.isNumber() && v.number != 0;
    }
    case NodeKind::Any:
    case NodeKind::All: {
        int8_t& cached = m_cache[size_t(node.index)];
        if (cached < 0) {
            const bool wantAny = node.kind == NodeKind::Any;
            bool result = !wantAny; // any() of nothing is false, all() of nothing true
            for (const FrameEntity e : m_frame.entities())
                if (test(node.a, Ctx{e.entity, e.bucket, e.index}) == wantAny) {
                    result = wantAny;
                    break;
                }
            cached = int8_t(result);
        }
        return cached != 0;
    }
    case NodeKind::Changed: {
        // Frame 0 (or a frame after an unreadable one) has no previous frame: nothing changed.
        if (m_previous.isNull() || c.entity.isNull())
            return false;
        // A type without the property has nothing that could change: no lookup in frame N−1.
        const BoundPath& bound = m_paths[size_t(node.index)];
        const int32_t t = c.entity.typeId();
        if (t < 0 || size_t(t) >= bound.byType.size() || !bound.byType[size_t(t)])
            return false;
        int32_t hint = int32_t(c.index); // entities usually keep their place between frames
        const ContainerView before = findEntity(m_previous, c.bucket, m_frame.bucket(c.bucket).uniqueId(c.index), &hint);
        const Value now = pathValue(node.index, c.entity);
        const Value then = pathValue(node.index, before);
        // Exact, with NaN equal to NaN: a value that stays NaN has not changed. An entity that
        // was not there before has changed whatever it holds now.
        return !valuesEqual(then, now, FloatTolerance{});
    }
    case NodeKind::Literal:
    case NodeKind::Path:
    case NodeKind::TypeName:
    case NodeKind::Id: break;
    }
    return false;
}

} // namespace vtx::query
