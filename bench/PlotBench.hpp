// SPDX-License-Identifier: MIT
#pragma once
// The plot bench cases (issue 18).

#include <string>

/// plot-series: N series over the whole replay in one pass vs one full read, same run.
int plotSeries(const std::string& path, int series, int rounds);
/// plot-paint: one repaint of the plot with `series` × `points` into a width × height image
/// (built only with the GUI).
int plotPaint(int argc, char** argv, int series, int points, int width, int height, int rounds);
