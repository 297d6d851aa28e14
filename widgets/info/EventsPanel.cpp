// SPDX-License-Identifier: MIT
#include "info/EventsPanel.hpp"

#include "info/EventsModel.hpp"

#include <QHeaderView>

namespace vtxw {

EventsPanel::EventsPanel(EventsModel* model, QWidget* parent) : QTableView(parent)
{
    setModel(model);
    horizontalHeader()->setSectionResizeMode(EventsModel::LabelColumn, QHeaderView::Stretch);
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
