// SPDX-License-Identifier: MIT
#include "common/HintTreeView.hpp"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextDocument>

#include <algorithm>

namespace vtxw {

void HintTreeView::setHint(const QString& text)
{
    if (text == m_hint)
        return;
    m_hint = text;
    viewport()->update();
}

bool HintTreeView::isHintShown() const
{
    return !m_hint.isEmpty() && (!model() || model()->rowCount(rootIndex()) == 0);
}

void HintTreeView::paintEvent(QPaintEvent* event)
{
    QTreeView::paintEvent(event);
    if (!isHintShown())
        return;
    QTextDocument doc;
    doc.setDefaultFont(font());
    doc.setHtml(m_hint);
    const QRect area = viewport()->rect().adjusted(8, 8, -8, -8);
    doc.setTextWidth(area.width());
    QTextOption centred(Qt::AlignHCenter);
    centred.setWrapMode(QTextOption::WordWrap);
    doc.setDefaultTextOption(centred);
    QPainter p(viewport());
    // Vertically centred while it fits, from the top when the view is shorter than the text.
    const qreal top = area.top() + std::max<qreal>(0, (area.height() - doc.size().height()) / 2);
    p.translate(area.left(), top);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette();
    context.palette.setColor(QPalette::Text, palette().color(QPalette::PlaceholderText));
    doc.documentLayout()->draw(&p, context);
}

} // namespace vtxw
