// SPDX-License-Identifier: MIT
#pragma once
// The deterministic access-trace suite (bench/traces/): what a viewer session asks of the cache.

#include "vtx/cache/AccessTrace.hpp"

#include <vector>

namespace vtxbench {

struct TraceSuiteParams {
    int32_t frames = 10600; ///< frames in the replay
    double fps = 64; ///< replay frames per second of game time
    double displayHz = 60; ///< how often the viewer asks while playing or dragging
    uint32_t seed = 7;
};

std::vector<vtx::AccessTrace> makeTraceSuite(const TraceSuiteParams& p);

} // namespace vtxbench
