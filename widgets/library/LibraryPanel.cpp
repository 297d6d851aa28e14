// SPDX-License-Identifier: MIT
#include "library/LibraryPanel.hpp"

#include "common/Prompts.hpp"

#include "vtx/file/ReplayFile.hpp"
#include "vtx/library/BaselineCheck.hpp"

#include <QAction>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace vtxw {
namespace {

const char* const kHeaderKey = "library/header";

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

/// What the listing job hands back at the end (the rows went ahead one by one).
struct ListingAnswer {
    std::vector<std::string> errors;
};

/// What the check job hands back at the end (the verdicts went ahead one by one).
struct CheckAnswer {
    std::string baselineError;
};

QToolButton* buttonFor(QAction* action, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setDefaultAction(action);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

} // namespace

LibraryPanel::LibraryPanel(QWidget* parent) : QWidget(parent), m_model(new LibraryModel(this)), m_proxy(new LibraryProxy(this))
{
    m_openAction = new QAction(tr("Open"), this);
    m_openAction->setShortcuts({QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}); // shown in the menu; eventFilter() takes the keys
    m_openAction->setShortcutContext(Qt::WidgetShortcut);
    m_openAction->setToolTip(tr("Open the current replay (Enter, double-click)"));
    m_compareAction = new QAction(tr("Compare"), this);
    m_compareAction->setToolTip(tr("Compare the two selected replays"));
    m_baselineAction = new QAction(tr("Use as baseline"), this);
    m_baselineAction->setToolTip(tr("The selected replay is the baseline the next check compares runs with"));
    m_checkAction = new QAction(tr("Check against baseline…"), this);
    m_checkAction->setToolTip(tr("Where each selected run first diverges from the baseline"));
    m_rescanAction = new QAction(tr("Read the folder again"), this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 1, 2, 1);
    layout->setSpacing(1);
    auto* top = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name, entity type or backend (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    top->addWidget(m_filter, 1);
    top->addWidget(buttonFor(m_openAction, this));
    top->addWidget(buttonFor(m_compareAction, this));
    top->addWidget(buttonFor(m_baselineAction, this));
    top->addWidget(buttonFor(m_checkAction, this));
    layout->addLayout(top);

    m_proxy->setSourceModel(m_model);
    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSortingEnabled(true);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addAction(m_openAction);
    m_view->addAction(m_compareAction);
    m_view->addAction(m_baselineAction);
    m_view->addAction(m_checkAction);
    auto* separator = new QAction(this);
    separator->setSeparator(true);
    m_view->addAction(separator);
    m_view->addAction(m_rescanAction);
    layout->addWidget(m_view, 1);

    auto* bottom = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setVisible(false);
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_progress);
    bottom->addWidget(m_cancelButton);
    layout->addLayout(bottom);

    QHeaderView* header = m_view->header();
    header->setSectionsMovable(true);
    header->setStretchLastSection(false);
    const QByteArray saved = QSettings().value(QLatin1String(kHeaderKey)).toByteArray();
    if (saved.isEmpty() || !header->restoreState(saved)) {
        // Widths for what the columns hold: Qt's 100 px cut the time of "2026-05-28 20:10:26"
        // and gave a frame count the room of a date.
        const QFontMetrics fm = m_view->fontMetrics();
        const int pad = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 8;
        auto fit = [&](int column, const QString& widest) {
            header->resizeSection(column, std::max(header->sectionSizeHint(column), fm.horizontalAdvance(widest) + pad));
        };
        fit(LibraryModel::Frames, QStringLiteral("1,000,000"));
        fit(LibraryModel::Duration, QStringLiteral("00:00:00.0"));
        fit(LibraryModel::Size, QStringLiteral("1,023.99 MiB"));
        fit(LibraryModel::Backend, QStringLiteral("FlatBuffers"));
        fit(LibraryModel::Recorded, QStringLiteral("2026-05-28 20:10:26"));
        header->resizeSection(LibraryModel::Name, 220);
        header->resizeSection(LibraryModel::EntityTypes, 200);
        header->resizeSection(LibraryModel::Integrity, 240);
        fit(LibraryModel::Divergence, QStringLiteral("frame 1,000,000"));
        header->resizeSection(LibraryModel::Entity, 220);
        header->resizeSection(LibraryModel::Property, 160);
        fit(LibraryModel::BaselineValue, QStringLiteral("(-1,234.56, 1,234.56, 12.5)"));
        fit(LibraryModel::RunValue, QStringLiteral("(-1,234.56, 1,234.56, 12.5)"));
        // A check's columns come right after the name, where a check's answer is read: after
        // Integrity they started at ~1,300 px, off-screen in a 1,280 px window. Hidden until a
        // check runs; a user's own order is kept (restoreState above).
        for (int c = LibraryModel::FirstColumnOfCheck; c < LibraryModel::ColumnCount; ++c)
            header->moveSection(header->visualIndex(c), 1 + (c - LibraryModel::FirstColumnOfCheck));
        m_view->sortByColumn(LibraryModel::Name, Qt::AscendingOrder); // Qt starts descending
    } else {
        m_view->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    }
    // The entity types take the width the other columns leave: at 1920 px they were cut while
    // 780 px to the right of Integrity stayed empty.
    header->setSectionResizeMode(LibraryModel::EntityTypes, QHeaderView::Stretch);
    showCheckColumns(false);
    m_headerSave = new QTimer(this);
    m_headerSave->setSingleShot(true);
    m_headerSave->setInterval(1000);
    connect(m_headerSave, &QTimer::timeout, this, &LibraryPanel::saveHeader);
    for (auto changed : {&QHeaderView::sectionResized, &QHeaderView::sectionMoved})
        connect(header, changed, m_headerSave, qOverload<>(&QTimer::start));
    connect(header, &QHeaderView::sortIndicatorChanged, m_headerSave, qOverload<>(&QTimer::start));

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_filter, &QLineEdit::textChanged, this, &LibraryPanel::updateStatus);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        m_view->setFocus(Qt::OtherFocusReason);
        if (!m_view->currentIndex().isValid() && m_proxy->rowCount() > 0)
            m_view->setCurrentIndex(m_proxy->index(0, 0));
    });
    // Ctrl+F and Enter are claimed before the window's shortcuts see them (its Ctrl+F finds an
    // entity): a shortcut of the panel beside one of the window would be ambiguous, and neither
    // would fire.
    m_view->installEventFilter(this);
    m_filter->installEventFilter(this);
    connect(m_openAction, &QAction::triggered, this, &LibraryPanel::openCurrent);
    connect(m_compareAction, &QAction::triggered, this, &LibraryPanel::compareSelected);
    connect(m_baselineAction, &QAction::triggered, this, [this] {
        const QStringList selected = selectedPaths();
        if (selected.size() == 1)
            setBaseline(selected.front());
    });
    connect(m_checkAction, &QAction::triggered, this, &LibraryPanel::checkAgainstBaseline);
    connect(m_rescanAction, &QAction::triggered, this, &LibraryPanel::rescan);
    connect(m_cancelButton, &QPushButton::clicked, this, &LibraryPanel::cancel);
    connect(m_view, &QAbstractItemView::clicked, this, &LibraryPanel::onClicked);
    connect(m_view, &QAbstractItemView::doubleClicked, this, &LibraryPanel::onDoubleClicked);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LibraryPanel::updateActions);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &LibraryPanel::updateActions);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &LibraryPanel::updateStatus);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &LibraryPanel::updateStatus);
    updateActions();
    updateStatus();
}

