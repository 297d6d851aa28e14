// SPDX-License-Identifier: MIT
#include "common/ElidedLabel.hpp"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

namespace vtxw {

ElidedLabel::ElidedLabel(QWidget* parent, Qt::TextElideMode mode) : QFrame(parent), m_mode(mode)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

ElidedLabel::ElidedLabel(const QString& text, QWidget* parent, Qt::TextElideMode mode) : ElidedLabel(parent, mode)
{
    m_text = text;
}

void ElidedLabel::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateGeometry();
    update();
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(m_text, m_mode, contentsRect().width());
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_text) + m.left() + m.right() + 1, fontMetrics().height() + m.top() + m.bottom()};
}

QSize ElidedLabel::minimumSizeHint() const
{
    // A few characters and the ellipsis: enough to see that something is there.
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(QStringLiteral("Xxx…")) + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

void ElidedLabel::paintEvent(QPaintEvent* event)
{
    QFrame::paintEvent(event);
    QPainter p(this);
    p.setPen(palette().color(foregroundRole()));
    p.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, shownText());
}

bool ElidedLabel::event(QEvent* event)
{
    // The tooltip is the whole text, only while some of it is hidden; a tooltip set with
    // setToolTip() wins.
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        if (isElided())
            QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), m_text, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QFrame::event(event);
}

void ElidedLabel::contextMenuEvent(QContextMenuEvent* event)
{
    if (m_text.isEmpty())
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Copy"), this, [text = m_text] { QApplication::clipboard()->setText(text); });
    menu->popup(event->globalPos());
}

} // namespace vtxw
