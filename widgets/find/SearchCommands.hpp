// SPDX-License-Identifier: MIT
#pragma once
// The Go menu's searches: the next / previous change of the selected property (F3 / Shift+F3),
// the next frame where an expression holds (typed in the query bar, which Ctrl+Shift+F opens;
// then F4 / Shift+F4 with the last expression), every frame where it holds (Ctrl+Shift+E opens
// the bar for it) and go to a frame or time (Ctrl+G).
// Owns the two search jobs. It reports through signals, so the window decides where messages,
// progress, matches and seeks go; it knows no panel.

#include "entities/EntityTreeModel.hpp"
#include "find/QueryBar.hpp"
#include "vtx/base/FrameSpan.hpp"

#include <QObject>
#include <QString>
#include <functional>
#include <utility>
#include <vector>

class QMenu;
class QWidget;

namespace vtxw {

class ActionTable;
class ChangeSeeker;
class MatchFinder;
class ReplaySession;
class ViewState;

class SearchCommands : public QObject {
    Q_OBJECT
public:
    /// The property F3 looks for: (entity, path), or an invalid entity / empty path for none.
    using SelectedProperty = std::function<std::pair<EntityKey, QString>()>;

    /// `window` parents the prompts; `selectedProperty` says which property F3 follows (the
    /// window's choice between the inspector and the diff).
    SearchCommands(ReplaySession* session, ViewState* viewState, SelectedProperty selectedProperty, QWidget* window);

    /// Adds the search commands to `go` through the action table.
    void addActions(ActionTable& actions, QMenu* go);

    void seekPropertyChange(bool forward);
    /// A search from the playhead for the next (or previous) frame where `condition` holds.
    void seekCondition(const QString& condition, bool forward);
    /// Every frame where `expression` holds; `matchesFound` carries them.
    void findAll(const QString& expression);
    /// The next frame where `condition` holds, remembered for F4 / Shift+F4.
    void findNextWhere(const QString& condition);
    /// Ctrl+G: asks for a frame number or a time in seconds.
    void goToDialog();
    /// Esc: stops whichever search runs.
    void cancel();
    bool isRunning() const;

    ChangeSeeker* changeSeeker() const { return m_seeker; }
    MatchFinder* matchFinder() const { return m_matchFinder; }

signals:
    void seekRequested(int frame);
    void matchesFound(const QString& expression, const std::vector<int>& frames, const std::vector<vtx::FrameSpan>& unsearched);
    void message(const QString& text, int timeoutMs);
    void progressStarted(const QString& what);
    void progressChanged(int percent);
    void progressFinished(const QString& message, int timeoutMs);
    /// A search started or ended (the window enables Esc from it).
    void runningChanged();
    /// A command needs an expression typed: the window opens the query bar in `mode`.
    void expressionWanted(vtxw::QueryBar::Mode mode);

private:
    void repeatConditionSeek(bool forward);
    bool requireOpenReplay();

    ReplaySession* m_session;
    ViewState* m_viewState;
    SelectedProperty m_selectedProperty;
    QWidget* m_window;
    ChangeSeeker* m_seeker;
    MatchFinder* m_matchFinder;
};

} // namespace vtxw
