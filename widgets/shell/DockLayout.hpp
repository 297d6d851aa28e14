// SPDX-License-Identifier: MIT
#pragma once
// The arrangement of the window's docks: the default one (the window's recipe, run again on
// reset: never a restoreState() of a captured state, which crashed in Qt after docks were dragged),
// View ▸ Reset layout, and the user's last arrangement saved and restored with QSettings
// (`window/geometry`, `window/state`). Default sizes give the entity list, the diff and the plot
// readable room; a dock a small window squeezed to its minimum gets its width back when the
// window grows again.

#include <QPointer>
#include <QSize>
#include <QWidget>

#include <functional>

class QDockWidget;
class QMainWindow;

namespace vtxw {

class DockLayout {
public:
    /// A dock with this property true stays hidden on reset (it shows when its content exists).
    static constexpr const char* OnDemandProperty = "vtxscopeOnDemand";

    explicit DockLayout(QMainWindow* window) : m_window(window) { }

    /// How the docks are placed by default (addDockWidget, splitDockWidget, tabifyDockWidget).
    void setDefaultArrangement(std::function<void()> arrange) { m_arrange = std::move(arrange); }
    /// The user's last arrangement and window geometry, if saved; with no saved geometry the
    /// window takes defaultWindowSize() of its screen.
    void restoreSaved();
    /// The size of a window with no saved geometry on a screen offering `available`.
    static QSize defaultWindowSize(const QSize& available);
    void save() const;
    /// Back to the default arrangement, every dock visible, default sizes.
    void reset();
    /// The default widths and heights of the entity, diff, watch and plot docks, as fractions of
    /// the window. In the default arrangement they follow the window until the user drags a
    /// dock's edge, applies another layout or a saved one is restored: a window made larger
    /// after its first layout (maximized, or sized by the window manager after it showed) gave
    /// all of its room to the inspector, and at 1024 px the entity types and the diff's B column
    /// were cut.
    void applyDefaultSizes();
    /// The window shows for the first time: the default sizes again, for the size it shows at
    /// (at construction the window has Qt's default size).
    void firstShown();
    /// The user dragged a dock's edge, or a layout other than the default was applied: the
    /// sizes stay theirs when the window changes.
    void stopFollowingWindow() { m_followWindow = false; }
    /// A layout other than the default was applied: its sizes follow the window through
    /// `sizes` (the layout's fractions of the new size) until the user drags a dock's edge or
    /// the default arrangement comes back. A preset chosen at 1366 px kept its 546 px diff in a
    /// window maximised to 1920 px, all the new room going to the inspector (review 4, item 9).
    void followWindowWith(std::function<void()> sizes);
    /// The user moved, floated, showed or hid a dock by hand: a layout's own sizes no longer
    /// apply (the default arrangement's keep following the window).
    void dropLayoutSizes();
    /// Gives the tab bars of tab groups whose docks are all hidden no size (and their size back
    /// once they hold tabs again). Qt 6.4 leaves such a bar shown, with no tab, where the group
    /// was: after the Map layout hid the plot and its Analysis tab, a 26 px bar's top line lay
    /// across the entity list and the map. And tab labels whole, with scroll arrows when a
    /// group's tabs do not fit: elided, the Compare layout's right-hand group read
    /// "W…  E…  File  Ca…  T…" even at 1920 px (review 4, item 9). Called at every layout of
    /// the window (Qt makes a group's bar when the group forms).
    void fitTabBars();
    /// The window was resized from `before` to `after`.
    void windowResized(const QSize& before, const QSize& after);
    /// A folder opened with no replay open: the library (the plot's tab group) takes half the
    /// window's height, since its list is all there is to see; 8 of 40 rows showed at 1280 × 800
    /// under an empty welcome page. `giveBackRoom()` returns it to the plot's default height.
    void enlargeLibrary();
    /// After a replay opened: the group enlarged for the library back to the plot's default
    /// height.
    void giveBackRoom();

