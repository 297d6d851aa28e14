// SPDX-License-Identifier: MIT
#pragma once
// An analysis result (vtx::AnalysisTable) as a table model: display text for reading, the typed
// value under SortRole so a proxy sorts numbers as numbers — also numbers held as text (Unique
// values and Property spans hold formatted values): a text column whose every value is a number
// (or absent, "—") sorts by value, absent first.

#include "vtx/analysis/Analyses.hpp"

#include <QAbstractTableModel>

namespace vtxw {

class AnalysisModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles { SortRole = Qt::UserRole + 1 };
    using QAbstractTableModel::QAbstractTableModel;
    /// `bucketNames`: the file's bucket names, shown in a "bucket" column for its indexes
    /// ("entity", not "0"; the index stays in the tooltip, CSV and sorting).
    void setTable(vtx::AnalysisTable table, std::vector<std::string> bucketNames = {});
    const vtx::AnalysisTable& table() const { return m_table; }
    /// The column named `name`, or -1.
    int columnNamed(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    vtx::AnalysisTable m_table;
    std::vector<bool> m_numericText; ///< per column: its text cells are all numbers or absent
    std::vector<std::string> m_bucketNames;
    int m_bucketColumn = -1; ///< the "bucket" column, or -1
};

} // namespace vtxw
