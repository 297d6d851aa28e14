// SPDX-License-Identifier: MIT
#include "vtx/file/GameClock.hpp"

#include <algorithm>

namespace vtx {

GameClock::GameClock(std::vector<int64_t> ticks) : m_ticks(std::move(ticks))
{
    std::vector<int64_t> steps;
    steps.reserve(m_ticks.size());
    int32_t first = 0;
    for (size_t i = 1; i <= m_ticks.size(); ++i) {
        if (i == m_ticks.size() || m_ticks[i] < m_ticks[i - 1]) {
            m_runs.push_back({first, int32_t(i - 1)});
            first = int32_t(i);
        } else if (m_ticks[i] > m_ticks[i - 1]) {
            steps.push_back(m_ticks[i] - m_ticks[i - 1]);
        }
    }
    if (!steps.empty()) {
        auto mid = steps.begin() + std::ptrdiff_t(steps.size() / 2);
        std::nth_element(steps.begin(), mid, steps.end());
        m_typicalStep = *mid;
    }
}

GameClock GameClock::nominal(int32_t frames)
{
    std::vector<int64_t> ticks(size_t(std::max<int32_t>(0, frames)));
    for (size_t i = 0; i < ticks.size(); ++i)
        ticks[i] = int64_t(i) * nominalStep;
    return GameClock(std::move(ticks));
}

int32_t GameClock::frameAt(int64_t ticks) const
{
    if (m_ticks.empty())
        return -1;
    const Run* nearest = nullptr;
    int64_t nearestDistance = 0;
    for (const Run& r : m_runs) {
        const int64_t lo = m_ticks[size_t(r.first)], hi = m_ticks[size_t(r.last)];
        if (ticks >= lo && ticks <= hi) {
            const auto begin = m_ticks.begin() + r.first, end = m_ticks.begin() + r.last + 1;
            auto it = std::lower_bound(begin, end, ticks);
            if (it != begin && ticks - *(it - 1) <= *it - ticks)
                --it;
            return int32_t(it - m_ticks.begin());
        }
        const int64_t distance = ticks < lo ? lo - ticks : ticks - hi;
        if (!nearest || distance < nearestDistance) {
            nearest = &r;
            nearestDistance = distance;
        }
    }
    return ticks < m_ticks[size_t(nearest->first)] ? nearest->first : nearest->last;
}

bool GameClock::spans(int64_t ticks) const
{
    return std::any_of(m_runs.begin(), m_runs.end(),
                       [&](const Run& r) { return ticks >= m_ticks[size_t(r.first)] && ticks <= m_ticks[size_t(r.last)]; });
}

int64_t GameClock::stepAfter(int32_t frame) const
{
    if (frame >= 0 && size_t(frame) + 1 < m_ticks.size()) {
        const int64_t step = m_ticks[size_t(frame) + 1] - m_ticks[size_t(frame)];
        if (step > 0)
            return step;
    }
    return m_typicalStep;
}

int32_t GameClock::frameAfter(int32_t from, int64_t ticks) const
{
    const int32_t last = std::max<int32_t>(0, frameCount() - 1);
    int32_t f = std::clamp(from, 0, last);
    if (ticks >= 0) {
        // The frame whose time is nearest `ticks` on: step while the next frame is closer.
        while (f < last && ticks * 2 >= stepAfter(f)) {
            ticks -= stepAfter(f);
            ++f;
        }
    } else {
        ticks = -ticks;
        while (f > 0 && ticks * 2 >= stepAfter(f - 1)) {
            ticks -= stepAfter(f - 1);
            --f;
        }
    }
    return f;
}

} // namespace vtx
