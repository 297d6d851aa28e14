// SPDX-License-Identifier: MIT
#include "entities/EntityFilter.hpp"

#include "vtx/query/Lexer.hpp"

#include <QObject>

namespace vtxw {

EntityFilter EntityFilter::parse(const QString& text, const vtx::Schema* schema)
{
    EntityFilter f;
    f.m_source = text;
    const QString t = text.trimmed();
    f.m_text = t;
    if (t.isEmpty())
        return f;
    const std::string utf8 = t.toStdString();
    const auto tokens = vtx::query::tokenize(utf8);
    // One word is an id or type fragment ("player_3", "Weap"), never a property test.
    if (tokens.size() == 2 && tokens[0].kind == vtx::query::TokenKind::Path && tokens[0].text.find_first_of(".[") == std::string::npos)
        return f;
    // From here on the text is an expression. One that cannot be used filters nothing (every
    // entity stays listed) and says why: an empty list would read as "no match".
    f.m_text.clear();
    if (!schema) {
        f.m_error = QObject::tr("open a replay to filter by an expression");
        return f;
    }
    vtx::query::ExpressionError error;
    auto e = vtx::query::Expression::compile(utf8, *schema, &error);
    if (e && e->usesPrevious()) {
        // The filter sees the shown frame only; Find all (Go menu) scans with frame N−1.
        f.m_error = QObject::tr("changed() needs the previous frame: use Go ▸ Find all frames where…");
        return f;
    }
    if (!e) {
        f.m_error = QString::fromStdString(error.text());
        return f;
    }
    f.m_expression = std::move(*e);
    return f;
}

void EntityFilter::setFrame(const vtx::FrameHandle& frame)
{
    if (!m_expression || (frame.chunk().get() == m_boundChunk && frame.index() == m_boundFrame))
        return;
    m_boundChunk = frame.chunk().get();
    m_boundFrame = frame.index();
    m_expression->setFrame(frame.isNull() ? vtx::FrameView{} : frame.view());
}

bool EntityFilter::accepts(const QString& uniqueId, const QString& typeName, uint32_t bucket, size_t index, const QString& label)
{
    if (m_expression)
        return m_expression->matchesEntity(bucket, index);
    if (m_text.isEmpty())
        return true;
    return uniqueId.contains(m_text, Qt::CaseInsensitive) || typeName.contains(m_text, Qt::CaseInsensitive) ||
        label.contains(m_text, Qt::CaseInsensitive);
}

} // namespace vtxw
