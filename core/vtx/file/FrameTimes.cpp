// SPDX-License-Identifier: MIT
#include "vtx/file/FrameTimes.hpp"

#include <vector>

namespace vtx {

namespace {
bool onePerFrame(const std::vector<int64_t>& times, const ReplayFile& f)
{
    return times.size() == size_t(f.frameCount());
}

std::optional<int64_t> held(const std::vector<int64_t>& times, const ReplayFile& f, int32_t frame)
{
    if (!onePerFrame(times, f) || frame < 0 || size_t(frame) >= times.size())
        return std::nullopt;
    return times[size_t(frame)];
}
} // namespace

bool holdsGameTimes(const ReplayFile& f)
{
    return onePerFrame(f.footer().times.gameTime, f);
}

bool holdsCreatedUtcTimes(const ReplayFile& f)
{
    return onePerFrame(f.footer().times.createdUtc, f);
}

std::optional<int64_t> heldGameTimeTicks(const ReplayFile& f, int32_t frame)
{
    return held(f.footer().times.gameTime, f, frame);
}

std::optional<int64_t> heldCreatedUtcTicks(const ReplayFile& f, int32_t frame)
{
    return held(f.footer().times.createdUtc, f, frame);
}

} // namespace vtx
