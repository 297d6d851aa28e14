// SPDX-License-Identifier: MIT
#pragma once
// The Bookmarks menu: add (Ctrl+B), next / previous (' and Shift+'), remove at the playhead, and
// one entry per bookmark of the open replay. Loads the replay's bookmarks when it opens and
// drops them when it closes; reports seeks and messages through signals.

#include <QObject>
#include <QString>

class QMenu;
class QMenuBar;
class QWidget;

namespace vtxw {

class ActionTable;
class Bookmarks;
class ReplaySession;
class ViewState;

class BookmarkMenu : public QObject {
    Q_OBJECT
public:
    /// Adds the menu to `menuBar`; `window` parents the name prompt.
    BookmarkMenu(ReplaySession* session, ViewState* viewState, ActionTable& actions, QMenuBar* menuBar, QWidget* window);

    Bookmarks* bookmarks() const { return m_bookmarks; }

signals:
    void seekRequested(int frame);
    void message(const QString& text, int timeoutMs);

private:
    void addBookmarkDialog();
    void rebuildList();

    ReplaySession* m_session;
    ViewState* m_viewState;
    QWidget* m_window;
    Bookmarks* m_bookmarks;
    QMenu* m_menu;
};

} // namespace vtxw
