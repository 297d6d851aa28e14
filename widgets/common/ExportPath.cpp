// SPDX-License-Identifier: MIT
#include "common/ExportPath.hpp"

#include "common/Prompts.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace vtxw {

namespace {
const char* const LastDirectoryKey = "export/lastDirectory";
}

QString suggestedExportPath(const QString& replayPath, const QString& fileName)
{
    QString dir = QSettings().value(LastDirectoryKey).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = replayPath.isEmpty() ? QString() : QFileInfo(replayPath).absolutePath();
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QDir(dir).filePath(fileName);
}

QString askExportPath(QWidget* parent, const QString& title, const QString& replayPath, const QString& fileName, const QString& filter)
{
    QString path = prompts().saveFilePath(parent, title, suggestedExportPath(replayPath, fileName), filter);
    if (!path.isEmpty())
        QSettings().setValue(LastDirectoryKey, QFileInfo(path).absolutePath());
    return path;
}

} // namespace vtxw
