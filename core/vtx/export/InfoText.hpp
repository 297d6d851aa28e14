// SPDX-License-Identifier: MIT
#pragma once
// `vtxscope-cli info` for a person at a terminal: the facts infoJson() holds, a line each
// (what the file is, when it was recorded, frames and chunks, types, times, events, hash trust,
// problems), without the seek table and schema fields that only a script wants.

#include "vtx/file/ReplayFile.hpp"

#include <string>

namespace vtx {

/// Read from infoJson(file), so the summary never says what the JSON does not.
std::string infoText(const ReplayFile& file);

} // namespace vtx
