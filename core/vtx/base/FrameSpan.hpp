// SPDX-License-Identifier: MIT
#pragma once
// Frames a scan could not read: the walks, plot series, queries and the viewer's lanes that
// hatch them all speak of them in these spans.

#include <cstdint>
#include <string>

namespace vtx {

/// Frames [first, last] that could not be read, and why.
struct FrameSpan {
    int32_t first = 0;
    int32_t last = -1;
    std::string reason;
    friend bool operator==(const FrameSpan&, const FrameSpan&) = default;
};

} // namespace vtx
