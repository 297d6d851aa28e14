// SPDX-License-Identifier: MIT
#pragma once
// Named properties of one container as a flat tree of display nodes (the inspector's rows), and
// path evaluation ("Weapon.Attachment.Name", "Trail[2].x", "RoundStats[round_1].Kills") for
// watches and plots. Numbers are formatted by base/NumberText, so every front end shows them
// the same way.

#include "vtx/base/NumberText.hpp" // formatFloat & co., which the front ends use beside the tree
#include "vtx/model/FrameView.hpp"
#include "vtx/model/Schema.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vtx {

struct PropertyNode {
    std::string name; ///< field name, "[i]", map key, or component (x, y, z, w ...)
    std::string path; ///< full path from the entity
    std::string type; ///< "Float", "Vector", "Int32[4]", "Weapon", "map<Weapon>" ...
    std::string value; ///< display text; empty for containers with children
    bool quotedText = false; ///< a string value, shown in quotes (copied without them)
    std::optional<double> number; ///< numeric value when the node is a number (plottable)
    bool absent = false;
    /// Byte data (a byte array, or an Int8-array field's bytes stored by the SDK's blob
    /// convention), copied so the node outlives its frame: what the inspector's hex view shows.
    std::vector<uint8_t> bytes;
    bool isBytes = false;
    bool blob = false; ///< the bytes come from byte_array_properties by the blob convention
    bool unnamed = false; ///< under "Unnamed fields": stored data no schema name addresses
    int parent = -1;
    std::vector<int> children;
};

struct PropertyTreeOptions {
    size_t maxArrayChildren = 256; ///< longer arrays show this many elements, then "…"
    int maxDepth = 16;
};

/// Nodes of `c`; node 0 is a synthetic root whose children are the top-level properties, then,
/// when the container stores data no schema name addresses, an "Unnamed fields (n)" node.
std::vector<PropertyNode> buildPropertyTree(ContainerView c, const Schema& schema, const PropertyTreeOptions& options = {});

/// A node's value for reading on screen (UX.md ▸ Inspector): doubles to the digits that matter
/// (readableDouble), integers grouped, vectors from their readable components; any other node's
/// `value`. The exact text stays `value` (tooltips, copies, filters, exports).
std::string readableText(const std::vector<PropertyNode>& nodes, const PropertyNode& n);

struct PathValue {
    std::string text;
    std::optional<double> number;
};

/// Evaluates `path` in `c`; nullopt when any step does not exist in this frame. Parses the path
/// on every call: loops over many frames should keep a PropertyPath instead.
std::optional<PathValue> evaluatePath(ContainerView c, const Schema& schema, const std::string& path);

} // namespace vtx
