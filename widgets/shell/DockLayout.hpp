// SPDX-License-Identifier: MIT
#pragma once
// The arrangement of the window's docks: the default one (captured once every dock is built),
// View ▸ Reset layout, and the user's last arrangement saved and restored with QSettings
// (`window/geometry`, `window/state`). Default sizes give the entity list, the diff and the plot
// readable room; a dock a small window squeezed to its minimum gets its width back when the
// window grows again.

#include <QByteArray>
#include <QSize>

class QMainWindow;

namespace vtxw {

class DockLayout {
public:
    /// A dock with this property true stays hidden on reset (it shows when its content exists).
    static constexpr const char* OnDemandProperty = "vtxscopeOnDemand";

    explicit DockLayout(QMainWindow* window) : m_window(window) { }

    /// Remembers the current arrangement as the default (call once the docks are built).
    void captureDefault();
    /// The user's last arrangement and window geometry, if saved.
    void restoreSaved();
    void save() const;
    /// Back to the default arrangement, every dock visible, default sizes.
    void reset();
    /// The default widths and heights of the entity, diff, watch and plot docks.
    void applyDefaultSizes();
    /// The window was resized from `before` to `after`.
    void windowResized(const QSize& before, const QSize& after);

private:
    QMainWindow* m_window;
    QByteArray m_default;
};

} // namespace vtxw
