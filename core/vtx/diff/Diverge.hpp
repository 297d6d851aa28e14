// SPDX-License-Identifier: MIT
#pragma once
// Where two runs of the same scenario diverge: the frames of A and B are paired (ReplayPairing),
// each pair is compared entity by entity (matched by bucket and unique id) and property by
// property (matched by name, floats within a tolerance), and the run is summarized: the first
// divergent pair with what differs there, per pair the number of differing entities and
// properties, and per property the largest deviation and where it occurred.
//
// Both files are decoded at once through the scan engine (ChunkPipeline, one per file: two
// chunks of each file decoding ahead while the pairs are compared), so at most three chunks per
// file are alive: memory does not grow with the length of the replays.

#include "vtx/diff/FrameDiff.hpp"
#include "vtx/diff/ReplayPairing.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vtx {

struct DivergeProgress;

struct DivergeOptions {
    Alignment alignment = Alignment::Frame;
    int64_t offset = 0; ///< frames (Alignment::Frame) or game-time ticks (Alignment::Time) added to A's position
    FloatTolerance tolerance;
    std::vector<std::string> ignore; ///< property names ignored at any depth
    /// Compare through property trees by name even when both files share one schema layout
    /// (the slow path; the fast one must give the same answer, which the tests check). By name,
    /// only named properties are compared: stored data no schema name addresses (UnnamedData)
    /// has no name to match across schemas, while the same-layout diff compares it too.
    bool forceByName = false;
    size_t maxFirstChanges = 200; ///< property changes listed for the first divergent pair
    /// Same layout, chunks over the same frames paired frame for frame, stored bytes equal:
    /// the frames are identical, so such chunks are neither decoded nor compared (runs agree
    /// up to the divergence, usually most of a replay). Off: every pair is decoded and compared
    /// (the tests check both give the same report). A chunk both files store identically is
    /// then not checked for decode errors either: it is equal, whatever it holds.
    bool skipIdenticalChunks = true;
    /// Decode threads of the scan engine for the comparison: from 2, each file's chunks are
    /// decoded ahead on threads / 2 workers of its own (at least one; one each by default: two
    /// workers per file and the comparing thread contended for two cores) while the calling
    /// thread compares, at most threads + 1 chunks per file alive. 1: each chunk decoded on the
    /// calling thread when needed, one chunk per file alive: for callers that run several
    /// comparisons at once and give each one core (`vtxscope-cli diverge --baseline --jobs`, a
    /// Dask worker). Same report whatever the count.
    unsigned threads = kScanThreads;
    /// A pair whose frame of A or B cannot be read (a chunk that fails to decode, a frame that
    /// fails verification): false, diverge() stops with that error, since the comparison would
    /// be incomplete; true, the pair is counted in DivergeReport::unreadable with the reason
    /// and the comparison goes on with the pairs that can be read (the viewer's lane).
    bool skipUnreadable = false;
    /// Polled between frame pairs; when it reads true, diverge() stops with Errc::Superseded.
    const std::atomic<bool>* cancel = nullptr;
    /// Called on the comparing thread after each chunk of A (and once at the end) with the
    /// pairs done so far and what was found since the previous call (the viewer's divergence
    /// lane fills in from these while the run is compared).
    std::function<void(const DivergeProgress&)> progress;
};

/// Consecutive pairs (in A's order) that could not be compared because a frame of one side
/// could not be read (DivergeOptions::skipUnreadable).
struct UnreadablePairs {
    FramePair first, last;
    uint64_t pairs = 0;
    std::string reason; ///< why the first of them could not be read, with the file named
};

/// One differing property of an entity in the first divergent pair.
struct PropertyDivergence {
    std::string path; ///< "Position", "Weapon.Ammo", "Trail[2]"
    std::string a, b; ///< display text, exact (formatValue); empty when absent on that side
    std::optional<double> deviation; ///< largest |b - a| over the numeric components
    /// The same for reading on screen (formatValueForReading: float64 to 9 significant digits,
    /// integers grouped); the JSON report and the gate's texts stay exact.
    std::string aForReading, bForReading;
};

struct EntityDivergence {
    uint32_t bucket = 0;
    std::string uniqueId;
    /// The entity's label (EntityLabels) in A's frame, or B's when only in B; empty when it has none.
    std::string displayName;
    std::string type; ///< struct type name (A's, or B's when only in B)
    EntityStatus status = EntityStatus::Changed; ///< Added: only in B; Removed: only in A
    std::vector<PropertyDivergence> properties;
};

struct PairDivergence {
    FramePair frames;
    uint32_t entities = 0; ///< entities that differ (present in one file only, or with differing properties)
    uint32_t properties = 0; ///< distinct (entity, property) pairs that differ
};

/// What diverge() has done so far, handed to DivergeOptions::progress.
struct DivergeProgress {
    uint64_t pairsDone = 0; ///< pairs handled: compared, or found unreadable (skipUnreadable)
    uint64_t pairsTotal = 0;
    std::span<const PairDivergence> divergent; ///< divergent pairs found since the previous call
    /// Unreadable pairs found since the previous call, run by run (a run that goes on past a
    /// call comes in two pieces, each with the run's reason).
    std::span<const UnreadablePairs> unreadable;
};

/// Per property (type name + path, array indices and map keys collapsed to "[]"), the largest
/// deviation over the run and where it occurred.
struct PropertyDeviation {
    std::string type;
    std::string path;
    /// Entity-frames where it differs: one per entity per frame pair (three players whose
    /// Health differs in one pair count three).
    uint64_t pairs = 0;
    uint64_t framePairs = 0; ///< frame pairs where it differs for at least one entity
    bool numeric = false; ///< some difference had numeric components: maxDeviation is the largest |b - a| of those
    double maxDeviation = 0;
    FramePair at; ///< where the largest deviation was seen (when none was numeric: the first difference)
    uint32_t bucket = 0;
    std::string uniqueId;
};

struct DivergeReport {
    Alignment alignment = Alignment::Frame;
    int64_t offset = 0;
    int32_t framesA = 0, framesB = 0;
    uint64_t pairsCompared = 0; ///< pairs compared (unreadable ones are not)
    uint64_t pairsUnreadable = 0; ///< pairs skipped as unreadable (DivergeOptions::skipUnreadable)
    std::vector<UnreadablePairs> unreadable; ///< those pairs, run by run in A's order
    uint64_t identicalChunks = 0; ///< chunks of A skipped as byte-identical to B's (skipIdenticalChunks)
    bool byName = false; ///< compared through property trees (schemas differ in layout)
    std::vector<SchemaDifference> schemaDifferences;
    std::optional<FramePair> firstDivergence;
    std::vector<EntityDivergence> firstEntities; ///< what differs in the first divergent pair
    std::vector<PairDivergence> divergentPairs; ///< every pair that differs, in A's order
    std::vector<PropertyDeviation> properties; ///< sorted by type, then path
    bool diverged() const { return firstDivergence.has_value(); }
};

/// Compares the paired frames of `a` and `b`. Errors (a chunk that fails to decode) name the file
/// and chunk; a frame that fails verification is an error too, since the comparison would be
/// silently incomplete, unless DivergeOptions::skipUnreadable lists such pairs instead.
Result<DivergeReport> diverge(const ReplayFile& a, const ReplayFile& b, const DivergeOptions& options = {});

/// The report as JSON (what `vtxscope-cli diverge --json` prints).
Json divergeJson(const DivergeReport& report, const std::string& pathA, const std::string& pathB);
/// Short human-readable summary.
std::string divergeText(const DivergeReport& report);

} // namespace vtx
