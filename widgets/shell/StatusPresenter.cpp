// SPDX-License-Identifier: MIT
#include "shell/StatusPresenter.hpp"

#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/UserSettings.hpp"
#include "timeline/TimeFormat.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>

namespace vtxw {

namespace {

// What recovery found, in words (issue 26 item 7): counts and consequences. The technical
// detail (the footer's bytes, offsets) is the banner's tooltip and the File panel's.
// What follows from it, after what was recovered: "; the file has no usable footer…".
QString recoveryConsequences(const vtx::RecoveryReport& r)
{
    QString s = QObject::tr("; the file has no usable footer (cut short, or still being recorded), so the frame times, events, gaps and "
                            "segments are missing");
    if (!r.corruptRecords.empty())
        s += QObject::tr("; %n damaged chunk(s) skipped, the frames after them renumbered", nullptr, int(r.corruptRecords.size()));
    if (r.lostBytes)
        s += QObject::tr("; the last %1 bytes are an unfinished chunk").arg(QLocale().toString(qulonglong(r.lostBytes)));
    return s;
}

QString recoveryInWords(const vtx::RecoveryReport& r)
{
    const QString found = r.frames > 0
        ? QObject::tr("%n frame(s) recovered", nullptr, r.frames) + QObject::tr(" from %n chunk(s)", nullptr, int(r.chunks))
        : QObject::tr("no complete chunk was found");
    return found + recoveryConsequences(r);
}

} // namespace

StatusPresenter::StatusPresenter(QStatusBar* bar, QLabel* banner, ReplaySession* session, UserSettings* settings, QObject* parent)
    : QObject(parent), m_bar(bar), m_banner(banner), m_session(session), m_view(session->viewState()), m_settings(settings)
{
    m_frame = new QLabel(bar);
    m_frame->setObjectName("frameLabel");
    m_time = new QLabel(bar);
    m_time->setObjectName("timeLabel");
    m_latency = new QLabel(bar);
    m_cache = new QLabel(bar);
    for (QLabel* l : {m_frame, m_time, m_latency, m_cache})
        bar->addPermanentWidget(l);
    // Request latency and cache statistics are for developers (issue 26 item 7): shown with the
    // Debug menu; the Cache panel has the statistics for everyone.
    setDeveloperFields(false);
    m_progress = new QProgressBar(bar);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(140);
    m_progress->setVisible(false);
    bar->addWidget(m_progress);
    bar->showMessage(tr("Ready"));

    connect(m_view, &ViewState::requestedFrameChanged, this, &StatusPresenter::updateLabels);
    connect(m_view, &ViewState::shownFrameChanged, this, &StatusPresenter::refresh);
    connect(m_view, &ViewState::frameFailed, this, &StatusPresenter::refresh);
    // Messages name the file, not its path: the title bar has the path, and a long path pushed
    // the rest of a message under the permanent fields at 1024 px.
    connect(session, &ReplaySession::opening, this, [this](const QString& p) { showMessage(tr("Opening %1…").arg(QFileInfo(p).fileName())); });
    connect(session, &ReplaySession::opened, this, [this] {
        m_followError.clear();
        const auto& f = m_session->file();
        const QString fileName = QFileInfo(m_session->path()).fileName();
        // "Opened" alone would hide that recovery found nothing (issue 26 8e).
        if (f && f->isRecovered() && f->frameCount() == 0)
            showMessage(tr("Opened %1: no complete chunk, nothing to show").arg(fileName), 8000);
        else if (f && f->isRecovered())
            showMessage(tr("Opened %1: recovered %n frame(s) of an incomplete recording", nullptr, f->frameCount()).arg(fileName), 8000);
        else
            showMessage(tr("Opened %1").arg(fileName), 5000);
        refresh();
    });
    // "Opened X" stayed on the status line after the replay was closed.
    connect(session, &ReplaySession::opened, this, [this] { m_openFileName = QFileInfo(m_session->path()).fileName(); });
    connect(session, &ReplaySession::closed, this, [this] {
        showMessage(m_openFileName.isEmpty() ? tr("Ready") : tr("Closed %1").arg(m_openFileName), 5000);
        m_openFileName.clear();
        refresh();
    });
    connect(session, &ReplaySession::openFailed, this,
            [this](const QString& path) { showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000); });
    connect(session, &ReplaySession::rereadFromDisk, this, [this](int before, int after) {
        refresh();
        if (after < before) // cut or rewritten shorter: not growth (review 5 #10)
            showMessage(
                tr("Following: the file shrank on disk, %1 → %2 frames; frames %3–%4 are gone").arg(before).arg(after).arg(after).arg(before - 1),
                10000);
        else
            showMessage(tr("Following: %1 → %2 frames").arg(before).arg(after), 3000);
    });
    connect(session, &ReplaySession::changedOnDiskChanged, this, &StatusPresenter::refresh);
    connect(session, &ReplaySession::followingChanged, this, [this](bool on) {
        if (on)
            m_followError.clear();
        refresh();
    });
    connect(settings, &UserSettings::timeUnitChanged, this, &StatusPresenter::updateLabels);
    refresh();
}

