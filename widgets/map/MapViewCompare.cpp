// SPDX-License-Identifier: MIT
// The map while two replays are compared: the compared replay's entities, at its frame paired
// with the shown one, as hollow ghosts, with arrows from where this replay has them (the diff's
// A is this replay, its B the compared one).

#include "map/MapView.hpp"

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
    // The diff's A is this replay and B the compared one: the arrows run from the glyphs to
    // the ghosts, as its Δ reads (they ran the other way, against the diff beside the map).
    addGhosts(s, glyphByKey, m_other.view(), tr(" (compared replay)"), true); // same layout: this schema's fields address B's data
    s.note = tr("solid: this replay → hollow: compared, frame %1").arg(m_otherWanted);
}

} // namespace vtxw
