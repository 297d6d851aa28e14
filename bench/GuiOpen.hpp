// SPDX-License-Identifier: MIT
#pragma once
// The gui-open bench case; built only with the GUI (it opens a replay in the app's window).

#include <string>

struct GuiOpenTimes {
    double firstFrameMs = -1; ///< open asked → frame 0 on screen (the view state's shown frame)
    double upAxisMs = -1; ///< open asked → the Map's up axis chosen (the last job an open starts)
    std::string error; ///< non-empty when the open failed or did not settle
};

/// Opens `path` in the app's MainWindow (offscreen unless QT_QPA_PLATFORM says otherwise), as
/// a user does, and times it. Settings are read from QSettings: run with a scratch HOME.
GuiOpenTimes guiOpen(int argc, char** argv, const std::string& path);
