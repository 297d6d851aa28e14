// SPDX-License-Identifier: MIT
#pragma once
// Whether a file's stored content hashes may stand in for its values, decided per struct type
// from evidence. The SDK v0.2.0 writer hashes a container that holds nested containers from its
// last nested child onwards only (spec §6.6 ⚠), so two such containers with equal stored hashes
// can still differ in every scalar. Everything that reads "equal hash" as "unchanged" (the diff,
// seek by change, the inspector's marks) asks `covers()` first and compares values otherwise.
//
// Evidence comes from sampled frames: both variants are recomputed for every container of the
// frame and compared with the stored hash. The file samples frames of every chunk it decodes
// (ReplayFile::decodeChunk), so a later chunk that contradicts the verdict withdraws it for that
// type; a type never sampled is not trusted. Thread-safe: decode workers add evidence while the
// UI thread diffs.

#include "vtx/model/FrameView.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace vtx {

class DecodedChunk;

enum class HashVerdict : uint8_t {
    Unverified, ///< no container of this type sampled yet: not trusted
    Spec, ///< hashes follow spec §6.6, nested containers included: trusted
    NoNested, ///< only containers without nested containers seen (both variants agree there):
    ///< trusted for containers without nested ones
    SdkVariant, ///< SDK v0.2.0 (§6.6 ⚠): trusted only for containers without nested ones
    Neither, ///< a hash matched neither variant (corruption or another writer): not trusted
    Contradictory, ///< some containers follow the spec, others the SDK variant: not trusted
};
const char* hashVerdictName(HashVerdict v);

/// Counts of sampled containers of one type by which recomputed variant their stored hash
/// matched (a container without nested containers matches both).
struct HashEvidence {
    uint64_t both = 0, specOnly = 0, sdkOnly = 0, neither = 0;
    uint64_t sampled() const { return both + specOnly + sdkOnly + neither; }
};
HashVerdict verdictOf(const HashEvidence& e);

/// Where a sampled stored hash matched neither variant.
struct HashMismatch {
    int32_t frame = -1;
    uint32_t bucket = 0;
    std::string uniqueId;
    std::string path; ///< "" for the entity itself, else ".struct[0].struct_array[2]"
    int32_t typeId = -1;
};

class HashTrust {
public:
    /// `typeCount`: the schema's struct count; containers of other type ids are never trusted.
    explicit HashTrust(size_t typeCount);

    /// Records every container of `frame` (frame index `frameIndex`, for diagnostics).
    void observeFrame(FrameView frame, int32_t frameIndex);
    /// Samples a decoded chunk: its first, middle and last frames (those that verify).
    void observeChunk(const DecodedChunk& chunk);

    size_t typeCount() const { return m_typeCount; }
    /// Chunks sampled so far (observeChunk calls).
    uint64_t sampledChunks() const { return m_sampledChunks.load(std::memory_order_relaxed); }
    HashEvidence evidence(int32_t typeId) const;
    HashVerdict verdict(int32_t typeId) const { return verdictOf(evidence(typeId)); }
    /// The first sampled container whose hash matched neither variant, if any.
    std::vector<HashMismatch> mismatches() const;
    /// Bumped whenever a type's verdict changes (so a view can recompute what it derived).
    uint64_t generation() const { return m_generation.load(std::memory_order_acquire); }

    /// Whether `c`'s stored hash covers all of its values, so that equal stored hashes of two
    /// containers of its type mean equal values. Allocation-free, a few loads.
    bool covers(ContainerView c) const
    {
        const int32_t t = c.typeId();
        if (t < 0 || size_t(t) >= m_typeCount)
            return false;
        switch (Policy(m_policy[size_t(t)].load(std::memory_order_relaxed))) {
        case Policy::Always: return true;
        case Policy::WhenNoNested: return !c.hasNestedContainers();
        case Policy::Never: return false;
        }
        return false;
    }

private:
    enum class Policy : uint8_t { Never, WhenNoNested, Always };
    void observe(ContainerView c, const HashMismatch& where, int depth);
    void update(size_t type);

    struct Counters {
        std::atomic<uint64_t> both{0}, specOnly{0}, sdkOnly{0}, neither{0};
    };
    size_t m_typeCount;
    std::unique_ptr<Counters[]> m_counters;
    std::unique_ptr<std::atomic<uint8_t>[]> m_policy;
    std::atomic<uint64_t> m_generation{0};
    std::atomic<uint64_t> m_sampledChunks{0};
    std::mutex m_updateLock;
    mutable std::mutex m_mismatchLock;
    std::vector<HashMismatch> m_mismatches; ///< guarded by m_mismatchLock; at most kMaxMismatches
    static constexpr size_t kMaxMismatches = 16;
};

} // namespace vtx