LibraryPanel::~LibraryPanel()
{
    m_listJobs.cancel();
    m_checkJobs.cancel();
    if (m_headerSave->isActive())
        saveHeader();
}

bool LibraryPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    const bool find = key->matches(QKeySequence::Find);
    const bool enter = (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && !(key->modifiers() & ~Qt::KeypadModifier);
    if (!find && !enter)
        return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // a key press for this widget, not a shortcut of the window
        return true;
    }
    if (enter && watched == m_filter)
        return false; // the field's own: returnPressed moves on to the rows
    if (find) {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    } else {
        openCurrent();
    }
    return true;
}

void LibraryPanel::saveHeader() const
{
    QSettings().setValue(QLatin1String(kHeaderKey), m_view->header()->saveState());
}

void LibraryPanel::showCheckColumns(bool on)
{
    for (int c = LibraryModel::FirstColumnOfCheck; c < LibraryModel::ColumnCount; ++c)
        m_view->setColumnHidden(c, !on);
}

void LibraryPanel::setDivergeOptions(const vtx::DivergeOptions& options)
{
    m_divergeOptions = options;
    m_divergeOptions.cancel = nullptr; // each job sets its own
    m_divergeOptions.progress = nullptr;
}

void LibraryPanel::setFolder(const QString& folder)
{
    m_listJobs.cancel();
    m_checkJobs.cancel();
    m_folder = folder;
    m_baseline.clear();
    m_model->reset(folder);
    showCheckColumns(false);
    m_filesListed = -1;
    m_filesRead = 0;
    m_filesDamaged = 0;
    m_listErrors.clear();
    m_listCancelled = false;
    m_runsToCheck = 0;
    m_runsChecked = 0;
    m_checkCancelled = false;
    m_checkError.clear();

    QPointer<LibraryPanel> self(this);
    m_listJobs.runLatest(
        [dir = folder.toStdString(), open = m_open, self](const JobToken& job) {
            // Names first (cheap), so the progress has a total; then one file at a time, each
            // row posted as soon as it is read.
            vtx::ReplayListing listing = vtx::listReplayFiles(dir, job.flag());
            const int total = int(listing.paths.size());
            job.postIfCurrent([self, total] {
                self->m_filesListed = total;
                self->updateStatus();
            });
            for (const std::string& path : listing.paths) {
                if (job.isCancelled())
                    break;
                vtx::ReplaySummary summary = vtx::summarizeReplay(path, open);
                job.postIfCurrent([self, summary = std::move(summary)]() mutable {
                    self->m_filesDamaged += summary.opens() ? 0 : 1;
                    std::vector<vtx::ReplaySummary> rows;
                    rows.push_back(std::move(summary));
                    self->m_model->addSummaries(std::move(rows));
                    ++self->m_filesRead;
                    self->updateStatus();
                });
            }
            return ListingAnswer{std::move(listing.errors)};
        },
        [self](const ListingAnswer& answer) {
            for (const std::string& e : answer.errors)
                self->m_listErrors << qs(e);
            self->updateStatus();
            emit self->listingFinished();
        });
    updateActions();
    updateStatus();
}

