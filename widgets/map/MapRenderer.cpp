// SPDX-License-Identifier: MIT
#include "map/MapRenderer.hpp"

#include <QFontMetrics>
#include <QLineF>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace vtxw {

namespace {
/// The event diamonds' fill, on the map and in its legend.
const QColor kEventColour(0xD5, 0x5E, 0x00);
} // namespace

namespace {
enum class Swatch { None, Square, Diamond };
/// One line of the overlay in the map's top-left corner (legend, event marker, counts, note).
struct OverlayLine {
    QString text;
    Swatch swatch = Swatch::None;
    int colour = 0; ///< the legend entry's palette index (Square)
};
/// The overlay's lines in the order paint() writes them; overlayRect() measures the same list.
/// Folded: the legend and the count in one line, the note (what the map is showing) kept.
std::vector<OverlayLine> overlayLines(const MapScene& scene, bool folded)
{
    std::vector<OverlayLine> lines;
    if (folded) {
        QStringList parts;
        if (!scene.legend.empty() || (!scene.events.empty() && !scene.eventLegend.isEmpty()))
            parts << QObject::tr("Legend hidden: the map is small (Ctrl+2)");
        if (scene.unplaced > 0)
            parts << QObject::tr("%1 not on the map").arg(scene.unplaced);
        if (!parts.isEmpty())
            lines.push_back({parts.join(QStringLiteral(" · "))});
    } else {
        for (const MapLegendEntry& e : scene.legend)
            lines.push_back({e.label, Swatch::Square, e.colour});
        if (!scene.events.empty() && !scene.eventLegend.isEmpty())
            lines.push_back({scene.eventLegend, Swatch::Diamond});
        if (scene.unplaced > 0)
            lines.push_back({QObject::tr("%1 not on the map").arg(scene.unplaced)});
    }
    if (!scene.note.isEmpty())
        lines.push_back({scene.note});
    return lines;
}

// As paint() writes them: a line each, from y 6, lh + 2 apart, on a background from x 2 to the
// text's end + 6 (the text at x 20 beside a swatch, else at 6).
QRectF rectOf(const std::vector<OverlayLine>& lines, const QFontMetrics& fm)
{
    if (lines.empty())
        return {};
    double right = 0;
    for (const OverlayLine& l : lines)
        right = std::max(right, (l.swatch != Swatch::None ? 20.0 : 6.0) + fm.horizontalAdvance(l.text) + 6 + 2);
    return QRectF(0, 0, right, 6 + double(lines.size()) * (fm.height() + 2) + 2);
}
} // namespace

bool MapRenderer::overlayFolded(const MapScene& scene, const QFontMetrics& fm, QSizeF size)
{
    const QRectF whole = rectOf(overlayLines(scene, false), fm);
    return !whole.isEmpty() && (whole.height() > size.height() / 2 || whole.width() > size.width() / 2);
}

QRectF MapRenderer::overlayRect(const MapScene& scene, const QFontMetrics& fm, QSizeF size)
{
    return rectOf(overlayLines(scene, overlayFolded(scene, fm, size)), fm);
}

