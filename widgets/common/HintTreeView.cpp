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

namespace {
QRect hintArea(const QAbstractItemView& view)
{
    return view.viewport()->rect().adjusted(8, 8, -8, -8);
}

void layOutHint(QTextDocument& doc, const QAbstractItemView& view, const QString& html)
{
    doc.setDefaultFont(view.font());
    doc.setHtml(html);
    doc.setTextWidth(hintArea(view).width());
    QTextOption centred(Qt::AlignHCenter);
    centred.setWrapMode(QTextOption::WordWrap);
    doc.setDefaultTextOption(centred);
}
} // namespace

QSizeF viewHintSize(const QAbstractItemView& view, const QString& html)
{
    QTextDocument doc;
    layOutHint(doc, view, html);
    return doc.size();
}

int viewHintRoom(const QAbstractItemView& view)
{
    return hintArea(view).height();
}

QString fittingViewHint(const QAbstractItemView& view, const QString& html, const QString& shortHtml)
{
    if (shortHtml.isEmpty() || viewHintSize(view, html).height() <= viewHintRoom(view))
        return html;
    return shortHtml;
}

void paintViewHint(QAbstractItemView& view, const QString& html, const QString& shortHtml)
{
    QTextDocument doc;
    layOutHint(doc, view, fittingViewHint(view, html, shortHtml));
    const QRect area = hintArea(view);
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
