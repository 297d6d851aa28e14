// SPDX-License-Identifier: MIT
#include "entities/PropertyTreeModel.hpp"

#include <QApplication>
#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QPalette>
#include <QStringList>
#include <string_view>
#include <unordered_map>

namespace vtxw {

PropertyTreeModel::PropertyTreeModel(QObject* parent) : QAbstractItemModel(parent) { }

void PropertyTreeModel::clear()
{
    beginResetModel();
    m_nodes.clear();
    m_row.clear();
    m_changed.clear();
    m_damage.clear();
    endResetModel();
}

void PropertyTreeModel::setDamage(const QHash<QString, QString>& reasonByPath)
{
    QHash<int, QString> next;
    if (!reasonByPath.isEmpty()) {
        // A node is damaged when it or an ancestor is a damaged container; nodes come in tree
        // order (parents first), so one pass inherits from the parent.
        for (size_t i = 1; i < m_nodes.size(); ++i) {
            const auto own = reasonByPath.find(QString::fromStdString(m_nodes[i].path));
            if (own != reasonByPath.end())
                next.insert(int(i), *own);
            else if (m_nodes[i].parent > 0 && next.contains(m_nodes[i].parent))
                next.insert(int(i), next.value(m_nodes[i].parent));
        }
    }
    if (next == m_damage)
        return;
    QSet<int> dirty;
    for (auto it = next.cbegin(); it != next.cend(); ++it)
        if (m_damage.value(it.key()) != it.value())
            dirty.insert(it.key());
    for (auto it = m_damage.cbegin(); it != m_damage.cend(); ++it)
        if (!next.contains(it.key()))
            dirty.insert(it.key());
    m_damage = std::move(next);
    for (int n : std::as_const(dirty))
        emit dataChanged(indexOfNode(n, 0), indexOfNode(n, ColumnCount - 1), {DamageRole, Qt::BackgroundRole, Qt::ToolTipRole});
}

void PropertyTreeModel::setContainer(vtx::ContainerView c, const vtx::Schema* schema, vtx::ContainerView previous)
{
    if (c.isNull() || !schema) {
        if (!m_nodes.empty())
            clear();
        return;
    }
    std::vector<vtx::PropertyNode> next = vtx::buildPropertyTree(c, *schema);
    // Marks by path against frame N−1: independent of what was shown before and of the shape,
    // so they survive a rebuild (an array that changed length) too.
    QSet<int> changed;
    if (!previous.isNull()) {
        const std::vector<vtx::PropertyNode> before = vtx::buildPropertyTree(previous, *schema);
        std::unordered_map<std::string_view, const vtx::PropertyNode*> byPath;
        byPath.reserve(before.size());
        for (size_t i = 1; i < before.size(); ++i)
            byPath.emplace(before[i].path, &before[i]);
        for (size_t i = 1; i < next.size(); ++i) {
            const auto it = byPath.find(next[i].path);
            // Byte rows compare their bytes: a payload's text ("1,808 bytes") stays the same.
            if (it == byPath.end() || it->second->value != next[i].value || it->second->type != next[i].type || it->second->bytes != next[i].bytes)
                changed.insert(int(i));
        }
    }
    bool sameShape = next.size() == m_nodes.size();
    for (size_t i = 0; sameShape && i < next.size(); ++i)
        sameShape = next[i].path == m_nodes[i].path && next[i].parent == m_nodes[i].parent;
    if (sameShape) {
        QSet<int> dirty = (m_changed - changed) | (changed - m_changed);
        for (size_t i = 1; i < next.size(); ++i)
            if (next[i].value != m_nodes[i].value || next[i].type != m_nodes[i].type || next[i].absent != m_nodes[i].absent ||
                next[i].bytes != m_nodes[i].bytes)
                dirty.insert(int(i));
        // A struct's row summarises its fields ({ActiveWeapon: 1, …}, vtx::readableText): a
        // changed field changes the text of every row above it, though their own values do not.
        for (const int n : QSet<int>(dirty))
            for (int up = next[size_t(n)].parent; up > 0 && !dirty.contains(up); up = next[size_t(up)].parent)
                dirty.insert(up);
        m_nodes = std::move(next);
        m_changed = std::move(changed);
        for (int n : std::as_const(dirty))
            emit dataChanged(indexOfNode(n, 0), indexOfNode(n, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_damage.clear(); // node numbers change: InspectorPanel sets it again
    m_nodes = std::move(next);
    m_row.assign(m_nodes.size(), 0);
    for (const auto& n : m_nodes)
        for (size_t r = 0; r < n.children.size(); ++r)
            m_row[size_t(n.children[r])] = int(r);
    m_changed = std::move(changed);
    endResetModel();
}

QModelIndex PropertyTreeModel::indexOfNode(int node, int column) const
{
    if (node <= 0 || size_t(node) >= m_nodes.size())
        return {};
    return createIndex(m_row[size_t(node)], column, quintptr(node));
}

QModelIndex PropertyTreeModel::indexOfPath(const QString& path) const
{
    const std::string p = path.toStdString();
    for (size_t i = 1; i < m_nodes.size(); ++i)
        if (m_nodes[i].path == p)
            return indexOfNode(int(i));
    return {};
}

QModelIndex PropertyTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (m_nodes.empty() || row < 0 || column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0))
        return {};
    const auto& kids = m_nodes[size_t(nodeOf(parent))].children;
    return row < int(kids.size()) ? createIndex(row, column, quintptr(kids[size_t(row)])) : QModelIndex{};
}

QModelIndex PropertyTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return indexOfNode(m_nodes[child.internalId()].parent);
}

int PropertyTreeModel::rowCount(const QModelIndex& parent) const
{
    if (m_nodes.empty() || (parent.isValid() && parent.column() != 0))
        return 0;
    return int(m_nodes[size_t(nodeOf(parent))].children.size());
}

int PropertyTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant PropertyTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const auto& n = m_nodes[index.internalId()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return QString::fromStdString(n.name);
        case ValueColumn: return QString::fromStdString(vtx::readableText(m_nodes, n));
        case TypeColumn: return QString::fromStdString(n.type);
        }
        return {};
    case Qt::ToolTipRole: {
        const QString text = QString::fromStdString(n.path + " = " + n.value);
        const auto d = m_damage.find(int(index.internalId()));
        return d == m_damage.end() ? text : text + tr("\nDamaged: ") + *d;
    }
    case Qt::TextAlignmentRole:
        if (index.column() == ValueColumn && n.number)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole: {
        QFont f = index.column() == ValueColumn ? QFontDatabase::systemFont(QFontDatabase::FixedFont) : QFont();
        f.setItalic(n.unnamed || n.blob); // not what the schema says is there: marked
        return f;
    }
    case PathRole: return QString::fromStdString(n.path);
    case CopyTextRole: {
        const QString text = QString::fromStdString(n.value);
        return n.quotedText && text.size() >= 2 ? text.mid(1, text.size() - 2) : text;
    }
    case NumberRole: return n.number ? QVariant(*n.number) : QVariant();
    case ChangedRole: return !m_stale && m_changed.contains(int(index.internalId()));
    case Qt::ForegroundRole:
        if (m_stale)
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case AbsentRole: return n.absent;
    case BytesRole: return n.isBytes ? QVariant(QByteArray(reinterpret_cast<const char*>(n.bytes.data()), qsizetype(n.bytes.size()))) : QVariant();
    case UnnamedRole: return n.unnamed;
    case BlobRole: return n.blob;
    case DamageRole: return m_damage.value(int(index.internalId()));
    case Qt::BackgroundRole:
        if (m_damage.contains(int(index.internalId())))
            return QColor(213, 94, 0, 60); // vermillion (Okabe–Ito), translucent: readable in both themes
        return {};
    default: return {};
    }
}

void PropertyTreeModel::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    if (const int n = int(m_nodes.size()); n > 1)
        for (int node = 1; node < n; ++node) // every row: marks and colour change everywhere
            emit dataChanged(indexOfNode(node, 0), indexOfNode(node, ColumnCount - 1), {ChangedRole, Qt::ForegroundRole});
}

QVariant PropertyTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {QT_TR_NOOP("Property"), QT_TR_NOOP("Value"), QT_TR_NOOP("Type")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace vtxw
