#include "vtxwidgets/EntityFilter.hpp"

#include "vtx/PropertyTree.hpp"

#include <cstdlib>
#include <string>

namespace vtxw {

namespace {
/// Where the comparison operator starts, outside brackets (map keys may hold anything); -1 if none.
qsizetype operatorAt(const QString& t)
{
    int depth = 0;
    for (qsizetype i = 0; i < t.size(); ++i) {
        const QChar ch = t[i];
        if (ch == '[')
            ++depth;
        else if (ch == ']')
            depth = std::max(0, depth - 1);
        else if (depth == 0 && (ch == '<' || ch == '>' || ch == '=' || ch == '!'))
            return i;
    }
    return -1;
}
} // namespace

EntityFilter EntityFilter::parse(const QString& text)
{
    EntityFilter f;
    const QString t = text.trimmed();
    const qsizetype at = operatorAt(t);
    if (at <= 0) {
        f.m_text = t;
        return f;
    }
    // A single '=' is what people type in a filter box; the core's condition language says '=='.
    QString condition = t;
    if (t[at] == '=' && (at + 1 >= t.size() || t[at + 1] != '='))
        condition.insert(at, QLatin1Char('='));
    auto parsed = vtx::Condition::parse(condition.toStdString());
    if (!parsed) {
        f.m_error = QString::fromStdString(parsed.message());
        f.m_text = t; // still usable as plain text (an id may contain '!')
        return f;
    }
    f.m_condition = std::move(*parsed);
    return f;
}

bool EntityFilter::accepts(const QString& uniqueId, const QString& typeName, vtx::ContainerView c, const vtx::Schema* schema) const
{
    if (m_condition) {
        if (c.isNull() || !schema)
            return false;
        vtx::Value v = m_condition->path().evaluate(c, *schema);
        if (v.kind == vtx::Value::Kind::Float) // compare what the inspector shows, not float noise
            v = vtx::Value::ofDouble(std::strtod(vtx::formatFloat(float(v.number)).c_str(), nullptr));
        return m_condition->holds(v);
    }
    if (m_text.isEmpty())
        return true;
    return uniqueId.contains(m_text, Qt::CaseInsensitive) || typeName.contains(m_text, Qt::CaseInsensitive);
}

} // namespace vtxw
