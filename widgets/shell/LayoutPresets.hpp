// SPDX-License-Identifier: MIT
#pragma once
// View ▸ Layout: arrangements of the docks for one job each — Inspect (Ctrl+1, the default),
// Map (Ctrl+2: the map large beside the entity list), Compare (Ctrl+3: the diff wide and tall),
// Plot (Ctrl+4: the plot half the height) — and the user's own, saved by name. The last one
// chosen is remembered (`layout/last`; the arrangement itself is DockLayout's saved state).
// The menu marks the layout on screen (`layout/current`) until a panel is moved, floated,
// closed or opened by hand, after which no layout is marked: the arrangement is the user's.
// Sizes are fractions of the window, so each reads well at 1280×800 and at 1920×1080, and they
// follow the window when it is resized until the user drags a dock's edge.

#include <QObject>
#include <QStringList>

class QMainWindow;
class QMenu;

namespace vtxw {

class ActionTable;
class DockLayout;

class LayoutPresets : public QObject {
    Q_OBJECT
public:
    enum class Preset { Inspect, Map, Compare, Plot };

    LayoutPresets(QMainWindow* window, DockLayout& docks, QObject* parent = nullptr);

    /// Adds View ▸ Layout with the presets (Ctrl+1…4), the saved layouts and Save / Delete.
    void addMenu(ActionTable& actions, QMenu* view);

    void apply(Preset preset);
    /// The user's saved layouts, by name (sorted).
    QStringList savedNames() const;
    void save(const QString& name);
    bool applySaved(const QString& name);
    void remove(const QString& name);
    /// The name of the layout last chosen ("Inspect", "Map", …, or a saved layout's name).
    QString lastChosen() const;
    /// The layout on screen, as an id that tells a preset from a saved layout of the same name
    /// ("preset:Map", "saved:Map"): the one last chosen, or empty once the user rearranged the
    /// panels by hand (the Layout menu marks it).
    QString current() const;
    /// From now on a dock floated, dragged away, shown or hidden by hand leaves no layout
    /// current (called once the window restored its saved arrangement).
    void watchDocks();

    static QString presetName(Preset preset);

signals:
    void savedChanged();

private:
    void remember(const QString& name, const QString& id);
    void rebuildSavedMenu();
    void markCurrent();
    /// `preset`'s dock sizes for the window's size now (its arrangement is in place).
    void fitSizes(Preset preset);

    QMainWindow* m_window;
    DockLayout& m_docks;
    QMenu* m_savedMenu = nullptr;
    QMenu* m_deleteMenu = nullptr;
    QMenu* m_menu = nullptr;
    bool m_arranging = false; ///< a layout is being applied: its dock moves are not the user's
};

} // namespace vtxw
