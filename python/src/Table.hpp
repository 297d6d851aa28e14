// SPDX-License-Identifier: MIT
#pragma once
// r.table(): one row per (frame, entity of a type), a column per property, built chunk by chunk
// in plain C++ (no Python objects, so the caller runs it with the GIL released). Chunks come
// from the scan engine (vtx::ChunkPipeline: `threads` workers decode the next chunks while the
// calling thread reads one), never through the replay's cache: at most threads + 1 chunks alive
// (+1 for a `where` using changed()), fewer threads when the budget holds fewer, plus the result.

#include "Core.hpp"
#include "Errors.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace vtxpy {

/// One output column. Values live in the vector of the column's kind; `valid` is empty when
/// every row has a value, else one byte per row.
struct Column {
    enum class Kind : uint8_t { Bool, Int64, Float32, Float64, Category };
    std::string name;
    Kind kind = Kind::Float64;
    std::vector<uint8_t> bools;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::vector<double> doubles;
    std::vector<int32_t> codes; ///< Category: index into `categories`, -1 when missing
    std::vector<std::string> categories;
    std::vector<uint8_t> valid;
    size_t rows() const;
};

struct TableRequest {
    std::string type;
    std::vector<std::string> properties; ///< property paths; empty: every scalar field of the type
    std::vector<int32_t> frames; ///< sorted, unique, in range
    std::string where; ///< a query expression; empty: every entity
    bool skipErrors = false; ///< unreadable chunks / frames become problems instead of an error
    size_t budgetBytes = 0; ///< decoded chunks held at once stay within this when it allows
    /// Decode threads of the scan engine (ChunkPipelineOptions::threads); 1: every chunk decoded
    /// on the calling thread. Lowered when the budget holds fewer chunks (sized by the first).
    /// The table is the same for any count.
    unsigned threads = vtx::kScanThreads;
    /// Called between chunks (with no lock held); returning false stops the build (an
    /// interrupt), and run() throws BindError("superseded").
    std::function<bool()> keepGoing;
};

struct TableProblem {
    int64_t chunk = -1;
    int32_t firstFrame = 0, lastFrame = 0;
    std::string message;
};

struct TableResult {
    std::vector<Column> columns; ///< frame, game_time, id, display_name, then the properties
    std::vector<TableProblem> problems;
    size_t rows = 0;
    size_t chunksDecoded = 0;
    unsigned decodeThreads = 1; ///< the engine's threads after the budget had its say
};

/// Checks the request against the schema (type, properties, expression): errors before any
/// chunk is read. Then builds the table. Throws BindError.
TableResult buildTable(const vtx::ReplayFile& file, const TableRequest& request);

/// The display name of entities of `def`: the viewer's and the CLI's default label field
/// (vtx::EntityLabels::defaultField); null when none (the unique id stands in).
const vtx::FieldDef* displayNameField(const vtx::StructDef& def);

/// Property paths table() reads by default: every named scalar field that is not a struct.
std::vector<std::string> defaultProperties(const vtx::StructDef& def);

} // namespace vtxpy
