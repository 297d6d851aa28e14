// SPDX-License-Identifier: MIT
#include "entities/EntityTreeModel.hpp"

#include "entities/ListEdits.hpp"
#include "vtx/model/PropertyTree.hpp"

#include <QApplication>
#include <QHash>
#include <QStyle>

namespace vtxw {

namespace {
constexpr quintptr kBucketId = quintptr(-1);
}

EntityTreeModel::EntityTreeModel(QObject* parent) : QAbstractItemModel(parent) { }

void EntityTreeModel::setFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema, const vtx::FrameIntegrity* integrity,
                               const vtx::EntityLabels* labels)
{
    QVector<Bucket> next;
    if (!frame.isNull()) {
        const vtx::FrameView& f = frame.view();
        for (size_t b = 0; b < f.bucketCount(); ++b) {
            vtx::BucketView bucket = f.bucket(b);
            Bucket nb;
            nb.name = schema ? QString::fromStdString(schema->bucketName(b)) : QStringLiteral("bucket_%1").arg(b);
            for (size_t e = 0; e < bucket.entityCount(); ++e) {
                const auto id = bucket.uniqueId(e);
                nb.ids << QString::fromUtf8(id.data(), qsizetype(id.size()));
                const vtx::ContainerView entity = bucket.entity(e);
                const std::string_view label = labels ? labels->label(entity) : std::string_view{};
                nb.labels << QString::fromUtf8(label.data(), qsizetype(label.size()));
                const int type = entity.typeId();
                const vtx::StructDef* def = schema ? schema->structById(type) : nullptr;
                nb.types << (def ? QString::fromStdString(def->name) : QStringLiteral("type %1").arg(type));
                nb.typeIds << type;
                nb.entityIndex << int(e);
                QStringList why;
                if (integrity && schema)
                    for (const vtx::DamagedContainer* d : integrity->damageOf(uint32_t(b), uint32_t(e)))
                        why << QString::fromStdString(vtx::damageText(*d, *schema));
                nb.damage << why.join(QLatin1Char('\n'));
            }
            next.push_back(std::move(nb));
        }
    }
    nameRows(next);
    bool sameBuckets = next.size() == m_buckets.size();
    for (int b = 0; sameBuckets && b < next.size(); ++b)
        sameBuckets = next[b].name == m_buckets[b].name;
    if (!sameBuckets) {
        beginResetModel();
        m_schema = schema;
        m_frame = frame;
        m_buckets = std::move(next);
        endResetModel();
        emit frameApplied();
        return;
    }
    // Same buckets: entities that left are removed and new ones inserted, row by row, so the
    // view keeps its rows, its expansion and its current entity (a reset on every frame made
    // scrubbing re-lay out the whole list). Removals go first, while the rows still match the
    // frame on screen; then the kept rows switch to the new frame and the new rows come in.
    std::vector<std::vector<ListEdit>> edits(size_t(next.size()));
    for (int b = 0; b < next.size(); ++b)
        if (next[b].ids != m_buckets[b].ids)
            edits[size_t(b)] = listEdits(m_buckets[b].ids, next[b].ids, [](const QString& s) { return qHash(s); });
    for (int b = 0; b < next.size(); ++b)
        for (const ListEdit& e : edits[size_t(b)])
            if (e.kind == ListEdit::Kind::Remove) {
                beginRemoveRows(index(b, 0), e.first, e.first + e.count - 1);
                m_buckets[b].removeRows(e.first, e.count);
                endRemoveRows();
            }
    for (int b = 0; b < next.size(); ++b) {
        // The rows left are next's rows without the inserted ones, in next's order.
        Bucket kept;
        kept.name = next[b].name;
        int row = 0;
        for (const ListEdit& e : edits[size_t(b)])
            if (e.kind == ListEdit::Kind::Insert) {
                kept.appendRows(next[b], row, e.sourceFirst - row);
                row = e.sourceFirst + e.count;
            }
        kept.appendRows(next[b], row, int(next[b].ids.size()) - row);
        m_buckets[b] = std::move(kept);
    }
    m_schema = schema;
    m_frame = frame;
    for (int b = 0; b < next.size(); ++b) {
        for (const ListEdit& e : edits[size_t(b)])
            if (e.kind == ListEdit::Kind::Insert) {
                beginInsertRows(index(b, 0), e.first, e.first + e.count - 1);
                m_buckets[b].insertRows(e.first, next[b], e.sourceFirst, e.count);
                endInsertRows();
            }
        Q_ASSERT(m_buckets[b].ids == next[b].ids);
        m_buckets[b] = std::move(next[b]);
        // Every row's frame-dependent roles change (a property filter must be re-checked at
        // the new frame); a kept id may even have changed type.
        const QModelIndex parent = index(b, 0);
        emit dataChanged(parent, parent.siblingAtColumn(ColumnCount - 1));
        if (const int n = int(m_buckets[b].ids.size()))
            emit dataChanged(index(0, 0, parent), index(n - 1, ColumnCount - 1, parent));
    }
    emit frameApplied();
}