void LibraryPanel::rescan()
{
    if (!m_folder.isEmpty())
        setFolder(m_folder);
}

void LibraryPanel::cancel()
{
    if (m_listJobs.cancel())
        m_listCancelled = true;
    if (m_checkJobs.cancel()) {
        m_checkCancelled = true;
        m_model->cancelPendingChecks();
    }
    updateStatus();
}

QStringList LibraryPanel::selectedPaths() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList paths;
    for (const QModelIndex& r : rows)
        paths << r.data(LibraryModel::PathRole).toString();
    return paths;
}

void LibraryPanel::updateActions()
{
    const QStringList selected = selectedPaths();
    m_openAction->setEnabled(m_view->currentIndex().isValid());
    m_compareAction->setEnabled(selected.size() == 2);
    m_baselineAction->setEnabled(selected.size() == 1);
    m_checkAction->setEnabled(std::any_of(selected.begin(), selected.end(), [this](const QString& p) { return p != m_baseline; }));
}

void LibraryPanel::openCurrent()
{
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        emit openRequested(current.data(LibraryModel::PathRole).toString());
}

void LibraryPanel::compareSelected()
{
    const QStringList selected = selectedPaths();
    if (selected.size() == 2)
        emit compareRequested(selected[0], selected[1]);
}

void LibraryPanel::setBaseline(const QString& path)
{
    m_baseline = path;
    updateActions();
    updateStatus();
}

