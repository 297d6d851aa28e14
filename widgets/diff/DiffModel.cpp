// SPDX-License-Identifier: MIT
#include "diff/DiffModel.hpp"

#include "diff/DiffCellText.hpp"

#include "vtx/query/Lexer.hpp"

#include "shell/Theme.hpp"

#include "vtx/export/JsonExport.hpp"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QFontDatabase>
#include <QRegularExpression>
#include <QStyle>

namespace vtxw {

namespace {
// Okabe–Ito colours (safe for colour-blind readers), lightened on a dark theme (Theme.hpp);
// every change also carries a sign.

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
QString qs(const char* s)
{
    return QString::fromUtf8(s);
}

QString elideMiddle(const QString& s, int max = 80)
{
    return s.size() <= max ? s : s.left(max / 2 - 1) + QStringLiteral("…") + s.right(max / 2 - 1);
}

} // namespace

DeltaText deltaText(const vtx::PropertyChange& c, bool forReading)
{
    const vtx::Value a = c.a(), b = c.b();
    DeltaText d;
    d.text = qs(vtx::formatDeltaOf(a, b, forReading)).replace(QLatin1Char('-'), QChar(0x2212));
    // A colour only where it says what the signs say: every component up, or every one down. The
    // sum of the signs coloured "(+600, −3, −2)" as a decrease and a rotation's unsigned angle
    // (∠166.9°) by its quaternion's parts: colour alone, against UX.md (review 3, item 2).
    int up = 0, down = 0;
    if (auto parts = vtx::deltaOf(a, b))
        for (size_t i = 0; i < parts->size; ++i) {
            up += parts->values[i] > 0;
            down += parts->values[i] < 0;
        }
    static const QRegularExpression exponentSign(QStringLiteral("[eE][+\\x{2212}]"));
    const QString signs = QString(d.text).remove(exponentSign); // −4.6e+18 is a decrease
    const bool signShown = signs.contains(QLatin1Char('+')) || signs.contains(QChar(0x2212));
    d.sign = !signShown ? 0 : up && !down ? 1 : down && !up ? -1 : 0;
    return d;
}

namespace {
} // namespace

DiffModel::DiffModel(QObject* parent) : QAbstractItemModel(parent) { }

void DiffModel::setDiff(std::shared_ptr<const vtx::FrameDiff> diff, const vtx::Schema* schema)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_schema = schema;
    m_labelOfId[0].reset();
    m_labelOfId[1].reset();
    endResetModel();
}

void DiffModel::clear()
{
    setDiff(nullptr, nullptr);
}

void DiffModel::setEntityLabels(const vtx::EntityLabels* labels)
{
    m_labels = labels;
    m_labelOfId[0].reset();
    m_labelOfId[1].reset();
    labelsChanged();
}

void DiffModel::labelsChanged()
{
    if (const int n = rowCount())
        emit dataChanged(index(0, NameColumn), index(n - 1, NameColumn), {Qt::DisplayRole, Qt::ToolTipRole, LabelRole});
}

QString DiffModel::labelIn(const vtx::EntityDiff& e, bool inB) const
{
    const vtx::FrameHandle& h = inB ? m_diff->b : m_diff->a;
    const int32_t at = inB ? e.indexB : e.indexA;
    if (!m_labels || h.isNull() || at < 0 || e.bucket >= h->bucketCount())
        return {};
    const vtx::BucketView bucket = h->bucket(e.bucket);
    const QString own = size_t(at) < bucket.entityCount() ? qs(m_labels->label(bucket.entity(size_t(at)))) : QString();
    return own.isEmpty() ? lentLabel(qs(e.uniqueId), inB) : own;
}

QString DiffModel::lentLabel(const QString& uniqueId, bool inB) const
{
    std::optional<QHash<QString, QString>>& labels = m_labelOfId[inB ? 1 : 0];
    if (!labels) {
        labels.emplace();
        const vtx::FrameHandle& h = inB ? m_diff->b : m_diff->a;
        for (size_t b = 0; b < h->bucketCount(); ++b) {
            const vtx::BucketView bucket = h->bucket(b);
            for (size_t i = 0; i < bucket.entityCount(); ++i)
                if (const std::string_view l = m_labels->label(bucket.entity(i)); !l.empty()) {
                    const QString id = qs(bucket.uniqueId(i));
                    if (!labels->contains(id)) // the first labelled one, as the entity list
                        labels->insert(id, qs(l));
                }
        }
    }
    return labels->value(uniqueId);
}

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

int DiffModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

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
    case LabelRole: return labelIn(e, !removed);
    case Qt::DisplayRole:
        if (column == NameColumn) {
            const QString sign = added ? QStringLiteral("+") : removed ? QStringLiteral("−") : QStringLiteral("~");
            const QString label = labelIn(e, !removed);
            return label.isEmpty() ? QStringLiteral("%1 %2  %3").arg(sign, qs(e.uniqueId), type)
                                   : QStringLiteral("%1 %2 · %3  %4").arg(sign, label, qs(e.uniqueId), type);
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
            return QBrush(semanticColours().added);
        if (column == NameColumn && removed)
            return QBrush(semanticColours().removed);
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("%1 in bucket %2 (%3)")
                          .arg(qs(e.uniqueId), qs(m_schema ? m_schema->bucketName(e.bucket) : std::string()), qs(vtx::entityStatusName(e.status)));
        if (e.status == vtx::EntityStatus::Changed) {
            // A renamed entity: both names, so the row never shows only one as if it were both.
            const QString la = labelIn(e, false), lb = labelIn(e, true);
            if (la != lb)
                tip += tr("\nname in A: %1\nname in B: %2").arg(la.isEmpty() ? tr("(none)") : la, lb.isEmpty() ? tr("(none)") : lb);
            else if (!lb.isEmpty())
                tip.prepend(lb + QStringLiteral(" · "));
        } else if (const QString l = labelIn(e, !removed); !l.isEmpty()) {
            tip.prepend(l + QStringLiteral(" · "));
        }
        if (const QString d = damageOf(e); !d.isEmpty())
            tip += tr("\nDamaged in %1: stored hash mismatch, the values there are not what was recorded").arg(d);
        return tip;
    }
    case Qt::DecorationRole:
        if (column == NameColumn && !damageOf(e).isEmpty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case DamageRole: return damageOf(e);
    case StatusRole: return qs(vtx::entityStatusName(e.status));
    case BucketRole: return m_schema ? qs(m_schema->bucketName(e.bucket)) : QString::number(e.bucket);
    case BucketIndexRole: return int(e.bucket);
    case TypeRole: return type;
    case UniqueIdRole: return qs(e.uniqueId);
    case PathRole: return QString();
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
            // Rounded for reading in the cell; exact in the tooltip (and in exports). Long text
            // is cut here, numbers are not: the view's delegate shortens them to fit the column
            // (NumberFitDelegate), and a cut vector read "(-37.17…930603)".
            if (tip)
                return qs(vtx::formatValue(v));
            const QString text = qs(vtx::formatValueForReading(v));
            return v.kind == vtx::Value::Kind::String ? elideMiddle(text, 48) : text;
        }
        case DeltaColumn: return deltaText(c, !tip).text;
        }
        return {};
    }
    case Qt::ForegroundRole:
        if (column == DeltaColumn) {
            const int sign = deltaText(c).sign;
            return sign > 0 ? QVariant(QBrush(semanticColours().increase)) : sign < 0 ? QVariant(QBrush(semanticColours().decrease)) : QVariant();
        }
        if (column == NameColumn && c.kind == vtx::ChangeKind::Added)
            return QBrush(semanticColours().added);
        if (column == NameColumn && c.kind == vtx::ChangeKind::Removed)
            return QBrush(semanticColours().removed);
        return {};
    case Qt::TextAlignmentRole:
        if (column != NameColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (column != NameColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    case StatusRole: return qs(vtx::entityStatusName(e.status));
    case BucketRole: return m_schema ? qs(m_schema->bucketName(e.bucket)) : QString::number(e.bucket);
    case BucketIndexRole: return int(e.bucket);
    case TypeRole: return typeName(e.typeIdA);
    case UniqueIdRole: return qs(e.uniqueId);
    case PathRole: return qs(m_diff->pathText(c, *m_schema));
    case DifferenceAtRole:
        if (c.kind != vtx::ChangeKind::Changed)
            return 0;
        if (column == DeltaColumn)
            return firstChangedComponent(changeData(e, c, column, Qt::DisplayRole).toString());
        if (column == AColumn || column == BColumn)
            return differenceStart(changeData(e, c, column, Qt::DisplayRole).toString(),
                                   changeData(e, c, column == AColumn ? BColumn : AColumn, Qt::DisplayRole).toString());
        return 0;
    default: return {};
    }
}

DiffFilterProxy::DiffFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
}

void DiffFilterProxy::setText(const QString& text)
{
    m_text = text.trimmed();
    m_compiled = false;
    invalidateFilter();
}

QString DiffFilterProxy::error() const
{
    expressionAccepts(-1); // compiles for the current schema when needed
    return m_error;
}

