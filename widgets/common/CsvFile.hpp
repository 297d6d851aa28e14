// SPDX-License-Identifier: MIT
#pragma once
// Saving a table as a CSV file, as every panel with a CSV… button does (the analysis table, the
// plot's series): the core writes the CSV (vtx::writeCsv), this writes the file and says why
// when it cannot.

#include "vtx/analysis/Analyses.hpp"

#include <QString>

namespace vtxw {

/// Writes `table` to `path` as CSV (replacing the file). False with `*error` set when the file
/// cannot be written.
bool saveCsvFile(const vtx::AnalysisTable& table, const QString& path, QString* error);

} // namespace vtxw
