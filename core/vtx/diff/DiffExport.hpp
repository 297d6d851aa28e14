// SPDX-License-Identifier: MIT
#pragma once
// Renderings of a FrameDiff: JSON (vtxscope-cli diff --json, the panel's export, golden tests),
// CSV (one row per changed property or added/removed entity) and a short text report.

#include "vtx/diff/FrameDiff.hpp"
#include "vtx/export/JsonExport.hpp"

#include <string>

namespace vtx {

Json valueJson(const Value& v, const Schema& schema);
/// Delta of a change as JSON (number or component list), null when there is none.
Json deltaJson(const Value& a, const Value& b);

/// The whole diff: frames, options, per-bucket counts and every entity with its changes.
Json diffJson(const FrameDiff& d, const Schema& schema, const DiffOptions& options);
/// CSV with a header row: bucket,unique_id,type,entity,path,change,a,b,delta.
std::string diffCsv(const FrameDiff& d, const Schema& schema);
/// Human-readable report, one line per entity and per change.
std::string diffText(const FrameDiff& d, const Schema& schema);

} // namespace vtx
