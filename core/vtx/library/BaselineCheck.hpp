// SPDX-License-Identifier: MIT
#pragma once
// A run checked against a baseline (a QA farm's golden run): vtx::diverge(baseline, run) brought
// down to what one table row shows — matches, or the first divergent frame with its first
// differing entity, property and both values, or the error. A is the baseline, B the run, as in
// `vtxscope-cli diverge BASELINE RUN`.

#include "vtx/diff/Diverge.hpp"
#include "vtx/library/ReplaySummary.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace vtx {

struct RunVerdict {
    enum class Kind : uint8_t {
        Matches, ///< every paired frame equal within the tolerance
        Diverges, ///< `first` and the fields below say where
        Failed, ///< `error` says why (either file failed to open or decode)
    };
    Kind kind = Kind::Failed;
    std::optional<FramePair> first; ///< frameA: the baseline's, frameB: the run's
    // The first entity that differs in the first divergent pair (DivergeReport::firstEntities[0]).
    uint32_t bucket = 0;
    std::string uniqueId;
    std::string displayName; ///< its label in the baseline's frame (the run's, when only the run has it); may be empty
    std::string entityType;
    EntityStatus status = EntityStatus::Changed; ///< Added: only in the run; Removed: only in the baseline
    // Its first differing property (empty when the whole entity is added or removed).
    std::string property;
    std::string baselineValue; ///< exact text (formatValue)
    std::string runValue;
    std::string baselineValueForReading; ///< the same for reading on screen (formatValueForReading)
    std::string runValueForReading;
    std::optional<double> deviation;
    size_t entitiesInFirst = 0; ///< entities that differ in the first divergent pair
    int32_t baselineFrames = 0;
    int32_t runFrames = 0;
    /// Paired frame by frame from the start, the two have different frame counts: the run
    /// diverges even when every paired frame matches (then `first` is empty), as in the gate.
    bool lengthDiffers = false;
    uint64_t pairsCompared = 0;
    size_t divergentPairs = 0;
    std::string error;
    Errc errorCode = Errc::Failed; ///< Superseded when the check was cancelled
};

/// The verdict a diverge() answer amounts to.
RunVerdict runVerdict(const Result<DivergeReport>& report);

/// Opens `runPath` (through `open`, as the library reads files) and compares it with `baseline`.
RunVerdict checkRun(const ReplayFile& baseline, const std::string& runPath, const DivergeOptions& options, const SourceOpener& open = {});

} // namespace vtx
