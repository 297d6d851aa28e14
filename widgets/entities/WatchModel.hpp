// SPDX-License-Identifier: MIT
#pragma once
// Pinned properties across entities ("player_3.Health"), valued at the view state's shown frame
// and named by the entity's label in that frame ("s1mple · Health"; the id when it has none).

#include "entities/EntityTreeModel.hpp"

#include <QAbstractTableModel>

namespace vtxw {

class ViewState;

class WatchModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { WatchColumn, ValueColumn, ColumnCount };
    struct Watch {
        EntityKey entity;
        QString path;
        bool operator==(const Watch&) const = default;
    };
    explicit WatchModel(ViewState* view, QObject* parent = nullptr);
    void addWatch(const Watch& w);
    void removeWatches(const QList<int>& rows);
    /// Removes every watch (another replay was opened: the entities they name are gone).
    void clear();
    const QList<Watch>& watches() const { return m_watches; }
    QStringList values() const { return m_values; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void refresh();
    QString valueOf(const Watch& w) const;
    QString labelOf(const Watch& w) const;
    ViewState* m_view;
    QList<Watch> m_watches;
    QStringList m_values;
    QStringList m_labels; ///< per watch: its entity's label in the shown frame, empty when none
};

} // namespace vtxw
