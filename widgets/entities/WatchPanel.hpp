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
    /// What the panel says while nothing is watched, and its one-line form for a short dock.
    static QString hint();
    static QString shortHint();

signals:
    void plotRequested(const EntityKey& entity, const QString& path);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void removeSelected();
    void plotSelected();
    WatchModel* m_model;
};

} // namespace vtxw
