// SPDX-License-Identifier: MIT
#pragma once
// Plot series over a whole replay: every series is read in the same pass over the chunks, so
// ten series cost about one read of the file. What a series reads from a frame is a small
// interface (SeriesSampler): a property of one entity today; anything else that turns a frame
// into a number (an expression, a count) plugs in beside it without touching the scan.

#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/model/PropertyPath.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vtx {

/// What one series reads in one frame: a number or none, and whether the container it came
/// from is damaged (its stored hash disagrees with its values: not as recorded).
struct SeriesSample {
    std::optional<double> value;
    bool damaged = false;
};

/// Turns a frame into a sample. One instance per scan: it may cache lookups between frames and
/// is used by one thread only.
class SeriesSampler {
public:
    virtual ~SeriesSampler() = default;
    virtual SeriesSample sample(const FrameView& frame, const DecodedChunk& chunk) = 0;
};

/// Given an entity's container in a frame, a number or none: the part of an entity series that
/// is not about finding the entity (a property path here; an expression can be another).
class EntityValue {
public:
    virtual ~EntityValue() = default;
    virtual std::optional<double> read(ContainerView entity, const Schema& schema) = 0;
};

/// A property path as the inspector writes it ("Health", "Position.x"); numbers and bools read
/// as numbers, anything else (absent, strings, vectors as a whole) as none.
class PathEntityValue final : public EntityValue {
public:
    explicit PathEntityValue(PropertyPath path) : m_path(std::move(path)) { }
    std::optional<double> read(ContainerView entity, const Schema& schema) override;

private:
    PropertyPath m_path; ///< a copy per scan: its field cache is not thread-safe
};

/// The entity with `uniqueId` in bucket `bucket`, read by `value`; none in frames without it.
class EntitySampler final : public SeriesSampler {
public:
    EntitySampler(const Schema& schema, uint32_t bucket, std::string uniqueId, std::unique_ptr<EntityValue> value, bool checkDamage = true);
    SeriesSample sample(const FrameView& frame, const DecodedChunk& chunk) override;

private:
    const Schema& m_schema;
    uint32_t m_bucket;
    std::string m_id;
    std::unique_ptr<EntityValue> m_value;
    bool m_checkDamage;
    int32_t m_hint = -1;
};

/// One series over the replay: the frames that have a value, ascending, and the values.
struct SeriesData {
    std::vector<int32_t> frames;
    std::vector<double> values;
    std::vector<int32_t> damagedFrames; ///< ascending: points not as recorded
    friend bool operator==(const SeriesData&, const SeriesData&) = default;
};

struct SeriesScanResult {
    std::vector<SeriesData> series; ///< one per sampler, in order
    std::vector<FrameSpan> failed; ///< frames no series could read (a chunk that did not decode)
    bool cancelled = false;
};

/// Reads every sampler in every readable frame, one pass over the chunks.
SeriesScanResult scanSeries(const ReplayFile& file, std::span<const std::unique_ptr<SeriesSampler>> samplers, const WalkControl& control = {});

/// A sampler for entity.path; an error when the path does not parse.
Result<std::unique_ptr<SeriesSampler>> propertySampler(const Schema& schema, uint32_t bucket, const std::string& uniqueId, const std::string& path);

} // namespace vtx
