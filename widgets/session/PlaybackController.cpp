#include "session/PlaybackController.hpp"

#include "session/ReplaySession.hpp"

#include <algorithm>

namespace vtxw {

PlaybackController::PlaybackController(ReplaySession* session, QObject* parent) : QObject(parent), m_session(session)
{
    m_timer.setInterval(15);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackController::tick);
    connect(session, &ReplaySession::closed, this, &PlaybackController::pause);
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
    if (isLooping() && (m_session->currentFrame() < m_loopFirst || m_session->currentFrame() >= m_loopLast))
        m_session->setCurrentFrame(m_loopFirst);
    else if (m_session->currentFrame() >= m_session->frameCount() - 1)
        m_session->setCurrentFrame(0);
    m_targetTicks = double(m_session->gameTimeTicks(m_session->currentFrame()));
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

void PlaybackController::togglePlay() { isPlaying() ? pause() : play(); }

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
    m_targetTicks += elapsedMs * 1e4 * m_speed;
    const int last = m_session->frameCount() - 1;
    int frame = m_session->frameAtGameTime(int64_t(m_targetTicks));
    // Never step backwards while playing forward (nearest-frame rounding could).
    frame = std::max(frame, m_session->currentFrame());
    if (isLooping() && frame >= m_loopLast) {
        // Past B: back to A, keeping the game-time clock in step with the jump.
        seek(m_loopFirst);
        return;
    }
    if (frame != m_session->currentFrame())
        m_session->setCurrentFrame(frame);
    if (frame >= last)
        pause();
}

void PlaybackController::setLoop(int first, int last)
{
    if (first > last)
        std::swap(first, last);
    if (first < 0 || last <= first) {
        clearLoop();
        return;
    }
    if (first == m_loopFirst && last == m_loopLast)
        return;
    m_loopFirst = first;
    m_loopLast = last;
    emit loopChanged(true); // also when only the range moved: the timeline shades it
}

void PlaybackController::clearLoop()
{
    if (!isLooping())
        return;
    m_loopFirst = m_loopLast = -1;
    emit loopChanged(false);
}

void PlaybackController::stepFrames(int delta) { seek(m_session->currentFrame() + delta); }

void PlaybackController::stepSeconds(double seconds)
{
    const int64_t t = m_session->gameTimeTicks(m_session->currentFrame()) + int64_t(seconds * 1e7);
    int frame = m_session->frameAtGameTime(t);
    if (frame == m_session->currentFrame())
        frame += seconds > 0 ? 1 : -1;
    seek(frame);
}

void PlaybackController::goToStart() { seek(0); }
void PlaybackController::goToEnd() { seek(m_session->frameCount() - 1); }

void PlaybackController::seek(int frame)
{
    m_session->setCurrentFrame(std::clamp(frame, 0, std::max(0, m_session->frameCount() - 1)));
    m_targetTicks = double(m_session->gameTimeTicks(m_session->currentFrame()));
}

} // namespace vtxw
