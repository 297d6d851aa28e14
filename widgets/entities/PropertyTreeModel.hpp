// SPDX-License-Identifier: MIT
#pragma once
// Every property of one entity in the displayed frame: name, value, type; nested structs,
// arrays and maps as expandable rows. When the shape is unchanged between frames only values
// change (dataChanged), so expansion and selection survive scrubbing. A value is flagged
// (ChangedRole) when it differs from the same path of the same entity one frame earlier
// (frame N−1, not whatever was shown before: another entity or a jump would mark everything).

#include "vtx/model/PropertyTree.hpp"

#include <QAbstractItemModel>
#include <QSet>

namespace vtxw {

class PropertyTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, TypeColumn, ColumnCount };
    enum Roles {
        PathRole = Qt::UserRole + 1,
        NumberRole,
        ChangedRole,
        AbsentRole,
        BytesRole, ///< QByteArray of a byte node (blob or unnamed bytes); invalid otherwise
        UnnamedRole, ///< bool: under "Unnamed fields" (data no schema name addresses)
        BlobRole, ///< bool: bytes stored by the SDK's blob convention under this field's name
        DamageRole, ///< QString: why this nested container's values are not the writer's; empty if intact
        CopyTextRole, ///< QString: the value as Copy value puts it on the clipboard (a string without its quotes)
    };

    explicit PropertyTreeModel(QObject* parent = nullptr);

    /// Shows `c` (null view: empty). `previous` is the same entity at frame N−1: values that
    /// differ from it are marked changed (a null view marks nothing: frame 0, an entity that
    /// just appeared, or N−1 still decoding — call again when it arrives).
    void setContainer(vtx::ContainerView c, const vtx::Schema* schema, vtx::ContainerView previous = {});
    void clear();
    /// Nested containers of the shown entity whose stored hash does not match their values
    /// (FrameIntegrity paths → reason): those nodes and everything under them are marked damaged.
    /// Call after setContainer; cleared by it.
    void setDamage(const QHash<QString, QString>& reasonByPath);
    /// While another frame loads the values shown are the previous frame's: they are drawn dimmed
    /// and carry no change marks until the next setContainer (issue 26 8j).
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    QModelIndex indexOfPath(const QString& path) const;
    const std::vector<vtx::PropertyNode>& nodes() const { return m_nodes; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    int nodeOf(const QModelIndex& index) const { return index.isValid() ? int(index.internalId()) : 0; }
    QModelIndex indexOfNode(int node, int column = 0) const;

    std::vector<vtx::PropertyNode> m_nodes;
    std::vector<int> m_row; ///< row of each node under its parent
    QSet<int> m_changed;
    bool m_stale = false;
    QHash<int, QString> m_damage; ///< node -> reason, for damaged containers and their descendants
};

} // namespace vtxw
