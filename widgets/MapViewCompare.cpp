// The map while two replays are compared: the compared replay's entities, at its frame paired
// with the shown one, as hollow ghosts with arrows to where this replay has them.

#include "vtx/Value.hpp"
#include "vtxwidgets/MapView.hpp"

#include <cmath>

namespace vtxw {

void MapView::setOtherReplayFrame(const vtx::FrameHandle& frame, int wanted, bool sameLayout)
{
    m_otherActive = true;
    m_other = frame;
    m_otherWanted = wanted;
    m_otherSameLayout = sameLayout;
    rebuild();
}

void MapView::clearOtherReplay()
{
    if (!m_otherActive)
        return;
    m_otherActive = false;
    m_other = {};
    m_otherWanted = -1;
    rebuild();
}

void MapView::addOtherReplay(MapScene& s, const std::unordered_map<std::string, int>& glyphByKey, int shownFrame) const
{
    if (!m_otherSameLayout) {
        s.note = tr("the compared replay's schema differs in layout: no ghosts");
        return;
    }
    if (m_otherWanted < 0) {
        s.note = tr("the compared replay has no frame paired with %1").arg(shownFrame);
        return;
    }
    if (m_other.isNull() || m_other.index() != m_otherWanted) {
        s.note = tr("compared replay (frame %1) loading…").arg(m_otherWanted);
        return;
    }
    s.comparing = true;
    std::vector<bool> inOther(s.glyphs.size(), false);
    std::string key;
    const vtx::FrameView fb = m_other.view();
    for (size_t b = 0; b < fb.bucketCount(); ++b) {
        const vtx::BucketView bucket = fb.bucket(b);
        const size_t n = std::min(bucket.entityCount(), bucket.uniqueIds().size());
        for (size_t i = 0; i < n; ++i) {
            const vtx::ContainerView e = bucket.entity(i);
            const auto place = m_positions.placementOf(e); // same layout: this schema's fields address B's data
            if (!place)
                continue;
            const std::string_view id = bucket.uniqueId(i);
            key.assign(std::to_string(b)).append(1, '\x1f').append(id);
            MapGhost g;
            g.world = toWorld(place->position);
            g.key = {int(b), QString::fromUtf8(id.data(), qsizetype(id.size()))};
            g.name = g.key.uniqueId + tr(" (compared replay)");
            g.colour = int(size_t(e.typeId()) % 7);
            if (auto it = glyphByKey.find(key); it != glyphByKey.end()) {
                const MapGlyph& here = s.glyphs[size_t(it->second)];
                g.glyph = it->second;
                inOther[size_t(it->second)] = true;
                g.colour = here.colour;
                g.name = here.name;
                // From the compared replay to this one: how far this run is from the other.
                const vtx::Vec3 d{here.position.x - place->position.x, here.position.y - place->position.y, here.position.z - place->position.z};
                g.distance = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
                g.delta = QStringLiteral("(%1, %2, %3)")
                              .arg(QString::fromStdString(vtx::formatDelta(vtx::Value::Kind::Double, d.x)),
                                   QString::fromStdString(vtx::formatDelta(vtx::Value::Kind::Double, d.y)),
                                   QString::fromStdString(vtx::formatDelta(vtx::Value::Kind::Double, d.z)));
            }
            s.ghosts.push_back(std::move(g));
        }
    }
    for (size_t i = 0; i < inOther.size(); ++i)
        if (!inOther[i])
            s.added.push_back(int(i));
    s.note = tr("compared replay, frame %1: hollow → this replay, frame %2: solid").arg(m_otherWanted).arg(shownFrame);
}

} // namespace vtxw