void StatusPresenter::showMessage(const QString& text, int timeoutMs)
{
    m_bar->showMessage(text, timeoutMs);
}
QString StatusPresenter::currentMessage() const
{
    return m_bar->currentMessage();
}
void StatusPresenter::clearMessage()
{
    m_bar->clearMessage();
}

void StatusPresenter::startProgress(const QString& what)
{
    m_progress->setValue(0);
    m_progress->setVisible(true);
    showMessage(what + tr(" (Esc cancels)"));
}

void StatusPresenter::setProgress(int percent)
{
    m_progress->setValue(percent);
}

void StatusPresenter::finishProgress(const QString& message, int timeoutMs)
{
    m_progress->setVisible(false);
    showMessage(message, timeoutMs);
}

void StatusPresenter::setFollowError(const QString& message)
{
    m_followError = message;
    updateBanner();
}

QString StatusPresenter::bannerText() const
{
    return m_banner->isVisible() ? m_banner->text() : QString();
}

void StatusPresenter::setDeveloperFields(bool shown)
{
    m_latency->setVisible(shown);
    m_cache->setVisible(shown);
}

bool StatusPresenter::developerFieldsShown() const
{
    return !m_cache->isHidden();
}

void StatusPresenter::setCacheSummary(const QString& text)
{
    m_cache->setText(text);
}

void StatusPresenter::showFilterError(const QString& error)
{
    if (!error.isEmpty())
        showMessage(tr("Filter: %1").arg(error), 8000);
    else if (currentMessage().startsWith(tr("Filter: ")))
        clearMessage(); // the error of a half-typed expression is gone
}

QString StatusPresenter::frameText(int frame, int frameCount)
{
    // Frames count from 0: "frame 10655 / 10656" read as one short of the end (issue 26 8k), so
    // the range is named instead of the count.
    if (frameCount <= 0)
        return tr("no frames");
    return tr("frame %1 of 0–%2").arg(frame).arg(frameCount - 1);
}

QString StatusPresenter::diffMarkersText(const ViewState& view)
{
    if (view.isComparing())
        return tr("Comparing two replays: A is this replay's frame, B the compared replay's (the markers do not move)");
    const DiffMarkers& m = view.diffMarkers();
    if (!m.isActive())
        return tr("Diff cleared");
    if (m.previousFrame)
        return tr("Diff: each frame against the frame before it");
    if (m.bFollowsPlayhead)
        return tr("Diff: A = frame %1, B follows the playhead").arg(m.a);
    return tr("Diff: A = frame %1, B = frame %2").arg(m.a).arg(m.b);
}

void StatusPresenter::refresh()
{
    updateBanner();
    updateLabels();
}

void StatusPresenter::updateLabels()
{
    if (!m_session->isOpen()) {
        m_frame->setText(tr("no replay"));
        m_time->clear();
        m_latency->clear();
        return;
    }
    const int f = m_view->requestedFrame();
    m_frame->setText(frameText(f, m_session->frameCount()));
    m_time->setText(statusTimeText(*m_session->file(), f, m_settings->timeUnit()));
    m_latency->setText(tr("last request %1 ms").arg(m_session->lastLatencyMs(), 0, 'f', 1));
}

std::optional<vtx::ChunkDamage> StatusPresenter::shownFrameDamage() const
{
    const vtx::FrameHandle& shown = m_view->shownFrame();
    if (shown.isNull() || shown.index() != m_view->requestedFrame())
        return std::nullopt;
    return shown.chunk()->damage();
}

QString StatusPresenter::followHint() const
{
    if (m_session->isFollowing())
        return {};
    // Said when it happened (review 5 #9: the banner described the old bytes for as long as
    // the file kept growing unfollowed).
    if (m_session->hasChangedOnDisk())
        return tr(". The file has changed on disk since it was read: File ▸ Follow growing file (Ctrl+Shift+L) reads what was added.");
    return tr(". If it is still being recorded, File ▸ Follow growing file (Ctrl+Shift+L) picks up new chunks.");
}

