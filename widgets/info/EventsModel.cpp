// SPDX-License-Identifier: MIT
#include "info/EventsModel.hpp"

#include "session/ReplaySession.hpp"

#include <QPalette>

#include <algorithm>

namespace vtxw {

EventsModel::EventsModel(ReplaySession* session, QObject* parent) : QAbstractTableModel(parent), m_session(session)
{
    connect(session, &ReplaySession::opened, this, &EventsModel::reload);
    connect(session, &ReplaySession::closed, this, &EventsModel::reload);
    reload();
}

void EventsModel::reload()
{
    beginResetModel();
    m_rows.clear();
    if (const auto& f = m_session->file())
        for (const auto& e : f->footer().events) {
            const ReplaySession::EventPlace place = m_session->placeEvent(double(e.gameTimeSeconds));
            m_rows.push_back({double(e.gameTimeSeconds), QString::fromStdString(e.type), QString::fromStdString(e.label),
                              QString::fromStdString(e.entityUniqueId), place.frame, m_session->offClockNote(place)});
        }
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) { return a.frame < b.frame; });
    endResetModel();
}

int EventsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int EventsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row& r = m_rows[size_t(index.row())];
    if (role == FrameRole)
        return r.frame;
    if (role == Qt::TextAlignmentRole && (index.column() == TimeColumn || index.column() == FrameColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == OffClockRole)
        return r.offClock;
    // An event no frame reaches says so where its frame is given, and is shown greyed.
    if (role == Qt::ForegroundRole && !r.offClock.isEmpty())
        return QPalette().color(QPalette::PlaceholderText);
    if (role == Qt::ToolTipRole && !r.offClock.isEmpty())
        return tr("No frame reaches %1 s (%2): shown at frame %3, the nearest").arg(QString::number(r.seconds, 'f', 3), r.offClock).arg(r.frame);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn: return QString::number(r.seconds, 'f', 3);
    case TypeColumn: return r.type;
    case LabelColumn: return r.label;
    case EntityColumn: return r.entity;
    case FrameColumn: return r.offClock.isEmpty() ? QVariant(r.frame) : QVariant(tr("%1 · %2").arg(r.frame).arg(r.offClock));
    }
    return {};
}

QVariant EventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {QT_TR_NOOP("Time (s)"), QT_TR_NOOP("Type"), QT_TR_NOOP("Label"), QT_TR_NOOP("Entity"), QT_TR_NOOP("Frame")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

int EventsModel::nextEventFrame(int frame) const
{
    for (const Row& r : m_rows)
        if (r.frame > frame)
            return r.frame;
    return -1;
}

int EventsModel::previousEventFrame(int frame) const
{
    for (auto it = m_rows.rbegin(); it != m_rows.rend(); ++it)
        if (it->frame < frame)
            return it->frame;
    return -1;
}

} // namespace vtxw
