// SPDX-License-Identifier: MIT
#pragma once
// The bottom strip: transport buttons (first, previous, play / pause, next, last — each the
// window's command, with its shortcut in the tooltip) and the speed, above the timeline.

#include <QWidget>

class QAction;

namespace vtxw {

class PlaybackController;
class TimelineScrubber;

class PlaybackStrip : public QWidget {
    Q_OBJECT
public:
    struct Commands {
        QAction* first;
        QAction* previous;
        QAction* playPause;
        QAction* next;
        QAction* last;
    };
    /// Takes `timeline` into the strip.
    PlaybackStrip(PlaybackController* playback, const Commands& commands, TimelineScrubber* timeline, QWidget* parent = nullptr);
};

} // namespace vtxw
