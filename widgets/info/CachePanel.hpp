// SPDX-License-Identifier: MIT
#pragma once
// The Cache dock: the policy in use (Debug ▸ Cache policy switches it), its mode and window, residency against the
// budget, hit rate and decode figures, refreshed every 250 ms; plus the one-line summary the
// status bar shows.

#include <QWidget>

class QLabel;
class QTimer;

namespace vtxw {

class ReplaySession;

class CachePanel : public QWidget {
    Q_OBJECT
public:
    explicit CachePanel(ReplaySession* session, QWidget* parent = nullptr);
    /// Re-reads the cache's statistics (the timer calls this).
    void refresh();

signals:
    /// The status bar's summary ("cache: playback, 6 chunks, 212/512 MB, hit 98%"), empty when no replay is open.
    void summaryChanged(const QString& text);

private:
    ReplaySession* m_session;
    QLabel* m_label;
    QTimer* m_timer;
};

} // namespace vtxw
