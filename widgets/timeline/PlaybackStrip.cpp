// SPDX-License-Identifier: MIT
#include "timeline/PlaybackStrip.hpp"

#include "session/PlaybackController.hpp"
#include "timeline/TimelineScrubber.hpp"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QToolButton>
#include <QVBoxLayout>

namespace vtxw {

PlaybackStrip::PlaybackStrip(PlaybackController* playback, const Commands& commands, TimelineScrubber* timeline, QWidget* parent) : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(2, 2, 2, 2);
    // No taller than its content: the dock then leaves the rest of the bottom area to the plot
    // (and the rest of the window to the panels above) instead of an empty band under the
    // scrub lane, and follows the timeline as its lanes collapse or appear.
    column->setSizeConstraint(QLayout::SetMinAndMaxSize);
    auto* transport = new QHBoxLayout;
    auto button = [&](const QString& text, QAction* a) {
        auto* b = new QToolButton(this);
        b->setText(text);
        connect(b, &QToolButton::clicked, a, &QAction::trigger);
        // Greyed with its action (no replay open), not a button that does nothing.
        b->setEnabled(a->isEnabled());
        connect(a, &QAction::enabledChanged, b, &QWidget::setEnabled);
        b->setToolTip(a->text() + " (" + a->shortcut().toString(QKeySequence::NativeText) + ")");
        transport->addWidget(b);
        return b;
    };
    button("|◀", commands.first);
    button("◀", commands.previous);
    QToolButton* playButton = button("▶", commands.playPause);
    button("▶|", commands.next);
    button("▶▶|", commands.last);
    connect(playback, &PlaybackController::playingChanged, playButton, [playButton](bool on) { playButton->setText(on ? "❚❚" : "▶"); });
    auto* speed = new QComboBox(this);
    speed->setObjectName("speed");
    for (double s : PlaybackController::speeds())
        speed->addItem(QStringLiteral("%1×").arg(s), s);
    speed->setCurrentIndex(speed->findData(playback->speed()));
    connect(speed, &QComboBox::activated, playback, [playback, speed](int i) { playback->setSpeed(speed->itemData(i).toDouble()); });
    connect(playback, &PlaybackController::speedChanged, speed, [speed](double s) { speed->setCurrentIndex(speed->findData(s)); });
    transport->addWidget(speed);
    transport->addStretch();
    column->addLayout(transport);
    column->addWidget(timeline);
}

} // namespace vtxw
