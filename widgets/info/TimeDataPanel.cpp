// SPDX-License-Identifier: MIT
#include "info/TimeDataPanel.hpp"

#include "info/TimeDataModel.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace vtxw {

TimeDataPanel::TimeDataPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    layout->addWidget(m_tabs);
    m_gaps = new TimeDataModel(TimeDataModel::Table::Gaps, this);
    m_segments = new TimeDataModel(TimeDataModel::Table::Segments, this);
    m_times = new TimeDataModel(TimeDataModel::Table::Times, this);
    auto table = [this](TimeDataModel* model, const QString& title) {
        auto* view = new QTableView(m_tabs);
        view->setModel(model);
        view->verticalHeader()->hide();
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
        view->horizontalHeader()->setStretchLastSection(true);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setSelectionMode(QAbstractItemView::SingleSelection);
        view->setWordWrap(false);
        view->setMinimumHeight(40); // a tab in the right column, which shares 600 px with the diff
        auto seek = [this](const QModelIndex& i) { emit seekRequested(i.data(TimeDataModel::FrameRole).toInt()); };
        connect(view, &QTableView::clicked, this, seek);
        connect(view, &QTableView::activated, this, seek);
        view->installEventFilter(this);
        connect(model, &QAbstractItemModel::modelReset, view, [view, model, title, this] {
            fitColumns(view);
            m_tabs->setTabText(m_tabs->indexOf(view),
                               model->table() == TimeDataModel::Table::Times ? title : QStringLiteral("%1 (%2)").arg(title).arg(model->rowCount()));
        });
        m_tabs->addTab(view, title);
    };
    table(m_gaps, tr("Gaps"));
    table(m_segments, tr("Segments"));
    table(m_times, tr("Times"));
    setMinimumHeight(40);
}

void TimeDataPanel::setFile(const std::shared_ptr<const vtx::ReplayFile>& file)
{
    for (TimeDataModel* m : {m_gaps, m_segments, m_times})
        m->setFile(file);
}

namespace {
const char* const kColumnsStale = "vtxscopeColumnsStale";
}

void TimeDataPanel::fitColumns(QTableView* view)
{
    const bool shown = view->isVisible();
    view->setProperty(kColumnsStale, !shown);
    if (shown)
        view->resizeColumnsToContents();
}

bool TimeDataPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Show)
        if (auto* view = qobject_cast<QTableView*>(watched); view && view->property(kColumnsStale).toBool())
            fitColumns(view);
    return QWidget::eventFilter(watched, event);
}

QTableView* TimeDataPanel::viewOf(TimeDataModel* model) const
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* v = qobject_cast<QTableView*>(m_tabs->widget(i)); v && v->model() == model)
            return v;
    return nullptr;
}

} // namespace vtxw
