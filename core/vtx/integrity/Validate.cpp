// SPDX-License-Identifier: MIT
#include "vtx/integrity/Validate.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <algorithm>
#include <unordered_set>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

namespace vtx {
namespace {

class Checker {
public:
    Checker(ValidationReport& r, size_t maxProblems) : m_r(r), m_max(maxProblems) { }

    void problem(std::string msg)
    {
        if (m_count++ < m_max)
            m_r.problems.push_back({Problem::Severity::Warning, std::move(msg)});
        else
            ++m_r.problemsOmitted;
    }

    template <class A> void offsets(const A& a, const std::string& where, const char* member)
    {
        const size_t n = a.data.size();
        uint32_t prev = 0;
        for (size_t i = 0; i < a.offsets.size(); ++i) {
            if (a.offsets[i] < prev || a.offsets[i] > n) {
                problem(where + ": " + member + " offsets are not monotonic or exceed the data length");
                return;
            }
            prev = a.offsets[i];
        }
    }

    void container(ContainerView c, const std::string& where, int depth)
    {
        ++m_r.containersHashed;
        // A stored hash is right when it is the spec's (§6.6) or, for a container holding nested
        // containers, the SDK v0.2.0 writer's (§6.6 ⚠: a known writer quirk, reported once).
        const uint64_t stored = c.contentHash();
        if (computeContentHash(c) != stored) {
            if (c.hasNestedContainers() && computeSdkContentHash(c) == stored) {
                ++m_r.hashVariants[c.typeId()].sdkOnly;
            } else {
                ++m_r.hashMismatches;
                problem(where + ": stored content_hash " + hex64(stored) + " matches neither the spec's algorithm nor the SDK v0.2.0 variant");
            }
        } else if (c.hasNestedContainers()) {
            ++m_r.hashVariants[c.typeId()].specOnly;
        } else {
            ++m_r.hashVariants[c.typeId()].both;
        }
        offsets(c.byteArrays(), where, "byte_array_properties");
        offsets(c.int32Arrays(), where, "int32_arrays");
        offsets(c.int64Arrays(), where, "int64_arrays");
        offsets(c.floatArrays(), where, "float_arrays");
        offsets(c.doubleArrays(), where, "double_arrays");
        offsets(c.vectorArrays(), where, "vector_arrays");
        offsets(c.quatArrays(), where, "quat_arrays");
        offsets(c.transformArrays(), where, "transform_arrays");
        offsets(c.rangeArrays(), where, "range_arrays");
        offsets(c.boolArrays(), where, "bool_arrays");
        offsets(c.stringArrays(), where, "string_arrays");
        offsets(c.structArrays(), where, "any_struct_arrays");
        offsets(c.mapArrays(), where, "map_arrays");
        if (depth > 64)
            return;
        ContainerList s = c.structs();
        for (size_t i = 0; i < s.size(); ++i)
            container(s[i], where + ".struct[" + std::to_string(i) + "]", depth + 1);
        auto sa = c.structArrays();
        for (size_t i = 0; i < sa.data.size(); ++i)
            container(sa.data[i], where + ".struct_array[" + std::to_string(i) + "]", depth + 1);
        MapList m = c.maps();
        for (size_t i = 0; i < m.size(); ++i)
            map(m[i], where + ".map[" + std::to_string(i) + "]", depth);
        auto ma = c.mapArrays();
        for (size_t i = 0; i < ma.data.size(); ++i)
            map(ma.data[i], where + ".map_array[" + std::to_string(i) + "]", depth);
    }

