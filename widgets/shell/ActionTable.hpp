// SPDX-License-Identifier: MIT
#pragma once
// The window's commands in one table: id, text, shortcut, what it does and when it can be used.
// The menus get their actions from it, the window enables them from it, and the shortcut sheet
// (Help ▸ Keyboard shortcuts) lists them from it: a key is bound in one place, and the sheet
// cannot drift from the keys that work.

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QObject>
#include <QString>
#include <vector>

namespace vtxw {

class ActionTable : public QObject {
    Q_OBJECT
public:
    /// When a command can be used.
    /// Owned: enabled by what the action acts on (Cancel analysis while one runs), never by update().
    enum class When { Always, ReplayOpen, Comparing, Owned };
    struct Entry {
        QAction* action;
        QString menu; ///< the top-level menu it is in ("Go", "Diff", …), without the mnemonic
        When when;
    };

    /// A child of `window` (found by the shortcut sheet); the actions are the window's.
    explicit ActionTable(QWidget* window);

    /// Adds a command to `menu` (before `before`, or at its end) and to the window, where its
    /// shortcut works whatever has the focus. `handler` takes no argument, or the checked state.
    template <class Handler>
    QAction* add(QMenu* menu, const QString& id, const QString& text, const QKeySequence& key, Handler handler, When when = When::Always,
                 QAction* before = nullptr)
    {
        auto* a = new QAction(text, m_window);
        a->setObjectName(id);
        if (!key.isEmpty())
            a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        QObject::connect(a, &QAction::triggered, m_window, handler);
        if (menu)
            menu->insertAction(before, a);
        m_window->addAction(a);
        m_entries.push_back({a, menu ? topMenuTitle(menu) : QString(), when});
        return a;
    }

    QAction* action(const QString& id) const;
    const std::vector<Entry>& entries() const { return m_entries; }
    /// Enables every command whose When holds.
    void update(bool replayOpen, bool comparing);

    /// "&Open…" → "Open…" ("&&" stays a literal ampersand).
    static QString plainText(QString text);

private:
    static QString topMenuTitle(QMenu* menu);
    QWidget* m_window;
    std::vector<Entry> m_entries;
};

} // namespace vtxw
