#pragma once
// Buckets → entities of the displayed frame. Rows are keyed by (bucket, unique id): when the
// same entities are present the model only emits dataChanged, so views keep selection and
// expansion while scrubbing; when the set changes it resets and views restore by key.

#include "vtx/DecodedChunk.hpp"
#include "vtx/Schema.hpp"

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
    enum Column { NameColumn, TypeColumn, ColumnCount };
    enum Roles { KeyBucketRole = Qt::UserRole + 1, UniqueIdRole, TypeIdRole, IsBucketRole, SearchTextRole };

    explicit EntityTreeModel(QObject* parent = nullptr);

    /// Shows `frame` (null handle: empty). `schema` must outlive the model's use of it.
    void setFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema);

    QModelIndex indexOf(const EntityKey& key) const;
    EntityKey keyOf(const QModelIndex& index) const;
    /// The entity's container in the current frame (null view when absent).
    vtx::ContainerView container(const EntityKey& key) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Bucket {
        QString name;
        QStringList ids;
        QStringList types;
        QVector<int> typeIds;
        QVector<int> entityIndex; ///< position in the frame's bucket
    };
    QVector<Bucket> m_buckets;
    vtx::FrameHandle m_frame;
    const vtx::Schema* m_schema = nullptr;
};

/// Filters entities by unique id, type name or property value text; buckets stay visible while
/// any entity matches.
class EntityFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EntityFilterProxy(QObject* parent = nullptr);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;
};

} // namespace vtxw
