// SPDX-License-Identifier: MIT
#pragma once
// Named frames of one replay (Bookmarks ▸ Add, Ctrl+B), kept in QSettings per file (by its
// absolute path) so they come back when the file is opened again. At most one per frame.

#include <QList>
#include <QObject>
#include <QString>

namespace vtxw {

struct Bookmark {
    int frame = 0;
    QString name;
    bool operator==(const Bookmark&) const = default;
};

class Bookmarks : public QObject {
    Q_OBJECT
public:
    explicit Bookmarks(QObject* parent = nullptr);

    /// Shows the bookmarks saved for `replayPath` (empty path: none, nothing saved).
    void load(const QString& replayPath);
    /// Adds (or renames) the bookmark at `frame` and saves.
    void add(int frame, const QString& name);
    /// Removes the bookmark at `frame`, if any, and saves.
    void remove(int frame);
    /// Sorted by frame.
    const QList<Bookmark>& list() const { return m_list; }
    const Bookmark* at(int frame) const;
    /// The first bookmark after / before `frame`, wrapping around the ends; -1 when none.
    int next(int frame) const;
    int previous(int frame) const;
    /// The QSettings key holding `replayPath`'s bookmarks.
    static QString settingsKey(const QString& replayPath);

signals:
    void changed();

private:
    void save() const;
    QString m_path;
    QList<Bookmark> m_list;
};

} // namespace vtxw
