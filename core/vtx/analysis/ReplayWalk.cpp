// SPDX-License-Identifier: MIT
#include "vtx/analysis/ReplayWalk.hpp"

namespace vtx::detail {

void addFailed(std::vector<FrameSpan>& spans, int32_t first, int32_t last, std::string reason)
{
    if (last < first)
        return;
    if (!spans.empty() && spans.back().last + 1 == first) {
        spans.back().last = last;
        return; // one span per hole: its first reason speaks for it
    }
    spans.push_back({first, last, std::move(reason)});
}

} // namespace vtx::detail
