// SPDX-License-Identifier: MIT
#include "shell/Bookmarks.hpp"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>

namespace vtxw {

Bookmarks::Bookmarks(QObject* parent) : QObject(parent) { }

QString Bookmarks::settingsKey(const QString& replayPath)
{
    // A hash of the absolute path: QSettings keys cannot hold '/' without making groups.
    const QString abs = QFileInfo(replayPath).absoluteFilePath();
    return QStringLiteral("bookmarks/") + QString::fromLatin1(QCryptographicHash::hash(abs.toUtf8(), QCryptographicHash::Sha1).toHex());
}

void Bookmarks::load(const QString& replayPath)
{
    m_path = replayPath;
    m_list.clear();
    if (!replayPath.isEmpty()) {
        // Stored as "frame<TAB>name" strings, plain to read in the settings file.
        for (const QString& entry : QSettings().value(settingsKey(replayPath)).toStringList()) {
            const qsizetype tab = entry.indexOf('\t');
            bool ok = false;
            const int frame = entry.left(tab).toInt(&ok);
            if (ok && frame >= 0)
                m_list.append({frame, tab < 0 ? QString() : entry.mid(tab + 1)});
        }
        std::sort(m_list.begin(), m_list.end(), [](const Bookmark& a, const Bookmark& b) { return a.frame < b.frame; });
    }
    emit changed();
}

void Bookmarks::save() const
{
    if (m_path.isEmpty())
        return;
    QStringList entries;
    for (const Bookmark& b : m_list)
        entries << QStringLiteral("%1\t%2").arg(b.frame).arg(b.name);
    QSettings s;
    if (entries.isEmpty())
        s.remove(settingsKey(m_path));
    else
        s.setValue(settingsKey(m_path), entries);
}

void Bookmarks::add(int frame, const QString& name)
{
    auto it = std::lower_bound(m_list.begin(), m_list.end(), frame, [](const Bookmark& b, int f) { return b.frame < f; });
    if (it != m_list.end() && it->frame == frame)
        it->name = name;
    else
        m_list.insert(it, {frame, name});
    save();
    emit changed();
}

void Bookmarks::remove(int frame)
{
    const auto n = m_list.removeIf([frame](const Bookmark& b) { return b.frame == frame; });
    if (n == 0)
        return;
    save();
    emit changed();
}

const Bookmark* Bookmarks::at(int frame) const
{
    for (const Bookmark& b : m_list)
        if (b.frame == frame)
            return &b;
    return nullptr;
}

int Bookmarks::next(int frame) const
{
    if (m_list.isEmpty())
        return -1;
    for (const Bookmark& b : m_list)
        if (b.frame > frame)
            return b.frame;
    return m_list.front().frame;
}

int Bookmarks::previous(int frame) const
{
    if (m_list.isEmpty())
        return -1;
    for (auto it = m_list.rbegin(); it != m_list.rend(); ++it)
        if (it->frame < frame)
            return it->frame;
    return m_list.back().frame;
}

} // namespace vtxw
