// SPDX-License-Identifier: MIT
#pragma once
// Buckets → entities of the displayed frame. Rows are keyed by (bucket, unique id): when the
// same entities are present the model only emits dataChanged, so views keep selection and
// expansion while scrubbing; when the set changes it resets and views restore by key.

#include "entities/EntityFilter.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"
#include "vtx/model/DecodedChunk.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/model/Schema.hpp"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>

namespace vtxw {

struct EntityKey {
    int bucket = -1;
    QString uniqueId;
    bool isValid() const { return bucket >= 0; }
    bool operator==(const EntityKey&) const = default;
};

class EntityTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    /// Name: the entity's label in the shown frame (vtx::EntityLabels), its id when it has none;
    /// Id: the unique id beside a label (empty when the Name column already shows it).
    enum Column { NameColumn, IdColumn, TypeColumn, ColumnCount };
    enum Roles {
        KeyBucketRole = Qt::UserRole + 1,
        UniqueIdRole,
        TypeIdRole,
        IsBucketRole,
        SearchTextRole,
        DamageRole, ///< why the entity's values are not the writer's (FrameIntegrity); empty when intact
        LabelRole, ///< the entity's label in the shown frame; empty when it has none
        BucketNameRole ///< a bucket row's name ("entity"), without its count
    };

    explicit EntityTreeModel(QObject* parent = nullptr);

    /// Shows `frame` (null handle: empty). `schema` must outlive the model's use of it.
    /// `integrity` (of this frame) marks damaged entities: warning icon, reason in the tooltip.
    /// `labels` names the entities (read from `frame`); null: ids only.
    void setFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema, const vtx::FrameIntegrity* integrity = nullptr,
                  const vtx::EntityLabels* labels = nullptr);
    /// Whether any entity of the shown frame has a label (else the Id column says nothing new).
    bool hasLabels() const;

    QModelIndex indexOf(const EntityKey& key) const;
    EntityKey keyOf(const QModelIndex& index) const;
    /// The entity's container in the current frame (null view when absent).
    vtx::ContainerView container(const EntityKey& key) const;
    /// The container of an entity row of this model (null view for bucket rows).
    vtx::ContainerView containerAt(const QModelIndex& index) const;
    /// Bucket and position in the frame's bucket of an entity row; false for bucket rows.
    bool entityAt(const QModelIndex& index, uint32_t* bucket, size_t* position) const;
    const vtx::Schema* schema() const { return m_schema; }
    const vtx::FrameHandle& frame() const { return m_frame; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    /// setFrame() is done: every row insertion and removal it made has been announced (views
    /// put their current row back here, not in between).
    void frameApplied();

private:
    struct Bucket {
        QString name;
        QStringList ids;
        QStringList labels; ///< per entity: its label in this frame, empty when none
        /// per entity: what the Name column says (see nameRows)
        QStringList names;
        /// per entity: the bucket whose same-id entity lent its label, empty when none
        QStringList lentBy;
        QStringList types;
        QVector<int> typeIds;
        QVector<int> entityIndex; ///< position in the frame's bucket
        QStringList damage; ///< per entity: DamageRole
        void removeRows(int first, int count);
        void appendRows(const Bucket& from, int first, int count);
        void insertRows(int at, const Bucket& from, int first, int count);
    };
    /// The Name column of every row: its label; else the label of the entity with the same id
    /// in another bucket (the SDK's bone data shares its player's id: "s1mple", not
    /// "player_7…00000000"); else its id. A name shared within a bucket gets its id after it,
    /// less what the group's ids share up to a separator ("prop · 5003" for ent_5003: five
    /// "prop" rows could not be told apart).
    static void nameRows(QVector<Bucket>& buckets);
    QVector<Bucket> m_buckets;
    vtx::FrameHandle m_frame;
    const vtx::Schema* m_schema = nullptr;
};

/// Filters entities with an EntityFilter (id / type text, or a query expression evaluated on the
/// shown frame); buckets stay visible while any entity matches. The source announces every
/// frame change with dataChanged on the entity rows, so an expression is re-checked each frame.
class EntityFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EntityFilterProxy(QObject* parent = nullptr);
    void setFilter(const QString& text);
    /// The filter compiled for the source's current schema.
    const EntityFilter& filter() const;
    /// A bucket's row while filtering counts what passes of all: "entity (1 of 39)".
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString m_text;
    // Compiled lazily for the schema of the file shown (a new file recompiles); evaluation
    // keeps per-frame state, hence mutable in a const filter pass.
    mutable EntityFilter m_filter;
    mutable const vtx::Schema* m_compiledFor = nullptr;
    mutable bool m_compiled = false;
};

} // namespace vtxw