void MapViewport::fit(const QRectF& bounds, double marginPx, const QRectF& keepClear, double bottomClearPx)
{
    // The room the bounds go in: the whole map, or right of / below the overlay.
    QRectF room(QPointF(0, 0), size);
    if (!keepClear.isEmpty()) {
        const QRectF right(QPointF(keepClear.right(), 0), QPointF(size.width(), size.height()));
        const QRectF below(QPointF(0, keepClear.bottom()), QPointF(size.width(), size.height()));
        auto scaleIn = [&](const QRectF& r) {
            return std::min(r.width() / std::max(bounds.width(), 1e-9), r.height() / std::max(bounds.height(), 1e-9));
        };
        // Only where that room keeps most of the map: a legend as large as the map is drawn over it.
        const QRectF best = scaleIn(right) >= scaleIn(below) ? right : below;
        if (best.width() >= size.width() / 2 && best.height() >= size.height() / 2)
            room = best;
    }
    auto centreFor = [&](QPointF worldMiddle) {
        // The world point shown at the room's middle (toPixel's inverse there).
        const QPointF middle = room.center();
        return QPointF(worldMiddle.x() - (middle.x() - size.width() / 2) / pixelsPerUnit,
                       worldMiddle.y() + (middle.y() - size.height() / 2) / pixelsPerUnit);
    };
    if (bounds.width() <= 0 && bounds.height() <= 0) {
        centre = centreFor(bounds.center()); // one point: at the room's middle, at the scale the user had
        return;
    }
    // A squeezed map keeps most of its pixels for the world rather than for the margin.
    const double margin = std::min(marginPx, std::min(room.width(), room.height()) / 4);
    // Above the scale bar, where that leaves half the map: the margin already keeps part of it.
    if (bottomClearPx > margin) {
        QRectF above = room;
        above.setBottom(std::min(room.bottom(), size.height() - bottomClearPx + margin));
        if (above.height() >= size.height() / 2)
            room = above;
    }
    const double w = std::max(1.0, room.width() - 2 * margin), h = std::max(1.0, room.height() - 2 * margin);
    pixelsPerUnit = std::min(w / std::max(bounds.width(), 1e-9), h / std::max(bounds.height(), 1e-9));
    centre = centreFor(bounds.center());
}

void MapViewport::zoomAt(QPointF pixel, double factor)
{
    const QPointF before = toWorld(pixel);
    pixelsPerUnit = std::clamp(pixelsPerUnit * factor, 1e-9, 1e9);
    const QPointF after = toWorld(pixel);
    centre += before - after;
}

QRectF MapScene::worldBounds() const
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    auto add = [&](QPointF p) { x0 = std::min(x0, p.x()), y0 = std::min(y0, p.y()), x1 = std::max(x1, p.x()), y1 = std::max(y1, p.y()); };
    for (const MapGlyph& g : glyphs)
        add(g.world);
    for (const MapGhost& g : ghosts)
        add(g.world);
    for (const MapTrail& t : trails)
        for (QPointF p : t.points)
            add(p);
    if (x0 > x1)
        return {};
    return QRectF(QPointF(x0, y0), QPointF(x1, y1));
}

std::vector<int> MapScene::glyphsAt(const MapViewport& vp, QPointF pixel, double radiusPx) const
{
    // Top first: the selection (drawn over everything), then the paint order backwards.
    std::vector<int> under;
    auto within = [&](size_t i) {
        const QPointF d = vp.toPixel(glyphs[i].world) - pixel;
        return QPointF::dotProduct(d, d) <= radiusPx * radiusPx;
    };
    if (selected >= 0 && size_t(selected) < glyphs.size() && within(size_t(selected)))
        under.push_back(selected);
    for (size_t i = glyphs.size(); i-- > 0;)
        if (int(i) != selected && within(i))
            under.push_back(int(i));
    return under;
}

int MapScene::glyphAt(const MapViewport& vp, QPointF pixel, double radiusPx) const
{
    // On a glyph: what is drawn on top there (issue 26 8b: a player standing on the weapon it
    // carries was picked as the weapon, the first of two at the same distance). Beside every
    // glyph: the nearest within the radius, the upper one on a tie.
    if (const std::vector<int> on = glyphsAt(vp, pixel, MapRenderer::kGlyphRadius + 1); !on.empty())
        return on.front();
    int best = -1;
    double bestD = radiusPx * radiusPx;
    for (int i : glyphsAt(vp, pixel, radiusPx)) {
        const QPointF d = vp.toPixel(glyphs[size_t(i)].world) - pixel;
        if (const double dd = QPointF::dotProduct(d, d); best < 0 || dd < bestD) {
            bestD = dd;
            best = i;
        }
    }
    return best;
}

