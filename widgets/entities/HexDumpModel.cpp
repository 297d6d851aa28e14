// SPDX-License-Identifier: MIT
#include "entities/HexDumpModel.hpp"

#include <QFontDatabase>

namespace vtxw {

HexDumpModel::HexDumpModel(QObject* parent) : QAbstractTableModel(parent) { }

void HexDumpModel::setBytes(const QByteArray& bytes)
{
    if (bytes.size() != m_bytes.size()) {
        beginResetModel();
        m_bytes = bytes;
        endResetModel();
        return;
    }
    int firstRow = -1, lastRow = -1;
    for (qsizetype i = 0; i < bytes.size(); ++i)
        if (bytes[i] != m_bytes[i]) {
            const int row = int(i / kBytesPerRow);
            if (firstRow < 0)
                firstRow = row;
            lastRow = row;
        }
    m_bytes = bytes;
    if (firstRow >= 0)
        emit dataChanged(index(firstRow, 0), index(lastRow, ColumnCount - 1));
}

QModelIndex HexDumpModel::indexOfOffset(qsizetype offset) const
{
    if (offset < 0 || offset >= m_bytes.size())
        return {};
    return index(int(offset / kBytesPerRow), FirstByteColumn + int(offset % kBytesPerRow));
}

int HexDumpModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int((m_bytes.size() + kBytesPerRow - 1) / kBytesPerRow);
}

int HexDumpModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HexDumpModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const qsizetype rowStart = qsizetype(index.row()) * kBytesPerRow;
    const int c = index.column();
    const qsizetype offset = c >= FirstByteColumn && c < AsciiColumn ? rowStart + (c - FirstByteColumn) : -1;
    switch (role) {
    case Qt::DisplayRole:
        if (c == OffsetColumn)
            return QStringLiteral("%1").arg(rowStart, 6, 16, QLatin1Char('0'));
        if (c == AsciiColumn) {
            QString s;
            for (qsizetype i = rowStart; i < std::min(rowStart + kBytesPerRow, m_bytes.size()); ++i) {
                const uchar b = uchar(m_bytes[i]);
                s += b >= 0x20 && b < 0x7f ? QChar(b) : QChar('.');
            }
            return s;
        }
        if (offset < m_bytes.size())
            return QStringLiteral("%1").arg(uchar(m_bytes[offset]), 2, 16, QLatin1Char('0'));
        return {};
    case Qt::FontRole: return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case Qt::ToolTipRole:
        if (offset >= 0 && offset < m_bytes.size())
            return tr("offset %1 (0x%2): %3").arg(offset).arg(offset, 0, 16).arg(int(uchar(m_bytes[offset])));
        return {};
    case OffsetRole: return offset < m_bytes.size() ? QVariant(qlonglong(offset)) : QVariant(qlonglong(-1));
    default: return {};
    }
}

QVariant HexDumpModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == OffsetColumn)
        return tr("Offset");
    if (section == AsciiColumn)
        return tr("ASCII");
    if (section >= FirstByteColumn && section < AsciiColumn)
        return QStringLiteral("%1").arg(section - FirstByteColumn, 2, 16, QLatin1Char('0'));
    return {};
}

} // namespace vtxw
