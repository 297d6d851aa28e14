// SPDX-License-Identifier: MIT
#pragma once
// The recently opened replays, newest first, kept in QSettings ("files/recent"). Files that
// were deleted or moved since are dropped when the list is read.

#include <QObject>
#include <QStringList>

namespace vtxw {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 10;
    explicit RecentFiles(QObject* parent = nullptr) : QObject(parent) { }

    /// The list as saved, minus files that no longer exist (which are removed from the settings).
    QStringList paths() const;
    /// Puts `path` (made absolute) first; remembers its folder for the Open dialog.
    void add(const QString& path);
    QString lastDirectory() const;

signals:
    void changed();
};

} // namespace vtxw
