// SPDX-License-Identifier: MIT
#pragma once
// Where each entity has been over the last seconds: its positions frame by frame, read from
// decoded chunks in any order (newest first, as they arrive) and put in frame order at the end.
// A trail is broken where the entity was absent, a frame is missing or the recording has a gap.

#include "vtx/file/ReplayInfo.hpp"
#include "vtx/map/EntityPositions.hpp"
#include "vtx/model/DecodedChunk.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vtx {

struct TrailPoint {
    int32_t frame = 0;
    Vec3 position;
    bool breakBefore = false; ///< not joined to the previous point (absent, missing frame or gap between)
    friend bool operator==(const TrailPoint&, const TrailPoint&) = default;
};

/// Trails by (bucket, unique id).
using TrailKey = std::pair<uint32_t, std::string>;
using TrailSet = std::map<TrailKey, std::vector<TrailPoint>>;

/// The first frame of the window of `seconds` of game time that ends at `frame`: the earliest
/// frame whose game time is at most `seconds` before it. Without per-frame times, `fallbackFps`
/// frames per second.
int32_t trailWindowStart(const ReplayTimes& times, int32_t frame, double seconds, double fallbackFps = 60);

/// Whether the recording has a gap just before `frame` (a marker of §6.7, k+1 convention).
bool gapBefore(const ReplayTimes& times, int32_t frame);

/// Appends the positions of every placed entity in frames [first, last] of `chunk` (the part of
/// the range the chunk holds) to `out`, unordered. Call finishTrails() once every chunk is in.
void appendTrails(const DecodedChunk& chunk, int32_t first, int32_t last, const EntityPositions& positions, TrailSet& out);

/// Sorts each trail by frame and marks its breaks: a point is not joined to the previous one
/// when a frame lies between them or the recording has a gap just before it.
void finishTrails(TrailSet& trails, const ReplayTimes& times);

} // namespace vtx
