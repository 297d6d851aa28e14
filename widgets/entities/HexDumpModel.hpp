// SPDX-License-Identifier: MIT
#pragma once
// A byte array as a hex dump: one row per 16 bytes, an offset column, one column per byte and
// the bytes as ASCII. The table view paints only the visible rows, so an 18 KB payload costs
// what the screen shows.

#include <QAbstractTableModel>
#include <QByteArray>

namespace vtxw {

class HexDumpModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kBytesPerRow = 16;
    enum Column { OffsetColumn = 0, FirstByteColumn = 1, AsciiColumn = FirstByteColumn + kBytesPerRow, ColumnCount };
    enum Roles { OffsetRole = Qt::UserRole + 1 }; ///< the byte offset a cell stands for (-1: none)

    explicit HexDumpModel(QObject* parent = nullptr);
    /// Same length: only the cells whose bytes differ are updated (a scrubbed payload keeps the
    /// view's selection and scroll); otherwise a reset.
    void setBytes(const QByteArray& bytes);
    const QByteArray& bytes() const { return m_bytes; }
    /// The cell of byte `offset` (invalid when out of range).
    QModelIndex indexOfOffset(qsizetype offset) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QByteArray m_bytes;
};

} // namespace vtxw
