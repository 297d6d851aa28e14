// SPDX-License-Identifier: MIT
#include "vtx/cache/CachePolicy.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace vtx {

size_t CacheGeometry::chunkOf(int32_t frame) const
{
    auto it = std::upper_bound(chunkStartFrames.begin(), chunkStartFrames.end(), frame);
    return it == chunkStartFrames.begin() ? 0 : size_t(it - chunkStartFrames.begin() - 1);
}

const char* accessModeName(AccessMode m)
{
    switch (m) {
    case AccessMode::Idle: return "idle";
    case AccessMode::Playback: return "playback";
    case AccessMode::Reverse: return "reverse";
    case AccessMode::Scrub: return "scrub";
    case AccessMode::Random: return "random";
    case AccessMode::Toggle: return "toggle";
    }
    return "idle";
}

namespace {

/// Appends the window around `center` in the order it should be decoded.
void windowOrder(CachePlan& p, size_t count, int back, int forward, int direction)
{
    auto add = [&](long c) {
        if (c >= 0 && size_t(c) < count)
            p.prefetch.push_back(size_t(c));
    };
    const long c = long(p.center);
    add(c);
    if (direction < 0) {
        for (int i = 1; i <= back; ++i)
            add(c - i);
        for (int i = 1; i <= forward; ++i)
            add(c + i);
    } else {
        for (int i = 1; i <= std::max(back, forward); ++i) {
            if (i <= forward)
                add(c + i);
            if (i <= back)
                add(c - i);
        }
    }
}

class NonePolicy final : public CachePolicy {
public:
    std::string name() const override { return "none"; }
    CachePlan observe(const Access& a, const CacheGeometry& g) override
    {
        CachePlan p;
        p.center = g.chunkOf(a.frame);
        p.dropOutsideWindow = true; // only the chunk being shown stays
        return p;
    }
    PolicyState state() const override { return {}; }
};

/// The SDK's reader: a fixed window of chunks around the last request, everything else dropped.
class FixedPolicy final : public CachePolicy {
public:
    FixedPolicy(int back, int forward) : m_back(back), m_forward(forward) { }
    std::string name() const override { return "fixed:" + std::to_string(m_back) + "," + std::to_string(m_forward); }
    CachePlan observe(const Access& a, const CacheGeometry& g) override
    {
        CachePlan p;
        p.center = g.chunkOf(a.frame);
        p.back = m_back;
        p.forward = m_forward;
        p.dropOutsideWindow = true;
        windowOrder(p, g.chunkCount(), m_back, m_forward, 1);
        return p;
    }
    PolicyState state() const override { return {AccessMode::Idle, m_back, m_forward, 0}; }

private:
    int m_back, m_forward;
};

bool parseInt(std::string_view s, int& out)
{
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size() && out >= 0 && out <= 1000;
}

} // namespace

std::unique_ptr<CachePolicy> makeCachePolicy(std::string_view spec, std::string* error)
{
    if (spec == "none")
        return std::make_unique<NonePolicy>();
    if (spec == "adaptive")
        return std::make_unique<AdaptivePolicy>();
    if (spec.starts_with("fixed:")) {
        const std::string_view rest = spec.substr(6);
        const auto comma = rest.find(',');
        int b = 0, f = 0;
        if (comma != std::string_view::npos && parseInt(rest.substr(0, comma), b) && parseInt(rest.substr(comma + 1), f))
            return std::make_unique<FixedPolicy>(b, f);
    }
    if (error)
        *error = "unknown cache policy '" + std::string(spec) + "' (none, fixed:B,F, adaptive)";
    return nullptr;
}

// ---- adaptive ---------------------------------------------------------------------------------

AccessMode AdaptivePolicy::classify(const CacheGeometry& g)
{
    const size_t n = m_history.size();
    if (n < 2)
        return AccessMode::Idle;
    const double fpc = g.framesPerChunk();
    // Steps this small are playback at up to ~10x; larger ones that stay within about a chunk
    // are scrubbing; anything else is a jump.
    const AdaptivePolicyConfig& k = m_config;
    const double playStep = k.playbackStepFrames;
    const double scrubStep = std::max(k.scrubStepMinFrames, fpc);
    auto delta = [&](size_t i) { return double(m_history[i].frame) - double(m_history[i - 1].frame); };

    // A/B toggling: two far-apart spots visited alternately (B may creep).
    if (n >= 4) {
        const double a = m_history[n - 1].frame, b = m_history[n - 2].frame, c = m_history[n - 3].frame, d = m_history[n - 4].frame;
        const double near = std::max(k.toggleNearMinFrames, fpc * k.toggleNearChunkFraction);
        const double far = std::max(scrubStep, fpc * k.toggleFarChunkFraction);
        if (std::abs(a - c) <= near && std::abs(b - d) <= near && std::abs(a - b) > far && std::abs(c - d) > far)
            return AccessMode::Toggle;
    }
    // Run of same-direction small steps at the end of the history: playback, either way.
    int run = 0, sign = 0;
    for (size_t i = n - 1; i >= 1 && run < 4; --i) {
        const double d = delta(i);
        const int s = d > 0 ? 1 : (d < 0 ? -1 : 0);
        if (std::abs(d) > playStep || (sign != 0 && s != 0 && s != sign))
            break;
        if (s != 0)
            sign = s;
        ++run;
    }
    if (run >= k.playbackRun && sign != 0)
        return sign > 0 ? AccessMode::Playback : AccessMode::Reverse;
    // Small steps that change direction (frame stepping with the arrow keys, a paused
    // playhead): nothing to predict beyond the neighbours.
    int small = 0;
    for (size_t i = n - 1; i >= 1 && small < 3; --i) {
        if (std::abs(delta(i)) > playStep)
            break;
        ++small;
    }
    if (small >= 2)
        return AccessMode::Idle;
    // Moderate steps, either direction: drag-scrubbing.
    int moderate = 0;
    for (size_t i = n - 1; i >= 1 && moderate < 3; --i) {
        if (std::abs(delta(i)) > scrubStep)
            break;
        ++moderate;
    }
    if (moderate >= 2)
        return AccessMode::Scrub;
    return AccessMode::Random;
}

