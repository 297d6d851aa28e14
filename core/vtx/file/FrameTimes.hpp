// SPDX-License-Identifier: MIT
#pragma once
// Which frame times a replay holds. ReplayFile::gameTimeTicks() answers 0 for a time the file
// does not hold, and 0 is also frame 0's genuine game time; what shows or exports a time asks
// here, so a file that lost its times (recovered without its footer) shows none rather than 0 s.

#include "vtx/file/ReplayFile.hpp"

#include <cstdint>
#include <optional>

namespace vtx {

/// Whether `f` holds a game time for each of its frames (the footer's array has one per frame;
/// one of another length cannot be matched to frames, so it counts as none).
bool holdsGameTimes(const ReplayFile& f);
/// The same for the frames' creation times (UTC).
bool holdsCreatedUtcTimes(const ReplayFile& f);

/// Frame `frame`'s game time in 100 ns ticks, or nothing when the file does not hold its times
/// (holdsGameTimes) or has no such frame.
std::optional<int64_t> heldGameTimeTicks(const ReplayFile& f, int32_t frame);
/// Frame `frame`'s creation time in 100 ns ticks, or nothing, as heldGameTimeTicks.
std::optional<int64_t> heldCreatedUtcTicks(const ReplayFile& f, int32_t frame);

} // namespace vtx
