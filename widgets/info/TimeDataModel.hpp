// SPDX-License-Identifier: MIT
#pragma once
// The Time data dock's tables (the SDK inspector's Time Data tabs): the footer's gaps (where the
// wall clock jumped), its segments (runs between game-clock direction changes and manual
// marks) and every frame's game time and UTC. Rows are computed on demand from the footer's
// arrays, so the per-frame table costs nothing for a long replay. FrameRole gives the frame to
// seek to when a row is clicked.

#include "shell/UserSettings.hpp"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace vtx {
class ReplayFile;
}

namespace vtxw {

class TimeDataModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Table { Gaps, Segments, Times };
    enum Role { FrameRole = Qt::UserRole + 1 };

    explicit TimeDataModel(Table table, QObject* parent = nullptr);
    /// Shows `file`'s time data (nullptr: empty). Call again when a followed file is read again.
    void setFile(std::shared_ptr<const vtx::ReplayFile> file);
    Table table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Segment {
        int first, last; ///< frames, inclusive
    };
    /// Segments of `file`: from frame 0 to the first marker, between markers, to the last frame.
    static std::vector<Segment> segmentsOf(const vtx::ReplayFile& file);
    /// Frames that follow a gap (the stored k + 1 markers, as 0-based frames), in file order.
    static std::vector<int> gapFramesOf(const vtx::ReplayFile& file);

private:
    Table m_table;
    std::shared_ptr<const vtx::ReplayFile> m_file;
    std::vector<int> m_gaps;
    std::vector<Segment> m_segments;
    int m_frames = 0;
};

} // namespace vtxw
