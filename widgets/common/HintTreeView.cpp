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
    if (isHintShown())
        paintViewHint(*this, m_hint);
}

void paintViewHint(QAbstractItemView& view, const QString& html)
{
    QTextDocument doc;
    doc.setDefaultFont(view.font());
    doc.setHtml(html);
    const QRect area = view.viewport()->rect().adjusted(8, 8, -8, -8);
    doc.setTextWidth(area.width());
    QTextOption centred(Qt::AlignHCenter);
    centred.setWrapMode(QTextOption::WordWrap);
    doc.setDefaultTextOption(centred);
    QPainter p(view.viewport());
    // Vertically centred while it fits, from the top when the view is shorter than the text.
    const qreal top = area.top() + std::max<qreal>(0, (area.height() - doc.size().height()) / 2);
    p.translate(area.left(), top);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = view.palette();
    context.palette.setColor(QPalette::Text, view.palette().color(QPalette::PlaceholderText));
    doc.documentLayout()->draw(&p, context);
}

} // namespace vtxw
