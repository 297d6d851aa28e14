// SPDX-License-Identifier: MIT
#include "shell/MainWindow.hpp"

#include "analysis/AnalysisPanel.hpp"
#include "common/FittedColumns.hpp"
#include "common/Prompts.hpp"
#include "compare/CompareSession.hpp"
#include "diff/DiffPanel.hpp"
#include "entities/EntityListPanel.hpp"
#include "entities/InspectorPanel.hpp"
#include "entities/WatchModel.hpp"
#include "entities/WatchPanel.hpp"
#include "find/QueryBar.hpp"
#include "find/SearchCommands.hpp"
#include "info/CachePanel.hpp"
#include "info/EventsModel.hpp"
#include "info/EventsPanel.hpp"
#include "info/FileInfoPanel.hpp"
#include "info/TimeDataPanel.hpp"
#include "library/LibraryPanel.hpp"
#include "map/MapView.hpp"
#include "plot/PlotPanel.hpp"
#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "shell/AboutBox.hpp"
#include "shell/ActionTable.hpp"
#include "shell/AppIcon.hpp"
#include "shell/BookmarkMenu.hpp"
#include "shell/Bookmarks.hpp"
#include "shell/DebugMenu.hpp"
#include "shell/DockLayout.hpp"
#include "shell/LayoutPresets.hpp"
#include "shell/RecentFiles.hpp"
#include "shell/SettingsDialog.hpp"
#include "shell/ShortcutSheet.hpp"
#include "shell/StatusPresenter.hpp"
#include "shell/TextFieldKeys.hpp"
#include "shell/Theme.hpp"
#include "shell/UserSettings.hpp"
#include "shell/WelcomePage.hpp"
#include "timeline/PlaybackStrip.hpp"
#include "timeline/TimelineScrubber.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QMouseEvent>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QVBoxLayout>
#include <tuple>

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
    m_playback = new PlaybackController(m_session, this);
    m_watchModel = new WatchModel(m_viewState, this);
    m_eventsModel = new EventsModel(m_session, this);
    m_recent = new RecentFiles(this);
    connect(m_recent, &RecentFiles::changed, this, &MainWindow::updateRecentMenu);

    // Centre: the welcome page or the inspector, with a non-modal problems banner above.
    auto* centreHost = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centreHost);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    m_banner = new QLabel(centreHost);
    m_banner->setObjectName("banner");
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet("background: #FFF3CD; color: #5C4400; padding: 4px;");
    m_banner->setVisible(false);
    centreLayout->addWidget(m_banner);
    m_centre = new QStackedWidget(centreHost);
    m_welcome = new WelcomePage(m_centre);
    connect(m_welcome, &WelcomePage::openRequested, this, [this](const QString& p) { openFile({p}); });
    m_inspector = new InspectorPanel(m_session, m_viewState, m_centre);
    m_centre->addWidget(m_welcome);
    m_centre->addWidget(m_inspector);
    centreLayout->addWidget(m_centre, 1);
    // Room for a property's name and value side by side: a window made narrower after a layout
    // gave the map most of its width took it all from the centre, down to 110 px where every
    // value read "…". At its minimum the docks around it give way instead.
    centreHost->setMinimumWidth(240);
    setCentralWidget(centreHost);

    m_timeline = new TimelineScrubber(m_session, this);
    m_plot = new PlotPanel(m_session, m_viewState, this);
    m_analysis = new AnalysisPanel(m_session, m_viewState, this);
    m_diff = new DiffPanel(m_session, m_viewState, this);
    m_entities = new EntityListPanel(m_viewState, this);
    m_queryBar = new QueryBar(this);
    m_search = new SearchCommands(
        m_session, m_viewState, [this] { return selectedProperty(); }, this);

    m_status = new StatusPresenter(statusBar(), m_banner, m_session, m_settings, this);
    buildActions();
    buildDocks();
    buildComparison();
    wirePanels();

    m_layout->setDefaultArrangement([this] { placeDocksByDefault(); });
    m_layout->restoreSaved();
    m_layouts->watchDocks();
    applyUserSettings();
    updateRecentMenu();
    updateFileActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::wirePanels()
{
    auto seek = [this](auto* from, auto signal) { connect(from, signal, m_playback, &PlaybackController::seek); };
    seek(m_timeline, &TimelineScrubber::seekRequested);
    seek(m_plot, &PlotPanel::seekRequested);
    seek(m_analysis, &AnalysisPanel::seekRequested);
    seek(m_search, &SearchCommands::seekRequested);
    seek(m_bookmarkMenu, &BookmarkMenu::seekRequested);

    connect(m_search, &SearchCommands::message, m_status, &StatusPresenter::showMessage);
    connect(m_search, &SearchCommands::progressStarted, m_status, &StatusPresenter::startProgress);
    connect(m_search, &SearchCommands::progressChanged, m_status, &StatusPresenter::setProgress);
    connect(m_search, &SearchCommands::progressFinished, m_status, &StatusPresenter::finishProgress);
    connect(m_search, &SearchCommands::matchesFound, m_timeline,
            [this](const QString& expression, const std::vector<int>& frames, const std::vector<vtx::FrameSpan>& unsearched) {
                m_timeline->setMatches(expression, frames, false, unsearched);
            });
    connect(m_bookmarkMenu, &BookmarkMenu::message, m_status, &StatusPresenter::showMessage);
    connect(m_bookmarkMenu->bookmarks(), &Bookmarks::changed, m_timeline, [this] { m_timeline->setBookmarks(m_bookmarkMenu->bookmarks()->list()); });
    connect(m_entities, &EntityListPanel::filterErrorChanged, m_status, &StatusPresenter::showFilterError);
    connect(m_entities, &EntityListPanel::message, m_status, &StatusPresenter::showMessage);
    connect(m_cachePanel, &CachePanel::summaryChanged, m_status, &StatusPresenter::setCacheSummary);

    // Esc belongs to dialogs and editors unless a search runs or a text field was just left
    // with Esc (the second press clears that field).
    m_fieldKeys = new TextFieldKeys(m_timeline, this);
    m_layout->setFocusHome(m_timeline);
    m_fieldKeys->watch(m_entities->filterField(), [this] { m_entities->focusFirstMatch(); });
    for (QLineEdit* field : m_diff->findChildren<QLineEdit*>())
        m_fieldKeys->watch(field);
    // The Library's and the analyses' filters too: Esc in them did nothing, and → then moved
    // their text cursor instead of the frame.
    m_fieldKeys->watch(m_library->filterField());
    m_fieldKeys->watch(m_analysis->filter());
    QAction* escape = m_actions->add(m_goMenu, "cancelSearch", tr("Cancel search"), QKeySequence(Qt::Key_Escape), [this] {
        if (m_search->isRunning())
            m_search->cancel();
        else
            m_fieldKeys->clearLastLeft();
    });
    auto updateEscape = [this, escape] { escape->setEnabled(m_search->isRunning() || m_fieldKeys->lastLeft()); };
    updateEscape();
    connect(m_search, &SearchCommands::runningChanged, escape, updateEscape);
    connect(m_fieldKeys, &TextFieldKeys::lastLeftChanged, escape, updateEscape);

    // The query bar: what its Enter runs, the schema its completion and examples come from.
    m_fieldKeys->watch(m_queryBar->field());
    connect(m_search, &SearchCommands::expressionWanted, m_queryBar, &QueryBar::activate);
    connect(m_plot, &PlotPanel::expressionWanted, m_queryBar, [this] { m_queryBar->activate(QueryBar::Mode::Plot); });
    connect(m_queryBar, &QueryBar::submitted, this, [this](QueryBar::Mode mode, const QString& expression) {
        switch (mode) {
        case QueryBar::Mode::Filter: m_viewState->setEntityFilter(expression); break;
        case QueryBar::Mode::FindNext: m_search->findNextWhere(expression); break;
        case QueryBar::Mode::FindAll: m_search->findAll(expression); break;
        case QueryBar::Mode::Plot:
            raiseDock("plotDock");
            m_plot->addExpressionSeries(expression);
            break;
        }
    });
    // One filter, two fields: the entity list's own and the bar in Filter mode show the same text.
    connect(m_viewState, &ViewState::entityFilterChanged, m_queryBar, [this](const QString& text) {
        if (m_queryBar->mode() == QueryBar::Mode::Filter && !m_queryBar->field()->hasFocus() && m_queryBar->text() != text)
            m_queryBar->setText(text);
    });
    connect(m_session, &ReplaySession::opened, m_queryBar, [this] { m_queryBar->setSchema(&m_session->file()->schema()); });
    connect(m_session, &ReplaySession::closed, m_queryBar, [this] { m_queryBar->setSchema(nullptr); });
    connect(m_session, &ReplaySession::opened, this, &MainWindow::onOpened);
    connect(m_session, &ReplaySession::openFailed, this, &MainWindow::onOpenFailed);
    connect(m_session, &ReplaySession::closed, this, &MainWindow::onClosed);
    connect(m_session, &ReplaySession::followingChanged, this, [this](bool on) {
        m_followAction->setChecked(on);
        showFileInfo();
    });
    connect(m_session, &ReplaySession::rereadFromDisk, this, [this] {
        m_timeline->extend();
        showFileInfo();
    });
    connect(m_session, &ReplaySession::followFailed, this, [this](const QString& message) {
        m_lastError = message;
        m_session->setFollowing(false);
        m_status->setFollowError(message);
    });
    m_plot->setTimeline(m_timeline); // its x axis lines up with the timeline's while linked
    auto plotProperty = [this](const EntityKey& e, const QString& p) {
        m_plot->addPropertySeries(e, p); // over the whole replay; the x range follows the timeline when linked
        raiseDock("plotDock");
    };
    connect(m_inspector, &InspectorPanel::watchRequested, this, [this](const EntityKey& e, const QString& p) { m_watchModel->addWatch({e, p}); });
    connect(m_inspector, &InspectorPanel::plotRequested, this, plotProperty);
    // A new lane that would squeeze the others grows the docked plot, up to half the window:
    // the inspector above gives up rows it rarely fills. A floating plot is the user's to size.
    connect(m_plot, &PlotPanel::heightWanted, this, [this](int extra) { m_layout->growPlot(extra); });
    connect(m_watchPanel, &WatchPanel::plotRequested, m_plot, &PlotPanel::addPropertySeries);
    auto showTimeData = [this] { m_timeData->setFile(m_session->file()); };
    connect(m_session, &ReplaySession::opened, m_timeData, showTimeData);
    connect(m_session, &ReplaySession::rereadFromDisk, m_timeData, showTimeData);
    connect(m_session, &ReplaySession::closed, m_timeData, [this] { m_timeData->setFile(nullptr); });
}