void StatusPresenter::updateBanner()
{
    const auto& f = m_session->file();
    QString text;
    QString details; // the technical account, for whoever needs it
    if (!f) {
        text.clear();
    } else if (f->isRecovered() && f->frameCount() == 0) {
        // Recovery found no complete chunk: there is no frame to be unavailable (issue 26 8e).
        // Said once: it read "no complete chunk — no complete chunk was found".
        text = tr("Nothing to show: this incomplete recording holds no complete chunk%1%2").arg(recoveryConsequences(f->recovery()), followHint());
    } else if (qint64 now = 0; !m_view->frameError().isEmpty() && (now = QFileInfo(m_session->path()).size()) < qint64(f->fileSize())) {
        // The file was cut on disk after it was opened (issue 26 8e): a failing frame is lost with
        // the cut, not damaged, and the rest of the file is not "fine". Only stat()ed when a frame
        // failed.
        text = tr("The file shrank on disk since it was opened (now %1 of %2 bytes): frame %3 is lost with the cut. "
                  "Open it again to see what recovery keeps.")
                   .arg(now)
                   .arg(f->fileSize())
                   .arg(m_view->requestedFrame());
    } else if (!m_view->frameError().isEmpty()) {
        // The frame on screen is older than the playhead: say so first. "The rest of the file is
        // fine" was said here of a one-chunk file whose only chunk failed (review 5).
        text = f->isRecovered() ? tr("Frame %1 is unavailable: %2. Incomplete recording: %3")
                                      .arg(m_view->requestedFrame())
                                      .arg(m_view->frameError(), recoveryInWords(f->recovery()))
            : f->chunks().size() <= 1
            ? tr("Frame %1 is unavailable: %2. This file has no other chunk to read.").arg(m_view->requestedFrame()).arg(m_view->frameError())
            // Other chunks are read on their own; whether they read is for each of them to say
            // (the timeline hatches the ones that fail), so nothing is claimed for them here.
            : tr("Frame %1 is unavailable: %2").arg(m_view->requestedFrame()).arg(m_view->frameError());
    } else if (const auto damage = shownFrameDamage()) {
        // Values that read are not proven right when their chunk is damaged (review 5: frames
        // 271-275 of a chunk failing at 276 held wrong byte arrays and showed as good).
        const bool frameLost = damage->chunk < f->chunks().size() && damage->firstFrame <= f->chunks()[damage->chunk].endFrame;
        text = !frameLost ? tr("Frame %1 may hold wrong values: chunk %2 is damaged after its last frame. Values no content hash checks (byte arrays "
                               "among them) may be wrong.")
                                .arg(m_view->shownFrame().index())
                                .arg(damage->chunk)
            : damage->laterFramesLost
            ? tr("Frame %1 may hold wrong values: chunk %2 is damaged and cannot be read from frame %3 on. This frame was decoded from "
                 "the same compressed data before the damage showed; values no content hash checks (byte arrays among them) may be wrong.")
                  .arg(m_view->shownFrame().index())
                  .arg(damage->chunk)
                  .arg(damage->firstFrame)
            : tr("Frame %1 may hold wrong values: frame %2 of the same chunk (%3) cannot be read. Values no content hash checks "
                 "(byte arrays among them) may be wrong.")
                  .arg(m_view->shownFrame().index())
                  .arg(damage->firstFrame)
                  .arg(damage->chunk);
        details = frameLost ? tr("Details: frame %1: %2").arg(damage->firstFrame).arg(QString::fromStdString(damage->reason))
                            : tr("Details: %1").arg(QString::fromStdString(damage->reason));
    } else if (!m_followError.isEmpty()) {
        text = tr("Stopped following: %1").arg(m_followError);
    } else if (f->isRecovered()) {
        text = tr("Incomplete recording: %1%2").arg(recoveryInWords(f->recovery()), followHint());
    } else if (m_session->hasChangedOnDisk()) {
        text = tr("This file has changed on disk since it was read: what is shown is what was read then. File ▸ Follow growing file "
                  "(Ctrl+Shift+L) reads it again.");
    } else {
        int serious = 0;
        const vtx::Problem* first = nullptr;
        for (const auto& p : f->problems())
            if (p.severity != vtx::Problem::Severity::Info && !serious++)
                first = &p;
        if (first)
            text = tr("%n problem(s) in this file (see the File panel). First: %1", nullptr, serious).arg(QString::fromStdString(first->message));
    }
    if (m_banner->text() != text)
        m_banner->setText(text);
    // What the footer held, where bytes were lost.
    if (details.isEmpty() && f && f->isRecovered())
        details = tr("Details: %1").arg(QString::fromStdString(f->recovery().summary()));
    if (m_banner->toolTip() != details)
        m_banner->setToolTip(details);
    m_banner->setVisible(!text.isEmpty());
}

} // namespace vtxw
