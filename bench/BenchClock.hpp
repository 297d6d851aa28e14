// SPDX-License-Identifier: MIT
#pragma once
// Timing pieces every benchmark uses: milliseconds since a start, and the median of a run's
// rounds (the upper middle for an even count; 0 for none).

#include <algorithm>
#include <chrono>
#include <vector>

namespace vtxbench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace vtxbench