namespace {
double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::sqrt(QPointF::dotProduct(d, d));
}
} // namespace

int MapScene::arrowAt(const MapViewport& vp, QPointF pixel, double radiusPx) const
{
    int best = -1;
    double bestD = radiusPx;
    for (size_t i = 0; i < ghosts.size(); ++i) {
        const MapGhost& g = ghosts[i];
        if (g.glyph < 0 || g.distance <= 0)
            continue;
        const double d = distanceToSegment(pixel, vp.toPixel(g.world), vp.toPixel(glyphs[size_t(g.glyph)].world));
        if (d <= bestD) {
            bestD = d;
            best = int(i);
        }
    }
    return best;
}

int MapScene::eventAt(const MapViewport& vp, QPointF pixel, double radiusPx) const
{
    for (size_t i = 0; i < events.size(); ++i) {
        const QPointF d = vp.toPixel(events[i].world) - pixel;
        if (std::abs(d.x()) + std::abs(d.y()) <= radiusPx)
            return int(i);
    }
    return -1;
}

std::vector<QColor> mapPalette()
{
    return {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
            QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00), QColor(0xF0, 0xE4, 0x42), QColor(0x99, 0x99, 0x99)};
}

const QImage& MapRenderer::sprite(const QColor& c, qreal dpr)
{
    if (dpr != m_spriteDpr) {
        m_sprites.clear();
        m_spriteDpr = dpr;
    }
    for (const auto& [rgb, img] : m_sprites)
        if (rgb == c.rgba())
            return img;
    const int side = int(std::ceil((2 * kGlyphRadius + 3) * dpr));
    QImage img(side, side, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(c.darker(170), 1));
    p.setBrush(c);
    const double mid = side / dpr / 2;
    p.drawEllipse(QPointF(mid, mid), kGlyphRadius, kGlyphRadius);
    p.end();
    m_sprites.emplace_back(c.rgba(), std::move(img));
    return m_sprites.back().second;
}