std::pair<EntityKey, QString> MainWindow::selectedProperty() const
{
    // The diff's row when the diff has the focus, else the inspector's.
    if (m_diff->view()->hasFocus()) {
        auto [e, p] = m_diff->selectedProperty();
        if (e.isValid() && !p.isEmpty())
            return {e, p};
    }
    return {m_viewState->selection(), m_inspector->currentPath()};
}

void MainWindow::raiseDock(const char* name)
{
    if (auto* d = findChild<QDockWidget*>(name))
        m_layout->raise(d);
}

void MainWindow::buildActions()
{
    using When = ActionTable::When;
    auto add = [this](QMenu* menu, const QString& id, const QString& text, const QKeySequence& key, auto handler, When when = When::Always) {
        return m_actions->add(menu, id, text, key, handler, when);
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    add(file, "open", tr("&Open…"), QKeySequence::Open, [this] {
        const QString p = prompts().openFilePath(this, tr("Open replay"), m_recent->lastDirectory(), tr("VTX replays (*.vtx);;All files (*)"));
        if (!p.isEmpty())
            openFile({p});
    });
    add(file, "openFolder", tr("Open &folder…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), [this] {
        const QString dir = prompts().openDirectory(this, tr("Open a folder of replays"), m_recent->lastDirectory());
        if (!dir.isEmpty())
            openFolder(dir);
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

    m_goMenu = menuBar()->addMenu(tr("&Go"));
    QMenu* go = m_goMenu;
    add(
        go, "firstFrame", tr("First frame"), QKeySequence(Qt::Key_Home), [this] { m_playback->goToStart(); }, When::ReplayOpen);
    add(
        go, "lastFrame", tr("Last frame"), QKeySequence(Qt::Key_End), [this] { m_playback->goToEnd(); }, When::ReplayOpen);
    add(
        go, "prevFrame", tr("Previous frame"), QKeySequence(Qt::Key_Left), [this] { m_playback->stepFrames(-1); }, When::ReplayOpen);
    add(
        go, "nextFrame", tr("Next frame"), QKeySequence(Qt::Key_Right), [this] { m_playback->stepFrames(1); }, When::ReplayOpen);
    add(
        go, "back1s", tr("Back 1 s"), QKeySequence(Qt::SHIFT | Qt::Key_Left), [this] { m_playback->stepSeconds(-1); }, When::ReplayOpen);
    add(
        go, "forward1s", tr("Forward 1 s"), QKeySequence(Qt::SHIFT | Qt::Key_Right), [this] { m_playback->stepSeconds(1); }, When::ReplayOpen);
    add(
        go, "prevEvent", tr("Previous event"), QKeySequence(Qt::Key_BracketLeft),
        [this] {
            if (int f = m_eventsModel->previousEventFrame(m_viewState->requestedFrame()); f >= 0)
                m_playback->seek(f);
        },
        When::ReplayOpen);
    add(
        go, "nextEvent", tr("Next event"), QKeySequence(Qt::Key_BracketRight),
        [this] {
            if (int f = m_eventsModel->nextEventFrame(m_viewState->requestedFrame()); f >= 0)
                m_playback->seek(f);
        },
        When::ReplayOpen);
    add(go, "queryBar", tr("Query bar"), QKeySequence(Qt::CTRL | Qt::Key_K), [this] { m_queryBar->activate(m_queryBar->mode()); });
    add(go, "findEntity", tr("Find entity"), QKeySequence(Qt::CTRL | Qt::Key_F), [this] {
        m_entities->filterField()->setFocus();
        m_entities->filterField()->selectAll();
    });
    m_search->addActions(*m_actions, go);

    QMenu* diff = menuBar()->addMenu(tr("&Diff"));
    // A single key moves a marker: the status bar says where A and B are now (or why they did
    // not move while two replays are compared), so a key press is never silent.
    auto sayMarkers = [this] { m_status->showMessage(StatusPresenter::diffMarkersText(*m_viewState), 5000); };
    add(
        diff, "pinA", tr("Pin A at the playhead"), QKeySequence(Qt::Key_A),
        [this, sayMarkers] {
            m_viewState->pinA();
            sayMarkers();
        },
        When::ReplayOpen);
    add(
        diff, "setB", tr("Set B at the playhead"), QKeySequence(Qt::Key_B),
        [this, sayMarkers] {
            if (!m_viewState->diffMarkers().isActive())
                m_viewState->pinA();
            m_viewState->setB(m_viewState->requestedFrame());
            sayMarkers();
        },
        When::ReplayOpen);
    add(
        diff, "followB", tr("B follows the playhead"), QKeySequence(Qt::SHIFT | Qt::Key_B),
        [this, sayMarkers] {
            m_viewState->setB(-1);
            sayMarkers();
        },
        When::ReplayOpen);
    QAction* previous = add(
        diff, "diffPrevious", tr("Diff with previous frame"), QKeySequence(Qt::CTRL | Qt::Key_D),
        [this](bool on) { m_viewState->setPreviousFrameMode(on); }, When::ReplayOpen);
    previous->setCheckable(true);
    connect(m_viewState, &ViewState::diffFramesChanged, previous,
            [this, previous] { previous->setChecked(m_viewState->diffMarkers().previousFrame); });
    add(
        diff, "swapAB", tr("Swap A and B"), QKeySequence(Qt::Key_X),
        [this, sayMarkers] {
            m_viewState->swapAB();
            sayMarkers();
        },
        When::ReplayOpen);
    add(
        diff, "clearDiff", tr("Clear A and B"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
        [this, sayMarkers] {
            m_viewState->clearAB();
            sayMarkers();
        },
        When::ReplayOpen);
    diff->addSeparator();
    // The diff panel's own actions, so the menu shows their Ctrl+↓ / Ctrl+↑ (which work while
    // the diff has the focus: window-wide they would take the entity list's Ctrl+arrows). A copy
    // of them here showed no key, and a keyed copy would have made the key ambiguous.
    for (bool forward : {true, false}) {
        QAction* a = m_diff->changeAction(forward);
        a->setText(forward ? tr("Next change in the diff") : tr("Previous change in the diff"));
        diff->addAction(a);
    }

    QMenu* play = menuBar()->addMenu(tr("&Playback"));
    add(
        play, "playPause", tr("Play / Pause"), QKeySequence(Qt::Key_Space), [this] { m_playback->togglePlay(); }, When::ReplayOpen);
    add(play, "slower", tr("Slower"), QKeySequence(Qt::Key_Minus), [this] { m_playback->slower(); });
    QAction* faster = add(play, "faster", tr("Faster"), QKeySequence(Qt::Key_Plus), [this] { m_playback->faster(); });
    faster->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}); // '=' is '+' without Shift on most layouts
    play->addSeparator();
    // A–B loop between the diff's frames A and B (the markers already on the timeline).
    QAction* loop = add(
        play, "loopAB", tr("&Loop A–B"), QKeySequence(Qt::CTRL | Qt::Key_L), [this](bool on) { toggleLoop(on); }, When::ReplayOpen);
    loop->setCheckable(true);
    connect(m_viewState, &ViewState::loopChanged, loop, &QAction::setChecked);

    m_bookmarkMenu = new BookmarkMenu(m_session, m_viewState, *m_actions, menuBar(), this);

    // Analyses over the whole replay, shown in the Analysis dock (issue 18).
    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    add(analysis, "analysisLifetimes", tr("Entity &lifetimes"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_L), [this] {
        raiseDock("analysisDock");
        m_analysis->runLifetimes();
    });
    add(analysis, "analysisUniqueValues", tr("&Unique values…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_U), [this] {
        if (m_analysis->askUniqueValues())
            raiseDock("analysisDock");
    });
    add(analysis, "analysisSpans", tr("Property &spans…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S), [this] {
        if (m_analysis->askPropertySpans())
            raiseDock("analysisDock");
    });
    analysis->addSeparator();
    add(analysis, "plotExpression", tr("&Plot an expression…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P), [this] {
        raiseDock("plotDock");
        m_queryBar->activate(QueryBar::Mode::Plot);
    });
    analysis->addSeparator();
    QAction* cancelAnalysis = add(
        analysis, "analysisCancel", tr("&Cancel analysis"), {}, [this] { m_analysis->cancel(); }, When::Owned);
    cancelAnalysis->setEnabled(false); // while one runs: enabled with nothing to cancel it did nothing
    connect(m_analysis, &AnalysisPanel::runningChanged, cancelAnalysis, &QAction::setEnabled);

    m_debugMenu = new DebugMenu(m_session, m_settings, *m_actions, menuBar(), this);
    connect(m_debugMenu, &DebugMenu::visibilityChanged, m_status, &StatusPresenter::setDeveloperFields);
    m_status->setDeveloperFields(m_debugMenu->isVisible());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, "shortcuts", tr("&Keyboard shortcuts"), QKeySequence(Qt::Key_F1), [this] {
        ShortcutSheet sheet(this, this);
        sheet.exec();
    });
    add(help, "about", tr("&About vtxscope"), {}, [this] { showAboutBox(this); });
}

void MainWindow::toggleLoop(bool on)
{
    if (!on)
        m_viewState->clearLoop();
    else if (!m_viewState->loopBetweenMarkers()) {
        m_status->showMessage(tr("Set A and B first (A pins A at the playhead, B sets B; a B that follows the playhead is no loop end)"), 5000);
        m_actions->action("loopAB")->setChecked(false);
    }
}

void MainWindow::buildDocks()
{
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
    // The query bar in the menu bar's free right end (issue 26 item 6): a row of its own cost
    // 34 px of height, which a 600 px window does not have.
    menuBar()->setCornerWidget(m_queryBar, Qt::TopRightCorner);
    auto dock = [this](const QString& name, const QString& title, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        // Hidden until placeDocksByDefault() has put every dock in its place: a dozen docks side
        // by side on the way would set the window's minimum size.
        d->hide();
        addDockWidget(area, d);
        m_viewMenu->addAction(d->toggleViewAction());
        return d;
    };
    dock("entitiesDock", tr("Entities"), m_entities, Qt::LeftDockWidgetArea);

    // Right column: watch / events / file / cache / time data / map as tabs above the diff,
    // which needs the height. The map is not in the centre: the inspector is, and docks cannot
    // tab with it; a tab beside the diff would add a tab bar the 800 × 600 minimum has no room for.
    m_watchPanel = new WatchPanel(m_watchModel, this);
    dock("watchDock", tr("Watch"), m_watchPanel, Qt::RightDockWidgetArea);
    dock("diffDock", tr("Diff"), m_diff, Qt::RightDockWidgetArea);
    auto* events = new EventsPanel(m_eventsModel, this);
    connect(events, &EventsPanel::seekRequested, m_playback, &PlaybackController::seek);
    m_fileInfo = new FileInfoPanel(this);
    m_cachePanel = new CachePanel(m_session, this);
    m_timeData = new TimeDataPanel(this);
    connect(m_timeData, &TimeDataPanel::seekRequested, m_playback, &PlaybackController::seek);
    m_map = new MapView(m_session, m_viewState, this);
    connect(m_map, &MapView::seekRequested, m_playback, &PlaybackController::seek);
    connect(m_diff, &DiffPanel::diffUpdated, m_map, [this] {
        const auto& d = m_diff->model()->diff();
        m_map->setComparisonFrame(m_diff->isUpToDate() && d ? d->a : vtx::FrameHandle{});
    });
    for (auto [name, title, widget] : {std::tuple{"eventsDock", tr("Events"), static_cast<QWidget*>(events)},
                                       {"fileDock", tr("File"), m_fileInfo},
                                       {"cacheDock", tr("Cache"), m_cachePanel},
                                       {"timeDataDock", tr("Time data"), m_timeData},
                                       {"mapDock", tr("Map"), m_map}})
        dock(name, title, widget, Qt::RightDockWidgetArea);
    // A map tab raised in a short group takes half the right column (35 px of map at 1024 × 700).
    connect(findChild<QDockWidget*>("mapDock"), &QDockWidget::visibilityChanged, this, [this](bool shown) {
        if (shown)
            m_layout->mapRaised();
    });

    // Plot and timeline (with the transport bar) along the bottom.
    dock("plotDock", tr("Plot"), m_plot, Qt::BottomDockWidgetArea);
    const PlaybackStrip::Commands transport{m_actions->action("firstFrame"), m_actions->action("prevFrame"), m_actions->action("playPause"),
                                            m_actions->action("nextFrame"), m_actions->action("lastFrame")};
    auto* strip = new PlaybackStrip(m_playback, transport, m_timeline, this);
    dock("timelineDock", tr("Timeline"), strip, Qt::BottomDockWidgetArea)->setFeatures(QDockWidget::DockWidgetMovable);
    // The replay library (File ▸ Open folder…): a replay opens, two compare, a baseline
    // check's result opens the pair at its first divergence.
    m_library = new LibraryPanel(this);
    connect(m_library, &LibraryPanel::openRequested, this, [this](const QString& p) { openFile({p}); });
    connect(m_library, &LibraryPanel::compareRequested, this, [this](const QString& a, const QString& b) {
        OpenRequest r(a);
        r.compare = b;
        openFile(r);
    });
    connect(m_library, &LibraryPanel::openPairAtFrame, this, [this](const QString& baseline, const QString& run, qint64 frame) {
        OpenRequest r(baseline);
        r.compare = run;
        r.frame = int(frame);
        openFile(r);
    });
    dock("analysisDock", tr("Analysis"), m_analysis, Qt::BottomDockWidgetArea);
    QDockWidget* libraryDock = dock("libraryDock", tr("Library"), m_library, Qt::BottomDockWidgetArea);
    libraryDock->setProperty(DockLayout::OnDemandProperty, true);
    placeDocksByDefault();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        d->setVisible(d != libraryDock); // the library shows once a folder is opened
    m_layout->applyDefaultSizes();
    m_viewMenu->addSeparator();
    QAction* flash = m_viewMenu->addAction(tr("Flash changed values"));
    flash->setCheckable(true);
    flash->setChecked(m_settings->flashChanges());
    connect(flash, &QAction::toggled, m_settings, &UserSettings::setFlashChanges);
    connect(m_settings, &UserSettings::flashChangesChanged, flash, &QAction::setChecked);
    m_layouts = new LayoutPresets(this, *m_layout, this);
    m_layouts->addMenu(*m_actions, m_viewMenu);
    m_viewMenu->addAction(tr("Reset layout"), this, &MainWindow::resetLayout)->setObjectName("resetLayout");
    m_viewMenu->addAction(tr("Zoom timeline to all"), m_timeline, &TimelineScrubber::showAll);
}

void MainWindow::placeDocksByDefault()
{
    // The default arrangement, made with addDockWidget / splitDockWidget / tabifyDockWidget on
    // the docks where they are now. Reset layout and every layout preset start from it. It used
    // to be a restoreState() of a state saved at start-up, and QMainWindow::restoreState crashed
    // in QWidget::show() after the monkey had dragged and re-arranged docks (scripts/monkey,
    // seed 225952838: Ctrl+4, drags, then Ctrl+2).
    auto dock = [this](const char* name) { return findChild<QDockWidget*>(name); };
    for (QDockWidget* d : findChildren<QDockWidget*>())
        if (d->isFloating())
            d->setFloating(false);
    addDockWidget(Qt::LeftDockWidgetArea, dock("entitiesDock"));
    // Right column: watch / events / file / cache / time data / map as tabs above the diff,
    // which needs the height. The map is not in the centre: the inspector is, and docks cannot
    // tab with it; a tab beside the diff would add a tab bar the 800 × 600 minimum has no room for.
    // A wide window gives the map a column of its own (DockLayout::placeMap, after this).
    addDockWidget(Qt::RightDockWidgetArea, dock("watchDock"));
    addDockWidget(Qt::RightDockWidgetArea, dock("diffDock"));
    splitDockWidget(dock("watchDock"), dock("diffDock"), Qt::Vertical);
    QDockWidget* tabbed = dock("watchDock");
    for (const char* name : {"eventsDock", "fileDock", "cacheDock", "timeDataDock", "mapDock"}) {
        tabifyDockWidget(tabbed, dock(name));
        tabbed = dock(name);
    }
    dock("watchDock")->raise();
    // Plot and timeline (with the transport bar) along the bottom; the analyses and the library
    // share the plot's place (tabbed after the split: splitting a tabbed dock would tab the
    // timeline too).
    addDockWidget(Qt::BottomDockWidgetArea, dock("plotDock"));
    addDockWidget(Qt::BottomDockWidgetArea, dock("timelineDock"));
    splitDockWidget(dock("plotDock"), dock("timelineDock"), Qt::Vertical);
    tabifyDockWidget(dock("plotDock"), dock("analysisDock"));
    tabifyDockWidget(dock("analysisDock"), dock("libraryDock"));
    dock("plotDock")->raise();
}

void MainWindow::openFolder(const QString& folder)
{
    m_library->setFolder(folder);
    raiseDock("libraryDock");
    if (!m_session->isOpen())
        m_layout->enlargeLibrary();
}

Bookmarks* MainWindow::bookmarks() const
{
    return m_bookmarkMenu->bookmarks();
}

void MainWindow::resetLayout()
{
    m_layouts->apply(LayoutPresets::Preset::Inspect); // the default arrangement
    // Column widths the user sized (the diff's, the inspector's) follow their panels again.
    for (FittedColumns* columns : findChildren<FittedColumns*>())
        columns->reset();
}

void MainWindow::updateFileActions()
{
    m_actions->update(m_session->isOpen(), m_compare && m_compare->isActive());
}

bool MainWindow::event(QEvent* e)
{
    // A press on the window itself, not on a child, is on a dock's edge (the separators are
    // the window's own): the user is sizing the docks. A press a child ignored comes here too
    // (an empty part of a dock, a label): only one where no child is counts.
    if (e->type() == QEvent::MouseButtonPress && !childAt(static_cast<QMouseEvent*>(e)->position().toPoint()))
        m_layout->stopFollowingWindow();
    const bool handled = QMainWindow::event(e);
    if (e->type() == QEvent::LayoutRequest) // the docks have just been laid out
        m_layout->fitTabBars();
    return handled;
}

void MainWindow::resizeEvent(QResizeEvent* e)
{
    QMainWindow::resizeEvent(e);
    // The query bar takes the menu bar's room right of the last menu. The menus' width is
    // measured from their titles, not from where the bar put them: when this runs, the bar was
    // laid out beside the query bar of the old width, and the menus that did not fit were in its
    // "»" overflow (at 800 px Bookmarks, Analysis and Help stayed there).
    const QFontMetrics fm = menuBar()->fontMetrics();
    auto titleWidth = [&fm](const QAction* a) { return fm.horizontalAdvance(QString(a->text()).remove(QLatin1Char('&'))); };
    int padding = 16, left = 0; // the style's padding around a title, and where the first menu starts
    for (QAction* a : menuBar()->actions())
        if (const QRect r = menuBar()->actionGeometry(a); a->isVisible() && r.width() > 0) {
            padding = r.width() - titleWidth(a);
            left = r.left();
            break;
        }
    const int spacing = menuBar()->style()->pixelMetric(QStyle::PM_MenuBarItemSpacing, nullptr, menuBar());
    int menusRight = left; // and the same margin again on the right: `left` is the bar's margin
    for (QAction* a : menuBar()->actions())
        if (a->isVisible())
            menusRight += titleWidth(a) + padding + spacing;
    menusRight += left;
    // The bar places its corner widget only when it is resized or the widget set again: a new
    // size hint alone left the query bar as wide as before, over the menus it pushed out.
    if (m_queryBar->setRoom(e->size().width() - menusRight - 24))
        menuBar()->setCornerWidget(m_queryBar, Qt::TopRightCorner);
    m_layout->windowResized(e->oldSize(), e->size());
}

void MainWindow::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    if (!m_shownOnce) {
        m_shownOnce = true;
        m_layout->firstShown();
        // Start where the single-key shortcuts act; Qt would otherwise pick the first field in
        // the focus chain (the diff filter), and Space / A / B would be typed into it.
        m_timeline->setFocus(Qt::OtherFocusReason);
    }
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
    updateFileActions();
    if (!focusWidget() || !focusWidget()->isVisible() || m_centre->widget(0)->isAncestorOf(focusWidget()))
        m_timeline->setFocus(Qt::OtherFocusReason);
    m_recent->add(m_session->path());
    setWindowTitle(tr("%1 — vtxscope").arg(QFileInfo(m_session->path()).fileName()));
    m_centre->setCurrentWidget(m_inspector);
    m_layout->giveBackRoom(); // the inspector's room, if a folder opened first took it
    showFileInfo();
    if (m_pending.follow)
        m_session->setFollowing(true);

    if (const EntityKey e = m_pending.selection(m_session->file()->schema()); e.isValid())
        m_viewState->setSelection(e);
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
    m_centre->setCurrentIndex(0);
    m_fileInfo->clear();
    m_cachePanel->refresh();
    setWindowTitle(tr("vtxscope"));
    updateRecentMenu();
    updateFileActions();
}

void MainWindow::updateRecentMenu()
{
    const QStringList recent = m_recent->paths(); // without files deleted since
    m_recentMenu->clear();
    for (const QString& p : recent)
        m_recentMenu->addAction(p, this, [this, p] { openFile({p}); });
    m_recentMenu->setEnabled(!recent.isEmpty());
    m_welcome->setRecentFiles(recent);
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
