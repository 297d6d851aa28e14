#pragma once
// Play/pause, speed and stepping, in game time: at 4x the playhead follows game time and skips
// frames rather than falling behind; reaching the end stops.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace vtxw {

class ReplaySession;

class PlaybackController : public QObject {
    Q_OBJECT
public:
    explicit PlaybackController(ReplaySession* session, QObject* parent = nullptr);

    bool isPlaying() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    static const std::vector<double>& speeds();
    /// A–B loop: while playing, reaching `last` jumps back to `first` (Playback ▸ Loop A–B).
    void setLoop(int first, int last);
    void clearLoop();
    bool isLooping() const { return m_loopFirst >= 0; }
    int loopFirst() const { return m_loopFirst; }
    int loopLast() const { return m_loopLast; }

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
    /// The loop was turned on or off, or its range moved.
    void loopChanged(bool looping);
    void speedChanged(double speed);

private:
    void tick();
    ReplaySession* m_session;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_speed = 1.0;
    double m_targetTicks = 0; ///< game time the playhead should show
    int m_loopFirst = -1, m_loopLast = -1;
};

} // namespace vtxw
