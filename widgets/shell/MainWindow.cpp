// SPDX-License-Identifier: MIT
#include "shell/MainWindow.hpp"

#include "analysis/AnalysisPanel.hpp"
#include "common/Prompts.hpp"
#include "compare/CompareSession.hpp"
#include "diff/DiffPanel.hpp"
#include "entities/EntityColumns.hpp"
#include "entities/EntityListPanel.hpp"
#include "entities/InspectorPanel.hpp"
#include "entities/WatchModel.hpp"
#include "find/ChangeSeeker.hpp"
#include "find/GoToTarget.hpp"
#include "find/MatchFinder.hpp"
#include "info/CachePanel.hpp"
#include "info/EventsModel.hpp"
#include "info/FileInfoPanel.hpp"
#include "info/TimeDataPanel.hpp"
#include "map/MapView.hpp"
#include "plot/PlotPanel.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/AboutBox.hpp"
#include "shell/ActionTable.hpp"
#include "shell/AppIcon.hpp"
#include "shell/Bookmarks.hpp"
#include "shell/DockLayout.hpp"
#include "shell/RecentFiles.hpp"
#include "shell/SettingsDialog.hpp"
#include "shell/ShortcutSheet.hpp"
#include "shell/StatusPresenter.hpp"
#include "shell/TextFieldKeys.hpp"
#include "shell/Theme.hpp"
#include "shell/UserSettings.hpp"
#include "timeline/TimeFormat.hpp"
#include "timeline/TimelineScrubber.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTimeZone>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <cmath>

