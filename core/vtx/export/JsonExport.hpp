// SPDX-License-Identifier: MIT
#pragma once
// JSON renderings of replay metadata and frames, used by vtxscope-cli and golden tests.
// float32 values are printed as the shortest decimal that reads back as the same float32,
// float64 as the shortest round-trip decimal; non-finite values as the strings "nan", "inf",
// "-inf".

#include "vtx/base/NumberText.hpp" // hex64, which JSON users print beside it
#include "vtx/base/Utf8.hpp" // sanitizeUtf8, likewise
#include "vtx/file/ReplayFile.hpp"

#include <nlohmann/json.hpp>

namespace vtx {

using Json = nlohmann::ordered_json;

Json f32Json(float v);
Json f64Json(double v);
/// `j` as text, like Json::dump (same layout and string escapes; `indent` < 0: compact) except
/// that every number is the shortest decimal that reads back as the same double. Json::dump's
/// Grisu2 is not always shortest (29.227074000000002 for the float32 29.227074, whose double
/// f32Json stores exactly as the double nearest "29.227074"). Integral doubles keep ".0", -0
/// prints as -0.0.
std::string jsonText(const Json& j, int indent = -1);

/// Per struct type, the stored-hash verdict so far (HashTrust) and what it allows the diff.
Json hashTrustJson(const ReplayFile& file);
/// Header, schema summary, seek table, times, events, hash trust and open problems.
/// "duration_seconds" is null in a recovered file (the footer that held it is lost).
Json infoJson(const ReplayFile& file);
/// Every bucket and entity of a frame with named property values; "game_time" and "created_utc"
/// (ticks) are null when the file holds no such time for the frame (a recovered file lost its
/// times with the footer). "display_name": the entity's
/// label in this frame, EntityLabels' default choice, null when none), and under "unnamed" the values
/// no schema name addresses (UnnamedData). "integrity" counts the containers whose stored hash
/// was checked (FrameIntegrity); an entity with a container whose stored hash matches neither
/// variant carries "damaged": [{"path", "stored_hash", "reason"}] — its values are not the
/// writer's.
Json frameJson(const ReplayFile& file, const FrameHandle& frame);
/// Named properties of one container (recurses into structs, arrays and maps).
Json containerJson(ContainerView c, const Schema& schema, int depth = 0);
/// What no schema name addresses, by member and slot: {"byte_array_properties": {"0": {"length":
/// 1824, "hex": "…", "blob_of": "BonePayload"}}, "range_properties": {"0": {...}}, ...}; empty
/// when there is none. Nested containers inside carry their own "properties" / "unnamed".
Json unnamedJson(ContainerView c, const Schema& schema, int depth = 0);

} // namespace vtx
