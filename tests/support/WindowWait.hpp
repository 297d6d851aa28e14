// SPDX-License-Identifier: MIT
#pragma once
// Waits the GUI tests share: a MainWindow opening a replay until its first frame is on screen.

#include "session/ReplaySession.hpp"
#include "shell/MainWindow.hpp"

#include <QSignalSpy>
#include <QTest>

namespace vtxtest {

/// Opens `path` in `w` and waits (20 s at most each) for it to open and show a decoded frame.
inline bool openAndWait(vtxw::MainWindow& w, const QString& path)
{
    QSignalSpy opened(w.session(), &vtxw::ReplaySession::opened);
    w.openFile(vtxw::OpenRequest(path));
    if (!opened.wait(20000))
        return false;
    return QTest::qWaitFor([&] { return !w.viewState()->shownFrame().isNull() && !w.viewState()->isLoading(); }, 20000);
}

} // namespace vtxtest
