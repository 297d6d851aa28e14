// SPDX-License-Identifier: MIT
#pragma once
// The Events dock: the replay's events, one row each; a click or Enter seeks to its frame.

#include <QTableView>

namespace vtxw {

class EventsModel;

class EventsPanel : public QTableView {
    Q_OBJECT
public:
    explicit EventsPanel(EventsModel* model, QWidget* parent = nullptr);

signals:
    void seekRequested(int frame);
};

} // namespace vtxw