namespace vtxw {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("vtxscope"));
    setWindowIcon(appIcon());
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_layout = std::make_unique<DockLayout>(this);
    m_actions = new ActionTable(this);
    m_viewState = new ViewState(this);
    m_session = new ReplaySession(m_viewState, this);
    m_settings = new UserSettings(this);
    m_bookmarks = new Bookmarks(this);
    m_playback = new PlaybackController(m_session, this);
    m_watchModel = new WatchModel(m_viewState, this);
    m_eventsModel = new EventsModel(m_session, this);
    m_recent = new RecentFiles(this);
    connect(m_recent, &RecentFiles::changed, this, &MainWindow::updateRecentMenu);

    // Centre: empty state or the inspector, with a non-modal problems banner above.
    auto* centreHost = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centreHost);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    m_banner = new QLabel(centreHost);
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet("background: #FFF3CD; color: #5C4400; padding: 4px;");
    m_banner->setVisible(false);
    centreLayout->addWidget(m_banner);
    m_centre = new QStackedWidget(centreHost);
    auto* empty = new QWidget;
    auto* emptyLayout = new QVBoxLayout(empty);
    auto* hint = new QLabel(tr("Open a replay (Ctrl+O) or drop a .vtx file here"), empty);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true); // its one-line width would set the window's minimum
    QFont big = hint->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    hint->setFont(big);
    emptyLayout->addStretch();
    emptyLayout->addWidget(hint);
    // Getting started: the five things a first-time user needs, each with its key.
    auto* start = new QLabel(empty);
    start->setObjectName("gettingStarted");
    start->setTextFormat(Qt::RichText);
    start->setWordWrap(true);
    start->setMaximumWidth(560);
    start->setText(tr("<p><b>Getting started</b></p><ol>"
                      "<li><b>Open</b> a replay: File ▸ Open (Ctrl+O), drop a .vtx file on the window, or pick a recent file below.</li>"
                      "<li><b>Scrub</b> by dragging the timeline; Space plays, ← / → step one frame, Home / End jump to the ends.</li>"
                      "<li><b>Inspect</b>: pick an entity on the left; its properties show here. Right-click a value to watch or plot it.</li>"
                      "<li><b>Compare</b>: A pins frame A at the playhead, B sets frame B; the Diff panel lists what changed.</li>"
                      "<li>F1 lists every shortcut; File ▸ Settings (Ctrl+,) sets the memory budget, time display and theme.</li>"
                      "</ol>"));
    emptyLayout->addWidget(start, 0, Qt::AlignHCenter);
    auto* recentHost = new QWidget(empty);
    recentHost->setObjectName("recentFiles");
    recentHost->setLayout(new QVBoxLayout);
    emptyLayout->addWidget(recentHost, 0, Qt::AlignHCenter);
    emptyLayout->addStretch();
    // Scrolled, so that a long recent-files list never raises the window's minimum height
    // (the window must fit 800 × 600 whatever the list holds).
    auto* emptyScroll = new QScrollArea(m_centre);
    emptyScroll->setFrameShape(QFrame::NoFrame);
    emptyScroll->setWidgetResizable(true);
    emptyScroll->setWidget(empty);
    m_inspector = new InspectorPanel(m_session, m_viewState, m_centre);
    m_centre->addWidget(emptyScroll);
    m_centre->addWidget(m_inspector);
    centreLayout->addWidget(m_centre, 1);
    setCentralWidget(centreHost);

    m_timeline = new TimelineScrubber(m_session, this);
    m_plot = new PlotPanel(m_session, m_viewState, this);
    m_analysis = new AnalysisPanel(m_session, m_viewState, this);
    m_diff = new DiffPanel(m_session, m_viewState, this);
    m_seeker = new ChangeSeeker(m_session, this);
    m_matchFinder = new MatchFinder(m_session, this);

    m_status = new StatusPresenter(statusBar(), m_banner, m_session, m_settings, this);
    buildActions();
    buildDocks();
    buildComparison();

    // Esc belongs to dialogs and editors unless a search runs or a text field was just left
    // with Esc (the second press clears that field).
    m_fieldKeys = new TextFieldKeys(m_timeline, this);
    m_fieldKeys->watch(m_entities->filterField(), [this] { m_entities->focusFirstMatch(); });
    for (QLineEdit* field : m_diff->findChildren<QLineEdit*>())
        m_fieldKeys->watch(field);
    QAction* escape = findChild<QAction*>("cancelSearch");
    auto updateEscape = [this, escape] { escape->setEnabled(m_seeker->isRunning() || m_matchFinder->isRunning() || m_fieldKeys->lastLeft()); };
    updateEscape();
    wireMatchFinder(updateEscape);
    connect(m_seeker, &ChangeSeeker::started, escape, updateEscape);
    connect(m_seeker, &ChangeSeeker::finished, escape, updateEscape);
    connect(m_fieldKeys, &TextFieldKeys::lastLeftChanged, escape, updateEscape);
    connect(m_seeker, &ChangeSeeker::started, m_status, &StatusPresenter::startProgress);
    connect(m_seeker, &ChangeSeeker::progress, m_status, &StatusPresenter::setProgress);
    connect(m_seeker, &ChangeSeeker::finished, this, [this](int frame, const QString& message) {
        m_status->finishProgress(message, 5000);
        if (frame >= 0)
            m_playback->seek(frame);
    });
    // The view state is the one place panels learn what is shown; the window only wires.

    connect(m_session, &ReplaySession::opened, this, &MainWindow::onOpened);
    connect(m_session, &ReplaySession::followingChanged, this, [this](bool on) {
        m_followAction->setChecked(on);
        showFileInfo();
    });
    connect(m_session, &ReplaySession::grew, this, [this] {
        m_timeline->extend();
        showFileInfo();
    });
    connect(m_session, &ReplaySession::followFailed, this, [this](const QString& message) {
        m_lastError = message;
        m_session->setFollowing(false);
        m_status->setFollowError(message);
    });
    connect(m_session, &ReplaySession::openFailed, this, &MainWindow::onOpenFailed);
    connect(m_session, &ReplaySession::closed, this, &MainWindow::onClosed);
    connect(m_timeline, &TimelineScrubber::seekRequested, m_playback, &PlaybackController::seek);
    connect(m_plot, &PlotPanel::seekRequested, m_playback, &PlaybackController::seek);
    connect(m_analysis, &AnalysisPanel::seekRequested, m_playback, &PlaybackController::seek);
    connect(m_inspector, &InspectorPanel::watchRequested, this, [this](const EntityKey& e, const QString& p) { m_watchModel->addWatch({e, p}); });
    connect(m_inspector, &InspectorPanel::plotRequested, this, [this](const EntityKey& e, const QString& p) {
        m_plot->addPropertySeries(e, p); // over the whole replay; the x range follows the timeline when linked
        if (auto* d = findChild<QDockWidget*>("plotDock"))
            d->raise();
    });
    connect(m_cachePanel, &CachePanel::summaryChanged, m_status, &StatusPresenter::setCacheSummary);

    m_layout->captureDefault();
    m_layout->restoreSaved();
    applyUserSettings();
    updateRecentMenu();
    updateFileActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    using When = ActionTable::When;
    auto add = [this](QMenu* menu, const QString& id, const QString& text, const QKeySequence& key, auto handler, When when = When::Always) {
        return m_actions->add(menu, id, text, key, handler, when);
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    add(file, "open", tr("&Open…"), QKeySequence::Open, [this] {
        const QString dir = m_recent->lastDirectory();
        const QString p = prompts().openFilePath(this, tr("Open replay"), dir, tr("VTX replays (*.vtx);;All files (*)"));
        if (!p.isEmpty())
            openFile({p});
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName("recentMenu");
    add(
        file, "close", tr("&Close"), QKeySequence(Qt::CTRL | Qt::Key_W), [this] { m_session->close(); }, When::ReplayOpen);
    m_followAction = add(
        file, "follow", tr("&Follow growing file"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L), [this](bool on) { m_session->setFollowing(on); },
        When::ReplayOpen);
    m_followAction->setCheckable(true);
    m_followAction->setToolTip(tr("Re-read a replay that is still being recorded and extend the timeline as chunks land"));
    file->addSeparator();
    add(file, "settings", tr("&Settings…"), QKeySequence(Qt::CTRL | Qt::Key_Comma), [this] { showSettings(); });
    file->addSeparator();
    add(file, "quit", tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    m_viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    add(go, "firstFrame", tr("First frame"), QKeySequence(Qt::Key_Home), [this] { m_playback->goToStart(); });
    add(go, "lastFrame", tr("Last frame"), QKeySequence(Qt::Key_End), [this] { m_playback->goToEnd(); });
    add(go, "prevFrame", tr("Previous frame"), QKeySequence(Qt::Key_Left), [this] { m_playback->stepFrames(-1); });
    add(go, "nextFrame", tr("Next frame"), QKeySequence(Qt::Key_Right), [this] { m_playback->stepFrames(1); });
    add(go, "back1s", tr("Back 1 s"), QKeySequence(Qt::SHIFT | Qt::Key_Left), [this] { m_playback->stepSeconds(-1); });
    add(go, "forward1s", tr("Forward 1 s"), QKeySequence(Qt::SHIFT | Qt::Key_Right), [this] { m_playback->stepSeconds(1); });
    add(go, "prevEvent", tr("Previous event"), QKeySequence(Qt::Key_BracketLeft), [this] {
        if (int f = m_eventsModel->previousEventFrame(m_viewState->requestedFrame()); f >= 0)
            m_playback->seek(f);
    });
    add(go, "nextEvent", tr("Next event"), QKeySequence(Qt::Key_BracketRight), [this] {
        if (int f = m_eventsModel->nextEventFrame(m_viewState->requestedFrame()); f >= 0)
            m_playback->seek(f);
    });
    add(
        go, "goTo", tr("Go to frame or time…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { goToDialog(); }, When::ReplayOpen);
    add(go, "findEntity", tr("Find entity"), QKeySequence(Qt::CTRL | Qt::Key_F), [this] {
        m_entities->filterField()->setFocus();
        m_entities->filterField()->selectAll();
    });

    add(go, "nextChange", tr("Next change of the selected property"), QKeySequence(Qt::Key_F3), [this] { seekPropertyChange(true); });
    add(go, "prevChange", tr("Previous change of the selected property"), QKeySequence(Qt::SHIFT | Qt::Key_F3),
        [this] { seekPropertyChange(false); });
    add(
        go, "findCondition", tr("Find frame where…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), [this] { findConditionDialog(); },
        When::ReplayOpen);
    add(go, "findNextWhere", tr("Find next frame where (last expression)"), QKeySequence(Qt::Key_F4), [this] { repeatConditionSeek(true); });
    add(go, "findPrevWhere", tr("Find previous frame where (last expression)"), QKeySequence(Qt::SHIFT | Qt::Key_F4),
        [this] { repeatConditionSeek(false); });
    add(go, "findAll", tr("Find all frames where…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this] {
        const QString c = askExpression(tr("Find all frames where…"), tr("Marks every frame where it holds on the timeline's matches lane:"));
        if (!c.isEmpty())
            findAll(c);
    });
    add(go, "cancelSearch", tr("Cancel search"), QKeySequence(Qt::Key_Escape), [this] {
        if (m_seeker->isRunning() || m_matchFinder->isRunning()) {
            m_seeker->cancel();
            m_matchFinder->cancel();
        } else
            m_fieldKeys->clearLastLeft();
    });

    QMenu* diff = menuBar()->addMenu(tr("&Diff"));
    add(diff, "pinA", tr("Pin A at the playhead"), QKeySequence(Qt::Key_A), [this] { m_viewState->pinA(); });
    add(diff, "setB", tr("Set B at the playhead"), QKeySequence(Qt::Key_B), [this] {
        if (!m_viewState->diffMarkers().isActive())
            m_viewState->pinA();
        m_viewState->setB(m_viewState->requestedFrame());
    });
    add(diff, "followB", tr("B follows the playhead"), QKeySequence(Qt::SHIFT | Qt::Key_B), [this] { m_viewState->setB(-1); });
    QAction* previous = add(diff, "diffPrevious", tr("Diff with previous frame"), QKeySequence(Qt::CTRL | Qt::Key_D),
                            [this](bool on) { m_viewState->setPreviousFrameMode(on); });
    previous->setCheckable(true);
    connect(m_viewState, &ViewState::diffFramesChanged, previous,
            [this, previous] { previous->setChecked(m_viewState->diffMarkers().previousFrame); });
    add(diff, "swapAB", tr("Swap A and B"), QKeySequence(Qt::Key_X), [this] { m_viewState->swapAB(); });
    add(diff, "clearDiff", tr("Clear A and B"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D), [this] { m_viewState->clearAB(); });
    diff->addSeparator();
    add(diff, "nextDiffRow", tr("Next change in the diff"), {}, [this] { m_diff->selectNextChange(true); });
    add(diff, "prevDiffRow", tr("Previous change in the diff"), {}, [this] { m_diff->selectNextChange(false); });

    QMenu* play = menuBar()->addMenu(tr("&Playback"));
    add(play, "playPause", tr("Play / Pause"), QKeySequence(Qt::Key_Space), [this] { m_playback->togglePlay(); });
    add(play, "slower", tr("Slower"), QKeySequence(Qt::Key_Minus), [this] { m_playback->slower(); });
    QAction* faster = add(play, "faster", tr("Faster"), QKeySequence(Qt::Key_Plus), [this] { m_playback->faster(); });
    play->addSeparator();
    // A–B loop between the diff's frames A and B (the markers already on the timeline).
    QAction* loop = add(
        play, "loopAB", tr("&Loop A–B"), QKeySequence(Qt::CTRL | Qt::Key_L),
        [this](bool on) {
            if (!on) {
                m_viewState->clearLoop();
                return;
            }
            const int a = m_viewState->frameA();
            const int b =
                m_viewState->frameB() >= 0 && !m_viewState->diffMarkers().bFollowsPlayhead ? m_viewState->frameB() : m_viewState->requestedFrame();
            if (a < 0 || a == b) {
                m_status->showMessage(tr("Set A and B first (A pins A at the playhead, B sets B)"), 5000);
                m_viewState->clearLoop();
                findChild<QAction*>("loopAB")->setChecked(false);
                return;
            }
            m_viewState->setLoop(a, b);
        },
        When::ReplayOpen);
    loop->setCheckable(true);
    connect(m_viewState, &ViewState::loopChanged, loop, &QAction::setChecked);
    faster->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}); // '=' is '+' without Shift on most layouts

    // Bookmarks: named frames of this replay, saved per file; ' and Shift+' walk them.
    m_bookmarkMenu = menuBar()->addMenu(tr("Book&marks"));
    m_bookmarkMenu->setObjectName("bookmarkMenu");
    add(
        m_bookmarkMenu, "addBookmark", tr("&Add bookmark…"), QKeySequence(Qt::CTRL | Qt::Key_B), [this] { addBookmarkDialog(); }, When::ReplayOpen);
    add(m_bookmarkMenu, "nextBookmark", tr("&Next bookmark"), QKeySequence(Qt::Key_Apostrophe), [this] {
        if (int f = m_bookmarks->next(m_viewState->requestedFrame()); f >= 0)
            m_playback->seek(f);
    });
    add(m_bookmarkMenu, "prevBookmark", tr("&Previous bookmark"), QKeySequence(Qt::SHIFT | Qt::Key_Apostrophe), [this] {
        if (int f = m_bookmarks->previous(m_viewState->requestedFrame()); f >= 0)
            m_playback->seek(f);
    });
    // Shift+' only: on a US layout the key event is '"' with Shift, which Qt's key mapper offers
    // both as Shift+' and as '"' — with '"' as a second shortcut both matched, Qt called the
    // shortcut ambiguous and did nothing (issue 26 8f; tst_smoke previousBookmarkWithShiftApostrophe).
    add(m_bookmarkMenu, "removeBookmark", tr("&Remove bookmark at the playhead"), {}, [this] { m_bookmarks->remove(m_viewState->requestedFrame()); });
    m_bookmarkMenu->addSeparator();
    connect(m_bookmarks, &Bookmarks::changed, this, &MainWindow::updateBookmarkMenu);
    connect(m_bookmarks, &Bookmarks::changed, this, [this] { m_timeline->setBookmarks(m_bookmarks->list()); });

    // Analyses over the whole replay, shown in the Analysis dock (issue 18).
    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    auto showAnalysis = [this] {
        if (auto* d = findChild<QDockWidget*>("analysisDock")) {
            d->show();
            d->raise();
        }
    };
    add(analysis, "analysisLifetimes", tr("Entity &lifetimes"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_L), [this, showAnalysis] {
        showAnalysis();
        m_analysis->runLifetimes();
    });
    add(analysis, "analysisUniqueValues", tr("&Unique values…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_U), [this, showAnalysis] {
        if (m_analysis->askUniqueValues())
            showAnalysis();
    });
    add(analysis, "analysisSpans", tr("Property &spans…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S), [this, showAnalysis] {
        if (m_analysis->askPropertySpans())
            showAnalysis();
    });
    analysis->addSeparator();
    add(analysis, "plotExpression", tr("&Plot an expression…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P), [this] {
        if (auto* d = findChild<QDockWidget*>("plotDock")) {
            d->show();
            d->raise();
        }
        m_plot->askForExpression();
    });
    analysis->addSeparator();
    add(analysis, "analysisCancel", tr("&Cancel analysis"), {}, [this] { m_analysis->cancel(); });

    // Developer tools, out of the user's menus: the access trace feeds vtxscope-bench, the
    // cache policy is for comparing policies (docs/CACHE.md).
    QMenu* debug = menuBar()->addMenu(tr("De&bug"));
    debug->setObjectName("debugMenu");
    QAction* record = add(debug, "recordTrace", tr("Record &access trace"), {}, [this](bool on) { m_session->setTraceRecording(on); });
    record->setCheckable(true);
    add(
        debug, "saveTrace", tr("Save access trace…"), {},
        [this] {
            const QString p = prompts().saveFilePath(this, tr("Save access trace"), {}, tr("Traces (*.trace)"));
            if (p.isEmpty())
                return;
            if (auto st = m_session->recordedTrace().save(p.toStdString()); !st)
                prompts().showError(this, tr("Save access trace"), QString::fromStdString(st.message()));
        },
        When::ReplayOpen);
    QMenu* policy = debug->addMenu(tr("Cache &policy"));
    auto* policies = new QActionGroup(policy);
    for (const QString& spec : {QStringLiteral("adaptive"), QStringLiteral("fixed:2,2"), QStringLiteral("none")}) {
        QAction* a = policy->addAction(spec);
        a->setObjectName("cachePolicy:" + spec);
        a->setCheckable(true);
        a->setChecked(spec == m_session->cachePolicy());
        policies->addAction(a);
        connect(a, &QAction::triggered, this, [this, spec] { m_session->setCachePolicy(spec); });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, "shortcuts", tr("&Keyboard shortcuts"), QKeySequence(Qt::Key_F1), [this] {
        ShortcutSheet sheet(this, this);
        sheet.exec();
    });
    add(help, "about", tr("&About vtxscope"), {}, [this] { showAboutBox(this); });
}

void MainWindow::buildDocks()
{
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
    auto dock = [this](const QString& name, const QString& title, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        m_viewMenu->addAction(d->toggleViewAction());
        return d;
    };

    // Entities
    m_entities = new EntityListPanel(m_viewState, this);
    connect(m_entities, &EntityListPanel::filterErrorChanged, m_status, &StatusPresenter::showFilterError);
    connect(m_entities, &EntityListPanel::message, m_status, &StatusPresenter::showMessage);
    dock("entitiesDock", tr("Entities"), m_entities, Qt::LeftDockWidgetArea);

    // Watch
    auto* watch = new QTableView(this);
    watch->setModel(m_watchModel);
    watch->horizontalHeader()->setStretchLastSection(true);
    watch->verticalHeader()->hide();
    watch->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* removeWatch = new QAction(tr("Remove watch"), watch);
    removeWatch->setShortcut(QKeySequence::Delete);
    removeWatch->setShortcutContext(Qt::WidgetShortcut);
    watch->addAction(removeWatch);
    watch->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(removeWatch, &QAction::triggered, this, [this, watch] {
        QList<int> rows;
        for (const QModelIndex& i : watch->selectionModel()->selectedRows())
            rows << i.row();
        m_watchModel->removeRows(rows);
    });
    auto* plotWatch = new QAction(tr("Plot"), watch);
    watch->addAction(plotWatch);
    connect(plotWatch, &QAction::triggered, this, [this, watch] {
        for (const QModelIndex& i : watch->selectionModel()->selectedRows())
            if (i.row() < m_watchModel->watches().size()) {
                const WatchModel::Watch& w = m_watchModel->watches()[i.row()];
                m_plot->addPropertySeries(w.entity, w.path);
            }
    });
    watch->setMinimumHeight(40); // the right column shares 600 px with the diff at the minimum window size
    QDockWidget* watchDock = dock("watchDock", tr("Watch"), watch, Qt::RightDockWidgetArea);
    QDockWidget* diffDock = dock("diffDock", tr("Diff"), m_diff, Qt::RightDockWidgetArea);
    splitDockWidget(watchDock, diffDock, Qt::Vertical);

    // Events
    auto* events = new QTableView(this);
    events->setModel(m_eventsModel);
    events->horizontalHeader()->setSectionResizeMode(EventsModel::LabelColumn, QHeaderView::Stretch);
    events->verticalHeader()->hide();
    events->setWordWrap(false);
    events->verticalHeader()->setDefaultSectionSize(events->fontMetrics().height() + 6);
    events->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(events, &QTableView::activated, this, [this](const QModelIndex& i) { m_playback->seek(i.data(EventsModel::FrameRole).toInt()); });
    connect(events, &QTableView::clicked, this, [this](const QModelIndex& i) { m_playback->seek(i.data(EventsModel::FrameRole).toInt()); });
    events->setMinimumHeight(40);
    QDockWidget* evDock = dock("eventsDock", tr("Events"), events, Qt::RightDockWidgetArea);

    // File info and cache
    m_fileInfo = new FileInfoPanel(this);
    QDockWidget* infoDock = dock("fileDock", tr("File"), m_fileInfo, Qt::RightDockWidgetArea);
    m_cachePanel = new CachePanel(m_session, this);
    QDockWidget* cacheDock = dock("cacheDock", tr("Cache"), m_cachePanel, Qt::RightDockWidgetArea);
    // Right column: watch / events / file / cache as tabs above the diff, which needs the height.
    tabifyDockWidget(watchDock, evDock);
    tabifyDockWidget(evDock, infoDock);
    tabifyDockWidget(infoDock, cacheDock);
    // Time data: the footer's gaps, segments and per-frame times; a click seeks.
    m_timeData = new TimeDataPanel(this);
    QDockWidget* timeDock = dock("timeDataDock", tr("Time data"), m_timeData, Qt::RightDockWidgetArea);
    tabifyDockWidget(cacheDock, timeDock);
    connect(m_timeData, &TimeDataPanel::seekRequested, m_playback, &PlaybackController::seek);
    connect(m_session, &ReplaySession::opened, m_timeData, [this] { m_timeData->setFile(m_session->file()); });
    connect(m_session, &ReplaySession::grew, m_timeData, [this] { m_timeData->setFile(m_session->file()); });
    connect(m_session, &ReplaySession::closed, m_timeData, [this] { m_timeData->setFile(nullptr); });
    watchDock->raise();

    // Map: a tab of the right column's top group (the inspector is the centre, which docks
    // cannot tab with; a tab beside the diff would add a tab bar the 800 × 600 minimum has no
    // room for). The watch stays in front, as before the map existed.
    m_map = new MapView(m_session, m_viewState, this);
    QDockWidget* mapDock = dock("mapDock", tr("Map"), m_map, Qt::RightDockWidgetArea);
    tabifyDockWidget(cacheDock, mapDock);
    watchDock->raise();
    connect(m_map, &MapView::seekRequested, m_playback, &PlaybackController::seek);
    connect(m_diff, &DiffPanel::diffUpdated, m_map, [this] {
        const auto& d = m_diff->model()->diff();
        m_map->setComparisonFrame(m_diff->isUpToDate() && d ? d->a : vtx::FrameHandle{});
    });

    // Plot and timeline (with the transport bar) along the bottom.
    QDockWidget* plotDock = dock("plotDock", tr("Plot"), m_plot, Qt::BottomDockWidgetArea);
    auto* timelineHost = new QWidget(this);
    auto* tl = new QVBoxLayout(timelineHost);
    tl->setContentsMargins(2, 2, 2, 2);
    auto* transport = new QHBoxLayout;
    auto button = [&](const QString& text, const QString& actionName) {
        auto* b = new QToolButton(timelineHost);
        b->setText(text);
        QAction* a = findChild<QAction*>(actionName);
        connect(b, &QToolButton::clicked, a, &QAction::trigger);
        if (a)
            b->setToolTip(a->text() + " (" + a->shortcut().toString(QKeySequence::NativeText) + ")");
        transport->addWidget(b);
        return b;
    };
    button("|◀", "firstFrame");
    button("◀", "prevFrame");
    QToolButton* playButton = button("▶", "playPause");
    button("▶|", "nextFrame");
    button("▶▶|", "lastFrame");
    connect(m_playback, &PlaybackController::playingChanged, playButton, [playButton](bool on) { playButton->setText(on ? "❚❚" : "▶"); });
    auto* speed = new QComboBox(timelineHost);
    speed->setObjectName("speed");
    for (double s : PlaybackController::speeds())
        speed->addItem(QStringLiteral("%1×").arg(s), s);
    speed->setCurrentIndex(3);
    connect(speed, &QComboBox::activated, this, [this, speed](int i) { m_playback->setSpeed(speed->itemData(i).toDouble()); });
    connect(m_playback, &PlaybackController::speedChanged, speed, [speed](double s) { speed->setCurrentIndex(speed->findData(s)); });
    transport->addWidget(speed);
    transport->addStretch();
    tl->addLayout(transport);
    tl->addWidget(m_timeline);
    QDockWidget* tlDock = dock("timelineDock", tr("Timeline"), timelineHost, Qt::BottomDockWidgetArea);
    tlDock->setFeatures(QDockWidget::DockWidgetMovable);
    splitDockWidget(plotDock, tlDock, Qt::Vertical);
    // The analyses share the plot's place (tabbed after the split: splitting a tabbed dock
    // would tab the timeline too).
    QDockWidget* analysisDock = dock("analysisDock", tr("Analysis"), m_analysis, Qt::BottomDockWidgetArea);
    tabifyDockWidget(plotDock, analysisDock);
    plotDock->raise();
    m_layout->applyDefaultSizes();
    m_viewMenu->addSeparator();
    QAction* flash = m_viewMenu->addAction(tr("Flash changed values"));
    flash->setCheckable(true);
    flash->setChecked(m_settings->flashChanges());
    connect(flash, &QAction::toggled, m_settings, &UserSettings::setFlashChanges);
    connect(m_settings, &UserSettings::flashChangesChanged, flash, &QAction::setChecked);
    m_viewMenu->addAction(tr("Reset layout"), this, &MainWindow::resetLayout);
    m_viewMenu->addAction(tr("Zoom timeline to all"), m_timeline, &TimelineScrubber::showAll);
}

void MainWindow::resetLayout()
{
    m_layout->reset();
}

void MainWindow::updateFileActions()
{
    m_actions->update(m_session->isOpen(), m_compare && m_compare->isActive());
}

void MainWindow::resizeEvent(QResizeEvent* e)
{
    QMainWindow::resizeEvent(e);
    m_layout->windowResized(e->oldSize(), e->size());
}

void MainWindow::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    if (!m_shownOnce) {
        m_shownOnce = true;
        // Start where the single-key shortcuts act; Qt would otherwise pick the first field in
        // the focus chain (the diff filter), and Space / A / B would be typed into it.
        m_timeline->setFocus(Qt::OtherFocusReason);
    }
}

void MainWindow::seekPropertyChange(bool forward)
{
    EntityKey entity = m_viewState->selection();
    QString path = m_inspector->currentPath();
    if (m_diff->view()->hasFocus()) {
        auto [e, p] = m_diff->selectedProperty();
        if (e.isValid() && !p.isEmpty())
            entity = e, path = p;
    }
    if (!entity.isValid() || path.isEmpty()) {
        m_status->showMessage(tr("Select a property in the inspector or the diff first"), 5000);
        return;
    }
    m_seeker->seekChange(entity, path, forward);
}

void MainWindow::seekCondition(const QString& condition, bool forward)
{
    if (!m_session->isOpen()) {
        m_status->showMessage(tr("Open a replay first"), 5000);
        return;
    }
    m_seeker->seekCondition(condition, forward);
}

QString MainWindow::askExpression(const QString& title, const QString& what)
{
    if (!m_session->isOpen()) {
        m_status->showMessage(tr("Open a replay first"), 5000);
        return {};
    }
    QSettings settings;
    QString c = settings.value("search/lastCondition", QStringLiteral("Player.Health < 20")).toString();
    const bool ok = prompts().askText(this, title,
                                      tr("Expression (e.g. Player.Health < 20, type == Weapon && Clip == 0,\n"
                                         "any(IsAlive == false), changed(Money); see README \"Query language\").\n%1")
                                          .arg(what),
                                      c);
    if (!ok || c.trimmed().isEmpty())
        return {};
    settings.setValue("search/lastCondition", c);
    return c;
}

void MainWindow::findAll(const QString& expression)
{
    if (!m_session->isOpen()) {
        m_status->showMessage(tr("Open a replay first"), 5000);
        return;
    }
    m_matchFinder->findAll(expression);
}

void MainWindow::wireMatchFinder(const std::function<void()>& updateEscape)
{
    QAction* escape = findChild<QAction*>("cancelSearch");
    connect(m_matchFinder, &MatchFinder::started, escape, updateEscape);
    connect(m_matchFinder, &MatchFinder::found, escape, updateEscape);
    connect(m_matchFinder, &MatchFinder::failed, escape, updateEscape);
    connect(m_matchFinder, &MatchFinder::started, m_status, &StatusPresenter::startProgress);
    connect(m_matchFinder, &MatchFinder::progress, m_status, &StatusPresenter::setProgress);
    connect(m_matchFinder, &MatchFinder::found, this, [this](const QString& expression, const std::vector<int>& frames, const QString& message) {
        m_timeline->setMatches(expression, frames);
        m_status->finishProgress(message, 8000);
    });
    connect(m_matchFinder, &MatchFinder::failed, this, [this](const QString& message) { m_status->finishProgress(message, 8000); });
}

void MainWindow::findConditionDialog()
{
    const QString c = askExpression(tr("Find frame where…"), tr("Searches forward from the playhead for the next frame where it becomes true:"));
    if (!c.isEmpty())
        seekCondition(c, true);
}

void MainWindow::repeatConditionSeek(bool forward)
{
    const QString last = QSettings().value("search/lastCondition").toString();
    if (last.isEmpty())
        findConditionDialog();
    else
        seekCondition(last, forward);
}

void MainWindow::openFile(const OpenRequest& request)
{
    m_pending = request;
    m_lastError.clear();
    m_session->openAsync(request.path);
}

QString MainWindow::bannerText() const
{
    return m_status->bannerText();
}

void MainWindow::showFileInfo()
{
    if (const auto& f = m_session->file()) {
        m_status->refresh();
        m_fileInfo->showFile(*f, m_session->path());
    }
}

void MainWindow::onOpened()
{
    if (m_session->path() != m_lastOpenedPath)
        m_watchModel->clear(); // watches name entities of one replay
    m_lastOpenedPath = m_session->path();
    m_bookmarks->load(m_session->path());
    updateFileActions();
    if (!focusWidget() || !focusWidget()->isVisible() || m_centre->widget(0)->isAncestorOf(focusWidget()))
        m_timeline->setFocus(Qt::OtherFocusReason);
    const auto& f = m_session->file();
    m_recent->add(m_session->path());
    setWindowTitle(tr("%1 — vtxscope").arg(QFileInfo(m_session->path()).fileName()));
    m_centre->setCurrentWidget(m_inspector);
    showFileInfo();
    if (m_pending.follow)
        m_session->setFollowing(true);

    if (!m_pending.selectId.isEmpty()) {
        bool isIndex = false;
        int bucket = m_pending.selectBucket.toInt(&isIndex);
        if (!isIndex) {
            bucket = 0;
            for (size_t b = 0; b < 64; ++b)
                if (QString::fromStdString(f->schema().bucketName(b)) == m_pending.selectBucket)
                    bucket = int(b);
        }
        m_viewState->setSelection({bucket, m_pending.selectId});
    }
    m_playback->setSpeed(m_settings->defaultSpeed());
    if (m_pending.frame >= 0)
        m_playback->seek(m_pending.frame);
    if (!m_pending.compare.isEmpty())
        openComparison(m_pending.compare);
    m_pending = {};
}

void MainWindow::onOpenFailed(const QString& path, const QString& message)
{
    m_lastError = message;
    // A dialog only when opening fails; the app stays usable.
    prompts().showError(this, tr("Could not open replay"), tr("<b>%1</b><br><br>%2").arg(path.toHtmlEscaped(), message.toHtmlEscaped()));
    if (!m_session->isOpen())
        m_centre->setCurrentIndex(0);
}

void MainWindow::onClosed()
{
    m_bookmarks->load({});

    m_centre->setCurrentIndex(0);
    m_fileInfo->clear();
    m_cachePanel->refresh();
    setWindowTitle(tr("vtxscope"));
    updateRecentMenu();
    updateFileActions();
}

EntityKey MainWindow::selectedEntity() const
{
    return m_viewState->selection();
}

void MainWindow::selectEntity(const EntityKey& key)
{
    m_viewState->setSelection(key); // the inspector and the entity list follow
}

void MainWindow::goToDialog()
{
    if (!m_session->isOpen())
        return;
    QString text = QString::number(m_viewState->requestedFrame());
    const bool ok = prompts().askText(this, tr("Go to"), tr("Frame number, or time in seconds (e.g. 12.5s):"), text);
    if (!ok)
        return;
    const auto target = GoToTarget::parse(text);
    if (!target)
        m_status->showMessage(tr("Not a frame or time: %1").arg(text), 5000);
    else if (target->kind == GoToTarget::Kind::Seconds)
        m_playback->seek(m_session->frameAtGameTime(int64_t(target->seconds * 1e7)));
    else
        m_playback->seek(target->frame);
}

void MainWindow::updateRecentMenu()
{
    const QStringList recent = m_recent->paths(); // without files deleted since
    m_recentMenu->clear();
    auto* host = findChild<QWidget*>("recentFiles");
    // Out of the layout at once (a stale button would still count towards its size); deleted
    // later because this runs from a button's own clicked signal.
    for (QWidget* old : host->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        host->layout()->removeWidget(old);
        old->hide();
        old->deleteLater();
    }
    for (const QString& p : recent) {
        m_recentMenu->addAction(p, this, [this, p] { openFile({p}); });
        auto* b = new QPushButton(QFileInfo(p).fileName(), host);
        b->setFlat(true);
        b->setToolTip(p);
        connect(b, &QPushButton::clicked, this, [this, p] { openFile({p}); });
        host->layout()->addWidget(b);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::addBookmarkDialog()
{
    if (!m_session->isOpen())
        return;
    const int frame = m_viewState->requestedFrame();
    const Bookmark* existing = m_bookmarks->at(frame);
    QString name = existing ? existing->name : tr("Frame %1").arg(frame);
    if (!prompts().askText(this, tr("Add bookmark"), tr("Name of the bookmark at frame %1:").arg(frame), name))
        return;
    m_bookmarks->add(frame, name.trimmed().isEmpty() ? tr("Frame %1").arg(frame) : name.trimmed());
    m_status->showMessage(tr("Bookmark at frame %1").arg(frame), 3000);
}

void MainWindow::updateBookmarkMenu()
{
    // The fixed actions stay; the list after the separator is rebuilt.
    const QList<QAction*> actions = m_bookmarkMenu->actions();
    bool afterSeparator = false;
    for (QAction* a : actions) {
        if (afterSeparator)
            a->deleteLater(), m_bookmarkMenu->removeAction(a);
        else if (a->isSeparator())
            afterSeparator = true;
    }
    for (const Bookmark& b : m_bookmarks->list())
        m_bookmarkMenu->addAction(tr("%1 — frame %2").arg(b.name).arg(b.frame), this, [this, f = b.frame] { m_playback->seek(f); });
}

void MainWindow::applyUserSettings()
{
    // Each setting reaches what shows it; the settings dialog only edits UserSettings.
    auto budget = [this](int mb) { m_session->setCacheBudget(size_t(mb) << 20); };
    budget(m_settings->cacheBudgetMB());
    connect(m_settings, &UserSettings::cacheBudgetChanged, this, budget);
    auto timeUnit = [this](TimeUnit u) {
        m_timeline->setTimeUnit(u);
        m_plot->setTimeUnit(u);
    };
    timeUnit(m_settings->timeUnit());
    connect(m_settings, &UserSettings::timeUnitChanged, this, timeUnit);
    if (m_settings->theme() != Theme::System)
        applyTheme(m_settings->theme());
    connect(m_settings, &UserSettings::themeChanged, this, [](Theme t) { applyTheme(t); });
    m_inspector->setFlashChanges(m_settings->flashChanges());
    connect(m_settings, &UserSettings::flashChangesChanged, m_inspector, &InspectorPanel::setFlashChanges);
    m_playback->setSpeed(m_settings->defaultSpeed());
}

void MainWindow::showSettings()
{
    SettingsDialog dialog(m_settings, m_session, this);
    dialog.exec();
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    m_layout->save();
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls() && !e->mimeData()->urls().isEmpty() && e->mimeData()->urls().first().isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    const auto urls = e->mimeData()->urls();
    if (!urls.isEmpty())
        openFile({urls.first().toLocalFile()});
}

} // namespace vtxw
