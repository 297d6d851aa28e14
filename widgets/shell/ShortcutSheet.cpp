// SPDX-License-Identifier: MIT
#include "shell/ShortcutSheet.hpp"

#include "shell/ActionTable.hpp"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>

namespace vtxw {

QList<ShortcutEntry> collectShortcuts(QWidget* window)
{
    // The window's commands come from its action table, grouped by menu in menu-bar order;
    // every other action with a key belongs to a panel (the diff's Ctrl+↑, the plot's Delete).
    std::map<QAction*, QString> where;
    QStringList order;
    if (auto* main = qobject_cast<QMainWindow*>(window))
        for (QAction* top : main->menuBar()->actions())
            if (top->menu())
                order << ActionTable::plainText(top->text());
    if (const auto* table = window->findChild<ActionTable*>(QStringLiteral("actionTable"), Qt::FindDirectChildrenOnly))
        for (const ActionTable::Entry& e : table->entries())
            if (!e.menu.isEmpty()) {
                where[e.action] = e.menu;
                if (!order.contains(e.menu))
                    order << e.menu;
            }
    const QString panels = QObject::tr("Panels");
    order << panels;
    std::map<QString, QList<ShortcutEntry>> byGroup;
    for (QAction* a : window->findChildren<QAction*>()) {
        const QList<QKeySequence> keys = a->shortcuts();
        if (keys.isEmpty() || a->text().isEmpty())
            continue;
        QStringList text;
        for (const QKeySequence& k : keys)
            text << k.toString(QKeySequence::NativeText);
        const auto it = where.find(a);
        const QString group = it != where.end() ? it->second : panels;
        byGroup[group].append({group, ActionTable::plainText(a->text()), text.join(QObject::tr(" or ")), a->objectName()});
    }
    QList<ShortcutEntry> out;
    for (const QString& g : order)
        out += byGroup[g];
    return out;
}

ShortcutSheet::ShortcutSheet(QWidget* window, QWidget* parent) : QDialog(parent)
{
    setObjectName("shortcutSheet");
    setWindowTitle(tr("Keyboard shortcuts"));
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("filter: action or key"));
    m_filter->setClearButtonEnabled(true);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Action"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : collectShortcuts(window)) {
        if (!group || group->text(0) != e.group) {
            group = new QTreeWidgetItem(m_tree, {e.group});
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
        }
        auto* item = new QTreeWidgetItem(group, {e.action, e.keys});
        item->setData(0, Qt::UserRole, e.objectName);
    }
    m_tree->expandAll();
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    connect(m_filter, &QLineEdit::textChanged, this, &ShortcutSheet::applyFilter);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(520, 560);
}

void ShortcutSheet::applyFilter(const QString& text)
{
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = m_tree->topLevelItem(g);
        // A menu's name finds its commands: "diff" finds Pin A, Set B and Swap A and B, which
        // are in the Diff menu without the word.
        const bool groupMatches = group->text(0).contains(text, Qt::CaseInsensitive);
        int shown = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            const bool match = text.isEmpty() || groupMatches || item->text(0).contains(text, Qt::CaseInsensitive) ||
                item->text(1).contains(text, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match;
        }
        group->setHidden(shown == 0);
    }
}

} // namespace vtxw