CachePlan AdaptivePolicy::observe(const Access& a, const CacheGeometry& g)
{
    m_history.push_back(a);
    const AdaptivePolicyConfig& k = m_config;
    if (m_history.size() > k.historyLength)
        m_history.erase(m_history.begin());
    const size_t n = m_history.size();
    if (n >= 2) {
        const double dt = std::max(1.0, m_history[n - 1].timeMs - m_history[n - 2].timeMs);
        const double v = (double(m_history[n - 1].frame) - double(m_history[n - 2].frame)) * 1000.0 / dt;
        m_velocity = n == 2 ? v : (1 - k.velocityWeight) * m_velocity + k.velocityWeight * v;
    }
    const AccessMode mode = classify(g);
    CachePlan p;
    p.center = g.chunkOf(a.frame);
    const size_t count = g.chunkCount();
    const double fpc = g.framesPerChunk();
    const double chunkBytes = std::max(1.0, g.estimatedChunkBytes);
    // Never plan more than the budget can hold (keep room for the center and one spare).
    const int capacity = std::max(0, int(double(g.budgetBytes) / chunkBytes) - k.reservedChunks);
    const double decodeS = std::max(k.minDecodeSeconds, g.decodeMs / 1000.0);
    switch (mode) {
    case AccessMode::Playback:
    case AccessMode::Reverse: {
        // Far enough ahead that the next chunks are decoded before the playhead reaches them,
        // at any speed: time to cross = frames / velocity must exceed the decode queue.
        const double framesAhead = std::abs(m_velocity) * (k.decodeQueueFactor * decodeS + k.playbackLeadSeconds);
        int ahead = std::clamp(int(std::ceil(framesAhead / fpc)) + 1, 1, std::max(1, capacity));
        const int behind = std::min(1, std::max(0, capacity - ahead));
        p.direction = mode == AccessMode::Playback ? 1 : -1;
        p.forward = p.direction > 0 ? ahead : behind;
        p.back = p.direction > 0 ? behind : ahead;
        windowOrder(p, count, p.back, p.forward, p.direction);
        break;
    }
    case AccessMode::Scrub: {
        const int w = std::clamp(int(std::ceil(std::abs(m_velocity) * k.scrubLookSeconds / fpc)), 1, std::max(1, capacity / 2));
        p.back = p.forward = w;
        p.direction = m_velocity > 0 ? 1 : (m_velocity < 0 ? -1 : 0);
        windowOrder(p, count, w, w, p.direction);
        break;
    }
    case AccessMode::Toggle: {
        const size_t other = g.chunkOf(m_history[n - 2].frame);
        p.hot = {p.center, other};
        p.back = p.forward = 1;
        windowOrder(p, count, 1, 1, 1);
        const size_t save = p.center;
        p.center = other;
        windowOrder(p, count, 1, 1, 1);
        p.center = save;
        break;
    }
    case AccessMode::Random:
    case AccessMode::Idle: {
        p.back = p.forward = mode == AccessMode::Idle ? 1 : 0;
        windowOrder(p, count, p.back, p.forward, 1);
        break;
    }
    }
    // When the whole replay fits the budget comfortably, idle prefetch capacity decodes the
    // rest too (after the window, nearest to the recent requests first, ahead of the motion
    // before behind it): any later jump is then a hit. Otherwise nothing beyond the window.
    if (double(count) * chunkBytes <= k.prefetchAllBudgetFraction * double(g.budgetBytes)) {
        std::vector<std::pair<double, size_t>> order;
        for (size_t c = 0; c < count; ++c) {
            double dist = 1e18;
            for (size_t i = n > k.prefetchRecentRequests ? n - k.prefetchRecentRequests : 0; i < n; ++i) {
                double d = double(c) - double(g.chunkOf(m_history[i].frame));
                if (p.direction != 0 && d * p.direction < 0)
                    d *= k.behindMotionPenalty;
                dist = std::min(dist, std::abs(d));
            }
            order.push_back({dist, c});
        }
        std::sort(order.begin(), order.end());
        for (auto [d, c] : order)
            if (std::find(p.prefetch.begin(), p.prefetch.end(), c) == p.prefetch.end())
                p.prefetch.push_back(c);
    }
    m_state = {mode, p.back, p.forward, m_velocity};
    return p;
}

} // namespace vtx