    void map(MapView m, const std::string& where, int depth)
    {
        if (m.keys().size() != m.values().size())
            problem(where + ": keys and values differ in length");
        ContainerList v = m.values();
        for (size_t j = 0; j < v.size(); ++j)
            container(v[j], where + "[" + std::to_string(j) + "]", depth + 1);
    }

private:
    ValidationReport& m_r;
    size_t m_max;
    size_t m_count = 0;
};

} // namespace

ValidationReport validate(const ReplayFile& file, const std::function<bool(size_t, size_t)>& progress, size_t maxProblems, unsigned threads)
{
    ValidationReport r;
    for (const Problem& p : file.problems())
        (p.severity == Problem::Severity::Info ? r.info : r.problems).push_back(p);
    Checker check(r, maxProblems);
    XXH3_state_t digest;
    XXH3_64bits_reset(&digest);
    std::unordered_set<std::string> ids;
    const auto& chunks = file.chunks();
    // The scan engine: the next chunks decode (and their frames verify) while this one is checked.
    ChunkPipelineOptions scan;
    scan.threads = std::max(1u, threads);
    ChunkPipeline pipeline(file, ChunkPipeline::chunkRange(file, 0, chunks.size()), scan);
    for (size_t ci = 0; ci < chunks.size(); ++ci) {
        const ChunkEntry& entry = chunks[ci];
        const std::string cwhere = "chunk " + std::to_string(ci);
        auto chunk = pipeline.take(ci);
        ++r.chunksChecked;
        if (!chunk) {
            ++r.chunksFailed;
            check.problem(chunk.message());
        } else {
            const DecodedChunk& c = **chunk;
            if (c.embeddedChunkIndex() != entry.chunkIndex)
                check.problem(cwhere + ": embedded chunk_index " + std::to_string(c.embeddedChunkIndex()) + " differs from the seek table's " +
                              std::to_string(entry.chunkIndex));
            if (int64_t(c.frameCount()) != entry.frameCount())
                check.problem(cwhere + ": holds " + std::to_string(c.frameCount()) + " frames, the seek table says " +
                              std::to_string(entry.frameCount()));
            for (size_t lf = 0; lf < c.frameCount(); ++lf) {
                const int64_t f = entry.startFrame + int64_t(lf);
                ++r.framesChecked;
                if (Status s = c.frameStatus(lf); !s) {
                    check.problem(s.message());
                    continue;
                }
                const FrameView frame = c.frame(lf);
                if (frame.bucketCount() == 0)
                    check.problem("frame " + std::to_string(f) + ": has no bucket");
                for (size_t b = 0; b < frame.bucketCount(); ++b) {
                    const BucketView bucket = frame.bucket(b);
                    const std::string bwhere = "frame " + std::to_string(f) + " bucket " + std::to_string(b);
                    if (bucket.uniqueIds().size() != bucket.entityCount())
                        check.problem(bwhere + ": " + std::to_string(bucket.uniqueIds().size()) + " unique ids for " +
                                      std::to_string(bucket.entityCount()) + " entities");
                    const auto ranges = bucket.typeRanges();
                    if (b == 0 && !ranges.empty()) {
                        int64_t covered = 0;
                        bool ok = true;
                        for (size_t t = 0; t < ranges.size() && ok; ++t) {
                            if (ranges[t].startIndex != covered || ranges[t].count < 0) {
                                ok = false;
                                break;
                            }
                            for (int32_t k = 0; k < ranges[t].count; ++k) {
                                const size_t idx = size_t(ranges[t].startIndex) + size_t(k); // both >= 0: startIndex == covered
                                if (idx >= bucket.entityCount() || bucket.entity(idx).typeId() != int32_t(t)) {
                                    ok = false;
                                    break;
                                }
                            }
                            covered += ranges[t].count;
                        }
                        if (!ok || covered != int64_t(bucket.entityCount()))
                            check.problem(bwhere + ": type_ranges do not cover the bucket by type id");
                    }
                    for (size_t e = 0; e < bucket.entityCount(); ++e) {
                        const ContainerView ent = bucket.entity(e);
                        const std::string_view uid = bucket.uniqueId(e);
                        ++r.entities;
                        ++r.entitiesPerType[ent.typeId()];
                        ids.emplace(uid);
                        const uint64_t h = ent.contentHash();
                        uint8_t le[8];
                        for (int i = 0; i < 8; ++i)
                            le[i] = uint8_t(h >> (8 * i));
                        XXH3_64bits_update(&digest, uid.data(), uid.size());
                        XXH3_64bits_update(&digest, "", 1);
                        XXH3_64bits_update(&digest, le, 8);
                        check.container(ent, bwhere + " entity " + std::to_string(e) + " (" + std::string(uid) + ")", 0);
                    }
                }
            }
        }
        if (progress && !progress(ci + 1, chunks.size()))
            break;
    }
    r.framesDigest = XXH3_64bits_digest(&digest);
    r.distinctUniqueIds = ids.size();
    // The SDK variant is one line naming the types, not a problem per container.
    std::string sdkTypes;
    uint64_t sdkContainers = 0;
    for (const auto& [type, e] : r.hashVariants) {
        if (e.sdkOnly == 0)
            continue;
        const StructDef* def = file.schema().structById(type);
        sdkTypes += (sdkTypes.empty() ? "" : ", ") + (def ? def->name : "type " + std::to_string(type));
        sdkContainers += e.sdkOnly;
        if (e.specOnly > 0)
            check.problem("content_hash: " + std::to_string(e.specOnly) + " containers of " + (def ? def->name : "type " + std::to_string(type)) +
                          " follow the spec and " + std::to_string(e.sdkOnly) + " the SDK v0.2.0 variant: written by two writers, or damaged");
    }
    if (sdkContainers > 0)
        r.info.push_back({Problem::Severity::Info,
                          "content_hash: " + std::to_string(sdkContainers) +
                              " containers with nested containers carry the SDK v0.2.0 writer's hash, which covers only "
                              "their last nested container and what follows it (spec §6.6 ⚠), in " +
                              sdkTypes + ": equal stored hashes do not prove equal values there, so diffs compare these types by value"});
    return r;
}

Json validationJson(const ValidationReport& r)
{
    Json perType = Json::object();
    for (auto [t, n] : r.entitiesPerType)
        perType[std::to_string(t)] = n;
    Json problems = Json::array();
    for (const auto& p : r.problems)
        problems.push_back(sanitizeUtf8(p.message));
    Json info = Json::array();
    for (const auto& p : r.info)
        info.push_back(sanitizeUtf8(p.message));
    Json variants = Json::object();
    for (const auto& [t, e] : r.hashVariants)
        variants[std::to_string(t)] =
            Json{{"verdict", hashVerdictName(verdictOf(e))}, {"spec_only", e.specOnly}, {"sdk_only", e.sdkOnly}, {"both", e.both}};
    return Json{{"chunks_checked", r.chunksChecked},       {"chunks_failed", r.chunksFailed},
                {"frames_checked", r.framesChecked},       {"entities_total", r.entities},
                {"entities_per_type_total", perType},      {"distinct_unique_ids", r.distinctUniqueIds},
                {"containers_hashed", r.containersHashed}, {"hash_mismatches", r.hashMismatches},
                {"hash_variants_per_type", variants},      {"info", info},
                {"frames_digest", hex64(r.framesDigest)},  {"problems", problems},
                {"problems_omitted", r.problemsOmitted}};
}

Json validationJson(const ValidationReport& r, const Schema& schema)
{
    auto name = [&](int32_t t) {
        const StructDef* d = schema.structById(t);
        return d ? sanitizeUtf8(d->name) : "type_" + std::to_string(t);
    };
    Json j = validationJson(r);
    Json perType = Json::object(), variants = Json::object(), ids = Json::object();
    for (auto [t, n] : r.entitiesPerType) {
        perType[name(t)] = n;
        ids[name(t)] = t;
    }
    for (const auto& [t, e] : r.hashVariants) {
        Json v = j["hash_variants_per_type"][std::to_string(t)];
        Json named{{"type_id", t}};
        named.update(v);
        variants[name(t)] = std::move(named);
        ids[name(t)] = t;
    }
    j["entities_per_type_total"] = std::move(perType);
    j["hash_variants_per_type"] = std::move(variants);
    // After the per-type objects: the key readers see first is the name.
    Json out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        out[it.key()] = it.value();
        if (it.key() == "hash_variants_per_type")
            out["type_ids"] = ids;
    }
    return out;
}

} // namespace vtx
