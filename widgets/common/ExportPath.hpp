// SPDX-License-Identifier: MIT
#pragma once
// Where an export (CSV, PNG) is offered: the folder the user last exported to, else the open
// replay's folder — never the process's working directory, which for a desktop launch is
// wherever the launcher happened to start (issue 26 8h). The chosen folder is remembered in
// QSettings (export/lastDirectory).

#include <QString>

class QWidget;

namespace vtxw {

/// The path offered for `fileName` (e.g. "plot.csv") when `replayPath` is open (may be empty).
QString suggestedExportPath(const QString& replayPath, const QString& fileName);

/// Asks where to save (through Prompts), offering suggestedExportPath(); remembers the folder
/// of the answer. Empty when cancelled.
QString askExportPath(QWidget* parent, const QString& title, const QString& replayPath, const QString& fileName, const QString& filter);

} // namespace vtxw
