// SPDX-License-Identifier: MIT
#pragma once
// Column widths that follow a tree view's width until the user sizes a column. Fixed widths
// (the diff's 190 + 130 + 130 px) cut off the B and Δ columns of a 368 px dock at 1024 px, and
// left the Δ column out at 1280 px; widths given once were lost when the dock changed size.
// A rule maps the viewport's width to the columns' widths; it runs on every resize of the view
// until the user drags or double-clicks a column's edge, after which the widths are theirs.

#include <QObject>

#include <functional>

class QAbstractItemView;
class QHeaderView;
class QTreeView;
class QTableView;
class QWidget;

namespace vtxw {

class FittedColumns : public QObject {
    Q_OBJECT
public:
    /// Sets the view's columns for a viewport `width` px wide (QHeaderView::resizeSection,
    /// setSectionHidden on the view's horizontal header).
    using Rule = std::function<void(int width)>;

    /// Fits `view`'s columns with `rule` now and whenever its viewport is resized.
    FittedColumns(QTreeView* view, Rule rule);
    FittedColumns(QTableView* view, Rule rule);

    /// The user sized a column: the rule no longer runs.
    bool userSized() const { return m_userSized; }
    /// Follow the view's width again (and fit now).
    void reset();
    /// Fit again now, unless the user sized a column: for rules that read the rows (the
    /// inspector's Type column is as wide as the widest type shown).
    void refit() { fit(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    FittedColumns(QAbstractItemView* view, QHeaderView* header, Rule rule);
    void fit();
    QHeaderView* m_header;
    QWidget* m_viewport; ///< the view's, as at construction (see eventFilter)
    QWidget* m_headerViewport;
    Rule m_rule;
    bool m_fitting = false; ///< our own resizeSection calls, not the user's
    bool m_pressed = false; ///< a mouse button is down on the header
    bool m_userSized = false;
};

} // namespace vtxw
