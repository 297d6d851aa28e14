// SPDX-License-Identifier: MIT
#pragma once
// Developer tools, out of the user's way: recording and saving the cache access trace (input to
// vtxscope-bench replay-trace) and the cache policy (for comparing policies, docs/CACHE.md).
// The menu shows only when Settings ▸ Advanced ▸ Developer tools is on or the viewer was
// started with --debug.

#include <QObject>

class QMenu;
class QMenuBar;
class QWidget;

namespace vtxw {

class ActionTable;
class ReplaySession;
class UserSettings;

class DebugMenu : public QObject {
    Q_OBJECT
public:
    DebugMenu(ReplaySession* session, UserSettings* settings, ActionTable& actions, QMenuBar* menuBar, QWidget* window);

    /// --debug: shown whatever the setting says, for this run only.
    void forceVisible(bool on);
    bool isVisible() const;

signals:
    /// The menu was shown or hidden (the setting, or --debug).
    void visibilityChanged(bool shown);

private:
    void updateVisibility();
    UserSettings* m_settings;
    QMenu* m_menu;
    bool m_forced = false;
};

} // namespace vtxw
