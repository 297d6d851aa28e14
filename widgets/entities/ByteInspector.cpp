// SPDX-License-Identifier: MIT
#include "entities/ByteInspector.hpp"

#include "entities/HexDumpModel.hpp"

#include "vtx/model/ByteReadings.hpp"
#include "vtx/model/PropertyTree.hpp"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace vtxw {

ByteInspector::ByteInspector(QWidget* parent) : QWidget(parent), m_model(new HexDumpModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    m_title = new QLabel(this);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    auto* row = new QHBoxLayout;
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).height() + 4);
    m_view->setShowGrid(false);
    const int cell = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).horizontalAdvance(QStringLiteral("000"));
    m_view->horizontalHeader()->setMinimumSectionSize(cell);
    for (int c = HexDumpModel::FirstByteColumn; c < HexDumpModel::AsciiColumn; ++c)
        m_view->setColumnWidth(c, cell);
    m_view->setColumnWidth(HexDumpModel::OffsetColumn, cell * 3);
    m_view->horizontalHeader()->setStretchLastSection(true);
    row->addWidget(m_view, 1);
    m_readings = new QLabel(this);
    m_readings->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_readings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readings->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_readings->setMinimumWidth(QFontMetrics(m_readings->font()).horizontalAdvance(QStringLiteral("float64  -1.2345678901234567e+308")));
    row->addWidget(m_readings);
    layout->addLayout(row, 1);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
        const qsizetype offset = i.data(HexDumpModel::OffsetRole).toLongLong();
        if (offset >= 0) {
            m_offset = offset;
            updateReadings();
        }
    });
}

void ByteInspector::setBytes(const QString& title, const QByteArray& bytes)
{
    m_title->setText(title);
    const bool sameLength = bytes.size() == m_model->bytes().size();
    m_model->setBytes(bytes);
    if (m_offset >= bytes.size())
        m_offset = 0;
    if (!sameLength)
        selectOffset(m_offset);
    updateReadings();
}

void ByteInspector::selectOffset(qsizetype offset)
{
    const QModelIndex i = m_model->indexOfOffset(offset);
    if (!i.isValid())
        return;
    m_offset = offset;
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
    updateReadings();
}

QString ByteInspector::readingsText() const
{
    return m_readings->text();
}

void ByteInspector::updateReadings()
{
    const QByteArray& b = m_model->bytes();
    const auto r = vtx::readBytesAt(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(b.constData()), size_t(b.size())), size_t(m_offset));
    QStringList lines;
    lines << tr("offset   %1 (0x%2)").arg(m_offset).arg(m_offset, 0, 16);
    auto line = [&](const char* name, const auto& v, auto fmt) {
        lines << QStringLiteral("%1 %2").arg(QLatin1String(name), -8).arg(v ? fmt(*v) : QStringLiteral("—"));
    };
    auto num = [](auto x) { return QString::number(x); };
    line("int8", r.i8, num);
    line("uint8", r.u8, num);
    line("int16", r.i16, num);
    line("uint16", r.u16, num);
    line("int32", r.i32, num);
    line("uint32", r.u32, num);
    line("int64", r.i64, num);
    line("uint64", r.u64, num);
    line("float32", r.f32, [](float x) { return QString::fromStdString(vtx::formatFloat(x)); });
    line("float64", r.f64, [](double x) { return QString::fromStdString(vtx::formatDouble(x)); });
    m_readings->setText(lines.join(QLatin1Char('\n')));
}

} // namespace vtxw
