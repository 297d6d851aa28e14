// SPDX-License-Identifier: MIT
#pragma once
// Tooltips that depend on where the mouse is in a painted widget (a timeline lane, the
// divergence lane): the widget says what the text is at a point, this shows or hides it.

#include <QString>
#include <functional>

class QEvent;
class QPoint;
class QWidget;

namespace vtxw {

/// Handles `event` when it is a tooltip request: shows `textAt(position)` (hides any tooltip
/// when it is empty) and returns true; returns false for every other event.
bool showPositionToolTip(QWidget* widget, QEvent* event, const std::function<QString(const QPoint&)>& textAt);

} // namespace vtxw
