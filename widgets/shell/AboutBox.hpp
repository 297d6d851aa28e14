// SPDX-License-Identifier: MIT
#pragma once
// Help ▸ About: the icon, the version, and the versions of the libraries that decode replays
// (bug reports need them: a zstd or protobuf upgrade changes what a corrupt file does).

#include <QString>

class QWidget;

namespace vtxw {

/// The About text (rich text): vtxscope's version, Qt (built against and running), zstd,
/// FlatBuffers and Protobuf.
QString aboutText();
/// Shows the About box with the application icon (modal, like QMessageBox::about).
void showAboutBox(QWidget* parent);

} // namespace vtxw
