// SPDX-License-Identifier: MIT
#pragma once
// The File dock: header fields, sizes, schema, seek table and the problems found on open.

#include "vtx/file/ReplayFile.hpp"

#include <QTreeWidget>

namespace vtxw {

class FileInfoPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit FileInfoPanel(QWidget* parent = nullptr);
    /// Shows `file` (opened from `path`); the problems branch starts expanded.
    void showFile(const vtx::ReplayFile& file, const QString& path);
};

} // namespace vtxw
