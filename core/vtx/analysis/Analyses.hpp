// SPDX-License-Identifier: MIT
#pragma once
// The analyses people run on a whole replay (the VTX SDK inspector has them too): how long each
// entity lives, which combinations of property values occur, and the runs of equal value of one
// property per entity. Each is one pass over the chunks (ReplayWalk), cancellable, with
// progress; each turns into a table (for the GUI's table view and for CSV).

#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/model/PropertyPath.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <variant>
#include <vector>

namespace vtx {

/// A table of results: typed cells so a view sorts numbers as numbers.
struct AnalysisTable {
    using Cell = std::variant<std::monostate, int64_t, double, std::string>;
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
    std::vector<FrameSpan> failed; ///< frames the analysis could not read
    bool cancelled = false;
};

/// RFC 4180 CSV: a header line, then one line per row; text quoted when it needs to be.
void writeCsv(const AnalysisTable& table, std::ostream& out);
std::string cellText(const AnalysisTable::Cell& cell);

struct EntityLifetime {
    uint32_t bucket = 0;
    std::string uniqueId;
    std::string type; ///< schema name of its type in the first frame it appears
    std::string label; ///< its label (EntityLabels) in that first frame; empty when none
    int32_t firstFrame = 0;
    int32_t lastFrame = 0;
    int64_t framesPresent = 0; ///< frames it is in (fewer than last − first + 1 when it left and came back)
    int32_t appearances = 0; ///< runs of consecutive frames it is in
    int64_t firstTicks = 0, lastTicks = 0; ///< game time of its first and last frame
    friend bool operator==(const EntityLifetime&, const EntityLifetime&) = default;
};

struct LifetimesResult {
    std::vector<EntityLifetime> entities; ///< by bucket, then unique id
    WalkResult walk;
};
/// `labels` names the entities (null: EntityLabels::choose on the file's schema).
LifetimesResult entityLifetimes(const ReplayFile& file, const WalkControl& control = {}, const EntityLabels* labels = nullptr);
AnalysisTable lifetimesTable(const LifetimesResult& r);

struct UniqueValuesRequest {
    std::vector<std::string> paths; ///< the tuple that groups entities
    std::string type; ///< only entities of this schema type; empty: every entity
};
struct UniqueValueGroup {
    std::vector<std::string> values; ///< formatValue of each path ("—" where absent)
    int64_t entityFrames = 0; ///< (entity, frame) pairs with this tuple
    int64_t entities = 0; ///< distinct entities that had it at least once
    int32_t firstFrame = 0;
    friend bool operator==(const UniqueValueGroup&, const UniqueValueGroup&) = default;
};
struct UniqueValuesResult {
    std::vector<UniqueValueGroup> groups; ///< by tuple
    WalkResult walk;
};
Result<UniqueValuesResult> uniqueValues(const ReplayFile& file, const UniqueValuesRequest& request, const WalkControl& control = {});
AnalysisTable uniqueValuesTable(const UniqueValuesRequest& request, const UniqueValuesResult& r);

struct PropertySpansRequest {
    std::string path;
    std::string type; ///< only entities of this schema type; empty: every entity
};
struct PropertySpan {
    uint32_t bucket = 0;
    std::string uniqueId;
    std::string label; ///< the entity's label (EntityLabels) in the span's first frame; empty when none
    std::string value; ///< formatValue
    int32_t firstFrame = 0;
    int32_t lastFrame = 0;
    int64_t firstTicks = 0, lastTicks = 0;
    friend bool operator==(const PropertySpan&, const PropertySpan&) = default;
};
struct PropertySpansResult {
    /// By entity (bucket, unique id), then frame. A run ends where the value changes, the entity
    /// is absent or has no such property, or a frame could not be read.
    std::vector<PropertySpan> spans;
    WalkResult walk;
};
/// `labels` names the entities (null: EntityLabels::choose on the file's schema).
Result<PropertySpansResult> propertySpans(const ReplayFile& file, const PropertySpansRequest& request, const WalkControl& control = {},
                                          const EntityLabels* labels = nullptr);
AnalysisTable propertySpansTable(const PropertySpansResult& r);

/// The schema type id named `type`; -1 for "" (every type); an error naming the known types otherwise.
Result<int32_t> typeFilter(const Schema& schema, const std::string& type);

} // namespace vtx
