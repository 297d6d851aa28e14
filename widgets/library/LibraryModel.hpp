// SPDX-License-Identifier: MIT
#pragma once
// The replays of a folder as a table: one row per file (vtx::ReplaySummary, read from headers
// and footers by LibraryPanel's jobs and appended as each file is read), and once a baseline
// check ran, each run's first divergence from the baseline (vtx::RunVerdict) in columns of
// their own. Display text for reading; the typed value under SortRole, so a proxy sorts frames,
// sizes and durations as numbers and the recording time as a date (unknown values are an
// invalid QVariant, which QSortFilterProxyModel puts last); FilterTextRole is what a filter
// matches: the file's name, its replay name, its entity types and its backend.

#include "vtx/library/BaselineCheck.hpp"
#include "vtx/library/ReplaySummary.hpp"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QString>
#include <optional>
#include <vector>

namespace vtxw {

class LibraryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Frames,
        Duration,
        Size,
        Backend,
        Recorded,
        EntityTypes,
        Integrity,
        FirstColumnOfCheck,
        Divergence = FirstColumnOfCheck, ///< "matches", "frame N", the error, "checking…"
        Entity,
        Property,
        BaselineValue,
        RunValue,
        ColumnCount
    };
    enum Roles {
        SortRole = Qt::UserRole + 1,
        PathRole, ///< QString: the file's absolute path (every column)
        FilterTextRole, ///< QString: name, replay name, entity types and backend, one per line
        VerdictRole, ///< int: vtx::SummaryVerdict
        DivergenceFrameRole, ///< qint64: the baseline's frame of the first divergence; invalid unless the run diverges
    };
    /// Where a row stands in the baseline check.
    enum class CheckState { None, Baseline, Pending, Done, Cancelled };

    using QAbstractTableModel::QAbstractTableModel;

    /// Empties the table; names are shown relative to `folder`.
    void reset(const QString& folder);
    const QString& folder() const { return m_folder; }
    /// Appends a row per summary (a file already listed is updated in place instead).
    void addSummaries(std::vector<vtx::ReplaySummary> summaries);
    int rowOfPath(const QString& path) const;
    QString pathAt(int row) const;
    const vtx::ReplaySummary& summaryAt(int row) const { return m_rows[size_t(row)].summary; }

    /// A check of `runs` against `baseline` starts: earlier results are cleared, the runs read
    /// "checking…" and the baseline's row says it is the baseline.
    void beginCheck(const QString& baseline, const QStringList& runs);
    void setCheckResult(const QString& run, vtx::RunVerdict verdict);
    /// The runs still pending read "cancelled".
    void cancelPendingChecks();
    const QString& baseline() const { return m_baseline; }
    bool hasCheck() const { return !m_baseline.isEmpty(); }
    CheckState checkStateAt(int row) const { return m_rows[size_t(row)].check; }
    /// The verdict of a finished check of the run in `row`.
    const std::optional<vtx::RunVerdict>& verdictAt(int row) const { return m_rows[size_t(row)].verdict; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// Text of the divergence columns (shared with the panel's status line).
    static QString entityText(const vtx::RunVerdict& v);
    /// What happened to the first divergent entity as a whole ("entity missing from the run"),
    /// shown in the Property column; empty when a property of it differs.
    static QString entityChangeText(const vtx::RunVerdict& v);

private:
    struct Row {
        vtx::ReplaySummary summary;
        QString path;
        QString name; ///< relative to the folder
        QString types; ///< joined
        CheckState check = CheckState::None;
        std::optional<vtx::RunVerdict> verdict;
    };
    QVariant display(const Row& r, int column) const;
    QVariant sortValue(const Row& r, int column) const;
    QVariant toolTip(const Row& r, int column) const;
    QVariant checkDisplay(const Row& r, int column) const;
    void emitCheckColumnsChanged(int row);

    QString m_folder;
    QString m_baseline;
    std::vector<Row> m_rows;
    QHash<QString, int> m_rowByPath;
};

/// The library's proxy: sorts by LibraryModel::SortRole, text naturally ("run_9" before
/// "run_10", as a QA farm numbers its runs), and filters on FilterTextRole, ignoring case.
class LibraryProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LibraryProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

/// `a` before `b` with runs of digits compared as numbers and letters ignoring case. Ours, not
/// QCollator's numeric mode, which the POSIX collation backend (a C locale) does not have.
bool naturalLess(QStringView a, QStringView b);

} // namespace vtxw
