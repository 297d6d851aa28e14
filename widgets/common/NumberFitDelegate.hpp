// SPDX-License-Identifier: MIT
#pragma once
// Values in a column too narrow for them: a vector or transform shows fewer decimals before the
// view elides it. Elided in the middle, "(-37.17…930603)" and "T(-19…1, 1)" read only through
// the tooltip; with two decimals, then one, then none, "(-37.17, 12.5, 930603.1)" becomes
// "(-37.2, 12.5, 930603)" and stays whole. The model's text (and the tooltip, copies and exports)
// keep every digit; quoted strings are left to the view's eliding.

#include <QList>
#include <QStyledItemDelegate>

namespace vtxw {

/// `text` as shown in `width` px of `font`: itself when it fits, else with at most 3, 2, 1 or 0
/// decimals per number (vtx::withDecimalsAtMost), the first that fits, or the 0-decimal form
/// for the view to elide.
QString fitNumbers(const QString& text, const QFontMetrics& metrics, int width);

class NumberFitDelegate : public QStyledItemDelegate {
public:
    /// Fits the text of `columns` (the value columns; names and ids keep their digits).
    NumberFitDelegate(QList<int> columns, QObject* parent);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
    /// The text of `option` fitted to the cell's text rectangle, if `index` is in one of the
    /// columns: for subclasses that change the text first.
    void fit(QStyleOptionViewItem* option, const QModelIndex& index) const;
    /// The width `option`'s text is drawn in: its text rectangle (the cell less the decoration)
    /// less the text margin on both sides, as QCommonStyle lays out and elides an item's text.
    static int textWidth(const QStyleOptionViewItem& option);
    /// Qt's own style option, before any fitting: for subclasses that change the text and then
    /// fit it themselves.
    void unfittedStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const { QStyledItemDelegate::initStyleOption(option, index); }

private:
    QList<int> m_columns;
};

} // namespace vtxw
