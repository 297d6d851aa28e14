// SPDX-License-Identifier: MIT
#pragma once
// What the query bar offers while an expression is typed: the names that can come next
// (completion) and examples that hold for the open file's schema. Qt-free so the CLI and the
// tests see the same lists the GUI shows.

#include "vtx/model/Schema.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace vtx::query {

/// The word being typed at the end of `before` (the text left of the cursor) and what may
/// replace it.
struct Completion {
    size_t tokenStart = 0; ///< byte offset in `before` where the word starts
    std::string prefix; ///< the word typed so far (may be empty, e.g. right after "Player.")
    std::vector<std::string> candidates; ///< sorted, case-insensitively prefixed by `prefix`, never equal to it
};

/// After "Type." or "field." (a struct, vector, quaternion or transform field): the members of
/// that type; elsewhere: keywords, type names and every property name of the schema.
Completion complete(const Schema& schema, std::string_view before);

/// Example expressions built from `schema`'s own types and properties ("Player.Health < 20",
/// "type == Weapon", "any(Player.Health < 20)", "changed(Player.Health)" when `withChanged`),
/// each one compiled against the schema before it is offered: an example that does not parse
/// is never shown. Empty for a schema with no usable property.
std::vector<std::string> exampleExpressions(const Schema& schema, bool withChanged);

} // namespace vtx::query