void MapRenderer::paint(QPainter& p, const MapScene& scene, const MapViewport& vp, const QPalette& colours)
{
    const QRectF area(QPointF(0, 0), vp.size);
    p.fillRect(area, colours.color(QPalette::Base));
    if (!scene.background.isNull() && scene.backgroundWorld.isValid()) {
        const QPointF a = vp.toPixel(scene.backgroundWorld.topLeft()), b = vp.toPixel(scene.backgroundWorld.bottomRight());
        p.drawImage(QRectF(a, b).normalized(), scene.background);
    }
    const QRectF visible = area.adjusted(-8, -8, 8, 8);
    const auto& pal = scene.palette;
    p.setOpacity(scene.stale ? 0.3 : 1.0); // trails, ghosts, glyphs and names of a frame not asked for
    auto colourOf = [&](int i) { return pal.empty() ? QColor(Qt::gray) : pal[size_t(i) % pal.size()]; };

    // Trails: batched by colour and age band (four bands fade from the glyph's colour to nearly
    // transparent), one drawLines call per batch; points closer than a pixel to the last one
    // drawn are skipped and segments with both ends off screen are not drawn at all.
    constexpr int kBands = 4;
    auto& bands = m_trailLines; // kept between paints: their capacity is the allocation saved
    bands.resize(std::max<size_t>(pal.size(), 1) * kBands);
    for (auto& b : bands)
        b.clear();
    const double vx0 = visible.left(), vx1 = visible.right(), vy0 = visible.top(), vy1 = visible.bottom();
    auto inView = [&](QPointF q) { return q.x() >= vx0 && q.x() <= vx1 && q.y() >= vy0 && q.y() <= vy1; };
    for (const MapTrail& t : scene.trails) {
        if (t.glyph < 0 || t.points.size() < 2)
            continue;
        const size_t colour = size_t(scene.glyphs[size_t(t.glyph)].colour) % std::max<size_t>(pal.size(), 1);
        // Skipping is decided in world units (2 px of them), so most points are never mapped.
        const double minStep = 2.0 / vp.pixelsPerUnit;
        const QPointF* pts = t.points.data();
        const size_t n = t.points.size();
        QPointF lastWorld = pts[0];
        QPointF last = vp.toPixel(lastWorld);
        for (size_t i = 1; i < n; ++i) {
            const QPointF w = pts[i];
            if (!t.breaks[i] && std::abs(w.x() - lastWorld.x()) + std::abs(w.y() - lastWorld.y()) < minStep && i + 1 < n)
                continue;
            const QPointF q = vp.toPixel(w);
            if (!t.breaks[i] && (inView(q) || inView(last))) {
                const int band = std::min(kBands - 1, int(t.ages[i] * kBands));
                bands[colour * kBands + size_t(band)].emplace_back(last, q);
            }
            last = q;
            lastWorld = w;
        }
    }
    for (size_t i = 0; i < bands.size(); ++i) {
        if (bands[i].empty())
            continue;
        QColor c = colourOf(int(i / kBands));
        const float alpha = 0.9f - 0.2f * float(i % kBands);
        if (scene.background.isNull()) {
            // Over the plain base the faded colour is known: opaque spans fill without blending.
            const QColor base = colours.color(QPalette::Base);
            c = QColor::fromRgbF(c.redF() * alpha + base.redF() * (1 - alpha), c.greenF() * alpha + base.greenF() * (1 - alpha),
                                 c.blueF() * alpha + base.blueF() * (1 - alpha));
        } else {
            c.setAlphaF(alpha);
        }
        // Cosmetic one-pixel lines take the raster engine's fast path; wider pens go through
        // the stroker, which made the bench's 127,000 segments 4× slower.
        p.setPen(QPen(c, 1.0));
        p.drawLines(bands[i].data(), int(bands[i].size()));
    }

    p.setRenderHint(QPainter::Antialiasing);
    // The other frame: hollow ghosts, arrows from A to B, a cross for an entity B removed and a
    // square for one it added (over a ghost here, over a glyph after the glyphs).
    auto cross = [&](QPointF at) {
        p.setPen(QPen(colours.color(QPalette::WindowText), 1.5));
        p.drawLine(at + QPointF(-4, -4), at + QPointF(4, 4));
        p.drawLine(at + QPointF(-4, 4), at + QPointF(4, -4));
    };
    auto square = [&](QPointF at) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(0x00, 0x9E, 0x73), 1.5));
        p.drawRect(QRectF(at - QPointF(8, 8), QSizeF(16, 16)));
    };
    if (scene.comparing) {
        std::vector<QLineF> arrows;
        for (size_t i = 0; i < scene.ghosts.size(); ++i) {
            const MapGhost& g = scene.ghosts[i];
            QPointF a = vp.toPixel(g.world);
            if (!visible.contains(a) && g.glyph < 0)
                continue;
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(colourOf(g.colour), 1.5));
            p.drawEllipse(a, kGlyphRadius, kGlyphRadius);
            if (g.glyph < 0) {
                if (scene.ghostsAreB)
                    square(a);
                else
                    cross(a);
                continue;
            }
            if (g.distance <= 0)
                continue;
            QPointF b = vp.toPixel(scene.glyphs[size_t(g.glyph)].world);
            const QLineF line(a, b);
            if (line.length() < 1)
                continue;
            // From A to B, the head at B, between the ring and the disc (neither is covered).
            if (scene.ghostsAreB)
                std::swap(a, b);
            const double len = line.length();
            const QPointF dir = (b - a) / len;
            const QPointF tail = len > 2 * kGlyphRadius + 2 ? a + dir * kGlyphRadius : a;
            const QPointF tip = len > 2 * kGlyphRadius + 2 ? b - dir * kGlyphRadius : b;
            arrows.emplace_back(tail, tip);
            const QPointF side(-dir.y(), dir.x());
            arrows.emplace_back(tip, tip - dir * 6 + side * 3.5);
            arrows.emplace_back(tip, tip - dir * 6 - side * 3.5);
        }
        p.setPen(QPen(colours.color(QPalette::WindowText), 1.2));
        p.drawLines(arrows.data(), int(arrows.size()));
        if (scene.hoveredArrow >= 0 && size_t(scene.hoveredArrow) < scene.ghosts.size()) {
            const MapGhost& g = scene.ghosts[size_t(scene.hoveredArrow)];
            p.setPen(QPen(colours.color(QPalette::Highlight), 2.5));
            p.drawLine(vp.toPixel(g.world), vp.toPixel(scene.glyphs[size_t(g.glyph)].world));
        }
        if (!scene.ghostsAreB)
            for (int g : scene.added)
                square(vp.toPixel(scene.glyphs[size_t(g)].world));
    }

    // Glyphs: a sprite blit per entity, heading ticks in one call.
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
    std::vector<QLineF> ticks;
    ticks.reserve(scene.glyphs.size());
    for (const MapGlyph& g : scene.glyphs) {
        const QPointF c = vp.toPixel(g.world);
        if (!visible.contains(c))
            continue;
        const QImage& img = sprite(colourOf(g.colour), dpr);
        const QSizeF s = QSizeF(img.size()) / dpr;
        p.drawImage(QPointF(std::round(c.x() - s.width() / 2), std::round(c.y() - s.height() / 2)), img);
        if (!std::isnan(g.heading))
            ticks.emplace_back(c, c + QPointF(std::cos(g.heading), -std::sin(g.heading)) * (kGlyphRadius + 5));
    }
    // One pixel wide: cosmetic lines are antialiased by the fast cosmetic stroker, wider ones
    // by the general stroker (3.2 → 2.5 ms for the bench's paint with 1,000 ticks).
    p.setPen(QPen(colours.color(QPalette::WindowText), 1, Qt::SolidLine, Qt::FlatCap));
    p.drawLines(ticks.data(), int(ticks.size()));
    if (scene.comparing && scene.ghostsAreB) // over the glyph: the glyph would cover it
        for (int g : scene.added)
            cross(vp.toPixel(scene.glyphs[size_t(g)].world));
    // Damaged entities (rare): a vermillion square around the glyph, "not as recorded".
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0xD5, 0x5E, 0x00), 2));
    for (const MapGlyph& g : scene.glyphs)
        if (g.damaged && visible.contains(vp.toPixel(g.world)))
            p.drawRect(QRectF(vp.toPixel(g.world) - QPointF(kGlyphRadius + 3, kGlyphRadius + 3), QSizeF(2 * kGlyphRadius + 6, 2 * kGlyphRadius + 6)));

    // Events near their time: diamonds.
    auto diamond = [&](QPointF c, double r) {
        p.setPen(QPen(colours.color(QPalette::WindowText), 1));
        p.setBrush(kEventColour);
        const QPointF d[4] = {c + QPointF(0, -r), c + QPointF(r, 0), c + QPointF(0, r), c + QPointF(-r, 0)};
        p.drawPolygon(d, 4);
    };
    for (const MapEvent& e : scene.events)
        if (const QPointF c = vp.toPixel(e.world); visible.contains(c))
            diamond(c, 6);

    // Names: the selection and the hovered entity only.
    auto label = [&](QPointF at, const QString& text, bool strong) {
        const QFontMetrics fm(p.font());
        QRectF r(at + QPointF(kGlyphRadius + 4, -fm.height() / 2.0 - 1), QSizeF(fm.horizontalAdvance(text) + 6, fm.height() + 2));
        if (r.right() > vp.size.width()) // no room on the right: the name goes on the left
            r.moveRight(at.x() - kGlyphRadius - 4);
        p.setPen(Qt::NoPen);
        QColor bg = strong ? colours.color(QPalette::Highlight) : colours.color(QPalette::ToolTipBase);
        p.setBrush(bg);
        p.drawRoundedRect(r, 3, 3);
        p.setPen(strong ? colours.color(QPalette::HighlightedText) : colours.color(QPalette::ToolTipText));
        p.drawText(r, Qt::AlignCenter, text);
    };
    if (scene.selected >= 0 && size_t(scene.selected) < scene.glyphs.size()) {
        const MapGlyph& g = scene.glyphs[size_t(scene.selected)];
        const QPointF c = vp.toPixel(g.world);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(colours.color(QPalette::Highlight), 3));
        p.drawEllipse(c, kGlyphRadius + 4, kGlyphRadius + 4);
        label(c, g.mapLabel.isEmpty() ? g.name : g.mapLabel, true);
    }
    if (scene.hovered >= 0 && scene.hovered != scene.selected && size_t(scene.hovered) < scene.glyphs.size()) {
        const MapGlyph& g = scene.glyphs[size_t(scene.hovered)];
        label(vp.toPixel(g.world), g.mapLabel.isEmpty() ? g.name : g.mapLabel, false);
    }

    p.setOpacity(1.0);
    // Overlays: legend, counts, note, scale bar.
    p.setRenderHint(QPainter::Antialiasing, false);
    const QFontMetrics fm(p.font());
    const int lh = fm.height();
    double y = 6;
    auto overlayText = [&](const QString& text, Swatch shape, QColor swatch = {}) {
        const double x = shape != Swatch::None ? 20 : 6;
        const QRectF bg(2, y - 1, x + fm.horizontalAdvance(text) + 6, lh + 2);
        QColor base = colours.color(QPalette::Base);
        base.setAlpha(200);
        p.fillRect(bg, base);
        if (shape == Swatch::Square) {
            p.setPen(swatch.darker(170));
            p.setBrush(swatch);
            p.drawRect(QRectF(6, y + lh / 2.0 - 5, 10, 10));
        } else if (shape == Swatch::Diamond) {
            p.setRenderHint(QPainter::Antialiasing, true);
            diamond(QPointF(11, y + lh / 2.0), 5);
            p.setRenderHint(QPainter::Antialiasing, false);
        }
        p.setPen(colours.color(QPalette::WindowText));
        p.drawText(QPointF(x, y + fm.ascent()), text);
        y += lh + 2;
    };
    for (const OverlayLine& l : overlayLines(scene, overlayFolded(scene, fm, vp.size)))
        overlayText(l.text, l.swatch, l.swatch == Swatch::Square ? colourOf(l.colour) : QColor());

    // Scale bar: a round length (1, 2 or 5 × 10^k world units) near 100 px; none over an empty
    // map (with no replay open it measured nothing).
    if (scene.glyphs.empty()) {
        if (!scene.emptyText.isEmpty()) {
            p.setPen(colours.color(QPalette::PlaceholderText));
            p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, scene.emptyText);
        }
        return;
    }
    const double target = 100 / vp.pixelsPerUnit;
    const double pow10 = std::pow(10.0, std::floor(std::log10(target)));
    double len = pow10;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * pow10 <= target)
            len = m * pow10;
    const double px = len * vp.pixelsPerUnit;
    const QPointF o(vp.size.width() - px - 14, vp.size.height() - 12);
    p.setPen(QPen(colours.color(QPalette::WindowText), 2));
    p.drawLine(o, o + QPointF(px, 0));
    p.drawLine(o, o + QPointF(0, -5));
    p.drawLine(o + QPointF(px, 0), o + QPointF(px, -5));
    const QString text = QStringLiteral("%1 %2").arg(len, 0, 'g', 6).arg(scene.unitName);
    p.drawText(QRectF(o.x(), o.y() - 6 - lh, px, lh), Qt::AlignCenter, text);
}

} // namespace vtxw
