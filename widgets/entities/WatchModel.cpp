// SPDX-License-Identifier: MIT
#include "entities/WatchModel.hpp"

#include "session/ViewState.hpp"
#include "vtx/model/PropertyTree.hpp"

#include <QFontDatabase>

namespace vtxw {

WatchModel::WatchModel(ViewState* view, QObject* parent) : QAbstractTableModel(parent), m_view(view)
{
    connect(view, &ViewState::shownFrameChanged, this, &WatchModel::refresh); // closing shows no frame
    connect(view, &ViewState::entityLabelsChanged, this, &WatchModel::refresh);
}

QString WatchModel::labelOf(const Watch& w) const
{
    const vtx::FrameHandle& h = m_view->shownFrame();
    if (h.isNull() || w.entity.bucket < 0 || size_t(w.entity.bucket) >= h->bucketCount())
        return {};
    return m_view->entityLabel(vtx::findEntity(h.view(), uint32_t(w.entity.bucket), w.entity.uniqueId.toStdString()));
}

QString WatchModel::valueOf(const Watch& w) const
{
    const vtx::FrameHandle& h = m_view->shownFrame();
    if (h.isNull() || !m_view->schema() || w.entity.bucket < 0 || size_t(w.entity.bucket) >= h->bucketCount())
        return tr("—");
    const vtx::ContainerView e = vtx::findEntity(h.view(), uint32_t(w.entity.bucket), w.entity.uniqueId.toStdString());
    if (e.isNull())
        return tr("(not in this frame)");
    auto v = vtx::evaluatePath(e, *m_view->schema(), w.path.toStdString());
    return v ? QString::fromStdString(v->text) : tr("—");
}

void WatchModel::clear()
{
    if (m_watches.isEmpty())
        return;
    beginResetModel();
    m_watches.clear();
    m_values.clear();
    m_labels.clear();
    endResetModel();
}

void WatchModel::refresh()
{
    QStringList next, labels;
    for (const Watch& w : m_watches) {
        next << valueOf(w);
        labels << labelOf(w);
    }
    for (int i = 0; i < next.size(); ++i) {
        if (i < m_values.size() && next[i] != m_values[i]) {
            m_values[i] = next[i];
            emit dataChanged(index(i, ValueColumn), index(i, ValueColumn));
        }
        if (i < m_labels.size() && labels[i] != m_labels[i]) {
            m_labels[i] = labels[i];
            emit dataChanged(index(i, WatchColumn), index(i, WatchColumn));
        }
    }
    m_values = next;
    m_labels = labels;
}

void WatchModel::addWatch(const Watch& w)
{
    if (m_watches.contains(w))
        return;
    const int row = int(m_watches.size());
    beginInsertRows({}, row, row);
    m_watches << w;
    m_values << valueOf(w);
    m_labels << labelOf(w);
    endInsertRows();
}

void WatchModel::removeWatches(const QList<int>& rows)
{
    QList<int> sorted = rows;
    std::sort(sorted.begin(), sorted.end(), std::greater<int>());
    for (int r : sorted) {
        if (r < 0 || r >= m_watches.size())
            continue;
        beginRemoveRows({}, r, r);
        m_watches.removeAt(r);
        m_values.removeAt(r);
        m_labels.removeAt(r);
        endRemoveRows();
    }
}

int WatchModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_watches.size());
}
int WatchModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WatchModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_watches.size())
        return {};
    const Watch& w = m_watches[index.row()];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        if (index.column() == ValueColumn)
            return m_values.value(index.row());
        const QString label = m_labels.value(index.row());
        if (label.isEmpty())
            return w.entity.uniqueId + QLatin1Char('.') + w.path;
        // The label first; the tooltip adds the id (two entities can share a name).
        return role == Qt::DisplayRole ? label + QStringLiteral(" · ") + w.path
                                       : label + QStringLiteral(" · ") + w.entity.uniqueId + QLatin1Char('.') + w.path;
    }
    if (role == Qt::FontRole && index.column() == ValueColumn)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::TextAlignmentRole && index.column() == ValueColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant WatchModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == WatchColumn ? tr("Watch") : tr("Value");
}

} // namespace vtxw
