// SPDX-License-Identifier: MIT
#pragma once
// Where an axis puts its ticks and what they say, for every axis that shows numbers or time:
// the timeline's ruler, the plot's x axis (frames, game time, UTC) and the plot's y axes. No Qt
// here (the caller passes how wide a text is), so the choice is tested on its own.
//
// Ticks sit at round values of the unit: frames and plain numbers at 1, 2, 5 × 10ⁿ; game time
// at 1, 2, 5 × 10ⁿ below a second, then 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3,
// 6, 12 h; UTC clock times at the same steps from 1 ms, on round clock values (whole seconds,
// minutes, hours). The step is the smallest one whose widest label still leaves a gap to the
// next; every label of an axis has the same form and number of decimals, rounded (not cut).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace vtxw {

enum class AxisUnit {
    Number, ///< a plain value (a plot's y axis): 1/2/5 steps, decimals below 1
    Frame, ///< frame numbers: whole steps of 1/2/5 × 10ⁿ
    Seconds, ///< game time in seconds: "12.5 s", "1:02.5" past a minute, "1:02:03" past an hour
    ClockMs, ///< UTC in milliseconds since the Unix epoch: "14:02:11", ".250" below a second
};

struct AxisTick {
    double value = 0; ///< in the unit (frames, seconds, milliseconds, the plain value)
    std::string label;
};

struct AxisTickSet {
    double step = 0; ///< between two ticks, in the unit
    int decimals = 0; ///< of every label (seconds for Seconds and ClockMs)
    std::vector<AxisTick> ticks; ///< ascending, inside [lo, hi]
};

/// Width of a label in pixels (the caller's font); the default counts 7 px per character.
using TextWidth = std::function<double(std::string_view)>;

/// The ticks of an axis showing [lo, hi] of `unit` over `pixels`: the smallest round step whose
/// widest label plus `gapPx` fits between two ticks. When even the largest step does not fit,
/// that step's ticks (at most a couple). `lo > hi` is swapped; an empty range gives one tick.
AxisTickSet axisTicks(AxisUnit unit, double lo, double hi, double pixels, const TextWidth& width = {}, double gapPx = 16);

/// The label of `value` as an axis of `unit` with `decimals` shows it; `span` (the axis's
/// largest absolute value) picks the game-time form ("s", m:ss or h:mm:ss) so every label of
/// one axis has the same form.
std::string axisLabel(AxisUnit unit, double value, int decimals, double span);

/// The round steps `unit` may use, ascending (the 1/2/5 ones from 1e-9 to 1e15).
const std::vector<double>& axisSteps(AxisUnit unit);

} // namespace vtxw
