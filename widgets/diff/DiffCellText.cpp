// SPDX-License-Identifier: MIT
#include "diff/DiffCellText.hpp"

#include "diff/DiffModel.hpp"

#include <QApplication>
#include <QFontMetrics>
#include <QHeaderView>
#include <QPainter>
#include <QStyle>
#include <QTreeView>
#include <algorithm>

namespace vtxw {

namespace {
bool partOfNumber(QChar c)
{
    return c.isDigit() || c == QLatin1Char('.') || c == QLatin1Char('-') || c == QLatin1Char('+') || c == QChar(0x2212) || c == QLatin1Char('e') ||
        c == QLatin1Char('E');
}
} // namespace

int differenceStart(const QString& text, const QString& other)
{
    const qsizetype n = std::min(text.size(), other.size());
    qsizetype p = 0;
    while (p < n && text[p] == other[p])
        ++p;
    if (p == text.size() && p == other.size())
        return 0;
    // The group holding it: back to its "(" and the letters naming the group ("R(").
    const qsizetype open = p == 0 ? -1 : text.lastIndexOf(QLatin1Char('('), p - 1);
    if (open <= 0)
        return 0;
    qsizetype start = open;
    while (start > 0 && text[start - 1].isLetter())
        --start;
    return int(start);
}

int firstChangedComponent(const QString& delta)
{
    // Components are the numbers between "(" or ", " and the next "," or ")".
    qsizetype i = 0;
    bool first = true;
    while (i < delta.size()) {
        if (!partOfNumber(delta[i]) || delta[i].isLetter()) {
            ++i;
            continue;
        }
        qsizetype end = i;
        while (end < delta.size() && partOfNumber(delta[end]))
            ++end;
        bool ok = false;
        const double v = QString(delta.mid(i, end - i)).replace(QChar(0x2212), QLatin1Char('-')).toDouble(&ok);
        if (ok && v != 0) {
            // With the sign that names it: a rotation's angle reads "∠1.27°".
            qsizetype start = i;
            while (start > 0 && delta[start - 1] != QLatin1Char(' ') && delta[start - 1] != QLatin1Char(',') && delta[start - 1] != QLatin1Char('('))
                --start;
            return first ? 0 : int(start);
        }
        first = false;
        i = end;
    }
    return 0;
}

QString focusedCellText(const QString& text, int from, const QFontMetrics& fm, int width)
{
    if (fm.horizontalAdvance(text) <= width || from <= 0 || from >= text.size())
        return fitNumbers(text, fm, width);
    return fitNumbers(QStringLiteral("…") + text.mid(from), fm, width);
}

DiffCellDelegate::DiffCellDelegate(QObject* parent) : NumberFitDelegate({DiffModel::AColumn, DiffModel::BColumn, DiffModel::DeltaColumn}, parent) { }

QRect entityNameSpan(const QTreeView& view, const QModelIndex& index)
{
    if (!index.isValid() || index.parent().isValid() || index.data(DiffModel::StatusRole).toString() != QLatin1String("changed"))
        return {};
    const QHeaderView* header = view.header();
    if (header->visualIndex(DiffModel::AColumn) != header->visualIndex(DiffModel::NameColumn) + 1 ||
        header->visualIndex(DiffModel::BColumn) != header->visualIndex(DiffModel::AColumn) + 1)
        return {};
    const QRect name = view.visualRect(index.siblingAtColumn(DiffModel::NameColumn));
    const QRect b = view.visualRect(index.siblingAtColumn(DiffModel::BColumn));
    if (name.isEmpty() || b.isEmpty())
        return {};
    return QRect(name.topLeft(), QPoint(b.right(), name.bottom()));
}

void DiffCellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const auto* tree = qobject_cast<const QTreeView*>(option.widget);
    const QRect span = tree && index.column() <= DiffModel::BColumn ? entityNameSpan(*tree, index) : QRect();
    if (span.isNull()) {
        NumberFitDelegate::paint(painter, option, index);
        return;
    }
    // Each of the three cells draws the name laid out across all three, clipped to itself: its
    // background, selection and focus stay the cell's own, and the name reads on over A and B.
    // No view spans: QTreeView keeps one persistent index per spanned row, thousands per
    // frame during playback.
    QStyleOptionViewItem name = option;
    name.rect = span;
    initStyleOption(&name, index.siblingAtColumn(DiffModel::NameColumn));
    painter->save();
    painter->setClipRect(option.rect, Qt::IntersectClip);
    QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &name, painter, option.widget);
    painter->restore();
}

void DiffCellDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    unfittedStyleOption(option, index);
    if (!option->rect.isValid() || option->text.isEmpty()) {
        fit(option, index);
        return;
    }
    // Only a cell that does not fit asks where its value changed (the role formats both values),
    // and its numbers are fitted once, by focusedCellText.
    const int width = textWidth(*option);
    const int from = option->fontMetrics.horizontalAdvance(option->text) > width ? index.data(DiffModel::DifferenceAtRole).toInt() : 0;
    if (from <= 0) {
        fit(option, index);
        return;
    }
    option->text = focusedCellText(option->text, from, option->fontMetrics, width);
    option->textElideMode = Qt::ElideRight;
}

} // namespace vtxw
