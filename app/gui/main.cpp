// SPDX-License-Identifier: MIT
// vtxscope: the GUI. Parses the command line and shows the main window; nothing else.

#include "shell/AppIcon.hpp"
#include "shell/DebugMenu.hpp"
#include "shell/MainWindow.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName("vtxscope");
    QApplication::setApplicationName("vtxscope");
    QApplication::setApplicationVersion("0.1.0");
    // Lets the desktop match the window to the installed entry (its icon in the task bar).
    QGuiApplication::setDesktopFileName("org.vtxscope.vtxscope");
    QApplication::setWindowIcon(vtxw::appIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription("Viewer and timeline scrubber for VTX replay files");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "Replay to open (.vtx), or a folder to list its replays", "[FILE|DIR]");
    QCommandLineOption frame("frame", "Start at frame N.", "N");
    QCommandLineOption select("select", "Select an entity: BUCKET:UNIQUE_ID (bucket name or index).", "BUCKET:UNIQUE_ID");
    QCommandLineOption follow("follow", "Follow FILE while it is being written: new chunks extend the timeline.");
    QCommandLineOption compare("compare", "Compare FILE with B: where the two runs diverge (lane, diff, map ghosts).", "B.vtx");
    parser.addOption(compare);
    parser.addOption(frame);
    parser.addOption(follow);
    QCommandLineOption debug("debug", "Show the Debug menu (access trace, cache policy) for this run.");
    parser.addOption(select);
    parser.addOption(debug);
    parser.process(app);

    vtxw::MainWindow window;
    window.debugMenu()->forceVisible(parser.isSet(debug));
    // The window's size is its saved one, or one that fits the screen (DockLayout::restoreSaved).
    window.show();
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty() && parser.isSet(compare)) {
        qCritical("vtxscope: --compare needs a FILE to compare with it");
        return 2;
    }
    if (!files.isEmpty() && QFileInfo(files.first()).isDir()) {
        window.openFolder(files.first()); // vtxscope DIR: the replay library
    } else if (!files.isEmpty()) {
        vtxw::OpenRequest req(files.first());
        if (parser.isSet(frame)) {
            bool ok = false;
            req.frame = parser.value(frame).toInt(&ok);
            if (!ok || req.frame < 0) {
                qCritical("vtxscope: --frame needs a non-negative number");
                return 2;
            }
        }
        if (parser.isSet(select)) {
            const QString s = parser.value(select);
            const int colon = int(s.indexOf(':'));
            if (colon <= 0) {
                qCritical("vtxscope: --select needs BUCKET:UNIQUE_ID");
                return 2;
            }
            req.selectBucket = s.left(colon);
            req.selectId = s.mid(colon + 1);
        }
        req.follow = parser.isSet(follow);
        req.compare = parser.value(compare);
        window.openFile(req);
    }
    return app.exec();
}
