// SPDX-License-Identifier: MIT
#include "analysis/AnalysisModel.hpp"

#include <limits>
#include <optional>

namespace vtxw {

namespace {
bool isAbsent(const std::string& s)
{
    return s.empty() || s == "—";
}

std::optional<double> numberIn(const std::string& s)
{
    bool ok = false;
    const double d = QString::fromStdString(s).toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}
} // namespace

void AnalysisModel::setTable(vtx::AnalysisTable table, std::vector<std::string> bucketNames)
{
    beginResetModel();
    m_table = std::move(table);
    m_bucketNames = std::move(bucketNames);
    m_bucketColumn = columnNamed(QStringLiteral("bucket"));
    m_numericText.assign(m_table.columns.size(), true);
    for (const auto& row : m_table.rows)
        for (size_t c = 0; c < row.size() && c < m_numericText.size(); ++c)
            if (const auto* text = std::get_if<std::string>(&row[c]); text && m_numericText[c] && !isAbsent(*text) && !numberIn(*text))
                m_numericText[c] = false;
    endResetModel();
}

int AnalysisModel::columnNamed(const QString& name) const
{
    for (size_t i = 0; i < m_table.columns.size(); ++i)
        if (QString::fromStdString(m_table.columns[i]) == name)
            return int(i);
    return -1;
}

int AnalysisModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}
int AnalysisModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QVariant AnalysisModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_table.rows[size_t(index.row())];
    if (size_t(index.column()) >= row.size())
        return {};
    const vtx::AnalysisTable::Cell& cell = row[size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        if (const auto* d = std::get_if<double>(&cell))
            return QString::number(*d, 'f', 3);
        if (const auto* i = std::get_if<int64_t>(&cell); i && index.column() == m_bucketColumn && *i >= 0 && size_t(*i) < m_bucketNames.size())
            return QString::fromStdString(m_bucketNames[size_t(*i)]);
        return QString::fromStdString(vtx::cellText(cell));
    case Qt::ToolTipRole:
        if (index.column() == m_bucketColumn)
            return tr("bucket %1").arg(QString::fromStdString(vtx::cellText(cell)));
        return QString::fromStdString(vtx::cellText(cell));
    case Qt::TextAlignmentRole: {
        // Numbers right-aligned, also those held as text (Unique values' values and counts).
        const bool numberText =
            std::holds_alternative<std::string>(cell) && size_t(index.column()) < m_numericText.size() && m_numericText[size_t(index.column())];
        const bool number = (std::holds_alternative<int64_t>(cell) && index.column() != m_bucketColumn) || std::holds_alternative<double>(cell);
        return number || numberText ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    case SortRole:
        if (const auto* i = std::get_if<int64_t>(&cell))
            return qlonglong(*i);
        if (const auto* d = std::get_if<double>(&cell))
            return *d;
        if (size_t(index.column()) < m_numericText.size() && m_numericText[size_t(index.column())]) {
            const auto* text = std::get_if<std::string>(&cell);
            return !text || isAbsent(*text) ? -std::numeric_limits<double>::infinity() : *numberIn(*text);
        }
        return QString::fromStdString(vtx::cellText(cell));
    default: return {};
    }
}

QVariant AnalysisModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || size_t(section) >= m_table.columns.size())
        return {};
    return QString::fromStdString(m_table.columns[size_t(section)]);
}

} // namespace vtxw
