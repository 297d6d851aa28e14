// SPDX-License-Identifier: MIT
#pragma once
// The property inspector: every property of the selected entity at the displayed frame, with a
// "loading" hint while the exact frame decodes, value flashes on change, and a context menu to
// copy a value or path, watch it, or plot it.

#include "entities/EntityTreeModel.hpp"
#include "entities/PropertyTreeModel.hpp"

#include <QSet>
#include <QWidget>

class QLabel;
class QTreeView;

namespace vtxw {

class ElidedLabel;

class ByteInspector;
class ReplaySession;
class ViewState;

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    /// The header above the tree: the entity's label in the shown frame, its id and type.
    QString headerText() const;
    /// Observes `view`: shows its selection in its shown frame (found there, not pushed).
    InspectorPanel(ReplaySession* session, ViewState* view, QWidget* parent = nullptr);
    void setEntity(const EntityKey& key);
    const EntityKey& entity() const { return m_entity; }
    PropertyTreeModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    /// The hex view under the tree: visible while the current row is byte data.
    ByteInspector* byteInspector() const { return m_bytes; }
    void setFlashChanges(bool on) { m_flash = on; }
    /// The path of the property under the cursor (for keyboard actions), or empty.
    QString currentPath() const;
    /// Re-reads the entity from the shown frame (runs on every shown-frame change).
    void refresh();

signals:
    void watchRequested(const EntityKey& entity, const QString& path);
    void plotRequested(const EntityKey& entity, const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// ← on an expanded row or → on a collapsed one that has children: the tree's key (collapse,
    /// expand); every other ← / → steps frames.
    bool treeTakesKey(int key) const;
    void showMenu(const QPoint& pos);
    void rememberView();
    void restoreView();
    void updateByteInspector();
    /// The same entity one frame before the shown one (null when unknown yet: requested).
    vtx::ContainerView previousContainer();
    ReplaySession* m_session;
    ViewState* m_viewState;
    PropertyTreeModel* m_model;
    QTreeView* m_view;
    ByteInspector* m_bytes;
    ElidedLabel* m_header;
    QLabel* m_loading;
    QLabel* m_damage; ///< shown when the entity's stored hash disagrees with its values
    EntityKey m_entity;
    QSet<QString> m_expanded;
    // What a rebuild (an array or map changed length) must not lose: by path, not by row.
    QString m_currentPath;
    QString m_topPath;
    vtx::FrameHandle m_previous; ///< frame N−1 of the shown frame, for the changed marks
    int m_previousRequested = -1;
    bool m_flash = true;
};

} // namespace vtxw
