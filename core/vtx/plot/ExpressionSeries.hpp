// SPDX-License-Identifier: MIT
#pragma once
// A plot series from a query expression: per frame, how many entities match it (or, for an
// expression about the frame — any()/all() only — 1 when it holds and 0 when not). "How many
// players are below 20 health" over the whole replay, read in the same pass as other series.

#include "vtx/plot/SeriesScan.hpp"
#include "vtx/query/Expression.hpp"

#include <optional>
#include <string_view>

namespace vtx {

/// Compiles `text` against `schema`; an expression that does not compile, or that uses
/// changed() (a series is read chunk by chunk without the frame before each chunk's first),
/// is an error naming the column and what was expected.
Result<std::unique_ptr<SeriesSampler>> expressionSampler(const Schema& schema, const std::string& text);

/// A type-qualified property path, "Player.Health" or "Player.Transform.translation.z": what
/// Plot mode plots for each entity of the type rather than a condition to count. `type` names
/// a struct of the schema and the path's first step a field of it.
struct TypedPropertyPath {
    std::string type;
    std::string path;
};
/// `text` as a TypedPropertyPath, or nullopt when it is not one (a condition, an unknown type or
/// field, a malformed path).
std::optional<TypedPropertyPath> typedPropertyPath(const Schema& schema, std::string_view text);

} // namespace vtx
