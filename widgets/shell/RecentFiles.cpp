// SPDX-License-Identifier: MIT
#include "shell/RecentFiles.hpp"

#include <QFileInfo>
#include <QSettings>

namespace vtxw {

QStringList RecentFiles::paths() const
{
    QSettings settings;
    const QStringList saved = settings.value("files/recent").toStringList();
    QStringList kept;
    for (const QString& p : saved)
        if (QFileInfo::exists(p))
            kept << p;
    if (kept != saved)
        settings.setValue("files/recent", kept);
    return kept;
}

void RecentFiles::add(const QString& path)
{
    QSettings s;
    QStringList recent = paths();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMax)
        recent.removeLast();
    s.setValue("files/recent", recent);
    s.setValue("files/lastDir", QFileInfo(abs).absolutePath());
    emit changed();
}

QString RecentFiles::lastDirectory() const
{
    return QSettings().value("files/lastDir").toString();
}

} // namespace vtxw
