// SPDX-License-Identifier: MIT
#pragma once
// What the map draws, already reduced to map-plane coordinates (world units, u right, v up),
// and how it draws it. Kept apart from the widget so tests and the bench paint into a QImage
// exactly what the dock paints on screen.

#include "entities/EntityTreeModel.hpp"
#include "vtx/base/Types.hpp"

#include <QColor>
#include <QFontMetrics>
#include <QImage>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>
#include <cmath>
#include <optional>
#include <vector>

class QPainter;

namespace vtxw {

/// World (map plane) ↔ pixel, after the timeline's TimelineAxis: a small value type with its own
/// tests. Pixels grow right and down; the map's v axis grows up.
struct MapViewport {
    QSizeF size{1, 1};
    QPointF centre; ///< world point at the middle of the widget
    double pixelsPerUnit = 1.0;

    QPointF toPixel(QPointF world) const
    {
        return {size.width() / 2 + (world.x() - centre.x()) * pixelsPerUnit, size.height() / 2 - (world.y() - centre.y()) * pixelsPerUnit};
    }
    QPointF toWorld(QPointF pixel) const
    {
        return {centre.x() + (pixel.x() - size.width() / 2) / pixelsPerUnit, centre.y() - (pixel.y() - size.height() / 2) / pixelsPerUnit};
    }
    /// Shows all of `bounds` with a margin of `marginPx` on every side, and outside `keepClear`
    /// (the legend's corner) when given: in the room right of it or below it, whichever shows
    /// the bounds larger (a small map's legend covered the dots under it). `bottomClearPx`: the
    /// height of the strip along the bottom (the scale bar's) the bounds keep out of, while
    /// that leaves the map half its height; a glyph had hidden "200 u".
    void fit(const QRectF& bounds, double marginPx = 24, const QRectF& keepClear = {}, double bottomClearPx = 0);
    /// Scales by `factor` keeping the world point under `pixel` where it is.
    void zoomAt(QPointF pixel, double factor);
    void panBy(QPointF pixelDelta) { centre -= QPointF(pixelDelta.x(), -pixelDelta.y()) / pixelsPerUnit; }
};

struct MapGlyph {
    EntityKey key;
    QString name; ///< its label and id ("s1mple · player_7656…"): tooltips
    /// What the map writes beside it when selected or hovered: its label alone when it has one
    /// (the 17-digit id beside every name filled the map); empty: `name`.
    QString mapLabel;
    QPointF world;
    vtx::Vec3 position; ///< in the world, for the A→B delta
    double heading = std::nan(""); ///< radians counter-clockwise from +u; NaN: none
    int colour = 0; ///< index into MapScene::palette
    bool damaged = false; ///< its stored hash disagrees with its values (FrameIntegrity): position not as recorded
};

/// Where an entity was in frame A: a hollow ghost and, when it moved, an arrow to its glyph in B.
struct MapGhost {
    QPointF world;
    int glyph = -1; ///< the shown frame's glyph of the same entity; -1: none
    int colour = 0;
    EntityKey key;
    QString name;
    double distance = 0; ///< world units from A to B
    QString delta; ///< "(+1.5, -2, 0)" in world axes: B − A
};

struct MapTrail {
    int glyph = -1;
    std::vector<QPointF> points; ///< oldest first
    std::vector<float> ages; ///< per point, 0 (now) .. 1 (oldest in the window)
    std::vector<uint8_t> breaks; ///< per point: not joined to the previous one
};

struct MapEvent {
    QPointF world;
    QString label;
    int frame = 0;
};

struct MapLegendEntry {
    QString label;
    int colour = 0;
};

struct MapScene {
    std::vector<MapGlyph> glyphs;
    std::vector<QColor> palette;
    std::vector<MapLegendEntry> legend;
    std::vector<MapTrail> trails;
    std::vector<MapEvent> events;
    QString eventLegend; ///< the legend's line for the event diamonds ("events within 2 s")
    bool comparing = false; ///< A is pinned and on the map
    /// The ghosts are B, the glyphs A (two replays compared: this one is the diff's A, the
    /// compared one B): arrows run from each glyph to its ghost, a ghost without a glyph is
    /// added (a square), a glyph without a ghost removed (a cross). Otherwise the ghosts are A:
    /// arrows from ghost to glyph, a ghost alone is removed, a glyph alone added. Either way an
    /// arrow points from A to B, as the diff's Δ reads.
    bool ghostsAreB = false;
    /// The frame asked for cannot be read: what is drawn is the last frame shown, faded (with the
    /// note saying which), never as if it were the frame asked for.
    bool stale = false;
    std::vector<MapGhost> ghosts; ///< A's entities (comparing)
    std::vector<int> added; ///< glyphs of entities the ghosts' frame does not have (comparing)
    int selected = -1; ///< glyph index
    int hovered = -1; ///< glyph index
    int hoveredArrow = -1; ///< ghost index
    int unplaced = 0; ///< entities of the frame not on the map
    QString note; ///< one line under the legend ("A loading…", "events carry no location")
    /// Centred in the map while it has no glyph ("No replay open."): an empty canvas with its
    /// tool bar greyed read like a map of nothing.
    QString emptyText;
    QImage background; ///< drawn under everything, stretched over backgroundWorld
    QRectF backgroundWorld;
    QString unitName = QStringLiteral("u");

