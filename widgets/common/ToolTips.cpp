// SPDX-License-Identifier: MIT
#include "common/ToolTips.hpp"

#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace vtxw {

bool showPositionToolTip(QWidget* widget, QEvent* event, const std::function<QString(const QPoint&)>& textAt)
{
    if (event->type() != QEvent::ToolTip)
        return false;
    auto* help = static_cast<QHelpEvent*>(event);
    const QString tip = textAt(help->pos());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), tip, widget);
    return true;
}

} // namespace vtxw
