// SPDX-License-Identifier: MIT
#include "info/TimeDataModel.hpp"

#include "timeline/TimeFormat.hpp"

#include "vtx/file/ReplayFile.hpp"

#include <QDateTime>
#include <QTimeZone>
#include <algorithm>

namespace vtxw {

namespace {
QString utcFull(const vtx::ReplayFile& f, int frame)
{
    const int64_t ms = utcMsOfFrame(f, frame);
    return ms < 0 ? QStringLiteral("—") : QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString("yyyy-MM-dd HH:mm:ss.zzz");
}
QString seconds(int64_t ticks)
{
    return QObject::tr("%1 s").arg(double(ticks) / 1e7, 0, 'f', 3);
}
} // namespace

TimeDataModel::TimeDataModel(Table table, QObject* parent) : QAbstractTableModel(parent), m_table(table) { }

std::vector<int> TimeDataModel::gapFramesOf(const vtx::ReplayFile& file)
{
    std::vector<int> out;
    const int n = file.frameCount();
    for (uint32_t g : file.footer().times.gaps)
        if (g >= 1 && int64_t(g) - 1 < n)
            out.push_back(int(g) - 1);
    return out;
}

std::vector<TimeDataModel::Segment> TimeDataModel::segmentsOf(const vtx::ReplayFile& file)
{
    const int n = file.frameCount();
    if (n <= 0)
        return {};
    std::vector<int> starts{0};
    for (uint32_t s : file.footer().times.segments)
        if (s >= 1 && int64_t(s) - 1 < n)
            starts.push_back(int(s) - 1);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    std::vector<Segment> out;
    for (size_t i = 0; i < starts.size(); ++i)
        out.push_back({starts[i], i + 1 < starts.size() ? starts[i + 1] - 1 : n - 1});
    return out;
}

void TimeDataModel::setFile(std::shared_ptr<const vtx::ReplayFile> file)
{
    beginResetModel();
    m_file = std::move(file);
    m_gaps = m_file ? gapFramesOf(*m_file) : std::vector<int>{};
    m_segments = m_file ? segmentsOf(*m_file) : std::vector<Segment>{};
    m_frames = m_file ? m_file->frameCount() : 0;
    endResetModel();
}

int TimeDataModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_file)
        return 0;
    switch (m_table) {
    case Table::Gaps: return int(m_gaps.size());
    case Table::Segments: return int(m_segments.size());
    case Table::Times: return m_frames;
    }
    return 0;
}

int TimeDataModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    // Gaps: frame, UTC before → after, wall-clock jump, game-time jump. Segments: frames, game
    // time from, to, length. Times: frame, game time, UTC.
    return m_table == Table::Times ? 3 : 4;
}

QVariant TimeDataModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (m_table) {
    case Table::Gaps: {
        static const char* names[] = {QT_TR_NOOP("Frame after"), QT_TR_NOOP("UTC after"), QT_TR_NOOP("Clock jump"), QT_TR_NOOP("Game-time jump")};
        return section < 4 ? tr(names[section]) : QVariant();
    }
    case Table::Segments: {
        static const char* names[] = {QT_TR_NOOP("Frames"), QT_TR_NOOP("Game time from"), QT_TR_NOOP("to"), QT_TR_NOOP("Length")};
        return section < 4 ? tr(names[section]) : QVariant();
    }
    case Table::Times: {
        static const char* names[] = {QT_TR_NOOP("Frame"), QT_TR_NOOP("Game time"), QT_TR_NOOP("UTC")};
        return section < 3 ? tr(names[section]) : QVariant();
    }
    }
    return {};
}

QVariant TimeDataModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_file || index.row() >= rowCount())
        return {};
    const vtx::ReplayFile& f = *m_file;
    const int row = index.row(), col = index.column();
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    switch (m_table) {
    case Table::Gaps: {
        const int frame = m_gaps[size_t(row)];
        if (role == FrameRole)
            return frame;
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        const int before = std::max(0, frame - 1);
        switch (col) {
        case 0: return frame;
        case 1: return utcFull(f, frame);
        case 2: {
            const int64_t a = utcMsOfFrame(f, before), b = utcMsOfFrame(f, frame);
            return a < 0 || b < 0 ? QStringLiteral("—") : tr("%1 s").arg(double(b - a) / 1000.0, 0, 'f', 3);
        }
        case 3: return seconds(f.gameTimeTicks(frame) - f.gameTimeTicks(before));
        }
        return {};
    }
    case Table::Segments: {
        const Segment& s = m_segments[size_t(row)];
        if (role == FrameRole)
            return s.first;
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        switch (col) {
        case 0: return tr("%1 – %2").arg(s.first).arg(s.last);
        case 1: return gameTimeText(f.gameTimeTicks(s.first));
        case 2: return gameTimeText(f.gameTimeTicks(s.last));
        case 3: return s.last == s.first ? tr("1 frame") : tr("%1 frames").arg(s.last - s.first + 1);
        }
        return {};
    }
    case Table::Times:
        if (role == FrameRole)
            return row;
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        switch (col) {
        case 0: return row;
        case 1: return gameTimeText(f.gameTimeTicks(row));
        case 2: return utcFull(f, row);
        }
        return {};
    }
    return {};
}

} // namespace vtxw
