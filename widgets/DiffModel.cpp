#include "vtxwidgets/DiffModel.hpp"

#include "vtx/JsonExport.hpp"

#include <QBrush>
#include <QColor>
#include <QFontDatabase>

namespace vtxw {

namespace {
// Okabe–Ito colours (safe for colour-blind readers); every change also carries a sign.
const QColor kIncrease(0x00, 0x72, 0xB2);
const QColor kDecrease(0xD5, 0x5E, 0x00);
const QColor kAdded(0x00, 0x9E, 0x73);
const QColor kRemoved(0xCC, 0x79, 0xA7);

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
QString qs(const std::string& s) { return QString::fromStdString(s); }
QString qs(const char* s) { return QString::fromUtf8(s); }

QString elideMiddle(const QString& s, int max = 80)
{
    return s.size() <= max ? s : s.left(max / 2 - 1) + QStringLiteral("…") + s.right(max / 2 - 1);
}

QString deltaText(const vtx::Value& a, const vtx::Value& b, int* sign)
{
    *sign = 0;
    auto d = vtx::deltaOf(a, b);
    if (!d)
        return {};
    QStringList parts;
    for (size_t i = 0; i < d->size; ++i) {
        const double v = d->values[i];
        *sign += v > 0 ? 1 : v < 0 ? -1 : 0;
        parts << qs(vtx::formatDelta(a.kind, v)).replace(QLatin1Char('-'), QChar(0x2212));
    }
    return parts.size() == 1 ? parts.front() : "(" + parts.join(", ") + ")";
}
} // namespace

DiffModel::DiffModel(QObject* parent) : QAbstractItemModel(parent) {}

void DiffModel::setDiff(std::shared_ptr<const vtx::FrameDiff> diff, const vtx::Schema* schema)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_schema = schema;
    endResetModel();
}

void DiffModel::clear() { setDiff(nullptr, nullptr); }

// Entity rows have internal id 0; property rows carry their entity's row + 1.
QModelIndex DiffModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex DiffModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int DiffModel::rowCount(const QModelIndex& parent) const
{
    if (!m_diff)
        return 0;
    if (!parent.isValid())
        return int(m_diff->entities.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return int(m_diff->entities[size_t(parent.row())].changeCount);
}

int DiffModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant DiffModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Entity / property");
    case AColumn: return tr("A");
    case BColumn: return tr("B");
    case DeltaColumn: return tr("Δ");
    }
    return {};
}

QString DiffModel::typeName(int32_t typeId) const
{
    const vtx::StructDef* d = m_schema ? m_schema->structById(typeId) : nullptr;
    return d ? qs(d->name) : QString();
}

QVariant DiffModel::data(const QModelIndex& index, int role) const
{
    if (!m_diff || !index.isValid())
        return {};
    if (index.internalId() == 0)
        return entityData(m_diff->entities[size_t(index.row())], index.column(), role);
    const vtx::EntityDiff& e = m_diff->entities[size_t(index.internalId() - 1)];
    return changeData(e, m_diff->changesOf(e)[size_t(index.row())], index.column(), role);
}

QVariant DiffModel::entityData(const vtx::EntityDiff& e, int column, int role) const
{
    const bool added = e.status == vtx::EntityStatus::Added, removed = e.status == vtx::EntityStatus::Removed;
    const QString type = typeName(added ? e.typeIdB : e.typeIdA);
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn) {
            const QString sign = added ? QStringLiteral("+") : removed ? QStringLiteral("−") : QStringLiteral("~");
            return QStringLiteral("%1 %2  %3").arg(sign, qs(e.uniqueId), type);
        }
        if (column == AColumn && removed)
            return tr("present");
        if (column == BColumn && added)
            return tr("present");
        if (column == AColumn && added)
            return tr("absent");
        if (column == BColumn && removed)
            return tr("absent");
        if (column == DeltaColumn && e.status == vtx::EntityStatus::Changed)
            return e.changeCount == 1 ? tr("1 change") : tr("%1 changes").arg(e.changeCount);
        return {};
    case Qt::ForegroundRole:
        if (column == NameColumn && added)
            return QBrush(kAdded);
        if (column == NameColumn && removed)
            return QBrush(kRemoved);
        return {};
    case Qt::ToolTipRole:
        return tr("%1 in bucket %2 (%3)").arg(qs(e.uniqueId), qs(m_schema ? m_schema->bucketName(e.bucket) : std::string()),
                                              qs(vtx::entityStatusName(e.status)));
    case StatusRole: return qs(vtx::entityStatusName(e.status));
    case BucketRole: return m_schema ? qs(m_schema->bucketName(e.bucket)) : QString::number(e.bucket);
    case BucketIndexRole: return int(e.bucket);
    case TypeRole: return type;
    case UniqueIdRole: return qs(e.uniqueId);
    case PathRole: return QString();
    case IsEntityRole: return true;
    default: return {};
    }
}

