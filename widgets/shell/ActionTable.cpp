// SPDX-License-Identifier: MIT
#include "shell/ActionTable.hpp"

#include <QWidget>

namespace vtxw {

ActionTable::ActionTable(QWidget* window) : QObject(window), m_window(window)
{
    setObjectName("actionTable");
}

QAction* ActionTable::action(const QString& id) const
{
    for (const Entry& e : m_entries)
        if (e.action->objectName() == id)
            return e.action;
    return nullptr;
}

void ActionTable::update(bool replayOpen, bool comparing)
{
    for (const Entry& e : m_entries)
        if (e.when != When::Owned)
            e.action->setEnabled(e.when == When::Always || (e.when == When::ReplayOpen && replayOpen) || (e.when == When::Comparing && comparing));
}

QString ActionTable::plainText(QString text)
{
    text.replace(QLatin1String("&&"), QChar(0x1));
    text.remove(QLatin1Char('&'));
    text.replace(QChar(0x1), QLatin1Char('&'));
    return text;
}

QString ActionTable::topMenuTitle(QMenu* menu)
{
    // A submenu (Debug ▸ Cache policy) is listed under its top-level menu.
    QMenu* top = menu;
    while (auto* parent = qobject_cast<QMenu*>(top->parentWidget()))
        top = parent;
    return plainText(top->title());
}

} // namespace vtxw
