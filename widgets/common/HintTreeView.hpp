// SPDX-License-Identifier: MIT
#pragma once
// A tree view that says what to do while it has no rows ("Press A to pin frame A…"), in its own
// viewport instead of a label above it: the label took three lines of a short dock's height
// even when the list below it was full (issue 26 item 3: the diff showed no rows at 1024×700).

#include <QTreeView>

namespace vtxw {

/// Paints rich text `html` centred in `view`'s viewport, in the placeholder colour (from the
/// top when the viewport is shorter than the text); for a view's paintEvent, after its rows.
/// `shortHtml`, when given, is painted instead where `html` would not fit the viewport's
/// height: the Watch dock's three-line hint was cut in half mid-line at 1024 × 700.
void paintViewHint(QAbstractItemView& view, const QString& html, const QString& shortHtml = {});
/// The text paintViewHint paints in `view` now: `html`, or `shortHtml` (when given) if `html`
/// is taller than the viewport.
QString fittingViewHint(const QAbstractItemView& view, const QString& html, const QString& shortHtml);
/// The height `html` takes in `view`'s viewport, as paintViewHint lays it out, and the height
/// it has for it.
QSizeF viewHintSize(const QAbstractItemView& view, const QString& html);
int viewHintRoom(const QAbstractItemView& view);

class HintTreeView : public QTreeView {
    Q_OBJECT
public:
    using QTreeView::QTreeView;

    /// Rich text shown centred in the viewport while the model has no rows; empty hides it.
    void setHint(const QString& text);
    QString hint() const { return m_hint; }
    /// True when the hint is on screen now (set, and no rows).
    bool isHintShown() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_hint;
};

} // namespace vtxw
