// SPDX-License-Identifier: MIT
#include "shell/BookmarkMenu.hpp"

#include "common/Prompts.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/ActionTable.hpp"
#include "shell/Bookmarks.hpp"

#include <QMenu>
#include <QMenuBar>

namespace vtxw {

BookmarkMenu::BookmarkMenu(ReplaySession* session, ViewState* viewState, ActionTable& actions, QMenuBar* menuBar, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_viewState(viewState)
    , m_window(window)
    , m_bookmarks(new Bookmarks(this))
    , m_menu(menuBar->addMenu(tr("Book&marks")))
{
    using When = ActionTable::When;
    m_menu->setObjectName("bookmarkMenu");
    actions.add(
        m_menu, "addBookmark", tr("&Add bookmark…"), QKeySequence(Qt::CTRL | Qt::Key_B), [this] { addBookmarkDialog(); }, When::ReplayOpen);
    actions.add(m_menu, "nextBookmark", tr("&Next bookmark"), QKeySequence(Qt::Key_Apostrophe), [this] {
        if (int f = m_bookmarks->next(m_viewState->requestedFrame()); f >= 0)
            emit seekRequested(f);
    });
    // Shift+' only: on a US layout the key event is '"' with Shift, which Qt's key mapper offers
    // both as Shift+' and as '"' — with '"' as a second shortcut both matched, Qt called the
    // shortcut ambiguous and did nothing (issue 26 8f; tst_smoke previousBookmarkWithShiftApostrophe).
    actions.add(m_menu, "prevBookmark", tr("&Previous bookmark"), QKeySequence(Qt::SHIFT | Qt::Key_Apostrophe), [this] {
        if (int f = m_bookmarks->previous(m_viewState->requestedFrame()); f >= 0)
            emit seekRequested(f);
    });
    actions.add(m_menu, "removeBookmark", tr("&Remove bookmark at the playhead"), {}, [this] { m_bookmarks->remove(m_viewState->requestedFrame()); });
    m_menu->addSeparator();
    connect(m_bookmarks, &Bookmarks::changed, this, &BookmarkMenu::rebuildList);
    connect(m_session, &ReplaySession::opened, this, [this] { m_bookmarks->load(m_session->path()); });
    connect(m_session, &ReplaySession::closed, this, [this] { m_bookmarks->load({}); });
}

void BookmarkMenu::addBookmarkDialog()
{
    if (!m_session->isOpen())
        return;
    const int frame = m_viewState->requestedFrame();
    const Bookmark* existing = m_bookmarks->at(frame);
    QString name = existing ? existing->name : tr("Frame %1").arg(frame);
    if (!prompts().askText(m_window, tr("Add bookmark"), tr("Name of the bookmark at frame %1:").arg(frame), name))
        return;
    m_bookmarks->add(frame, name.trimmed().isEmpty() ? tr("Frame %1").arg(frame) : name.trimmed());
    emit message(tr("Bookmark at frame %1").arg(frame), 3000);
}

void BookmarkMenu::rebuildList()
{
    // The fixed actions stay; the list after the separator is rebuilt.
    bool afterSeparator = false;
    for (QAction* a : m_menu->actions()) {
        if (afterSeparator) {
            m_menu->removeAction(a);
            a->deleteLater();
        } else if (a->isSeparator())
            afterSeparator = true;
    }
    for (const Bookmark& b : m_bookmarks->list()) {
        // A bookmark under its default name says its frame once ("Frame 399", not "Frame 399 —
        // frame 399").
        const QString text = b.name == tr("Frame %1").arg(b.frame) ? b.name : tr("%1 — frame %2").arg(b.name).arg(b.frame);
        m_menu->addAction(text, this, [this, f = b.frame] { emit seekRequested(f); });
    }
}

} // namespace vtxw
