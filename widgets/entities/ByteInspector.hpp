// SPDX-License-Identifier: MIT
#pragma once
// The inspector's byte view: a hex + ASCII dump of the selected byte array (a payload stored by
// the SDK's blob convention, or unnamed byte data) with its length, and what the bytes at the
// selected offset read as (int8/16/32/64 signed and unsigned, float32, float64; little-endian).

#include <QByteArray>
#include <QWidget>

class QLabel;
class QTableView;

namespace vtxw {

class HexDumpModel;

class ByteInspector : public QWidget {
    Q_OBJECT
public:
    explicit ByteInspector(QWidget* parent = nullptr);
    /// Shows `bytes` under `title`; the selected offset is kept when it still exists.
    void setBytes(const QString& title, const QByteArray& bytes);
    void selectOffset(qsizetype offset);
    qsizetype selectedOffset() const { return m_offset; }
    /// The readings panel's text (one line per interpretation), for tests and copying.
    QString readingsText() const;
    HexDumpModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

private:
    void updateReadings();
    HexDumpModel* m_model;
    QTableView* m_view;
    QLabel* m_title;
    QLabel* m_readings;
    qsizetype m_offset = 0;
};

} // namespace vtxw
