// SPDX-License-Identifier: MIT
#include "entities/EntityColumns.hpp"

#include <QAbstractItemModel>
#include <QAbstractProxyModel>
#include <QEvent>
#include <QHeaderView>
#include <QSet>
#include <QStyleOptionViewItem>
#include <QTreeView>

#include <algorithm>

namespace vtxw {

EntityColumns::EntityColumns(QTreeView* view, int nameColumn, int idColumn, int typeColumn)
    : QObject(view), m_view(view), m_viewport(view->viewport()), m_name(nameColumn), m_id(idColumn), m_type(typeColumn)
{
    view->header()->setStretchLastSection(false);
    view->header()->setSectionResizeMode(nameColumn, QHeaderView::Stretch);
    view->header()->setSectionResizeMode(idColumn, QHeaderView::Interactive);
    view->header()->setSectionResizeMode(typeColumn, QHeaderView::Interactive);
    view->setTextElideMode(Qt::ElideMiddle);
    view->viewport()->installEventFilter(this);
    m_refit.setSingleShot(true);
    m_refit.setInterval(250);
    connect(&m_refit, &QTimer::timeout, this, &EntityColumns::fit);
    auto refitSoon = [this] {
        if (!m_refit.isActive())
            m_refit.start();
    };
    // The view's model: a reset there re-lays out the header, so the columns are fitted at once.
    if (QAbstractItemModel* m = view->model()) {
        connect(m, &QAbstractItemModel::modelReset, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::layoutChanged, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::rowsInserted, this, &EntityColumns::fit);
        connect(m, &QAbstractItemModel::dataChanged, this, refitSoon);
    }
    // Under a filter, the rows textWidth measures: a row the filter hides can still widen the
    // names. Once they settle: a frame's entities arrive row by row, each insertion also
    // reaching the view's model above.
    const auto* proxy = qobject_cast<QAbstractProxyModel*>(view->model());
    for (QAbstractItemModel* m = proxy ? proxy->sourceModel() : nullptr; m;) {
        connect(m, &QAbstractItemModel::modelReset, this, refitSoon);
        connect(m, &QAbstractItemModel::layoutChanged, this, refitSoon);
        connect(m, &QAbstractItemModel::rowsInserted, this, refitSoon);
        connect(m, &QAbstractItemModel::dataChanged, this, refitSoon);
        proxy = qobject_cast<QAbstractProxyModel*>(m);
        m = proxy ? proxy->sourceModel() : nullptr;
    }
}

void EntityColumns::setIdsWanted(bool wanted)
{
    if (wanted == m_idsWanted)
        return;
    m_idsWanted = wanted;
    fit();
}

int EntityColumns::textWidth(int column) const
{
    // The widest cell of the column as the delegate draws it, over the rows under each bucket;
    // each distinct text is measured once, and at most MeasuredRows rows are looked at (types
    // repeat, and ids have one length in a replay). Over the rows of the frame, not only those
    // the filter lets through: the columns then follow the replay and the view's width, where
    // measuring the filtered rows made the Id column come and go as the filter text changed
    // (one short name left room for it, the whole list did not; review 4, item 15).
    const QAbstractItemModel* model = m_view->model();
    while (const auto* proxy = qobject_cast<const QAbstractProxyModel*>(model))
        model = proxy->sourceModel();
    if (!model)
        return 0;
    constexpr int MeasuredRows = 400;
    QStyleOptionViewItem option;
    option.initFrom(m_view);
    option.font = m_view->font();
    option.fontMetrics = m_view->fontMetrics();
    QSet<QString> seen;
    int widest = 0, looked = 0;
    for (int b = 0; b < model->rowCount() && looked < MeasuredRows; ++b) {
        const QModelIndex bucket = model->index(b, 0);
        for (int r = 0; r < model->rowCount(bucket) && looked < MeasuredRows; ++r, ++looked) {
            const QModelIndex cell = model->index(r, column, bucket);
            const QString text = cell.data().toString();
            if (text.isEmpty() || seen.contains(text))
                continue;
            seen.insert(text);
            widest = std::max(widest, m_view->itemDelegate()->sizeHint(option, cell).width());
        }
    }
    return widest;
}

void EntityColumns::fit()
{
    QHeaderView* header = m_view->header();
    const int viewport = m_view->viewport()->width();
    const int charWidth = m_view->fontMetrics().averageCharWidth();
    // Room for the widest name as drawn (14 average character widths cut "smokegrenade" to
    // "smok…nade"), within [MinNameChars, MaxNameChars]: names are labels like that, or ids
    // ("player_76561198000000000") where an entity has no label, which are elided in the middle
    // anyway and must not take the Type column's room. The name column also holds the tree's
    // indentation and the branch mark.
    const int names = std::clamp(textWidth(m_name), MinNameChars * charWidth, MaxNameChars * charWidth);
    const int nameRoom = names + 2 * m_view->indentation();
    // Measured from the model, not with sizeHintForColumn: the view measures only the rows it
    // has laid out and shows, which is none while a dock is being rearranged.
    auto contentsOf = [&](int column) { return std::max({textWidth(column), header->sectionSizeHint(column), header->minimumSectionSize()}); };
    auto show = [&](int column, bool shown, int width) {
        if (m_view->isColumnHidden(column) == shown)
            m_view->setColumnHidden(column, !shown);
        if (shown && header->sectionSize(column) != width)
            header->resizeSection(column, width);
    };
    // Type: its text up to a third of the view, never under MinTypeChars; or not at all.
    const int type = std::min(contentsOf(m_type), std::max(viewport / 3, MinTypeChars * charWidth));
    const bool typeShown = viewport - type >= nameRoom;
    show(m_type, typeShown, type);
    // Id: up to a fifth of the view (or its whole text if shorter), only if MinIdChars fit.
    const int left = viewport - (typeShown ? type : 0) - nameRoom;
    const int id = std::min({contentsOf(m_id), std::max(viewport / 5, MinIdChars * charWidth), left});
    show(m_id, m_idsWanted && id >= MinIdChars * charWidth, id);
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
