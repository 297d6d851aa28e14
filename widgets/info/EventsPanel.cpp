// SPDX-License-Identifier: MIT
#include "info/EventsPanel.hpp"

#include "info/EventsModel.hpp"

#include <QHeaderView>

namespace vtxw {

EventsPanel::EventsPanel(EventsModel* model, QWidget* parent) : QTableView(parent)
{
    setModel(model);
    horizontalHeader()->setSectionResizeMode(EventsModel::LabelColumn, QHeaderView::Stretch);
    // As wide as its widest: "899 · past the end" was cut to "899 · past th…" in 100 px.
    horizontalHeader()->setSectionResizeMode(EventsModel::FrameColumn, QHeaderView::ResizeToContents);
    verticalHeader()->hide();
    setWordWrap(false);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    auto seek = [this](const QModelIndex& i) { emit seekRequested(i.data(EventsModel::FrameRole).toInt()); };
    connect(this, &QTableView::activated, this, seek);
    connect(this, &QTableView::clicked, this, seek);
    setMinimumHeight(40);
}

} // namespace vtxw
