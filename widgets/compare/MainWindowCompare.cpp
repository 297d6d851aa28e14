// SPDX-License-Identifier: MIT
// The window's part of comparing two replays (issue 19): File ▸ Compare with… / Close
// comparison, Go ▸ Next / Previous divergence, the compare bar and divergence lane above the
// timeline, and the wiring of the CompareSession to the diff panel and the map. Kept apart from
// MainWindow.cpp so the comparison is one piece.

#include "common/Prompts.hpp"
#include "compare/CompareBar.hpp"
#include "compare/CompareSession.hpp"
#include "compare/DivergenceLane.hpp"
#include "diff/DiffPanel.hpp"
#include "map/MapView.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/ActionTable.hpp"
#include "shell/MainWindow.hpp"
#include "shell/StatusPresenter.hpp"
#include "timeline/TimelineScrubber.hpp"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

namespace vtxw {

namespace {
/// The menu bar's menu holding the action named `name`.
QMenu* menuWith(QMenuBar* bar, QAction* action)
{
    for (QAction* a : bar->actions())
        if (a->menu() && a->menu()->actions().contains(action))
            return a->menu();
    return nullptr;
}
} // namespace

void MainWindow::buildComparison()
{
    m_compare = new CompareSession(m_viewState, this);
    m_compareBar = new CompareBar(m_compare, this);
    m_divergenceLane = new DivergenceLane(m_compare, m_session, m_timeline, this);
    // The lane among the timeline's own, after matches and before gaps (UX.md), on its axis;
    // the compare bar in the transport row, whose free space it takes, so comparing adds only
    // the lane's height to the window's minimum.
    m_timeline->hostComparisonLane(m_divergenceLane);
    if (auto* tl = qobject_cast<QVBoxLayout*>(m_timeline->parentWidget()->layout())) {
        auto* transport = tl->count() > 0 ? qobject_cast<QHBoxLayout*>(tl->itemAt(0)->layout()) : nullptr;
        if (transport)
            transport->insertWidget(transport->count() - 1, m_compareBar, 10); // before the row's stretch
        else
            tl->insertWidget(0, m_compareBar);
    }
    m_diff->setCompareSession(m_compare);

    using When = ActionTable::When;
    auto add = [this](QMenu* menu, QAction* before, const QString& id, const QString& text, const QKeySequence& key, auto handler, When when) {
        return m_actions->add(menu, id, text, key, handler, when, before);
    };
    QAction* follow = findChild<QAction*>("follow");
    QMenu* file = menuWith(menuBar(), follow);
    QAction* afterFollow = nullptr;
    if (file) {
        const auto actions = file->actions();
        const qsizetype i = actions.indexOf(follow);
        afterFollow = i >= 0 && i + 1 < actions.size() ? actions[i + 1] : nullptr;
    }
    QAction* compareWith = add(
        file, afterFollow, "compareWith", tr("Compare &with…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
        [this] {
            QSettings settings;
            const QString dir = settings.value("compare/lastDirectory", QFileInfo(m_session->path()).absolutePath()).toString();
            const QString p = prompts().openFilePath(this, tr("Compare with replay"), dir, tr("VTX replays (*.vtx);;All files (*)"));
            if (!p.isEmpty())
                openComparison(p);
        },
        When::ReplayOpen);
    compareWith->setToolTip(tr("Open a second replay of the same scenario and show where the two runs diverge"));
    add(
        file, afterFollow, "closeComparison", tr("Close compa&rison"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), [this] { m_compare->close(); },
        When::Comparing);
    QMenu* go = menuWith(menuBar(), findChild<QAction*>("goTo"));
    if (go)
        go->addSeparator();
    add(
        go, nullptr, "nextDivergence", tr("Next divergence"), QKeySequence(Qt::CTRL | Qt::Key_BracketRight), [this] { seekDivergence(true); },
        When::Comparing);
    add(
        go, nullptr, "prevDivergence", tr("Previous divergence"), QKeySequence(Qt::CTRL | Qt::Key_BracketLeft), [this] { seekDivergence(false); },
        When::Comparing);
    auto updateActions = [this] { updateFileActions(); };
    updateActions();

    connect(m_session, &ReplaySession::opened, this, [this, updateActions] {
        m_compare->setFileA(m_session->file());
        updateActions();
    });
    connect(m_session, &ReplaySession::closed, this, [this, updateActions] {
        m_compare->setFileA(nullptr);
        updateActions();
    });
    connect(m_compare, &CompareSession::opening, this, [this](const QString& p) { m_status->showMessage(tr("Opening %1 to compare…").arg(p)); });
    connect(m_compare, &CompareSession::opened, this, [this, updateActions] {
        updateActions();
        QSettings().setValue("compare/lastDirectory", QFileInfo(m_compare->path()).absolutePath());
        setWindowTitle(tr("%1 ↔ %2 — vtxscope").arg(QFileInfo(m_session->path()).fileName(), QFileInfo(m_compare->path()).fileName()));
        m_status->showMessage(tr("Comparing with %1").arg(m_compare->path()), 5000);
        showComparisonOnMap();
    });
    connect(m_compare, &CompareSession::closed, this, [this, updateActions] {
        updateActions();
        if (m_session->isOpen()) {
            setWindowTitle(tr("%1 — vtxscope").arg(QFileInfo(m_session->path()).fileName()));
            // Say where the user's own markers came back to (the diff is theirs again).
            if (m_viewState->diffMarkers().isActive())
                m_status->showMessage(tr("Comparison closed · %1").arg(StatusPresenter::diffMarkersText(*m_viewState)), 5000);
        }
        m_map->clearOtherReplay();
    });
    connect(m_compare, &CompareSession::openFailed, this, [this](const QString& path, const QString& message) {
        m_lastError = message;
        m_status->showMessage(tr("Could not compare with %1").arg(path), 8000);
        prompts().showError(this, tr("Could not open replay to compare"),
                            tr("<b>%1</b><br><br>%2").arg(path.toHtmlEscaped(), message.toHtmlEscaped()));
    });
    connect(m_compare, &CompareSession::frameBReady, this, &MainWindow::showComparisonOnMap);
    connect(m_viewState, &ViewState::shownFrameChanged, this, &MainWindow::showComparisonOnMap);
    connect(m_compareBar, &CompareBar::closeRequested, m_compare, &CompareSession::close);
    connect(m_divergenceLane, &DivergenceLane::seekRequested, m_playback, &PlaybackController::seek);
}

void MainWindow::openComparison(const QString& path)
{
    if (!m_session->isOpen()) {
        m_status->showMessage(tr("Open a replay first, then compare it with another"), 5000);
        return;
    }
    m_compare->openAsync(path);
}

void MainWindow::showComparisonOnMap()
{
    if (!m_compare->isActive())
        return;
    // The B frame paired with the frame on screen (the playhead's may still be decoding).
    const vtx::FrameHandle& shown = m_viewState->shownFrame();
    const int wanted = shown.isNull() ? -1 : m_compare->partnerOf(shown.index());
    m_map->setOtherReplayFrame(m_compare->frameB(), wanted, m_compare->sameLayout());
}

void MainWindow::seekDivergence(bool forward)
{
    if (!m_compare->isActive()) {
        m_status->showMessage(tr("Compare with another replay first (File ▸ Compare with…)"), 5000);
        return;
    }
    const int from = m_session->viewState()->requestedFrame();
    const int frame = m_compare->nextDivergence(from, forward);
    if (frame >= 0) {
        m_playback->seek(frame);
        return;
    }
    const QString where = forward ? tr("after frame %1").arg(from) : tr("before frame %1").arg(from);
    m_status->showMessage(
        m_compare->isLaneComplete() ? tr("No divergence %1").arg(where) : tr("No divergence %1 among the frames compared so far").arg(where), 5000);
}

} // namespace vtxw
