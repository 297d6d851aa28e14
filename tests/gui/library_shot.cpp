// SPDX-License-Identifier: MIT
// A manual harness, not a test: shows the replay library for a folder, optionally checks every
// other replay against a baseline, and saves the panel as a PNG (for screenshots before the
// panel is wired into the window). Runs offscreen:
//   QT_QPA_PLATFORM=offscreen library_shot DIR OUT.png [--baseline FILE] [--filter TEXT]

#include "library/LibraryPanel.hpp"

#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString baseline, filter;
    for (int i = 0; i + 1 < args.size(); ++i)
        if (args[i] == QLatin1String("--baseline") || args[i] == QLatin1String("--filter")) {
            (args[i] == QLatin1String("--baseline") ? baseline : filter) = args[i + 1];
            args.remove(i, 2);
            --i;
        }
    if (args.size() != 2) {
        std::fprintf(stderr, "usage: library_shot DIR OUT.png [--baseline FILE] [--filter TEXT]\n");
        return 2;
    }
    const QString out = args[1];
    vtxw::LibraryPanel panel;
    panel.resize(1500, 760);
    panel.show();
    auto save = [&] {
        panel.filterField()->setText(filter);
        panel.view()->clearSelection();
        for (int c = 0; c < vtxw::LibraryModel::ColumnCount; ++c)
            if (c != vtxw::LibraryModel::Integrity && c != vtxw::LibraryModel::Divergence)
                panel.view()->resizeColumnToContents(c);
        const bool saved = panel.grab().save(out);
        std::fprintf(stderr, "%s: %s\n", qPrintable(out), saved ? qPrintable(panel.statusText()) : "could not be written");
        app.exit(saved ? 0 : 1);
    };
    QObject::connect(&panel, &vtxw::LibraryPanel::checkFinished, &app, save);
    QObject::connect(&panel, &vtxw::LibraryPanel::listingFinished, &app, [&] {
        if (baseline.isEmpty())
            return save();
        QStringList runs;
        for (int r = 0; r < panel.model()->rowCount(); ++r)
            runs << panel.model()->pathAt(r);
        panel.view()->selectAll();
        panel.checkRuns(baseline, runs);
    });
    panel.setFolder(args[0]);
    return app.exec();
}
