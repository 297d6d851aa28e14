// SPDX-License-Identifier: MIT
#include "entities/EntityColumns.hpp"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace vtxw {

EntityColumns::EntityColumns(QTreeView* view, int nameColumn, int idColumn, int typeColumn)
    : QObject(view), m_view(view), m_viewport(view->viewport()), m_id(idColumn), m_type(typeColumn)
{
    view->header()->setStretchLastSection(false);
    view->header()->setSectionResizeMode(nameColumn, QHeaderView::Stretch);
    view->header()->setSectionResizeMode(idColumn, QHeaderView::Interactive);
    view->header()->setSectionResizeMode(typeColumn, QHeaderView::Interactive);
    view->setTextElideMode(Qt::ElideMiddle);
    view->viewport()->installEventFilter(this);
    if (QAbstractItemModel* m = view->model()) {
        connect(m, &QAbstractItemModel::modelReset, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::layoutChanged, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::rowsInserted, this, &EntityColumns::fit);
    }
}

void EntityColumns::fit()
{
    const int viewport = m_view->viewport()->width();
    const bool ids = !m_view->isColumnHidden(m_id);
    auto fitColumn = [&](int column, int cap) {
        const int contents = std::max(static_cast<QAbstractItemView*>(m_view)->sizeHintForColumn(column), m_view->header()->sectionSizeHint(column));
        const int width = std::max(std::min(contents, cap), m_view->header()->minimumSectionSize());
        if (m_view->header()->sectionSize(column) != width)
            m_view->header()->resizeSection(column, width);
    };
    // With ids, Type a quarter and Id a fifth: the names keep more than half of the view.
    fitColumn(m_type, ids ? viewport / 4 : viewport * 2 / 5);
    if (ids)
        fitColumn(m_id, viewport / 5);
}

bool EntityColumns::eventFilter(QObject* watched, QEvent* event)
{
    // Compared by the pointer kept at construction: events reach the viewport while the view is
    // being destroyed, when calling into the view is undefined (UBSan caught it).
    if (watched == m_viewport && event->type() == QEvent::Resize)
        fit();
    return QObject::eventFilter(watched, event);
}

} // namespace vtxw