void LibraryPanel::checkAgainstBaseline()
{
    QString baseline = m_baseline;
    if (baseline.isEmpty())
        baseline = prompts().openFilePath(this, tr("Baseline replay"), m_folder, tr("VTX replays (*.vtx);;All files (*)"));
    if (baseline.isEmpty())
        return;
    setBaseline(baseline);
    checkRuns(baseline, selectedPaths());
}

void LibraryPanel::checkRuns(const QString& baseline, const QStringList& runs)
{
    QStringList todo;
    for (const QString& r : runs)
        if (r != baseline && !todo.contains(r))
            todo << r;
    if (baseline.isEmpty() || todo.isEmpty()) {
        m_status->setText(tr("Select the runs to check against the baseline"));
        return;
    }
    m_checkJobs.cancel();
    m_baseline = baseline;
    m_model->beginCheck(baseline, todo);
    showCheckColumns(true);
    if (m_proxy->rowCount() > 0) // the answers' column in view, wherever the user had scrolled
        m_view->scrollTo(m_proxy->index(std::max(0, m_view->currentIndex().row()), LibraryModel::Divergence));
    m_runsToCheck = int(todo.size());
    m_runsChecked = 0;
    m_checkCancelled = false;
    m_checkError.clear();
    m_progress->setValue(0);

    std::vector<std::string> paths;
    for (const QString& r : todo)
        paths.push_back(r.toStdString());
    QPointer<LibraryPanel> self(this);
    m_checkJobs.runLatest(
        [base = baseline.toStdString(), paths = std::move(paths), open = m_open, options = m_divergeOptions, self](const JobToken& job) {
            CheckAnswer answer;
            auto source = open ? open(base) : vtx::openFileSource(base);
            auto file = source ? vtx::ReplayFile::open(std::move(*source)) : vtx::Result<std::shared_ptr<vtx::ReplayFile>>(source.error());
            for (size_t i = 0; i < paths.size(); ++i) {
                if (job.isCancelled())
                    break;
                vtx::RunVerdict verdict;
                if (!file) {
                    verdict.error = "the baseline cannot be opened: " + file.message();
                } else {
                    vtx::DivergeOptions o = options;
                    o.cancel = job.flag();
                    // Progress in permille of all runs: this run's share filled pair by pair.
                    o.progress = [job, self, i, n = paths.size()](const vtx::DivergeProgress& progress) {
                        const double part = progress.pairsTotal ? double(progress.pairsDone) / double(progress.pairsTotal) : 1.0;
                        const int permille = int(1000.0 * (double(i) + part) / double(n));
                        job.postIfCurrent([self, permille] { self->m_progress->setValue(permille); });
                    };
                    verdict = vtx::checkRun(**file, paths[i], o, open);
                }
                job.postIfCurrent([self, run = qs(paths[i]), verdict = std::move(verdict)]() mutable {
                    self->m_model->setCheckResult(run, std::move(verdict));
                    ++self->m_runsChecked;
                    self->updateStatus();
                });
            }
            if (!file)
                answer.baselineError = file.message();
            return answer;
        },
        [self](const CheckAnswer& answer) {
            self->m_checkError = qs(answer.baselineError);
            self->updateStatus();
            emit self->checkFinished();
        });
    updateActions();
    updateStatus();
}

bool LibraryPanel::isDivergenceCell(const QModelIndex& proxyIndex) const
{
    return proxyIndex.isValid() && proxyIndex.column() >= LibraryModel::FirstColumnOfCheck &&
        proxyIndex.data(LibraryModel::DivergenceFrameRole).isValid();
}

