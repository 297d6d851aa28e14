// SPDX-License-Identifier: MIT
#pragma once
// View ▸ Layout: arrangements of the docks for one job each — Inspect (Ctrl+1, the default),
// Map (Ctrl+2: the map large beside the entity list), Compare (Ctrl+3: the diff wide and tall),
// Plot (Ctrl+4: the plot half the height) — and the user's own, saved by name. The last one
// chosen is remembered (`layout/last`; the arrangement itself is DockLayout's saved state).
// Sizes are fractions of the window, so each reads well at 1280×800 and at 1920×1080.

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

    static QString presetName(Preset preset);

signals:
    void savedChanged();

private:
    void remember(const QString& name);
    void rebuildSavedMenu();

    QMainWindow* m_window;
    DockLayout& m_docks;
    QMenu* m_savedMenu = nullptr;
    QMenu* m_deleteMenu = nullptr;
};

} // namespace vtxw
