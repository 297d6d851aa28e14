// SPDX-License-Identifier: MIT
#pragma once
// What the centre shows before a replay is open: how to open one, the five things a first-time
// user needs (each with its key), and the recent files as buttons.

#include <QScrollArea>
#include <QStringList>

class QWidget;

namespace vtxw {

class WelcomePage : public QScrollArea {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    /// Replaces the recent-file buttons (full paths, most recent first).
    void setRecentFiles(const QStringList& paths);

signals:
    void openRequested(const QString& path);

private:
    QWidget* m_recentHost;
};

} // namespace vtxw
