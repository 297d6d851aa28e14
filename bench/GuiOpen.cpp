// SPDX-License-Identifier: MIT
// vtxscope-bench gui-open: what a user waits for when a replay opens in the window. Everything
// an open starts runs as it does for them (the open job, the chunk cache's decodes and
// prefetches, the panels' jobs): the figure is open → frame 0 on screen, the viewer's version
// of `open --via-cache`, plus open → the Map's up axis chosen.

#include "GuiOpen.hpp"

#include "map/MapView.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/MainWindow.hpp"
#include "shell/OpenRequest.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

GuiOpenTimes guiOpen(int argc, char** argv, const std::string& path)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("vtxscope");
    QApplication::setApplicationName("vtxscope");
    GuiOpenTimes out;
    vtxw::MainWindow window;
    window.resize(1366, 768);
    window.show();
    auto* map = window.findChild<vtxw::MapView*>();
    vtxw::ViewState* view = window.session()->viewState();
    QElapsedTimer clock;
    auto settled = [&] {
        if (out.firstFrameMs >= 0 && (out.upAxisMs >= 0 || !map))
            app.quit();
    };
    QObject::connect(view, &vtxw::ViewState::shownFrameChanged, &app, [&] {
        if (out.firstFrameMs < 0 && view->shownFrame().index() == 0) {
            out.firstFrameMs = double(clock.nsecsElapsed()) / 1e6;
            settled();
        }
    });
    if (map)
        QObject::connect(map, &vtxw::MapView::upAxisChosen, &app, [&] {
            if (out.upAxisMs < 0) {
                out.upAxisMs = double(clock.nsecsElapsed()) / 1e6;
                settled();
            }
        });
    QObject::connect(window.session(), &vtxw::ReplaySession::openFailed, &app, [&](const QString&, const QString& why) {
        out.error = why.toStdString();
        app.quit();
    });
    QTimer::singleShot(0, &app, [&] {
        clock.start();
        window.openFile(vtxw::OpenRequest(QString::fromStdString(path)));
    });
    QTimer::singleShot(60'000, &app, [&] {
        out.error = "the open did not settle within 60 s";
        app.quit();
    });
    app.exec();
    return out;
}
