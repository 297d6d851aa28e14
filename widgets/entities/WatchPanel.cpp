// SPDX-License-Identifier: MIT
#include "entities/WatchPanel.hpp"

#include "common/FittedColumns.hpp"
#include "common/HintTreeView.hpp"
#include "entities/WatchModel.hpp"

#include <QAction>
#include <QHeaderView>

#include <algorithm>

namespace vtxw {

WatchPanel::WatchPanel(WatchModel* model, QWidget* parent) : QTableView(parent), m_model(model)
{
    setModel(model);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    verticalHeader()->hide();
    // A watch's name on one line, elided in the middle (its entity and its property's last
    // name stay), in a column as wide as the widest name up to three fifths of the view: at
    // 100 px "s1mple · Health" wrapped onto two lines beside a value column 440 px wide with
    // "44" in it (review 4, item 8). The user's own width is kept once they drag it.
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6); // one line a row
    auto* columns = new FittedColumns(this, [this](int w) {
        const int names = sizeHintForColumn(WatchModel::WatchColumn);
        horizontalHeader()->resizeSection(WatchModel::WatchColumn, std::clamp(names, std::min(100, w / 2), std::max(100, w * 3 / 5)));
    });
    // Names come and go with the rows, and change with the entity labels.
    auto refit = [columns] { QMetaObject::invokeMethod(columns, &FittedColumns::refit, Qt::QueuedConnection); };
    connect(model, &QAbstractItemModel::rowsInserted, columns, refit);
    connect(model, &QAbstractItemModel::rowsRemoved, columns, refit);
    connect(model, &QAbstractItemModel::modelReset, columns, refit);
    connect(model, &QAbstractItemModel::dataChanged, columns, [refit](const QModelIndex& from) {
        if (from.column() == WatchModel::WatchColumn)
            refit();
    });
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

QString WatchPanel::shortHint()
{
    return tr("Inspector ▸ right-click ▸ <b>Watch</b>");
}

void WatchPanel::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    if (m_model->rowCount() == 0) // an empty table with two headers said nothing of its use
        paintViewHint(*this, hint(), shortHint());
}

} // namespace vtxw
