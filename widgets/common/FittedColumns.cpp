// SPDX-License-Identifier: MIT
#include "common/FittedColumns.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

#include <algorithm>

namespace vtxw {

FittedColumns::FittedColumns(QTreeView* view, Rule rule) : FittedColumns(view, view->header(), std::move(rule)) { }

FittedColumns::FittedColumns(QTableView* view, Rule rule) : FittedColumns(view, view->horizontalHeader(), std::move(rule)) { }

FittedColumns::FittedColumns(QAbstractItemView* view, QHeaderView* header, Rule rule)
    : QObject(view), m_header(header), m_viewport(view->viewport()), m_headerViewport(header->viewport()), m_rule(std::move(rule))
{
    m_viewport->installEventFilter(this);
    m_headerViewport->installEventFilter(this);
    // A section resized while a button is down on the header is the user's drag (or the
    // double-click that fits a column to its contents); the view's own stretching of its last
    // section, and our rule, resize sections with no button down.
    connect(header, &QHeaderView::sectionResized, this, [this] {
        if (m_pressed && !m_fitting)
            m_userSized = true;
    });
    fit();
}

void FittedColumns::reset()
{
    m_userSized = false;
    fit();
}

void FittedColumns::fit()
{
    if (m_userSized)
        return;
    m_fitting = true;
    m_rule(m_viewport->width());
    // A stretched last section shrinks no further than the size it was last given (Qt keeps it
    // and stretches from there): the diff's Δ stayed at 100 px in a 540 px view where the rule
    // left it 75, past the view's edge with its right-aligned numbers out of sight. It is given
    // what the rule left.
    QHeaderView* header = m_header;
    int last = -1;
    for (int visual = header->count() - 1; visual >= 0 && last < 0; --visual)
        if (!header->isSectionHidden(header->logicalIndex(visual)))
            last = header->logicalIndex(visual);
    if (header->stretchLastSection() && last >= 0) {
        const int others = header->length() - header->sectionSize(last);
        header->resizeSection(last, std::max(header->minimumSectionSize(), m_viewport->width() - others));
    }
    m_fitting = false;
}

bool FittedColumns::eventFilter(QObject* watched, QEvent* event)
{
    // Compared with the pointers kept at construction, never through the view: the viewports,
    // older children than this filter, are deleted first when the view goes, and send their
    // last events once the view is no longer a QAbstractScrollArea (UBSan: a member call on it).
    if (watched == m_viewport && event->type() == QEvent::Resize)
        fit();
    if (watched == m_headerViewport) {
        switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonDblClick: m_pressed = true; break;
        case QEvent::MouseButtonRelease: m_pressed = false; break;
        default: break;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace vtxw
