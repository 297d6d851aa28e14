// SPDX-License-Identifier: MIT
#pragma once
// A replay's frames on its game clock. The clock can restart or run backwards (a new round, a
// segment: §6.7), so game times are not sorted and a binary search over them lands anywhere:
// playing across the restart of allkinds_fbs (frame 450: 7.48 s → 5.5 s) jumped to frame 568,
// the frame of the *first* segment's time, and 118 frames were never shown. Here the frames are
// cut into runs where the clock does not go back; a time is looked up run by run, in frame order.

#include <cstdint>
#include <vector>

namespace vtx {

class GameClock {
public:
    GameClock() = default;
    /// `ticks`: each frame's game time (100 ns ticks), in frame order.
    explicit GameClock(std::vector<int64_t> ticks);
    /// The clock of a replay whose footer has no game times (or not one per frame): `frames`
    /// frames `nominalStep` apart from 0, so playback, stepping and time lookups still work.
    static GameClock nominal(int32_t frames);

    int32_t frameCount() const { return int32_t(m_ticks.size()); }
    /// The frame shown at game time `ticks`: in the first run (in frame order) whose times span
    /// it, the frame nearest to it (the earlier one on a tie); outside every run, the end of the
    /// run nearest to it. -1 when there is no frame.
    int32_t frameAt(int64_t ticks) const;
    /// Whether some run's times span `ticks` (else frameAt gives the nearest end of a run).
    bool spans(int64_t ticks) const;
    /// Game time from `frame` to the next frame: their difference where the clock moves forward,
    /// else (the clock restarts, stands still or runs back) the run's usual step, so playback
    /// shows every frame of the new run in turn.
    int64_t stepAfter(int32_t frame) const;
    /// The frame `ticks` of game time after `from` (before it when negative), counted along the
    /// frames in order with stepAfter, within [0, frameCount − 1].
    int32_t frameAfter(int32_t from, int64_t ticks) const;
    /// Index ranges [first, last] where the clock does not go back.
    struct Run {
        int32_t first = 0, last = 0;
    };
    const std::vector<Run>& runs() const { return m_runs; }

    static constexpr int64_t nominalStep = 10'000'000 / 60; ///< 60 frames a second, when nothing better is known

private:
    std::vector<int64_t> m_ticks;
    std::vector<Run> m_runs;
    int64_t m_typicalStep = nominalStep; ///< the median forward step
};

} // namespace vtx
