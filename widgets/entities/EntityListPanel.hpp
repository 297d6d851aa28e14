// SPDX-License-Identifier: MIT
#pragma once
// The Entities dock: the shown frame's entities by bucket, with the filter field above them. It
// shows the view state's shown frame and selection and sets the view state's selection and
// filter; the list keeps the selected entity's row current while frames and the filter add and
// remove rows (Qt would move the current row to a neighbour, which is not the user choosing).

#include "entities/EntityTreeModel.hpp"

#include "common/HintTreeView.hpp"

#include <QWidget>

class QLabel;
class QLineEdit;
class QMenu;
class QTreeView;

namespace vtxw {

class ViewState;

class EntityListPanel : public QWidget {
    Q_OBJECT
public:
    explicit EntityListPanel(ViewState* view, QWidget* parent = nullptr);

    EntityTreeModel* model() const { return m_model; }
    EntityFilterProxy* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    QLineEdit* filterField() const { return m_filter; }
    /// "Frame N is unavailable: the list is frame M's", shown only then.
    QLabel* staleNote() const { return m_staleNote; }

    /// Makes the selected entity's row current again (when it is listed).
    void restoreSelection();
    /// Enter in the filter: the first entity listed becomes current and takes the focus.
    void focusFirstMatch();
    /// The row's context menu: "Name Player entities by" each string property of the type, or
    /// by their id (checked: the current choice). Null for a bucket row or without a schema.
    QMenu* labelMenu(int typeId, QWidget* parent);

signals:
    /// The filter's expression error, empty when it compiles (or is one word).
    void filterErrorChanged(const QString& error);
    /// Something to say in the status bar for `timeoutMs`.
    void message(const QString& text, int timeoutMs);

private:
    void applyFilter(const QString& text);
    /// What the empty list says: no replay open, or no entity passing the filter.
    void updateHint();
    /// The note and greyed rows at a frame that cannot be read (the list is the last frame's).
    void showWhetherStale();

    ViewState* m_viewState;
    EntityTreeModel* m_model;
    EntityFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QLabel* m_staleNote;
    HintTreeView* m_view;
    bool m_rowsChanging = false; ///< the proxy is adding or removing rows
    bool m_selectionRestoreQueued = false; ///< a restoreSelection() is posted for after the proxy's update
};

} // namespace vtxw
