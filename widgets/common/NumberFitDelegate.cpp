// SPDX-License-Identifier: MIT
#include "common/NumberFitDelegate.hpp"

#include "vtx/base/NumberText.hpp"

#include <QApplication>
#include <QFontMetrics>
#include <QStyle>

namespace vtxw {

QString fitNumbers(const QString& text, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width || text.contains(QLatin1Char('"')))
        return text;
    const std::string utf8 = text.toStdString();
    QString shorter = text;
    for (int decimals = 3; decimals >= 0; --decimals) {
        shorter = QString::fromStdString(vtx::withDecimalsAtMost(utf8, decimals));
        if (metrics.horizontalAdvance(shorter) <= width)
            return shorter;
    }
    return shorter;
}

int NumberFitDelegate::textWidth(const QStyleOptionViewItem& option)
{
    const QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option.widget) + 1;
    return style->subElementRect(QStyle::SE_ItemViewItemText, &option, option.widget).width() - 2 * margin;
}

NumberFitDelegate::NumberFitDelegate(QList<int> columns, QObject* parent) : QStyledItemDelegate(parent), m_columns(std::move(columns)) { }

void NumberFitDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    fit(option, index);
}

void NumberFitDelegate::fit(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    if (!m_columns.contains(index.column()) || option->text.isEmpty() || !option->rect.isValid())
        return;
    option->text = fitNumbers(option->text, option->fontMetrics, textWidth(*option));
    // What still does not fit keeps its start: a transform's translation, a vector's x.
    option->textElideMode = Qt::ElideRight;
}

} // namespace vtxw
