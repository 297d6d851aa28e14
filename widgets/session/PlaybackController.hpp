// SPDX-License-Identifier: MIT
#pragma once
// Play/pause, speed and stepping, in game time: at 4x the playhead follows game time and skips
// frames rather than falling behind; reaching the end stops; the view state's A–B loop jumps
// back. It moves the view state's requested frame like every other panel.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace vtxw {

class ReplaySession;
class ViewState;

class PlaybackController : public QObject {
    Q_OBJECT
public:
    explicit PlaybackController(ReplaySession* session, QObject* parent = nullptr);

    bool isPlaying() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    static const std::vector<double>& speeds();
    /// What one tick of playback does `elapsedMs` after the last: plays on that much game time
    /// (times the speed), frame after frame, each for its own step. The timer calls it with the
    /// time measured; tests call it with chosen times.
    void advanceBy(double elapsedMs);

public slots:
    void play();
    void pause();
    void togglePlay();
    void setSpeed(double speed);
    void slower();
    void faster();
    void stepFrames(int delta);
    /// Moves by `seconds` of game time (Shift+←/→).
    void stepSeconds(double seconds);
    void goToStart();
    void goToEnd();
    void seek(int frame);

signals:
    void playingChanged(bool playing);
    void speedChanged(double speed);

private:
    void tick();
    ReplaySession* m_session;
    ViewState* m_view;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_speed = 1.0;
    double m_owedTicks = 0; ///< game time played since the playhead's frame was shown
    bool m_ticking = false; ///< tick() is moving the playhead (not a seek)
};

} // namespace vtxw
