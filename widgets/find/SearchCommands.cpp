// SPDX-License-Identifier: MIT
#include "find/SearchCommands.hpp"

#include "common/Prompts.hpp"
#include "find/ChangeSeeker.hpp"
#include "find/GoToTarget.hpp"
#include "find/MatchFinder.hpp"
#include "find/QueryBar.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/ActionTable.hpp"

#include <QSettings>
#include <algorithm>

namespace vtxw {

namespace {
const char* const LastConditionKey = "search/lastCondition";
}

SearchCommands::SearchCommands(ReplaySession* session, ViewState* viewState, SelectedProperty selectedProperty, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_viewState(viewState)
    , m_selectedProperty(std::move(selectedProperty))
    , m_window(window)
    , m_seeker(new ChangeSeeker(session, this))
    , m_matchFinder(new MatchFinder(session, this))
{
    connect(m_seeker, &ChangeSeeker::started, this, &SearchCommands::progressStarted);
    connect(m_seeker, &ChangeSeeker::progress, this, &SearchCommands::progressChanged);
    connect(m_seeker, &ChangeSeeker::finished, this, [this](int frame, const QString& text) {
        emit progressFinished(text, 5000);
        if (frame >= 0)
            emit seekRequested(frame);
    });
    connect(m_matchFinder, &MatchFinder::started, this, &SearchCommands::progressStarted);
    connect(m_matchFinder, &MatchFinder::progress, this, &SearchCommands::progressChanged);
    connect(m_matchFinder, &MatchFinder::found, this,
            [this](const QString& expression, const std::vector<int>& frames, const std::vector<vtx::FrameSpan>& unsearched, const QString& text) {
                emit matchesFound(expression, frames, unsearched);
                emit progressFinished(text, 8000);
            });
    connect(m_matchFinder, &MatchFinder::failed, this, [this](const QString& text) { emit progressFinished(text, 8000); });
    connect(m_seeker, &ChangeSeeker::started, this, &SearchCommands::runningChanged);
    connect(m_seeker, &ChangeSeeker::finished, this, &SearchCommands::runningChanged);
    connect(m_matchFinder, &MatchFinder::started, this, &SearchCommands::runningChanged);
    connect(m_matchFinder, &MatchFinder::found, this, &SearchCommands::runningChanged);
    connect(m_matchFinder, &MatchFinder::failed, this, &SearchCommands::runningChanged);
}

void SearchCommands::addActions(ActionTable& actions, QMenu* go)
{
    using When = ActionTable::When;
    actions.add(
        go, "goTo", tr("Go to frame or time…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { goToDialog(); }, When::ReplayOpen);
    actions.add(go, "nextChange", tr("Next change of the selected property"), QKeySequence(Qt::Key_F3), [this] { seekPropertyChange(true); });
    actions.add(go, "prevChange", tr("Previous change of the selected property"), QKeySequence(Qt::SHIFT | Qt::Key_F3),
                [this] { seekPropertyChange(false); });
    // The expressions are typed in the query bar (issue 26 item 6): these commands open it.
    actions.add(
        go, "findCondition", tr("Find frame where…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
        [this] { emit expressionWanted(QueryBar::Mode::FindNext); }, When::ReplayOpen);
    actions.add(go, "findNextWhere", tr("Find next frame where (last expression)"), QKeySequence(Qt::Key_F4), [this] { repeatConditionSeek(true); });
    actions.add(go, "findPrevWhere", tr("Find previous frame where (last expression)"), QKeySequence(Qt::SHIFT | Qt::Key_F4),
                [this] { repeatConditionSeek(false); });
    actions.add(
        go, "findAll", tr("Find all frames where…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
        [this] { emit expressionWanted(QueryBar::Mode::FindAll); }, When::ReplayOpen);
}

bool SearchCommands::requireOpenReplay()
{
    if (m_session->isOpen())
        return true;
    emit message(tr("Open a replay first"), 5000);
    return false;
}

void SearchCommands::seekPropertyChange(bool forward)
{
    const auto [entity, path] = m_selectedProperty();
    if (!entity.isValid() || path.isEmpty()) {
        emit message(tr("Select a property in the inspector or the diff first"), 5000);
        return;
    }
    m_seeker->seekChange(entity, path, forward);
}

void SearchCommands::seekCondition(const QString& condition, bool forward)
{
    if (requireOpenReplay())
        m_seeker->seekCondition(condition, forward);
}

void SearchCommands::findAll(const QString& expression)
{
    if (requireOpenReplay())
        m_matchFinder->findAll(expression);
}

void SearchCommands::cancel()
{
    m_seeker->cancel();
    m_matchFinder->cancel();
}

bool SearchCommands::isRunning() const
{
    return m_seeker->isRunning() || m_matchFinder->isRunning();
}

void SearchCommands::findNextWhere(const QString& condition)
{
    // F4 / Shift+F4 repeat it.
    QSettings().setValue(LastConditionKey, condition);
    seekCondition(condition, true);
}

void SearchCommands::repeatConditionSeek(bool forward)
{
    const QString last = QSettings().value(LastConditionKey).toString();
    if (last.isEmpty())
        emit expressionWanted(QueryBar::Mode::FindNext);
    else
        seekCondition(last, forward);
}

void SearchCommands::goToDialog()
{
    if (!m_session->isOpen())
        return;
    QString text = QString::number(m_viewState->requestedFrame());
    if (!prompts().askText(m_window, tr("Go to"), tr("Frame number, or time in seconds (e.g. 12.5s):"), text))
        return;
    const auto target = GoToTarget::parse(text);
    if (!target) {
        emit message(tr("Not a frame or time: %1").arg(text), 5000);
        return;
    }
    // An earlier "Not a frame or time" must not outlive a go-to that worked; one that landed
    // elsewhere than asked says where (Ctrl+G 9999 on a 400-frame file went to 399 in silence).
    const int last = m_session->frameCount() - 1;
    if (last < 0) { // "went to the last frame, -1" (review 5 #10): there is none to go to
        emit message(tr("This replay has no frames to go to"), 8000);
        return;
    }
    if (target->kind == GoToTarget::Kind::Seconds) {
        const int64_t ticks = int64_t(target->seconds * 1e7);
        const int frame = m_session->frameAtGameTime(ticks);
        if (m_session->spansGameTime(ticks))
            emit message({}, 0);
        else
            emit message(tr("No frame at %1 s of game time: went to frame %2, the nearest").arg(target->seconds).arg(frame), 8000);
        emit seekRequested(frame);
        return;
    }
    if (target->frame > last)
        emit message(tr("Frame %1 is past the end: went to the last frame, %2").arg(target->frame).arg(last), 8000);
    else
        emit message({}, 0);
    emit seekRequested(std::min(target->frame, last));
}

} // namespace vtxw