    /// Bounds of every glyph, ghost and trail point (null when empty).
    QRectF worldBounds() const;
    /// Every glyph within `radiusPx` of `pixel`, the one drawn on top first.
    std::vector<int> glyphsAt(const MapViewport& vp, QPointF pixel, double radiusPx = 8) const;
    /// The glyph a click at `pixel` takes: the one drawn on top under it, else the nearest
    /// within `radiusPx`; -1 when none.
    int glyphAt(const MapViewport& vp, QPointF pixel, double radiusPx = 8) const;
    /// The ghost whose A→B arrow passes within `radiusPx` of `pixel`, or -1.
    int arrowAt(const MapViewport& vp, QPointF pixel, double radiusPx = 4) const;
    /// The event marker under `pixel`, or -1.
    int eventAt(const MapViewport& vp, QPointF pixel, double radiusPx = 7) const;
};

/// Okabe–Ito colours (colour-blind safe), for types or property values in order of appearance.
std::vector<QColor> mapPalette();

class MapRenderer {
public:
    /// Paints `scene` through `vp` over the whole of `painter`'s device (vp.size).
    void paint(QPainter& painter, const MapScene& scene, const MapViewport& vp, const QPalette& colours);

    static constexpr double kGlyphRadius = 5;
    /// Where paint() writes the legend, counts and note over a map of `size` (top left), in
    /// pixels; empty when there is nothing to write.
    static QRectF overlayRect(const MapScene& scene, const QFontMetrics& fm, QSizeF size);
    /// Whether the legend is folded into one line on a map of `size`: the whole overlay would
    /// take more than half its height or width (at 1024 × 700 the legend took the left half of
    /// a 55 px map). The line says so and names Ctrl+2, the layout that gives the map room.
    static bool overlayFolded(const MapScene& scene, const QFontMetrics& fm, QSizeF size);
    /// The strip along the map's bottom the scale bar takes (its label, the bar, the gap).
    static double scaleBarHeight(const QFontMetrics& fm) { return fm.height() + 18; }

private:
    /// One pre-rendered disc per colour: drawImage is a blit, drawEllipse rasterizes each time.
    const QImage& sprite(const QColor& c, qreal dpr);
    std::vector<std::pair<QRgb, QImage>> m_sprites;
    std::vector<std::vector<QLineF>> m_trailLines; ///< per colour and age band
    qreal m_spriteDpr = 0;
};

} // namespace vtxw
