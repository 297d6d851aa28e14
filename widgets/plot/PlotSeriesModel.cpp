// SPDX-License-Identifier: MIT
#include "plot/PlotSeriesModel.hpp"

#include "plot/PlotRenderer.hpp"

#include <QGuiApplication>

#include <array>

namespace vtxw {

namespace {
// Okabe–Ito first (colour-blind safe, readable on light and dark), then a few more distinct ones.
constexpr std::array<QRgb, 10> kColours{0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x8C564B, 0x7F7F7F, 0xBCBD22, 0x9467BD};
} // namespace

quint64 PlotSeriesModel::add(const QString& name, SamplerFactory factory)
{
    PlotSeriesEntry e;
    e.id = m_nextId++;
    e.name = name;
    e.shownName = name;
    e.colour = QColor(kColours[size_t(m_colourIndex++) % kColours.size()]);
    e.factory = std::move(factory);
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.push_back(std::move(e));
    endInsertRows();
    return m_entries.back().id;
}

quint64 PlotSeriesModel::addProperty(int bucket, const QString& uniqueId, const QString& path, SamplerFactory factory, const QString& vectorPath)
{
    for (const PlotSeriesEntry& e : m_entries)
        if (e.bucket == bucket && e.uniqueId == uniqueId && e.path == path)
            return e.id;
    const quint64 id = add(QStringLiteral("%1.%2").arg(uniqueId, path), std::move(factory));
    PlotSeriesEntry& e = m_entries.back();
    e.bucket = bucket;
    e.uniqueId = uniqueId;
    e.path = path;
    e.vectorPath = vectorPath;
    return id;
}

void PlotSeriesModel::setEntityLabels(const std::function<QString(int bucket, const QString& uniqueId)>& labelOf)
{
    for (size_t i = 0; i < m_entries.size(); ++i) {
        PlotSeriesEntry& e = m_entries[i];
        if (e.bucket < 0)
            continue;
        const QString label = labelOf(e.bucket, e.uniqueId);
        const QString shown = label.isEmpty() ? e.name : label + QStringLiteral(" · ") + e.path;
        if (shown != e.shownName) {
            e.shownName = shown;
            emit dataChanged(index(int(i)), index(int(i)), {Qt::DisplayRole, Qt::ToolTipRole});
        }
    }
}

int PlotSeriesModel::rowOf(quint64 id) const
{
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].id == id)
            return int(i);
    return -1;
}

void PlotSeriesModel::remove(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_entries.erase(m_entries.begin() + row);
    endRemoveRows();
}

void PlotSeriesModel::clear()
{
    if (m_entries.empty())
        return;
    beginResetModel();
    m_entries.clear();
    m_colourIndex = 0;
    endResetModel();
}

void PlotSeriesModel::setSeriesData(quint64 id, std::shared_ptr<const vtx::SeriesData> data, const QString& error,
                                    std::shared_ptr<const vtx::SeriesSummary> summary)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    m_entries[size_t(row)].data = std::move(data);
    m_entries[size_t(row)].error = error;
    m_entries[size_t(row)].summary = std::move(summary);
    emit dataChanged(index(row), index(row));
}

void PlotSeriesModel::setVisible(int row, bool visible)
{
    if (row < 0 || row >= rowCount() || m_entries[size_t(row)].visible == visible)
        return;
    m_entries[size_t(row)].visible = visible;
    emit dataChanged(index(row), index(row), {Qt::CheckStateRole});
}

bool PlotSeriesModel::hasPending() const
{
    for (const PlotSeriesEntry& e : m_entries)
        if (!e.data && e.error.isEmpty())
            return true;
    return false;
}

int PlotSeriesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant PlotSeriesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlotSeriesEntry& e = m_entries[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        if (!e.error.isEmpty())
            return tr("%1 (error)").arg(e.shownName);
        return e.data ? e.shownName : tr("%1 (computing…)").arg(e.shownName);
    case Qt::ToolTipRole:
        if (!e.error.isEmpty())
            return e.error;
        if (!e.data)
            return tr("%1: being computed").arg(e.name);
        return e.data->damagedFrames.empty()
            ? tr("%1: %n point(s)", nullptr, int(e.data->frames.size())).arg(e.name)
            : tr("%1: %2 points, %3 not as recorded (marked)").arg(e.name).arg(e.data->frames.size()).arg(e.data->damagedFrames.size());
    case Qt::DecorationRole:
        // The swatch in the series list shows the colour the curve is drawn in on this base.
        return seriesColourOn(e.colour, QGuiApplication::palette().color(QPalette::Base));
    case Qt::CheckStateRole: return e.visible ? Qt::Checked : Qt::Unchecked;
    case IdRole: return e.id;
    case PointCountRole: return e.data ? qlonglong(e.data->frames.size()) : qlonglong(0);
    case ComputingRole: return !e.data && e.error.isEmpty();
    case DamagedCountRole: return e.data ? qlonglong(e.data->damagedFrames.size()) : qlonglong(0);
    default: return {};
    }
}

bool PlotSeriesModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    setVisible(index.row(), value.value<Qt::CheckState>() == Qt::Checked);
    return true;
}

Qt::ItemFlags PlotSeriesModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemNeverHasChildren;
}

} // namespace vtxw