    /// Where focus goes when a layout change hid the widget that had it (the timeline, where
    /// the single-key shortcuts act: UX.md ▸ Focus).
    void setFocusHome(QWidget* home) { m_focusHome = home; }
    /// After docks were moved, shown or hidden: focus back on `before` when it still shows, on
    /// the home otherwise. Qt hands the focus of a hidden dock to the next widget in the focus
    /// chain: after Ctrl+2 it was the entity filter, where → moved the text cursor.
    void restoreFocus(QWidget* before);
    /// The docked, visible plot `extra` pixels taller (its lanes need them), up to half the
    /// window; a floating or hidden plot is the user's to size. The height stays the plot's
    /// floor when the default sizes follow the window (a resize put it back to 130 px at 700).
    void growPlot(int extra);
    /// Shows and raises `dock`. A bottom dock (the plot, the analyses) that was out of the window
    /// with its whole tab group (a layout hid it: Map) comes back at the default arrangement's
    /// height for the window: Qt gave it back about 80 px, a plot of 55 px under its legend.
    void raise(QDockWidget* dock);

    /// From this window width the default arrangement gives the map a full-height column of its
    /// own between the entity list and the inspector (UX.md ▸ Map: "or its own column on wide
    /// screens"); narrower windows keep it a tab of the right column's group. At 1500 px the
    /// column has 270 px and the inspector 400.
    static constexpr int MapColumnFromWidth = 1500;
    /// The map where the default arrangement puts it for the window's width: a column or the
    /// last tab of the watch group. Only while the default sizes follow the window (a layout the
    /// user made or chose keeps its map). Keeps whether the map is open and each group's tab.
    void placeMap();
    /// The map back in the watch group, whatever the width (the Compare layout's four columns
    /// leave a map column no room).
    void tabMap() { moveMap(false); }
    /// The map's tab was raised in its group: a group shorter than a readable map (35 px at
    /// 1024 × 700 under the watch list's share) takes half of the right column; the diff keeps
    /// the rest.
    void mapRaised();
    /// The map has a column of its own (docked, open, in no tab group).
    bool mapHasColumn() const;

private:
    QMainWindow* m_window;
    QPointer<QWidget> m_focusHome;
    /// The height of the tab bar under `dock`'s tab group, or 0 when it is not tabbed.
    int tabBarHeight(const QDockWidget* dock) const;
    /// The window's height, or 800 before its first show.
    int windowHeight() const;
    /// The plot's height in the default arrangement for a window this tall (its tab group's,
    /// tab bar included).
    static int defaultPlotHeight(int height);
    /// The enlarged library's height in a window this tall (half of it).
    static int libraryHeight(int height);
    std::function<void()> m_arrange;
    bool m_libraryEnlarged = false; ///< by enlargeLibrary(), until giveBackRoom()
    bool m_followWindow = true; ///< the sizes follow the window (see applyDefaultSizes)
    std::function<void()> m_layoutSizes; ///< a layout's own sizes, when not the default's
    /// The default arrangement's sizes follow the window (not a layout's own).
    bool followsDefault() const { return m_followWindow && !m_layoutSizes; }
    /// The sizes for the window's size now: the layout's own or the default's.
    void fitToWindow();
    int m_plotFloor = 0; ///< the plot's height as growPlot() left it (0: never grown)
    bool m_mapGrown = false; ///< mapRaised() gave the map's group half the right column
    QDockWidget* dock(const char* name) const;
    /// The map's tab group and the diff under it, half the column each.
    void halveRightColumn();
    /// The map a column (true) or the last tab of the watch group.
    void moveMap(bool column);
    /// The height of the plot's tab group in the default sizes for a window this tall: the
    /// default, or the plot's floor with its tab bar when that is more.
    int plotGroupHeight(int height) const;
};

} // namespace vtxw