bool DiffFilterProxy::expressionAccepts(int entityRow) const
{
    const auto* model = static_cast<const DiffModel*>(sourceModel());
    const vtx::Schema* schema = model ? model->schema() : nullptr;
    if (!m_compiled || schema != m_compiledFor) {
        m_compiled = true;
        m_compiledFor = schema;
        m_expression.reset();
        m_error.clear();
        m_bound = {nullptr, -1};
        const std::string utf8 = m_text.toStdString();
        const auto tokens = vtx::query::tokenize(utf8);
        // One word (or nothing) is plain text: ids, types and property paths containing it.
        m_plain = m_text.isEmpty() || (tokens.size() == 2 && tokens[0].kind == vtx::query::TokenKind::Path);
        if (!m_plain && schema) {
            vtx::query::ExpressionError e;
            m_expression = vtx::query::Expression::compile(utf8, *schema, &e);
            if (!m_expression)
                m_error = QString::fromStdString(e.text());
            else if (m_expression->usesPrevious()) {
                m_expression.reset();
                m_error = tr("changed() has no previous frame here: compare A and B with the diff itself");
            }
        }
    }
    if (entityRow < 0 || !m_expression || !model || !model->diff())
        return false;
    const vtx::FrameDiff& d = *model->diff();
    const vtx::EntityDiff& e = d.entities[size_t(entityRow)];
    const bool inB = e.indexB >= 0 && !d.b.isNull();
    const vtx::FrameHandle& frame = inB ? d.b : d.a;
    const int32_t index = inB ? e.indexB : e.indexA;
    if (frame.isNull() || index < 0)
        return false;
    // Bound to A or B as needed; any()/all() are computed once per frame.
    const std::pair<const void*, int32_t> key{frame.chunk().get(), frame.index()};
    if (key != m_bound) {
        m_expression->setFrame(frame.view());
        m_bound = key;
    }
    return m_expression->matchesEntity(e.bucket, size_t(index));
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

bool DiffFilterProxy::isFiltering() const
{
    return !m_text.isEmpty() || !m_bucket.isEmpty() || !m_type.isEmpty() || !m_added || !m_removed || !m_changed;
}

QVariant DiffFilterProxy::data(const QModelIndex& index, int role) const
{
    if (role == Qt::DisplayRole && index.column() == DiffModel::DeltaColumn && !index.parent().isValid() && isFiltering()) {
        const QModelIndex first = index.siblingAtColumn(0);
        const int shown = rowCount(first), total = sourceModel()->rowCount(mapToSource(first));
        if (shown < total) // a filter hides some of the entity's changes: say so, not the total
            return tr("%1 of %2 changes").arg(shown).arg(total);
    }
    return QSortFilterProxyModel::data(index, role);
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
    expressionAccepts(-1);
    if (m_expression) // an expression is about entities: a property row follows its entity
        return expressionAccepts(parent.isValid() ? parent.row() : row);
    // Recursive filtering keeps an entity whose property matches; a matching entity keeps all
    // of its properties (the row below checks the parent).
    auto matches = [&](const QModelIndex& x) {
        return x.data(DiffModel::UniqueIdRole).toString().contains(m_text, Qt::CaseInsensitive) ||
            x.data(DiffModel::TypeRole).toString().contains(m_text, Qt::CaseInsensitive) ||
            x.data(DiffModel::LabelRole).toString().contains(m_text, Qt::CaseInsensitive);
    };
    if (parent.isValid())
        return i.data(DiffModel::PathRole).toString().contains(m_text, Qt::CaseInsensitive) || matches(parent);
    return matches(i);
}

} // namespace vtxw

namespace vtxw {

QString DiffModel::damageOf(const vtx::EntityDiff& e) const
{
    if (m_damagedA.isEmpty() && m_damagedB.isEmpty())
        return {};
    const QString key = QString::number(e.bucket) + QLatin1Char('/') + qs(e.uniqueId);
    const bool a = m_damagedA.contains(key), b = m_damagedB.contains(key);
    return a && b ? QStringLiteral("A, B") : a ? QStringLiteral("A") : b ? QStringLiteral("B") : QString();
}

void DiffModel::setDamage(const QSet<QString>& inA, const QSet<QString>& inB)
{
    if (inA == m_damagedA && inB == m_damagedB)
        return;
    m_damagedA = inA;
    m_damagedB = inB;
    if (const int n = rowCount())
        emit dataChanged(index(0, 0), index(n - 1, ColumnCount - 1), {DamageRole, Qt::DecorationRole, Qt::ToolTipRole});
}

} // namespace vtxw
