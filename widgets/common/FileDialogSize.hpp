// SPDX-License-Identifier: MIT
#pragma once
// The file dialogs' size and columns. Qt's own dialog (what a desktop without a platform file
// dialog gets) opens at 640 × 440 with its columns sized for "128.88 GB" and "10/29/81 02:02PM",
// so a 1920 px screen showed "859…KiB" and "28 Nov…:46:48" (review 4, item 15). Here it opens
// at the size the user last left it, else two thirds of the window (at least 860 × 540, within
// the screen), centred over the window as before; once a folder is listed the Size, Type and
// Date columns are widened to their text and the Name column given the rest. Qt keeps the view
// mode and column widths the user chose. A platform dialog sizes itself; none of this reaches it.

class QFileDialog;
class QWidget;

namespace vtxw {

/// Before showing `dialog` over `parent`'s window.
void fitFileDialog(QFileDialog& dialog, const QWidget* parent);
/// After it closed: its size, for the next one.
void rememberFileDialog(const QFileDialog& dialog);

} // namespace vtxw