void EntityTreeModel::nameRows(QVector<Bucket>& buckets)
{
    QHash<QString, std::pair<QString, QString>> labelOfId; // id -> (label, bucket), first labelled one
    for (const Bucket& b : buckets)
        for (qsizetype i = 0; i < b.ids.size(); ++i)
            if (!b.labels[i].isEmpty() && !labelOfId.contains(b.ids[i]))
                labelOfId.insert(b.ids[i], {b.labels[i], b.name});
    for (Bucket& b : buckets) {
        b.names.clear();
        b.lentBy.clear();
        QHash<QString, int> uses;
        for (qsizetype i = 0; i < b.ids.size(); ++i) {
            QString name = b.labels[i], lender;
            if (name.isEmpty())
                if (const auto it = labelOfId.constFind(b.ids[i]); it != labelOfId.cend() && it->second != b.name) {
                    name = it->first;
                    lender = it->second;
                }
            b.names << name;
            b.lentBy << lender;
            if (!name.isEmpty())
                ++uses[name];
        }
        // Within each group of a shared name, what its ids have in common up to a separator
        // is left out: "M4A4 · 1002" for weapon_1002 beside weapon_1004 (the whole id elided in
        // the middle read "M4A4 · …on_1002"); the Id column and the tooltip have it whole.
        QHash<QString, QString> commonPrefix;
        for (qsizetype i = 0; i < b.ids.size(); ++i) {
            if (b.names[i].isEmpty() || uses.value(b.names[i]) < 2)
                continue;
            const auto it = commonPrefix.find(b.names[i]);
            if (it == commonPrefix.end()) {
                commonPrefix.insert(b.names[i], b.ids[i]);
                continue;
            }
            qsizetype n = 0;
            while (n < it->size() && n < b.ids[i].size() && it->at(n) == b.ids[i].at(n))
                ++n;
            it->truncate(n);
        }
        for (QString& prefix : commonPrefix) {
            qsizetype cut = prefix.size();
            while (cut > 0 && prefix.at(cut - 1).isLetterOrNumber())
                --cut;
            prefix.truncate(cut);
        }
        for (qsizetype i = 0; i < b.ids.size(); ++i) {
            if (b.names[i].isEmpty())
                b.names[i] = b.ids[i];
            else if (uses.value(b.names[i]) > 1)
                b.names[i] += QStringLiteral(" · ") + b.ids[i].mid(commonPrefix.value(b.names[i]).size());
        }
    }
}

void EntityTreeModel::Bucket::removeRows(int first, int count)
{
    ids.remove(first, count);
    names.remove(first, count);
    lentBy.remove(first, count);
    labels.remove(first, count);
    types.remove(first, count);
    typeIds.remove(first, count);
    entityIndex.remove(first, count);
    damage.remove(first, count);
}

