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
const char* const kSizeKey = "fileDialog/size";
constexpr int kMinWidth = 860, kMinHeight = 540;
} // namespace

void fitFileDialog(QFileDialog& dialog, const QWidget* parent)
{
    const QWidget* window = parent ? parent->window() : nullptr;
    const QScreen* screen = window ? window->screen() : dialog.screen();
    const QRect room = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 800);
    // The size only: a restored position (restoreGeometry) marks the dialog as moved, and
    // QDialog then no longer centres it over the window, as the static functions do.
    QSize size = QSettings().value(kSizeKey).toSize();
    if (!size.isValid()) {
        const QSize base = window ? window->size() : room.size();
        size = {std::max(base.width() * 2 / 3, kMinWidth), std::max(base.height() * 2 / 3, kMinHeight)};
    }
    dialog.resize(size.boundedTo(room.size()));
    // The view mode, history and column widths the user left are Qt's own to keep: every
    // QFileDialog saves them when it closes and reads them when it opens.
    // The detail view's columns (Qt's names in its own dialog; absent from others): Size,
    // Type and Date at least as wide as what they list, never narrower than the user made them.
    auto* list = dialog.findChild<QTreeView*>(QStringLiteral("treeView"));
    auto* files = dialog.findChild<QFileSystemModel*>();
    if (!list || !files)
        return;
    // The Name column then takes what is left of the view (Qt leaves it at 26 "w"s, with the
    // room right of the Date column empty), not a stretched last column.
    list->header()->setStretchLastSection(false);
    QObject::connect(files, &QFileSystemModel::directoryLoaded, list, [list] {
        // sizeHintForColumn is public in QAbstractItemView, protected in QTreeView.
        const auto* view = static_cast<const QAbstractItemView*>(list);
        int others = 0;
        for (int column = 1; column < list->header()->count(); ++column)
            if (!list->isColumnHidden(column)) {
                list->setColumnWidth(column, std::max(list->columnWidth(column), view->sizeHintForColumn(column)));
                others += list->columnWidth(column);
            }
        list->setColumnWidth(0, std::max(list->columnWidth(0), list->viewport()->width() - others));
    });
}

void rememberFileDialog(const QFileDialog& dialog)
{
    QSettings().setValue(kSizeKey, dialog.size());
}

} // namespace vtxw
