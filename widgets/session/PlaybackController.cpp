// SPDX-License-Identifier: MIT
#include "session/PlaybackController.hpp"

#include "session/ReplaySession.hpp"

#include <algorithm>

namespace vtxw {

PlaybackController::PlaybackController(ReplaySession* session, QObject* parent) : QObject(parent), m_session(session), m_view(session->viewState())
{
    m_timer.setInterval(15);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackController::tick);
    connect(session, &ReplaySession::closed, this, &PlaybackController::pause);
    // A seek from anywhere (a panel, a shortcut, a test) starts the clock again from there.
    connect(m_view, &ViewState::requestedFrameChanged, this, [this] {
        if (!m_ticking)
            m_owedTicks = 0;
    });
}

const std::vector<double>& PlaybackController::speeds()
{
    static const std::vector<double> s = {0.1, 0.25, 0.5, 1, 2, 4, 8, 10};
    return s;
}

void PlaybackController::play()
{
    if (!m_session->isOpen() || isPlaying())
        return;
    if (m_view->isLooping() && (m_view->requestedFrame() < m_view->loopFirst() || m_view->requestedFrame() >= m_view->loopLast()))
        m_view->setRequestedFrame(m_view->loopFirst());
    else if (m_view->requestedFrame() >= m_session->frameCount() - 1)
        m_view->setRequestedFrame(0);
    m_owedTicks = 0;
    m_clock.start();
    m_timer.start();
    emit playingChanged(true);
}

void PlaybackController::pause()
{
    if (!isPlaying())
        return;
    m_timer.stop();
    emit playingChanged(false);
}

void PlaybackController::togglePlay()
{
    isPlaying() ? pause() : play();
}

void PlaybackController::setSpeed(double speed)
{
    speed = std::clamp(speed, 0.1, 10.0);
    if (speed == m_speed)
        return;
    m_speed = speed;
    emit speedChanged(speed);
}

void PlaybackController::slower()
{
    const auto& s = speeds();
    auto it = std::lower_bound(s.begin(), s.end(), m_speed - 1e-9);
    setSpeed(it == s.begin() ? s.front() : *(it - 1));
}

void PlaybackController::faster()
{
    const auto& s = speeds();
    auto it = std::upper_bound(s.begin(), s.end(), m_speed + 1e-9);
    setSpeed(it == s.end() ? s.back() : *it);
}

void PlaybackController::tick()
{
    const double elapsedMs = double(m_clock.nsecsElapsed()) / 1e6;
    m_clock.restart();
    advanceBy(elapsedMs);
}

void PlaybackController::advanceBy(double elapsedMs)
{
    m_owedTicks += elapsedMs * 1e4 * m_speed;
    const int last = m_session->frameCount() - 1;
    // Frame after frame, each for its own game-time step: where the clock restarts (a new
    // segment) playback goes on into it; looking the time up jumped to the frame of the
    // earlier segment's time and skipped 118 frames of allkinds_fbs.
    int frame = m_view->requestedFrame();
    while (frame < last) {
        const double step = double(m_session->gameStepAfter(frame));
        if (m_owedTicks < step)
            break;
        m_owedTicks -= step;
        ++frame;
    }
    if (m_view->isLooping() && frame >= m_view->loopLast()) {
        // Past B: back to A, keeping the game-time clock in step with the jump.
        seek(m_view->loopFirst());
        return;
    }
    if (frame != m_view->requestedFrame()) {
        m_ticking = true; // the clock leads the playhead here: keep its fractional ticks
        m_view->setRequestedFrame(frame);
        m_ticking = false;
    }
    if (frame >= last)
        pause();
}

void PlaybackController::stepFrames(int delta)
{
    seek(m_view->requestedFrame() + delta);
}

void PlaybackController::stepSeconds(double seconds)
{
    int frame = m_session->frameAfterGameTime(m_view->requestedFrame(), int64_t(seconds * 1e7));
    if (frame == m_view->requestedFrame())
        frame += seconds > 0 ? 1 : -1;
    seek(frame);
}

void PlaybackController::goToStart()
{
    seek(0);
}
void PlaybackController::goToEnd()
{
    seek(m_session->frameCount() - 1);
}

void PlaybackController::seek(int frame)
{
    m_view->setRequestedFrame(std::clamp(frame, 0, std::max(0, m_session->frameCount() - 1)));
    m_owedTicks = 0;
}

} // namespace vtxw
