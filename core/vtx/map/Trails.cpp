// SPDX-License-Identifier: MIT
#include "vtx/map/Trails.hpp"

#include <algorithm>

namespace vtx {

int32_t trailWindowStart(const ReplayTimes& times, int32_t frame, double seconds, double fallbackFps)
{
    if (frame <= 0 || seconds <= 0)
        return std::max(frame, 0);
    const auto& t = times.gameTime;
    if (size_t(frame) < t.size()) {
        const int64_t from = t[size_t(frame)] - int64_t(seconds * double(kTicksPerSecond));
        // Game time never decreases within a replay; the window is the frames at or after `from`.
        auto it = std::lower_bound(t.begin(), t.begin() + frame, from);
        return int32_t(it - t.begin());
    }
    return std::max(0, frame - int32_t(seconds * fallbackFps));
}

bool gapBefore(const ReplayTimes& times, int32_t frame)
{
    const uint32_t marker = uint32_t(frame) + 1;
    return std::find(times.gaps.begin(), times.gaps.end(), marker) != times.gaps.end();
}

void appendTrails(const DecodedChunk& chunk, int32_t first, int32_t last, const EntityPositions& positions, TrailSet& out)
{
    const int32_t begin = std::max(first, chunk.startFrame());
    const int32_t end = std::min(last, chunk.startFrame() + int32_t(chunk.frameCount()) - 1);
    TrailKey key;
    for (int32_t f = begin; f <= end; ++f) {
        const FrameView frame = chunk.frame(size_t(f - chunk.startFrame()));
        for (const FrameEntity e : frame.entitiesWithIds()) {
            const auto p = positions.placementOf(e.entity);
            if (!p)
                continue;
            key.first = e.bucket;
            key.second.assign(e.uniqueId());
            out[key].push_back({f, p->position, false});
        }
    }
}

void finishTrails(TrailSet& trails, const ReplayTimes& times)
{
    for (auto& [key, points] : trails) {
        std::sort(points.begin(), points.end(), [](const TrailPoint& a, const TrailPoint& b) { return a.frame < b.frame; });
        for (size_t i = 0; i < points.size(); ++i)
            points[i].breakBefore = i > 0 && (points[i].frame != points[i - 1].frame + 1 || gapBefore(times, points[i].frame));
    }
}

} // namespace vtx
