// SPDX-License-Identifier: MIT
#pragma once
// `vtxscope-bench query FILE [--expr E] [--rounds N]`: a query over the whole replay against a
// full read (every chunk decoded, every property of every frame read) measured in the same run.

#include <string>

namespace vtxbench {

int queryBench(const std::string& path, const std::string& expression, int rounds);

} // namespace vtxbench
