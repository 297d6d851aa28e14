// SPDX-License-Identifier: MIT
#include "entities/WatchPanel.hpp"

#include "common/HintTreeView.hpp"
#include "entities/WatchModel.hpp"

#include <QAction>
#include <QHeaderView>

namespace vtxw {

WatchPanel::WatchPanel(WatchModel* model, QWidget* parent) : QTableView(parent), m_model(model)
{
    setModel(model);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->hide();
    setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* remove = new QAction(tr("Remove watch"), this);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    addAction(remove);
    connect(remove, &QAction::triggered, this, &WatchPanel::removeSelected);
    auto* plot = new QAction(tr("Plot"), this);
    addAction(plot);
    connect(plot, &QAction::triggered, this, &WatchPanel::plotSelected);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    setMinimumHeight(40); // the right column shares 600 px with the diff at the minimum window size
}

void WatchPanel::removeSelected()
{
    QList<int> rows;
    for (const QModelIndex& i : selectionModel()->selectedRows())
        rows << i.row();
    m_model->removeWatches(rows);
}

void WatchPanel::plotSelected()
{
    for (const QModelIndex& i : selectionModel()->selectedRows())
        if (i.row() < m_model->watches().size()) {
            const WatchModel::Watch& w = m_model->watches()[i.row()];
            emit plotRequested(w.entity, w.path);
        }
}

QString WatchPanel::hint()
{
    return tr("Right-click a property in the inspector and choose <b>Watch</b> to follow its value here.");
}

void WatchPanel::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    if (m_model->rowCount() == 0) // an empty table with two headers said nothing of its use
        paintViewHint(*this, hint());
}

} // namespace vtxw