void EntityTreeModel::Bucket::appendRows(const Bucket& from, int first, int count)
{
    insertRows(int(ids.size()), from, first, count);
}

void EntityTreeModel::Bucket::insertRows(int at, const Bucket& from, int first, int count)
{
    if (count <= 0)
        return;
    for (int i = 0; i < count; ++i) {
        ids.insert(at + i, from.ids[first + i]);
        names.insert(at + i, from.names[first + i]);
        lentBy.insert(at + i, from.lentBy[first + i]);
        labels.insert(at + i, from.labels[first + i]);
        types.insert(at + i, from.types[first + i]);
        typeIds.insert(at + i, from.typeIds[first + i]);
        entityIndex.insert(at + i, from.entityIndex[first + i]);
        damage.insert(at + i, from.damage[first + i]);
    }
}

QModelIndex EntityTreeModel::indexOf(const EntityKey& key) const
{
    if (key.bucket < 0 || key.bucket >= m_buckets.size())
        return {};
    const int row = int(m_buckets[key.bucket].ids.indexOf(key.uniqueId));
    return row < 0 ? QModelIndex{} : createIndex(row, 0, quintptr(key.bucket));
}

EntityKey EntityTreeModel::keyOf(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == kBucketId)
        return {};
    const int b = int(index.internalId());
    return {b, m_buckets[b].ids.value(index.row())};
}

vtx::ContainerView EntityTreeModel::container(const EntityKey& key) const
{
    const QModelIndex i = indexOf(key);
    if (!i.isValid() || m_frame.isNull())
        return {};
    return m_frame.view().bucket(size_t(key.bucket)).entity(size_t(m_buckets[key.bucket].entityIndex[i.row()]));
}

vtx::ContainerView EntityTreeModel::containerAt(const QModelIndex& i) const
{
    if (!i.isValid() || i.internalId() == kBucketId || m_frame.isNull())
        return {};
    const int b = int(i.internalId());
    return m_frame.view().bucket(size_t(b)).entity(size_t(m_buckets[b].entityIndex[i.row()]));
}

bool EntityTreeModel::entityAt(const QModelIndex& i, uint32_t* bucket, size_t* position) const
{
    if (!i.isValid() || i.internalId() == kBucketId || m_frame.isNull())
        return false;
    const int b = int(i.internalId());
    *bucket = uint32_t(b);
    *position = size_t(m_buckets[b].entityIndex[i.row()]);
    return true;
}

QModelIndex EntityTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < m_buckets.size() ? createIndex(row, column, kBucketId) : QModelIndex{};
    if (parent.internalId() != kBucketId || parent.column() != 0)
        return {};
    return row < m_buckets[parent.row()].ids.size() ? createIndex(row, column, quintptr(parent.row())) : QModelIndex{};
}

QModelIndex EntityTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kBucketId)
        return {};
    return createIndex(int(child.internalId()), 0, kBucketId);
}

int EntityTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_buckets.size());
    if (parent.internalId() == kBucketId && parent.column() == 0)
        return int(m_buckets[parent.row()].ids.size());
    return 0;
}

int EntityTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant EntityTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == kBucketId) {
        const Bucket& b = m_buckets[index.row()];
        switch (role) {
        case Qt::DisplayRole: return index.column() == NameColumn ? QVariant(QStringLiteral("%1 (%2)").arg(b.name).arg(b.ids.size())) : QVariant();
        case IsBucketRole: return true;
        case BucketNameRole: return b.name;
        case KeyBucketRole: return index.row();
        default: return {};
        }
    }
    const int bi = int(index.internalId());
    const Bucket& b = m_buckets[bi];
    const QString& id = b.ids[index.row()];
    const QString& label = b.labels[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return b.names[index.row()];
        case IdColumn: return b.names[index.row()] == id ? QString() : id;
        default: return b.types[index.row()];
        }
    case Qt::ToolTipRole: {
        // The whole id (the view elides it in the middle) with the label and the type.
        const QString& lender = b.lentBy[index.row()];
        QString text = b.names[index.row()] == id ? id : tr("%1\nid: %2").arg(label.isEmpty() ? b.names[index.row()] : label, id);
        text += tr("\ntype: %1").arg(b.types[index.row()]);
        if (!lender.isEmpty())
            text += tr("\nNo name of its own: named after the entity with the same id in bucket %1.").arg(lender);
        const QString& why = b.damage[index.row()];
        return why.isEmpty() ? text : text + tr("\nDamaged: these values are not what was recorded.\n") + why;
    }
    case Qt::DecorationRole:
        if (index.column() == NameColumn && !b.damage[index.row()].isEmpty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case DamageRole: return b.damage[index.row()];
    case KeyBucketRole: return bi;
    case UniqueIdRole: return id;
    case LabelRole: return label;
    case TypeIdRole: return b.typeIds[index.row()];
    case IsBucketRole: return false;
    case SearchTextRole: {
        // label, id, type and every property "name=value" of this frame, for the filter
        QString text = b.names[index.row()] + QLatin1Char(' ') + id + QLatin1Char(' ') + b.types[index.row()];
        if (m_schema && !m_frame.isNull()) {
            const auto c = m_frame.view().bucket(size_t(bi)).entity(size_t(b.entityIndex[index.row()]));
            for (const auto& n : vtx::buildPropertyTree(c, *m_schema))
                if (!n.value.empty())
                    text += QLatin1Char(' ') + QString::fromStdString(n.path) + QLatin1Char('=') + QString::fromStdString(n.value);
        }
        return text;
    }
    default: return {};
    }
}

QVariant EntityTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case IdColumn: return tr("Id");
    default: return tr("Type");
    }
}

bool EntityTreeModel::hasLabels() const
{
    for (const Bucket& b : m_buckets)
        for (const QString& l : b.labels)
            if (!l.isEmpty())
                return true;
    return false;
}

EntityFilterProxy::EntityFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterRole(EntityTreeModel::SearchTextRole);
}

void EntityFilterProxy::setFilter(const QString& text)
{
    m_text = text;
    m_compiled = false;
    invalidateFilter();
}

const EntityFilter& EntityFilterProxy::filter() const
{
    const auto* model = static_cast<const EntityTreeModel*>(sourceModel());
    const vtx::Schema* schema = model ? model->schema() : nullptr;
    if (!m_compiled || schema != m_compiledFor) {
        m_filter = EntityFilter::parse(m_text, schema);
        m_compiledFor = schema;
        m_compiled = true;
    }
    return m_filter;
}

QVariant EntityFilterProxy::data(const QModelIndex& index, int role) const
{
    if (role != Qt::DisplayRole || index.column() != EntityTreeModel::NameColumn || index.parent().isValid() || filter().isEmpty())
        return QSortFilterProxyModel::data(index, role);
    const QModelIndex source = mapToSource(index);
    if (!source.data(EntityTreeModel::IsBucketRole).toBool())
        return QSortFilterProxyModel::data(index, role);
    return tr("%1 (%2 of %3)").arg(source.data(EntityTreeModel::BucketNameRole).toString()).arg(rowCount(index)).arg(sourceModel()->rowCount(source));
}

bool EntityFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    if (filter().isEmpty())
        return true;
    const auto* model = static_cast<const EntityTreeModel*>(sourceModel());
    const QModelIndex i = model->index(row, 0, parent);
    if (i.data(EntityTreeModel::IsBucketRole).toBool())
        return false; // shown while a child matches (recursive filtering)
    uint32_t bucket = 0;
    size_t position = 0;
    if (!model->entityAt(i, &bucket, &position))
        return false;
    m_filter.setFrame(model->frame());
    return m_filter.accepts(i.data(EntityTreeModel::UniqueIdRole).toString(),
                            model->index(row, EntityTreeModel::TypeColumn, parent).data().toString(), bucket, position,
                            i.data(EntityTreeModel::LabelRole).toString());
}

} // namespace vtxw
