// SPDX-License-Identifier: MIT
#include "analysis/AnalysisPanel.hpp"
#include "session/ViewState.hpp"

#include "common/CsvFile.hpp"
#include "common/ExportPath.hpp"
#include "common/Prompts.hpp"
#include "session/JobProgress.hpp"
#include "session/ReplaySession.hpp"

#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <sstream>

namespace vtxw {

AnalysisPanel::AnalysisPanel(ReplaySession* session, ViewState* view, QWidget* parent)
    : QWidget(parent), m_session(session), m_viewState(view), m_model(new AnalysisModel(this)), m_proxy(new QSortFilterProxyModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 1, 2, 1); // one row above the table: the window must fit 800 × 600
    layout->setSpacing(1);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(tr("Analysis ▸ Entity lifetimes, Unique values… or Property spans…"), this);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter rows"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(240);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setVisible(false);
    m_csv = new QPushButton(tr("CSV…"), this);
    m_csv->setEnabled(false);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setMinimumWidth(60);
    m_status = new QLabel(this);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    top->addWidget(m_title, 1);
    top->addWidget(m_status, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancelButton);
    top->addWidget(m_filter);
    top->addWidget(m_csv);
    layout->addLayout(top);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AnalysisModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder); // Qt starts descending
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    // Rows a line of text high: the style's default (30 px here) showed 6 of 49 lifetimes.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setMinimumHeight(24);
    layout->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] { m_status->setText(tableStatus()); });
    connect(m_filter, &QLineEdit::textChanged, this, [this] { m_status->setText(tableStatus()); });
    connect(m_cancelButton, &QPushButton::clicked, this, &AnalysisPanel::cancel);
    connect(m_csv, &QPushButton::clicked, this, [this] {
        const QString path = askExportPath(this, tr("Export analysis as CSV"), m_session->path(), QStringLiteral("analysis.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            m_status->setText(error);
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const int column = m_model->columnNamed(QStringLiteral("first frame"));
        if (column >= 0)
            emit seekRequested(m_proxy->index(index.row(), column).data(AnalysisModel::SortRole).toInt());
    });
    connect(session, &ReplaySession::closed, this, [this] {
        m_jobs.cancel();
        m_progress->setVisible(false);
        setRunning(false);
        m_model->setTable({});
        m_shownTitle.clear();
        m_title->setText(tr("Analysis ▸ Entity lifetimes, Unique values… or Property spans…"));
        m_csv->setEnabled(false);
        m_status->clear();
    });
}

AnalysisPanel::~AnalysisPanel()
{
    m_jobs.cancel();
}

QString AnalysisPanel::title() const
{
    return m_title->text();
}

QString AnalysisPanel::statusText() const
{
    return m_status->text();
}

QString AnalysisPanel::tableStatus() const
{
    const vtx::AnalysisTable& t = m_model->table();
    if (m_shownTitle.isEmpty())
        return {};
    QString s = m_proxy->rowCount() == m_model->rowCount() ? tr("%n row(s)", nullptr, m_model->rowCount())
                                                           : tr("%1 of %2 rows").arg(m_proxy->rowCount()).arg(m_model->rowCount());
    if (!t.failed.empty()) {
        int64_t frames = 0;
        for (const vtx::FrameSpan& f : t.failed)
            frames += int64_t(f.last) - f.first + 1;
        s += tr("  ·  ⚠ %n frame(s) could not be read and are not counted (first: %1–%2: %3)", nullptr, int(frames))
                 .arg(t.failed.front().first)
                 .arg(t.failed.front().last)
                 .arg(QString::fromStdString(t.failed.front().reason));
    }
    return s;
}

void AnalysisPanel::run(const QString& title, Work work)
{
    auto file = m_session->file();
    if (!file)
        return;
    m_title->setText(tr("%1 (computing…)").arg(title));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    setRunning(true);
    QPointer<AnalysisPanel> self(this);
    m_jobs.runLatest(
        [file, work = std::move(work), bar = QPointer<QProgressBar>(m_progress)](const JobToken& job) {
            vtx::WalkControl control = walkControlFor(job, bar);
            return work(*file, control);
        },
        [self, title, buckets = file->schema().bucketNames()](
            vtx::Result<vtx::AnalysisTable> r) { // superseded: the newer one reports; cancelled: cancel() restored the title
            self->m_progress->setVisible(false);
            self->setRunning(false);
            if (!r) {
                self->m_title->setText(self->m_shownTitle.isEmpty() ? title : self->m_shownTitle);
                self->m_status->setText(tr("%1: %2").arg(title, QString::fromStdString(r.message())));
                emit self->finished();
                return;
            }
            self->m_shownTitle = title;
            self->m_title->setText(title);
            self->m_model->setTable(std::move(*r), buckets); // the names of the file it was computed on
            self->m_view->resizeColumnsToContents();
            // A new table starts at its top-left, not where the previous one was scrolled to.
            self->m_view->scrollToTop();
            self->m_view->horizontalScrollBar()->setValue(0);
            self->m_csv->setEnabled(true);
            self->m_status->setText(self->tableStatus());
            emit self->finished();
        });
}

void AnalysisPanel::setRunning(bool running)
{
    m_cancelButton->setVisible(running);
    emit runningChanged(running);
}

void AnalysisPanel::cancel()
{
    m_jobs.cancel();
    m_progress->setVisible(false);
    setRunning(false);
    // The table on screen is still the previous analysis: so is the title.
    m_title->setText(m_shownTitle.isEmpty() ? tr("Analysis cancelled") : m_shownTitle);
}

std::shared_ptr<const vtx::EntityLabels> AnalysisPanel::labelsForJob() const
{
    if (!m_viewState || !m_viewState->schema() || m_viewState->entityLabels().empty())
        return nullptr;
    return std::make_shared<const vtx::EntityLabels>(m_viewState->entityLabels());
}

void AnalysisPanel::runLifetimes()
{
    run(tr("Entity lifetimes"), [labels = labelsForJob()](const vtx::ReplayFile& file, const vtx::WalkControl& c) -> vtx::Result<vtx::AnalysisTable> {
        return vtx::lifetimesTable(vtx::entityLifetimes(file, c, labels.get()));
    });
}

void AnalysisPanel::runUniqueValues(const vtx::UniqueValuesRequest& request)
{
    QStringList paths;
    for (const std::string& p : request.paths)
        paths << QString::fromStdString(p);
    QString title = tr("Unique values of (%1)").arg(paths.join(QStringLiteral(", ")));
    if (!request.type.empty())
        title += tr(" for %1").arg(QString::fromStdString(request.type));
    run(title, [request](const vtx::ReplayFile& file, const vtx::WalkControl& c) -> vtx::Result<vtx::AnalysisTable> {
        auto r = vtx::uniqueValues(file, request, c);
        if (!r)
            return r.status();
        return vtx::uniqueValuesTable(request, *r);
    });
}

void AnalysisPanel::runPropertySpans(const vtx::PropertySpansRequest& request)
{
    QString title = tr("Spans of %1").arg(QString::fromStdString(request.path));
    if (!request.type.empty())
        title += tr(" for %1").arg(QString::fromStdString(request.type));
    run(title, [request, labels = labelsForJob()](const vtx::ReplayFile& file, const vtx::WalkControl& c) -> vtx::Result<vtx::AnalysisTable> {
        auto r = vtx::propertySpans(file, request, c, labels.get());
        if (!r)
            return r.status();
        return vtx::propertySpansTable(*r);
    });
}

namespace {
/// Asks for a line of text, offering the last answer kept under `key` in QSettings; the new
/// answer is kept. Empty when cancelled or blank.
QString askRemembered(QWidget* parent, const char* key, const QString& title, const QString& label)
{
    QString text = QSettings().value(key).toString();
    if (!prompts().askText(parent, title, label, text) || text.trimmed().isEmpty())
        return {};
    QSettings().setValue(key, text);
    return text;
}
} // namespace

bool AnalysisPanel::askUniqueValues()
{
    const QString text = askRemembered(this, "analysis/uniqueValues", tr("Unique values"),
                                       tr("Properties to group entities by, comma-separated; optionally a type first:\n"
                                          "  Team, IsAlive      Player: Team, Weapon.Name"));
    if (text.isEmpty())
        return false;
    vtx::UniqueValuesRequest request;
    QString paths = text;
    if (const int colon = text.indexOf(':'); colon > 0 && !text.left(colon).contains(',')) {
        request.type = text.left(colon).trimmed().toStdString();
        paths = text.mid(colon + 1);
    }
    for (const QString& p : paths.split(',', Qt::SkipEmptyParts))
        if (!p.trimmed().isEmpty())
            request.paths.push_back(p.trimmed().toStdString());
    runUniqueValues(request);
    return true;
}

bool AnalysisPanel::askPropertySpans()
{
    const QString text = askRemembered(this, "analysis/spans", tr("Property spans"),
                                       tr("The property whose runs of equal value to list per entity; optionally a type first:\n"
                                          "  Health      Player: Weapon.Name"));
    if (text.isEmpty())
        return false;
    vtx::PropertySpansRequest request;
    QString path = text;
    if (const int colon = text.indexOf(':'); colon > 0) {
        request.type = text.left(colon).trimmed().toStdString();
        path = text.mid(colon + 1);
    }
    request.path = path.trimmed().toStdString();
    runPropertySpans(request);
    return true;
}

bool AnalysisPanel::exportCsv(const QString& path, QString* error) const
{
    // What the view shows: the rows the filter keeps, in the view's sort order.
    vtx::AnalysisTable shown;
    shown.columns = m_model->table().columns;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        shown.rows.push_back(m_model->table().rows[size_t(m_proxy->mapToSource(m_proxy->index(r, 0)).row())]);
    return saveCsvFile(shown, path, error);
}

} // namespace vtxw
