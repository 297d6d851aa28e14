// SPDX-License-Identifier: MIT
// The map while two replays are compared: the compared replay's entities, at its frame paired
// with the shown one, as hollow ghosts with arrows to where this replay has them.

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
    addGhosts(s, glyphByKey, m_other.view(), tr(" (compared replay)")); // same layout: this schema's fields address B's data
    s.note = tr("compared replay, frame %1: hollow → this replay, frame %2: solid").arg(m_otherWanted).arg(shownFrame);
}

} // namespace vtxw
