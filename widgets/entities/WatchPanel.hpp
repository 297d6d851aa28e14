// SPDX-License-Identifier: MIT
#pragma once
// The Watch dock: the watched properties of the shown frame, with Delete to remove a watch and
// a context command to plot the selected ones.

#include "entities/EntityTreeModel.hpp"

#include <QTableView>

namespace vtxw {

class WatchModel;

class WatchPanel : public QTableView {
    Q_OBJECT
public:
    explicit WatchPanel(WatchModel* model, QWidget* parent = nullptr);

signals:
    void plotRequested(const EntityKey& entity, const QString& path);

private:
    void removeSelected();
    void plotSelected();
    WatchModel* m_model;
};

} // namespace vtxw
