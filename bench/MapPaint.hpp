// SPDX-License-Identifier: MIT
#pragma once
// The map-paint bench case; built only with the GUI (it paints with Qt).

int mapPaint(int argc, char** argv, int entities, double trailSeconds, int rounds);