void LibraryPanel::onClicked(const QModelIndex& proxyIndex)
{
    if (!isDivergenceCell(proxyIndex))
        return;
    emit openPairAtFrame(m_model->baseline(), proxyIndex.data(LibraryModel::PathRole).toString(),
                         proxyIndex.data(LibraryModel::DivergenceFrameRole).toLongLong());
}

void LibraryPanel::onDoubleClicked(const QModelIndex& proxyIndex)
{
    // The first click of a double-click on a divergence result already opened the pair.
    if (proxyIndex.isValid() && !isDivergenceCell(proxyIndex))
        emit openRequested(proxyIndex.data(LibraryModel::PathRole).toString());
}

void LibraryPanel::showProgress(bool on)
{
    m_progress->setVisible(on);
    m_cancelButton->setVisible(on);
}

QString LibraryPanel::statusText() const
{
    return m_status->text();
}

void LibraryPanel::updateStatus()
{
    QStringList parts;
    const bool listing = m_listJobs.isRunning();
    const bool checking = m_checkJobs.isRunning();
    if (m_folder.isEmpty()) {
        parts << tr("No folder: File ▸ Open folder…");
    } else if (listing && m_filesListed < 0) {
        parts << tr("Listing %1…").arg(m_folder);
    } else if (listing) {
        parts << tr("Reading %1 of %2 files…").arg(m_filesRead).arg(m_filesListed);
    } else {
        const int rows = m_model->rowCount();
        QString s = m_listCancelled && m_filesListed >= 0 ? tr("Listing cancelled: %1 of %2 files read").arg(m_filesRead).arg(m_filesListed)
            : m_listCancelled                             ? tr("Listing cancelled")
            : rows == 1                                   ? tr("1 replay")
                                                          : tr("%1 replays").arg(rows);
        if (m_filesDamaged)
            s += tr(" · %1 damaged or not replays").arg(m_filesDamaged);
        parts << s;
    }
    if (m_proxy->rowCount() != m_model->rowCount())
        parts << tr("%1 shown").arg(m_proxy->rowCount());
    for (const QString& e : m_listErrors)
        parts << tr("⚠ %1").arg(e);
    const QString baselineName = QFileInfo(m_model->hasCheck() ? m_model->baseline() : m_baseline).fileName();
    if (checking) {
        parts << tr("Checking %1 of %2 runs against %3…").arg(std::min(m_runsChecked + 1, m_runsToCheck)).arg(m_runsToCheck).arg(baselineName);
    } else if (m_runsToCheck > 0) {
        int matches = 0, diverge = 0, failed = 0;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const auto& v = m_model->verdictAt(r);
            if (!v)
                continue;
            matches += v->kind == vtx::RunVerdict::Kind::Matches;
            diverge += v->kind == vtx::RunVerdict::Kind::Diverges;
            failed += v->kind == vtx::RunVerdict::Kind::Failed;
        }
        QString s = m_checkCancelled ? tr("Check cancelled after %1 of %2 runs").arg(m_runsChecked).arg(m_runsToCheck)
                                     : tr("%1 runs checked against %2").arg(m_runsChecked).arg(baselineName);
        s += tr(": %1 match, %2 diverge, %3 failed").arg(matches).arg(diverge).arg(failed);
        if (!m_checkError.isEmpty())
            s += tr(" (the baseline cannot be opened: %1)").arg(m_checkError);
        parts << s;
    } else if (!m_baseline.isEmpty()) {
        parts << tr("Baseline: %1").arg(baselineName);
    }
    m_status->setText(parts.join(QStringLiteral("  ·  ")));

    // One bar for whichever job runs, the check's first: it is what the user asked for last.
    showProgress(listing || checking);
    if (checking) {
        m_progress->setRange(0, 1000);
    } else if (listing) {
        m_progress->setRange(0, std::max(0, m_filesListed)); // 0..0 while listing: busy
        m_progress->setValue(m_filesRead);
    }
}

} // namespace vtxw
