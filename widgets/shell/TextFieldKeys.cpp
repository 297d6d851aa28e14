// SPDX-License-Identifier: MIT
#include "shell/TextFieldKeys.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>

namespace vtxw {

TextFieldKeys::TextFieldKeys(QWidget* home, QObject* parent) : QObject(parent), m_home(home)
{
    // The "second Esc" only means "clear" right after the first: any focus move away lapses it.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (m_lastLeft && now != m_home)
            forget();
    });
}

void TextFieldKeys::watch(QLineEdit* field, std::function<void()> onEnter)
{
    field->installEventFilter(this);
    m_fields.emplace_back(field, std::move(onEnter));
}

bool TextFieldKeys::clearLastLeft()
{
    if (!m_lastLeft)
        return false;
    m_lastLeft->clear();
    forget();
    return true;
}

void TextFieldKeys::forget()
{
    const bool had = bool(m_lastLeft);
    m_lastLeft = nullptr;
    if (had)
        emit lastLeftChanged(false);
}

bool TextFieldKeys::eventFilter(QObject* watched, QEvent* event)
{
    auto* field = qobject_cast<QLineEdit*>(watched);
    if (!field || (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride))
        return QObject::eventFilter(watched, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    const bool esc = key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier;
    const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
    if (event->type() == QEvent::ShortcutOverride) {
        // Keep Esc for the field even when a window shortcut (cancel search) also wants it.
        if (esc)
            event->accept();
        return false;
    }
    if (esc) {
        if (m_home)
            m_home->setFocus(Qt::ShortcutFocusReason);
        m_lastLeft = field; // after the focus move, which lapses older memories
        emit lastLeftChanged(true);
        return true;
    }
    if (enter) {
        for (const auto& [f, onEnter] : m_fields)
            if (f == field && onEnter) {
                onEnter();
                return true;
            }
    }
    return false;
}

} // namespace vtxw
