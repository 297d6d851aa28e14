// SPDX-License-Identifier: MIT
#include "vtx/integrity/HashTrust.hpp"

#include "vtx/integrity/ContentHash.hpp"
#include "vtx/model/DecodedChunk.hpp"

namespace vtx {

const char* hashVerdictName(HashVerdict v)
{
    switch (v) {
    case HashVerdict::Unverified: return "unverified";
    case HashVerdict::Spec: return "spec";
    case HashVerdict::NoNested: return "no_nested";
    case HashVerdict::SdkVariant: return "sdk_v0.2.0";
    case HashVerdict::Neither: return "neither";
    case HashVerdict::Contradictory: return "contradictory";
    }
    return "?";
}

HashVerdict verdictOf(const HashEvidence& e)
{
    if (e.neither > 0)
        return HashVerdict::Neither;
    if (e.specOnly > 0 && e.sdkOnly > 0)
        return HashVerdict::Contradictory;
    if (e.sdkOnly > 0)
        return HashVerdict::SdkVariant;
    if (e.specOnly > 0)
        return HashVerdict::Spec;
    if (e.both > 0)
        return HashVerdict::NoNested;
    return HashVerdict::Unverified;
}

HashTrust::HashTrust(size_t typeCount)
    : m_typeCount(typeCount), m_counters(std::make_unique<Counters[]>(typeCount)), m_policy(std::make_unique<std::atomic<uint8_t>[]>(typeCount))
{
    for (size_t i = 0; i < typeCount; ++i)
        m_policy[i].store(uint8_t(Policy::Never), std::memory_order_relaxed);
}

HashEvidence HashTrust::evidence(int32_t typeId) const
{
    if (typeId < 0 || size_t(typeId) >= m_typeCount)
        return {};
    const Counters& c = m_counters[size_t(typeId)];
    return {c.both.load(std::memory_order_relaxed), c.specOnly.load(std::memory_order_relaxed), c.sdkOnly.load(std::memory_order_relaxed),
            c.neither.load(std::memory_order_relaxed)};
}

std::vector<HashMismatch> HashTrust::mismatches() const
{
    std::lock_guard lock(m_mismatchLock);
    return m_mismatches;
}

void HashTrust::update(size_t type)
{
    // Under a lock, from the counters as they are now: the last update to run has seen every
    // increment that asked for one, so racing decode workers cannot leave a stale policy.
    std::lock_guard lock(m_updateLock);
    Policy p = Policy::Never;
    switch (verdict(int32_t(type))) {
    case HashVerdict::Spec: p = Policy::Always; break;
    case HashVerdict::NoNested:
    case HashVerdict::SdkVariant: p = Policy::WhenNoNested; break;
    case HashVerdict::Unverified:
    case HashVerdict::Neither:
    case HashVerdict::Contradictory: p = Policy::Never; break;
    }
    const uint8_t old = m_policy[type].exchange(uint8_t(p), std::memory_order_acq_rel);
    if (old != uint8_t(p))
        m_generation.fetch_add(1, std::memory_order_acq_rel);
}

void HashTrust::observe(ContainerView c, const HashMismatch& where, int depth)
{
    if (c.isNull() || depth > 64)
        return;
    const int32_t t = c.typeId();
    if (t >= 0 && size_t(t) < m_typeCount && c.contentHash() != 0) {
        const uint64_t stored = c.contentHash();
        const bool spec = computeContentHash(c) == stored;
        const bool sdk = c.hasNestedContainers() ? computeSdkContentHash(c) == stored : spec;
        Counters& n = m_counters[size_t(t)];
        std::atomic<uint64_t>& counter = spec && sdk ? n.both : spec ? n.specOnly : sdk ? n.sdkOnly : n.neither;
        const bool first = counter.fetch_add(1, std::memory_order_relaxed) == 0;
        if (!spec && !sdk) {
            std::lock_guard lock(m_mismatchLock);
            if (m_mismatches.size() < kMaxMismatches) {
                m_mismatches.push_back(where);
                m_mismatches.back().typeId = t;
            }
        }
        if (first)
            update(size_t(t));
    }
    auto child = [&](const std::string& step) {
        HashMismatch w = where;
        w.path += step;
        return w;
    };
    const ContainerList s = c.structs();
    for (size_t i = 0; i < s.size(); ++i)
        observe(s[i], child(".struct[" + std::to_string(i) + "]"), depth + 1);
    const auto sa = c.structArrays();
    for (size_t i = 0; i < sa.data.size(); ++i)
        observe(sa.data[i], child(".struct_array[" + std::to_string(i) + "]"), depth + 1);
    const MapList maps = c.maps();
    for (size_t m = 0; m < maps.size(); ++m) {
        const ContainerList v = maps[m].values();
        for (size_t i = 0; i < v.size(); ++i)
            observe(v[i], child(".map[" + std::to_string(m) + "][" + std::to_string(i) + "]"), depth + 1);
    }
    const auto ma = c.mapArrays();
    for (size_t m = 0; m < ma.data.size(); ++m) {
        const ContainerList v = ma.data[m].values();
        for (size_t i = 0; i < v.size(); ++i)
            observe(v[i], child(".map_array[" + std::to_string(m) + "][" + std::to_string(i) + "]"), depth + 1);
    }
}

void HashTrust::observeFrame(FrameView frame, int32_t frameIndex)
{
    if (frame.isNull())
        return;
    for (const FrameEntity e : frame.entities()) {
        HashMismatch where;
        where.frame = frameIndex;
        where.bucket = e.bucket;
        where.uniqueId = std::string(e.uniqueId());
        observe(e.entity, where, 0);
    }
}

void HashTrust::observeChunk(const DecodedChunk& chunk)
{
    m_sampledChunks.fetch_add(1, std::memory_order_relaxed);
    const size_t n = chunk.frameCount();
    if (n == 0)
        return;
    const size_t picks[3] = {0, n / 2, n - 1};
    for (size_t i = 0; i < 3; ++i) {
        if (i > 0 && picks[i] == picks[i - 1])
            continue;
        observeFrame(chunk.frame(picks[i]), chunk.startFrame() + int32_t(picks[i]));
    }
}

} // namespace vtx
