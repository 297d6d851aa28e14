// SPDX-License-Identifier: MIT
#pragma once
// A plot series from a query expression: per frame, how many entities match it (or, for an
// expression about the frame — any()/all() only — 1 when it holds and 0 when not). "How many
// players are below 20 health" over the whole replay, read in the same pass as other series.

#include "vtx/plot/SeriesScan.hpp"
#include "vtx/query/Expression.hpp"

namespace vtx {

/// Compiles `text` against `schema`; an expression that does not compile, or that uses
/// changed() (a series is read chunk by chunk without the frame before each chunk's first),
/// is an error naming the column and what was expected.
Result<std::unique_ptr<SeriesSampler>> expressionSampler(const Schema& schema, const std::string& text);

} // namespace vtx
