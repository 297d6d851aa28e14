// SPDX-License-Identifier: MIT
#include "common/FileDialogSize.hpp"

#include <QFileDialog>
#include <QFileSystemModel>
#include <QHeaderView>
#include <QScreen>
#include <QSettings>
#include <QTreeView>

#include <algorithm>

namespace vtxw {

namespace {
const char* const kGeometryKey = "fileDialog/geometry";
const char* const kStateKey = "fileDialog/state";
constexpr int kMinWidth = 860, kMinHeight = 540;
} // namespace

void fitFileDialog(QFileDialog& dialog, const QWidget* parent)
{
    const QSettings settings;
    const QWidget* window = parent ? parent->window() : nullptr;
    const QScreen* screen = window ? window->screen() : dialog.screen();
    const QRect room = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 800);
    if (!dialog.restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QSize base = window ? window->size() : room.size();
        dialog.resize(std::min(std::max(base.width() * 2 / 3, kMinWidth), room.width()),
                      std::min(std::max(base.height() * 2 / 3, kMinHeight), room.height()));
    }
    dialog.restoreState(settings.value(kStateKey).toByteArray());
    // The detail view's columns (Qt's names in its own dialog; absent from others): Size,
    // Type and Date at least as wide as what they list, never narrower than the user made them.
    auto* list = dialog.findChild<QTreeView*>(QStringLiteral("treeView"));
    auto* files = dialog.findChild<QFileSystemModel*>();
    if (!list || !files)
        return;
    // The Name column then takes what is left of the view (Qt leaves it at 26 "w"s, with the
    // room right of the Date column empty).
    QObject::connect(files, &QFileSystemModel::directoryLoaded, list, [list] {
        int others = 0;
        for (int column = 1; column < list->header()->count(); ++column)
            if (!list->isColumnHidden(column)) {
                list->setColumnWidth(column,
                                     std::max(list->columnWidth(column), static_cast<const QAbstractItemView*>(list)->sizeHintForColumn(column)));
                others += list->columnWidth(column);
            }
        list->setColumnWidth(0, std::max(list->columnWidth(0), list->viewport()->width() - others));
    });
}

void rememberFileDialog(const QFileDialog& dialog)
{
    QSettings settings;
    settings.setValue(kGeometryKey, dialog.saveGeometry());
    settings.setValue(kStateKey, dialog.saveState());
}

} // namespace vtxw
