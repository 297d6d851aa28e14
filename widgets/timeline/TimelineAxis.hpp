// SPDX-License-Identifier: MIT
#pragma once
// Frame ↔ pixel mapping of the timeline: the visible frame range over a pixel span. Frames are
// the time base (integers in the file); game time and UTC come from the footer's tick arrays.

#include <algorithm>
#include <cmath>

namespace vtxw {

struct TimelineAxis {
    double first = 0; ///< first visible frame (may be fractional when zoomed)
    double last = 1; ///< last visible frame
    double x0 = 0, x1 = 1; ///< pixel span
    double frameCount = 1;

    double span() const { return std::max(1e-9, last - first); }
    double x(double frame) const { return x0 + (frame - first) / span() * (x1 - x0); }
    double frameAt(double px) const { return first + (px - x0) / std::max(1e-9, x1 - x0) * span(); }
    int frameIndexAt(double px) const { return int(std::clamp(std::floor(frameAt(px) + 0.5), 0.0, std::max(0.0, frameCount - 1))); }
    double pixelsPerFrame() const { return (x1 - x0) / span(); }

    void showAll()
    {
        first = 0;
        last = std::max(1.0, frameCount - 1);
    }
    /// Zooms by `factor` (>1 zooms in) keeping `anchor` under the same pixel.
    void zoom(double factor, double anchor)
    {
        const double minSpan = 20, maxSpan = std::max(minSpan, frameCount - 1);
        const double newSpan = std::clamp(span() / factor, minSpan, maxSpan);
        const double t = (anchor - first) / span();
        first = anchor - t * newSpan;
        last = first + newSpan;
        clampToFile();
    }
    void pan(double frames)
    {
        first += frames;
        last += frames;
        clampToFile();
    }
    void clampToFile()
    {
        const double s = span(), end = std::max(1.0, frameCount - 1);
        if (first < 0)
            first = 0, last = std::min(end, s);
        if (last > end)
            last = end, first = std::max(0.0, end - s);
    }
    /// A "nice" label step (1-2-5 × 10^k frames) giving at least `minPixels` between labels.
    double labelStep(double minPixels) const
    {
        const double raw = minPixels / std::max(1e-9, pixelsPerFrame());
        const double p = std::pow(10.0, std::floor(std::log10(std::max(1.0, raw))));
        for (double m : {1.0, 2.0, 5.0, 10.0})
            if (m * p >= raw)
                return std::max(1.0, m * p);
        return 10 * p;
    }
};

} // namespace vtxw
