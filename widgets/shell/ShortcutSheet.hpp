// SPDX-License-Identifier: MIT
#pragma once
// Help ▸ Keyboard shortcuts: generated from the window's action table (ActionTable) and the panels'
// own keyed actions at the moment it opens, so
// it lists exactly the keys that work (a renamed or rebound action shows up as it is).

#include <QDialog>
#include <QList>
#include <QString>

class QLineEdit;
class QTreeWidget;

namespace vtxw {

struct ShortcutEntry {
    QString group; ///< the menu the action is in ("Go", "Diff", ...), or "Panels" for panel-local keys
    QString action; ///< the action's text without the mnemonic '&'
    QString keys; ///< every shortcut of the action, in the platform's notation, " or "-separated
    QString objectName;
};

/// Every action under `window` with at least one shortcut, grouped by menu in menu-bar order.
QList<ShortcutEntry> collectShortcuts(QWidget* window);

class ShortcutSheet : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutSheet(QWidget* window, QWidget* parent = nullptr);
    QTreeWidget* tree() const { return m_tree; }

private:
    void applyFilter(const QString& text);
    QTreeWidget* m_tree;
    QLineEdit* m_filter;
};

} // namespace vtxw
