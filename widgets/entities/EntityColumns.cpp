#include "entities/EntityColumns.hpp"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace vtxw {

EntityColumns::EntityColumns(QTreeView* view, int nameColumn, int typeColumn)
    : QObject(view), m_view(view), m_viewport(view->viewport()), m_type(typeColumn)
{
    view->header()->setStretchLastSection(false);
    view->header()->setSectionResizeMode(nameColumn, QHeaderView::Stretch);
    view->header()->setSectionResizeMode(typeColumn, QHeaderView::Interactive);
    view->viewport()->installEventFilter(this);
    if (QAbstractItemModel* m = view->model()) {
        connect(m, &QAbstractItemModel::modelReset, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::layoutChanged, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::rowsInserted, this, &EntityColumns::fit);
    }
}

void EntityColumns::fit()
{
    const int contents = std::max(static_cast<QAbstractItemView*>(m_view)->sizeHintForColumn(m_type), m_view->header()->sectionSizeHint(m_type));
    const int cap = m_view->viewport()->width() * 2 / 5;
    const int width = std::max(std::min(contents, cap), m_view->header()->minimumSectionSize());
    if (m_view->header()->sectionSize(m_type) != width)
        m_view->header()->resizeSection(m_type, width);
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