QVariant DiffModel::changeData(const vtx::EntityDiff& e, const vtx::PropertyChange& c, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: {
        const bool tip = role == Qt::ToolTipRole;
        switch (column) {
        case NameColumn: {
            QString name = qs(m_diff->pathText(c, *m_schema));
            if (c.kind == vtx::ChangeKind::Added)
                name += tr("  (added)");
            else if (c.kind == vtx::ChangeKind::Removed)
                name += tr("  (removed)");
            else if (c.kind == vtx::ChangeKind::TypeChanged)
                name = tr("(type changed)");
            return name;
        }
        case AColumn:
        case BColumn: {
            const vtx::Value v = column == AColumn ? c.a() : c.b();
            if (v.kind == vtx::Value::Kind::Struct && m_schema) {
                const QString t = typeName(v.typeId);
                return t.isEmpty() ? QStringLiteral("{…}") : t + QStringLiteral(" {…}");
            }
            const QString text = qs(vtx::formatValue(v));
            return tip ? text : elideMiddle(text, 48);
        }
        case DeltaColumn: {
            int sign = 0;
            return deltaText(c.a(), c.b(), &sign);
        }
        }
        return {};
    }
    case Qt::ForegroundRole:
        if (column == DeltaColumn) {
            int sign = 0;
            deltaText(c.a(), c.b(), &sign);
            return sign > 0 ? QVariant(QBrush(kIncrease)) : sign < 0 ? QVariant(QBrush(kDecrease)) : QVariant();
        }
        if (column == NameColumn && c.kind == vtx::ChangeKind::Added)
            return QBrush(kAdded);
        if (column == NameColumn && c.kind == vtx::ChangeKind::Removed)
            return QBrush(kRemoved);
        return {};
    case Qt::TextAlignmentRole:
        if (column != NameColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (column != NameColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    case DeltaSignRole: {
        int sign = 0;
        deltaText(c.a(), c.b(), &sign);
        return sign;
    }
    case StatusRole: return qs(vtx::entityStatusName(e.status));
    case BucketRole: return m_schema ? qs(m_schema->bucketName(e.bucket)) : QString::number(e.bucket);
    case BucketIndexRole: return int(e.bucket);
    case TypeRole: return typeName(e.typeIdA);
    case UniqueIdRole: return qs(e.uniqueId);
    case PathRole: return qs(m_diff->pathText(c, *m_schema));
    case IsEntityRole: return false;
    default: return {};
    }
}

QModelIndex DiffModel::entityIndex(int bucket, const QString& uniqueId) const
{
    if (!m_diff)
        return {};
    const QByteArray id = uniqueId.toUtf8();
    for (size_t i = 0; i < m_diff->entities.size(); ++i) {
        const auto& e = m_diff->entities[i];
        if (int(e.bucket) == bucket && e.uniqueId == std::string_view(id.constData(), size_t(id.size())))
            return index(int(i), 0);
    }
    return {};
}

QModelIndex DiffModel::propertyIndex(const QModelIndex& entity, const QString& path) const
{
    const int n = rowCount(entity);
    for (int r = 0; r < n; ++r) {
        const QModelIndex i = index(r, 0, entity);
        if (i.data(PathRole).toString() == path)
            return i;
    }
    return {};
}

DiffFilterProxy::DiffFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) { setRecursiveFilteringEnabled(true); }

void DiffFilterProxy::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void DiffFilterProxy::setBucket(const QString& bucket)
{
    m_bucket = bucket;
    invalidateFilter();
}

void DiffFilterProxy::setType(const QString& type)
{
    m_type = type;
    invalidateFilter();
}

void DiffFilterProxy::setShowStatus(const QString& status, bool shown)
{
    if (status == QLatin1String("added"))
        m_added = shown;
    else if (status == QLatin1String("removed"))
        m_removed = shown;
    else if (status == QLatin1String("changed"))
        m_changed = shown;
    invalidateFilter();
}

bool DiffFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const QModelIndex i = sourceModel()->index(row, 0, parent);
    const QString status = i.data(DiffModel::StatusRole).toString();
    if ((status == QLatin1String("added") && !m_added) || (status == QLatin1String("removed") && !m_removed) ||
        (status == QLatin1String("changed") && !m_changed))
        return false;
    if (!m_bucket.isEmpty() && i.data(DiffModel::BucketRole).toString() != m_bucket)
        return false;
    if (!m_type.isEmpty() && i.data(DiffModel::TypeRole).toString() != m_type)
        return false;
    if (m_text.isEmpty())
        return true;
    // Recursive filtering keeps an entity whose property matches; a matching entity keeps all
    // of its properties (the row below checks the parent).
    auto matches = [&](const QModelIndex& x) {
        return x.data(DiffModel::UniqueIdRole).toString().contains(m_text, Qt::CaseInsensitive) ||
               x.data(DiffModel::TypeRole).toString().contains(m_text, Qt::CaseInsensitive);
    };
    if (parent.isValid())
        return i.data(DiffModel::PathRole).toString().contains(m_text, Qt::CaseInsensitive) || matches(parent);
    return matches(i);
}

} // namespace vtxw
