// SPDX-License-Identifier: MIT
#pragma once
// The vtxscope main window: entities left, inspector centre, watch right, plot and timeline
// below, every panel a dock whose layout is remembered. All long work happens elsewhere
// (ReplaySession's worker open, the cache's decode pool, the plot worker).

#include "entities/EntityTreeModel.hpp"
#include "shell/OpenRequest.hpp"

#include <QMainWindow>
#include <QPointer>
#include <memory>
#include <utility>

class QAction;
class QLabel;
class QProgressBar;
class QLineEdit;
class QMenu;
class QStackedWidget;
class QTreeView;
class QTableView;
class QTreeWidget;

namespace vtxw {

class ReplaySession;
class PlaybackController;
class TimelineScrubber;
class InspectorPanel;
class WatchModel;
class EventsModel;
class PlotPanel;
class AnalysisPanel;
class DiffPanel;
class SearchCommands;
class BookmarkMenu;
class DebugMenu;
class WelcomePage;
class WatchPanel;
class TextFieldKeys;
class FileInfoPanel;
class CachePanel;
class RecentFiles;
class ViewState;
class UserSettings;
class TimeDataPanel;
class Bookmarks;
class MapView;
class CompareSession;
class CompareBar;
class DivergenceLane;
class QueryBar;
class StatusPresenter;
class ActionTable;
class EntityListPanel;
class DockLayout;
class LayoutPresets;
class LibraryPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openFile(const OpenRequest& request);
    /// File ▸ Open folder…, `vtxscope DIR`: lists the replays under `folder` in the Library dock.
    void openFolder(const QString& folder);
    LibraryPanel* library() const { return m_library; }
    ReplaySession* session() const { return m_session; }
    PlaybackController* playback() const { return m_playback; }
    TimelineScrubber* timeline() const { return m_timeline; }
    InspectorPanel* inspector() const { return m_inspector; }
    EntityListPanel* entityList() const { return m_entities; }
    WatchModel* watchModel() const { return m_watchModel; }
    EventsModel* eventsModel() const { return m_eventsModel; }
    PlotPanel* plot() const { return m_plot; }
    AnalysisPanel* analysis() const { return m_analysis; }
    DiffPanel* diffPanel() const { return m_diff; }
    QueryBar* queryBar() const { return m_queryBar; }
    /// Go ▸ searches: property changes (F3), frames where an expression holds, go to.
    SearchCommands* search() const { return m_search; }
    MapView* map() const { return m_map; }
    /// File ▸ Compare with…: opens `path` (off the UI thread) and compares the open replay with it.
    void openComparison(const QString& path);
    CompareSession* compareSession() const { return m_compare; }
    CompareBar* compareBar() const { return m_compareBar; }
    DivergenceLane* divergenceLane() const { return m_divergenceLane; }
    /// Go ▸ Next / Previous divergence.
    void seekDivergence(bool forward);
    ViewState* viewState() const { return m_viewState; }
    UserSettings* userSettings() const { return m_settings; }
    TimeDataPanel* timeData() const { return m_timeData; }
    Bookmarks* bookmarks() const;
    DebugMenu* debugMenu() const { return m_debugMenu; }
    LayoutPresets* layouts() const { return m_layouts; }
    /// File ▸ Settings (modal).
    void showSettings();
    /// The last error shown to the user (for tests), empty if none.
    QString lastError() const { return m_lastError; }
    /// The yellow banner above the inspector (empty when hidden), for tests.
    QString bannerText() const;

protected:
    void closeEvent(QCloseEvent*) override;
    void showEvent(QShowEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    void buildActions();
    void buildDocks();
    /// The docks in their default places (DockLayout::reset and the layout presets start there).
    void placeDocksByDefault();
    void wirePanels();
    /// The property F3 follows: the diff's selected row when the diff has the focus, else the
    /// inspector's.
    std::pair<EntityKey, QString> selectedProperty() const;
    void raiseDock(const char* objectName);
    void toggleLoop(bool on);
    void onOpened();
    void onOpenFailed(const QString& path, const QString& message);
    void showFileInfo();
    void onClosed();
    void updateRecentMenu();
    void resetLayout();
    void updateFileActions();
    void applyUserSettings();
    void buildComparison(); ///< MainWindowCompare.cpp
    void showComparisonOnMap();

    ReplaySession* m_session;
    PlaybackController* m_playback;
    TimelineScrubber* m_timeline;
    InspectorPanel* m_inspector;
    EntityListPanel* m_entities;
    WatchModel* m_watchModel;
    EventsModel* m_eventsModel;
    PlotPanel* m_plot;
    AnalysisPanel* m_analysis;
    DiffPanel* m_diff;
    SearchCommands* m_search;
    WatchPanel* m_watchPanel = nullptr;
    MapView* m_map = nullptr;
    CompareSession* m_compare = nullptr;
    CompareBar* m_compareBar = nullptr;
    DivergenceLane* m_divergenceLane = nullptr;
    FileInfoPanel* m_fileInfo;
    CachePanel* m_cachePanel;
    RecentFiles* m_recent;
    QStackedWidget* m_centre;
    WelcomePage* m_welcome;
    QLabel* m_banner;
    StatusPresenter* m_status = nullptr; ///< the status bar and the banner
    QueryBar* m_queryBar = nullptr;
    ActionTable* m_actions = nullptr; ///< every command: menus, shortcuts, when enabled
    QMenu* m_recentMenu;
    QMenu* m_viewMenu;
    QMenu* m_goMenu = nullptr;
    std::unique_ptr<DockLayout> m_layout; ///< default, reset, saved arrangement of the docks
    ViewState* m_viewState;
    UserSettings* m_settings;
    TimeDataPanel* m_timeData = nullptr;
    BookmarkMenu* m_bookmarkMenu = nullptr;
    DebugMenu* m_debugMenu = nullptr;
    LayoutPresets* m_layouts = nullptr;
    LibraryPanel* m_library = nullptr;
    OpenRequest m_pending;
    QString m_lastError;
    QAction* m_followAction = nullptr;
    TextFieldKeys* m_fieldKeys = nullptr;
    QString m_lastOpenedPath; ///< watches belong to one file: another file starts without them
    bool m_shownOnce = false;
};

} // namespace vtxw
