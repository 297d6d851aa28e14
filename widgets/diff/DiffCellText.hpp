// SPDX-License-Identifier: MIT
#pragma once
// A diff cell too narrow for its value shows the part that changed. A transform whose rotation
// changed read "T(0, 0, 93) R(…" in A and the same in B, with Δ "(0, 0, 0)…": a change that
// looked like none (review 4, item 6). Cut, A and B show the group that differs on
// ("…R(-0, 0.0156, 0.0312, 1) S(1, 1, 1)") and Δ its first non-zero component ("…∠1.27°"); the model's
// text, the tooltip, copies and exports keep the whole value.

#include "common/NumberFitDelegate.hpp"

#include <QRect>
#include <QString>

class QFontMetrics;
class QTreeView;

namespace vtxw {

/// Where the part of `text` that differs from `other` starts: the start of the group ("R(" of
/// a transform, "(" of a vector) holding the first character that differs; 0 when that is the
/// first group, or the texts are the same.
int differenceStart(const QString& text, const QString& other);
/// Where a delta's first non-zero component starts ("(0, 0, 0, 0, +0.0078, …" → at "+0.0078",
/// "(0, 0, 0) ∠1.27°" → at "∠"); 0 when that is the first component or none is non-zero.
int firstChangedComponent(const QString& delta);
/// `text` as a cell of `width` shows it: whole when it fits; else from `from` on behind "…"
/// (when from > 0), its numbers shortened to fit (fitNumbers), and what still does not fit
/// cut at its end by the view.
QString focusedCellText(const QString& text, int from, const QFontMetrics& fm, int width);

/// Where a changed entity's name is laid out in `view`: across its row's name, A and B cells
/// (empty for such a row), or a null rect for any other row, or when the user moved the
/// columns out of that order. Cut to its own column the name read "s1mple · p…0000" beside
/// two empty cells (review 4, item 6).
QRect entityNameSpan(const QTreeView& view, const QModelIndex& index);

/// The diff view's delegate: numbers fitted in the A, B and Δ columns, from where the value
/// changed (DiffModel::DifferenceAtRole) when the whole does not fit. A changed entity's name
/// reads across its empty A and B cells (entityNameSpan); its Δ ("29 changes") stays its own.
class DiffCellDelegate : public NumberFitDelegate {
public:
    explicit DiffCellDelegate(QObject* parent);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace vtxw
