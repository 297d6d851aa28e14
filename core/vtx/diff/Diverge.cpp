// SPDX-License-Identifier: MIT
#include "vtx/diff/Diverge.hpp"

#include "vtx/model/EntityLabels.hpp"
#include "vtx/model/PropertyTree.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>

namespace vtx {
namespace {

/// The chunks of `file` a comparison starting at `firstFrame` reads, in order: from the first
/// frame's chunk on, less the ones identical in both files (`skip`).
std::vector<size_t> chunksToRead(const ReplayFile& file, int32_t firstFrame, const std::vector<char>& skip)
{
    std::vector<size_t> out;
    for (size_t ci : ChunkPipeline::chunkRange(file, file.chunkForFrame(firstFrame).value_or(0), file.chunks().size()))
        if (ci >= skip.size() || !skip[ci])
            out.push_back(ci);
    return out;
}

/// A file's current chunk and the frames in it, fed by the scan engine (threads >= 2: the next
/// chunks decode on worker threads while this one is compared) or decoded here when needed.
class FrameSource {
public:
    FrameSource(const ReplayFile& file, int32_t firstFrame, const std::vector<char>& skip, unsigned threads)
        : m_file(file), m_pipeline(file, chunksToRead(file, firstFrame, skip), pipelineOptions(threads))
    {
    }
    Result<FrameHandle> frame(int32_t index)
    {
        if (!m_chunk || index < m_chunk->startFrame() || index >= m_chunk->startFrame() + int32_t(m_chunk->frameCount())) {
            const auto ci = m_file.chunkForFrame(index);
            if (!ci)
                return Error{m_file.path() + ": no chunk holds frame " + std::to_string(index)};
            // The chunk's other frames (skipUnreadable goes on past the first) get its error
            // without decoding it again: take() would, each time, for a chunk it passed.
            if (m_failedChunk == ci)
                return Error{m_failure};
            // Let go of the current chunk first: its blocks go back to the large-block recycler
            // (LargeAlloc) for the decoder's next chunk instead of fresh, zero-filled pages.
            m_chunk.reset();
            // Frames of B go backwards only when A's game time does (a new segment), and a chunk
            // the pipeline passes by (identical in both files) may be asked for anyway (another
            // frame of A paired into it): take() decodes those here, the pipeline keeps moving forward.
            auto c = m_pipeline.take(*ci);
            if (!c) {
                m_failedChunk = ci;
                m_failure = c.message();
                return Error{m_failure};
            }
            m_chunk = std::move(*c);
        }
        FrameHandle h(m_chunk, index);
        if (h.view().isNull())
            return Error{m_file.path() + ": frame " + std::to_string(index) + ": " +
                         m_chunk->frameStatus(size_t(index - m_chunk->startFrame())).message()};
        return h;
    }

private:
    static ChunkPipelineOptions pipelineOptions(unsigned threads)
    {
        ChunkPipelineOptions o;
        o.threads = std::max(1u, threads); // 1: decoded on the comparing thread
        // Two files decode at once: each gets its share of the scan's workers (ChunkPipelineOptions::workers).
        o.workers = std::max(1u, o.threads / 2);
        return o;
    }
    const ReplayFile& m_file;
    ChunkPipeline m_pipeline;
    std::shared_ptr<const DecodedChunk> m_chunk;
    std::optional<size_t> m_failedChunk; ///< the last chunk whose decode failed, and why
    std::string m_failure;
};

/// "Trail[2].Pos" -> "Trail[].Pos": one row per property, not per element or key. Into `out`
/// (its capacity reused: this runs for every difference of every divergent pair).
void collapseIndexesInto(std::string_view path, std::string& out)
{
    out.clear();
    bool inside = false;
    for (char ch : path) {
        if (ch == '[') {
            inside = true;
            out += "[]";
        } else if (ch == ']') {
            inside = false;
        } else if (!inside) {
            out += ch;
        }
    }
}

std::string collapseIndexes(std::string_view path)
{
    std::string out;
    collapseIndexesInto(path, out);
    return out;
}

/// One differing property of one entity in one pair, as both comparison paths find it.
struct Difference {
    std::string path; ///< exact path ("Trail[2]")
    std::string a, b;
    std::optional<double> deviation;
    std::string aForReading, bForReading;
};

struct EntityResult {
    uint32_t bucket = 0;
    std::string uniqueId;
    std::string type;
    EntityStatus status = EntityStatus::Changed;
    std::vector<Difference> differences;
};

std::string typeName(const Schema& s, int32_t typeId)
{
    const StructDef* d = s.structById(typeId);
    return d ? d->name : (typeId < 0 ? std::string() : "type_" + std::to_string(typeId));
}

std::optional<double> maxAbsDelta(const Value& a, const Value& b)
{
    if (a.kind == Value::Kind::Bool || b.kind == Value::Kind::Bool)
        return std::nullopt;
    const auto d = deltaOf(a, b);
    if (!d || d->size == 0)
        return std::nullopt;
    double m = 0;
    for (size_t i = 0; i < d->size; ++i)
        m = std::max(m, std::abs(d->values[i]));
    return m;
}

/// Same schema layout: the exact frame diff, with its content-hash short-circuit. `withText`:
/// the values' text too, which only the first divergence reports (formatting every value of
/// every divergent pair took most of the time of comparing two runs that differ everywhere).
void compareFast(const FrameHandle& ha, const FrameHandle& hb, const Schema& schema, const DiffOptions& opt, FrameDiff& diff,
                 std::vector<EntityResult>& out, bool withText)
{
    diffFrames(ha, hb, schema, opt, diff);
    for (const EntityDiff& e : diff.entities) {
        EntityResult r;
        r.bucket = e.bucket;
        r.uniqueId = std::string(e.uniqueId);
        r.type = typeName(schema, e.typeIdA >= 0 ? e.typeIdA : e.typeIdB);
        r.status = e.status;
        for (const PropertyChange& c : diff.changesOf(e)) {
            Difference d;
            if (c.kind == ChangeKind::TypeChanged) {
                d.path = "<type>";
                d.a = d.aForReading = typeName(schema, e.typeIdA);
                d.b = d.bForReading = typeName(schema, e.typeIdB);
            } else {
                d.path = diff.pathText(c, schema);
                const Value va = c.a(), vb = c.b();
                if (withText) {
                    d.a = va.isAbsent() ? std::string() : formatValue(va);
                    d.b = vb.isAbsent() ? std::string() : formatValue(vb);
                    d.aForReading = va.isAbsent() ? std::string() : formatValueForReading(va);
                    d.bForReading = vb.isAbsent() ? std::string() : formatValueForReading(vb);
                }
                d.deviation = maxAbsDelta(va, vb);
            }
            r.differences.push_back(std::move(d));
        }
        out.push_back(std::move(r));
    }
}

bool isMathType(const std::string& t)
{
    return t == "Vector" || t == "Quat" || t == "Transform" || t == "FloatRange";
}

/// Property path segments' names: "Weapon.Trail[2].x" -> Weapon, Trail, x.
bool pathHasIgnoredName(const std::string& path, const std::vector<std::string>& ignore)
{
    if (ignore.empty())
        return false;
    const std::string collapsed = collapseIndexes(path);
    size_t begin = 0;
    while (begin <= collapsed.size()) {
        size_t end = collapsed.find('.', begin);
        if (end == std::string::npos)
            end = collapsed.size();
        std::string name = collapsed.substr(begin, end - begin);
        if (const size_t br = name.find('['); br != std::string::npos)
            name.resize(br);
        if (std::find(ignore.begin(), ignore.end(), name) != ignore.end())
            return true;
        begin = end + 1;
    }
    return false;
}

struct Leaf {
    int node;
    std::string property; ///< the path of the value the leaf belongs to (a vector's, not its "x")
};

/// Leaves of a property tree (values, and the components of math values), keyed by path.
std::unordered_map<std::string, Leaf> leavesOf(const std::vector<PropertyNode>& tree)
{
    std::unordered_map<std::string, Leaf> out;
    for (size_t i = 1; i < tree.size(); ++i) {
        const PropertyNode& n = tree[i];
        if (!n.children.empty() || n.unnamed || n.name == "…")
            continue;
        int owner = int(i);
        while (tree[size_t(owner)].parent > 0 && isMathType(tree[size_t(tree[size_t(owner)].parent)].type))
            owner = tree[size_t(owner)].parent;
        out.emplace(n.path, Leaf{int(i), tree[size_t(owner)].path});
    }
    return out;
}

/// Every node's index by path.
std::unordered_map<std::string, int> nodesByPath(const std::vector<PropertyNode>& tree)
{
    std::unordered_map<std::string, int> out;
    for (size_t i = 1; i < tree.size(); ++i)
        out.emplace(tree[i].path, int(i));
    return out;
}

/// What a leaf of `tree` that the other tree lacks means, as the properties to report (the fast
/// diff's vocabulary): under an array element or map value the other side lacks, the array
/// (its length or keys differ) and the element's property; under a node that is a leaf over
/// there, that node (a struct absent on one side). Nothing when the topmost missing node is a
/// named property: only this side's schema names it, a schema difference.
std::vector<std::string> missingLeafProperties(const std::vector<PropertyNode>& tree, const Leaf& leaf,
                                               const std::unordered_map<std::string, int>& otherNodes, const std::vector<PropertyNode>& otherTree)
{
    int n = leaf.node;
    while (tree[size_t(n)].parent > 0 && !otherNodes.contains(tree[size_t(tree[size_t(n)].parent)].path))
        n = tree[size_t(n)].parent;
    const int parent = tree[size_t(n)].parent;
    if (tree[size_t(n)].name.starts_with('['))
        return parent > 0 ? std::vector<std::string>{tree[size_t(parent)].path, leaf.property} : std::vector<std::string>{leaf.property};
    if (parent <= 0)
        return {};
    const auto it = otherNodes.find(tree[size_t(parent)].path);
    if (it != otherNodes.end() && otherTree[size_t(it->second)].children.empty())
        return {tree[size_t(parent)].path};
    return {};
}

/// Different schema layouts: property trees compared by path (names, not slots). A named
/// property only one schema has is a schema difference, reported once, not per frame.
/// `withText`: the values' texts too, as in compareFast (only the first divergence reports them).
void compareEntityByName(ContainerView ca, ContainerView cb, const Schema& sa, const Schema& sb, const DivergeOptions& opt, bool withText,
                         EntityResult& r)
{
    PropertyTreeOptions to;
    to.maxArrayChildren = std::numeric_limits<size_t>::max();
    const auto ta = buildPropertyTree(ca, sa, to);
    const auto tb = buildPropertyTree(cb, sb, to);
    const auto la = leavesOf(ta), lb = leavesOf(tb);
    const auto na = nodesByPath(ta), nb = nodesByPath(tb);
    auto valueAt = [](const std::vector<PropertyNode>& t, const std::unordered_map<std::string, int>& nodes, const std::string& path) {
        const auto it = nodes.find(path);
        return it == nodes.end() ? std::string() : t[size_t(it->second)].value;
    };
    auto readingAt = [](const std::vector<PropertyNode>& t, const std::unordered_map<std::string, int>& nodes, const std::string& path) {
        const auto it = nodes.find(path);
        return it == nodes.end() ? std::string() : readableText(t, t[size_t(it->second)]);
    };
    std::map<std::string, Difference> byProperty; // ordered: a stable report
    auto note = [&](const std::string& property, std::optional<double> deviation) {
        auto [it, fresh] = byProperty.try_emplace(property);
        Difference& d = it->second;
        if (fresh)
            d.path = property;
        if (fresh && withText) {
            d.a = valueAt(ta, na, property);
            d.b = valueAt(tb, nb, property);
            d.aForReading = readingAt(ta, na, property);
            d.bForReading = readingAt(tb, nb, property);
        }
        if (deviation)
            d.deviation = std::max(d.deviation.value_or(0), *deviation);
    };
    for (const auto& [path, leafA] : la) {
        if (pathHasIgnoredName(path, opt.ignore))
            continue;
        const PropertyNode& nodeA = ta[size_t(leafA.node)];
        const auto itB = nb.find(path);
        if (itB == nb.end()) {
            for (const std::string& property : missingLeafProperties(ta, leafA, nb, tb))
                note(property, std::nullopt);
            continue;
        }
        const PropertyNode& nodeB = tb[size_t(itB->second)];
        if (!nodeB.children.empty()) { // a leaf here, a container there (a struct absent on one side)
            note(leafA.property, std::nullopt);
            continue;
        }
        bool equal = false;
        std::optional<double> deviation;
        if (nodeA.number && nodeB.number && nodeA.type != "Bool" && nodeB.type != "Bool") {
            equal = opt.tolerance.equal(*nodeA.number, *nodeB.number);
            deviation = std::abs(*nodeB.number - *nodeA.number);
        } else {
            equal = nodeA.absent == nodeB.absent && nodeA.value == nodeB.value && nodeA.bytes == nodeB.bytes;
        }
        if (!equal)
            note(leafA.property, deviation);
    }
    for (const auto& [path, leafB] : lb)
        if (!na.contains(path) && !pathHasIgnoredName(path, opt.ignore))
            for (const std::string& property : missingLeafProperties(tb, leafB, na, ta))
                note(property, std::nullopt);
    for (auto& [property, d] : byProperty)
        r.differences.push_back(std::move(d));
}

void compareByName(FrameView fa, FrameView fb, const Schema& sa, const Schema& sb, const DivergeOptions& opt, bool withText,
                   std::vector<EntityResult>& out)
{
    const size_t buckets = std::max(fa.bucketCount(), fb.bucketCount());
    for (size_t bi = 0; bi < buckets; ++bi) {
        const BucketView ba = bi < fa.bucketCount() ? fa.bucket(bi) : BucketView();
        const BucketView bb = bi < fb.bucketCount() ? fb.bucket(bi) : BucketView();
        const size_t na = std::min(ba.entityCount(), ba.uniqueIds().size());
        const size_t nb = std::min(bb.entityCount(), bb.uniqueIds().size());
        std::unordered_map<std::string_view, size_t> indexB;
        for (size_t j = 0; j < nb; ++j)
            indexB.emplace(bb.uniqueId(j), j);
        std::vector<bool> matchedB(nb, false);
        for (size_t i = 0; i < na; ++i) {
            const ContainerView ca = ba.entity(i);
            EntityResult r;
            r.bucket = uint32_t(bi);
            r.uniqueId = std::string(ba.uniqueId(i));
            r.type = typeName(sa, ca.typeId());
            const auto it = indexB.find(ba.uniqueId(i));
            if (it == indexB.end()) {
                r.status = EntityStatus::Removed;
                out.push_back(std::move(r));
                continue;
            }
            matchedB[it->second] = true;
            const ContainerView cb = bb.entity(it->second);
            if (const std::string tbName = typeName(sb, cb.typeId()); tbName != r.type)
                r.differences.push_back({"<type>", r.type, tbName, std::nullopt, r.type, tbName});
            else
                compareEntityByName(ca, cb, sa, sb, opt, withText, r);
            if (!r.differences.empty())
                out.push_back(std::move(r));
        }
        for (size_t j = 0; j < nb; ++j)
            if (!matchedB[j])
                out.push_back({uint32_t(bi), std::string(bb.uniqueId(j)), typeName(sb, bb.entity(j).typeId()), EntityStatus::Added, {}});
    }
}

/// Marks the chunks of A (skipA) and B (skipB) that hold the same frames, paired frame for frame,
/// with the same stored bytes: identical frames. Only chunks of equal stored size are read.
void markIdenticalChunks(const ReplayFile& a, const ReplayFile& b, const std::vector<FramePair>& pairs, std::vector<char>& skipA,
                         std::vector<char>& skipB)
{
    std::vector<int32_t> partner(size_t(std::max(0, a.frameCount())), -1);
    for (const FramePair& p : pairs)
        partner[size_t(p.frameA)] = p.frameB;
    for (size_t i = 0; i < a.chunks().size(); ++i) {
        const ChunkEntry& ca = a.chunks()[i];
        const auto j = b.chunkForFrame(ca.startFrame);
        if (!j)
            continue;
        const ChunkEntry& cb = b.chunks()[*j];
        if (cb.startFrame != ca.startFrame || cb.endFrame != ca.endFrame || cb.chunkSizeBytes != ca.chunkSizeBytes || ca.endFrame < ca.startFrame)
            continue;
        bool identity = true;
        for (int32_t f = ca.startFrame; f <= ca.endFrame && identity; ++f)
            identity = size_t(f) < partner.size() && partner[size_t(f)] == f;
        if (!identity)
            continue;
        auto blobA = a.readChunkBlob(i);
        auto blobB = b.readChunkBlob(*j);
        if (!blobA || !blobB) // read errors surface where the chunk is decoded
            continue;
        if (blobA->size() == blobB->size() && std::memcmp(blobA->data(), blobB->data(), blobA->size()) == 0) {
            skipA[i] = 1;
            skipB[*j] = 1;
        }
    }
}

} // namespace

Result<DivergeReport> diverge(const ReplayFile& a, const ReplayFile& b, const DivergeOptions& options)
{
    DivergeReport report;
    report.alignment = options.alignment;
    report.offset = options.offset;
    report.framesA = a.frameCount();
    report.framesB = b.frameCount();
    report.schemaDifferences = compareSchemas(a.schema(), b.schema());
    report.byName = options.forceByName || !sameLayout(a.schema(), b.schema());
    if (Status s = checkAlignment(a, b, options.alignment); !s)
        return s;
    const std::vector<FramePair> pairs = pairFrames(a, b, options.alignment, options.offset);
    if (pairs.empty())
        return report;

    DiffOptions diffOptions;
    diffOptions.tolerance = options.tolerance;
    diffOptions.ignore = options.ignore;
    diffOptions.maxChangesPerProperty = std::numeric_limits<uint32_t>::max(); // every element counts towards the deviation
    FrameDiff diff;
    std::vector<EntityResult> entities;
    // The deviation per (type, property), found by a key built in a reused buffer; stamps count
    // a property once per entity and once per pair. (A std::map keyed by a pair of strings and
    // two sets per entity cost more than the comparison itself on runs that differ everywhere.)
    struct DeviationSlot {
        PropertyDeviation dev;
        uint64_t lastEntity = 0, lastPair = 0;
    };
    std::vector<DeviationSlot> deviations;
    std::unordered_map<std::string, size_t> deviationOf;
    std::string key, property;
    uint64_t entitySerial = 0, pairSerial = 0;

    std::vector<char> skipA(a.chunks().size(), 0), skipB(b.chunks().size(), 0);
    if (!report.byName && options.skipIdenticalChunks)
        markIdenticalChunks(a, b, pairs, skipA, skipB);
    for (char s : skipA)
        report.identicalChunks += uint64_t(s);
    FrameSource sourceA(a, pairs.front().frameA, skipA, options.threads);
    FrameSource sourceB(b, pairs.front().frameB, skipB, options.threads);
    size_t reported = 0; // divergent pairs already handed to options.progress
    std::vector<UnreadablePairs> freshUnreadable; // unreadable pairs not yet handed to options.progress
    auto reportProgress = [&] {
        if (!options.progress)
            return;
        DivergeProgress progress;
        progress.pairsDone = report.pairsCompared + report.pairsUnreadable;
        progress.pairsTotal = pairs.size();
        progress.divergent = std::span(report.divergentPairs).subspan(reported);
        progress.unreadable = freshUnreadable;
        options.progress(progress);
        reported = report.divergentPairs.size();
        freshUnreadable.clear();
    };
    bool inUnreadableRun = false; // the previous pair was unreadable: the next one extends its run
    // The report's runs and the ones not yet posted grow alike (a posted run goes on in a new piece).
    auto extendRun = [&](std::vector<UnreadablePairs>& runs, const FramePair& pair, const std::string& why) {
        if (inUnreadableRun && !runs.empty()) {
            runs.back().last = pair;
            ++runs.back().pairs;
        } else {
            runs.push_back({pair, pair, 1, why});
        }
    };
    auto noteUnreadable = [&](const FramePair& pair, const std::string& why) {
        ++report.pairsUnreadable;
        extendRun(report.unreadable, pair, why);
        if (options.progress)
            extendRun(freshUnreadable, pair, report.unreadable.back().reason);
        inUnreadableRun = true;
    };
    const auto& chunksA = a.chunks();
    size_t chunkA = 0; // the chunk of A the current pair's frame is in (progress is reported when it changes)
    for (const FramePair& pair : pairs) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return Error{"cancelled", Errc::Superseded};
        size_t c = chunkA;
        while (c + 1 < chunksA.size() && pair.frameA >= chunksA[c + 1].startFrame)
            ++c;
        if (c != chunkA && report.pairsCompared + report.pairsUnreadable > 0)
            reportProgress();
        chunkA = c;
        if (c < skipA.size() && skipA[c]) { // identical chunk (markIdenticalChunks): this pair agrees
            ++report.pairsCompared;
            inUnreadableRun = false;
            continue;
        }
        auto ha = sourceA.frame(pair.frameA);
        if (!ha) {
            if (!options.skipUnreadable)
                return Error{ha.message()};
            noteUnreadable(pair, ha.message());
            continue;
        }
        auto hb = sourceB.frame(pair.frameB);
        if (!hb) {
            if (!options.skipUnreadable)
                return Error{hb.message()};
            noteUnreadable(pair, hb.message());
            continue;
        }
        inUnreadableRun = false;
        entities.clear();
        if (report.byName)
            compareByName(ha->view(), hb->view(), a.schema(), b.schema(), options, !report.firstDivergence, entities);
        else
            compareFast(*ha, *hb, a.schema(), diffOptions, diff, entities, !report.firstDivergence);
        diff.a = {}; // the diff's frame handles would keep a chunk alive past its last pair
        diff.b = {};
        ++report.pairsCompared;
        if (entities.empty())
            continue;

        PairDivergence pd{pair, uint32_t(entities.size()), 0};
        ++pairSerial;
        for (const EntityResult& e : entities) {
            ++entitySerial;
            for (const Difference& d : e.differences) {
                collapseIndexesInto(d.path, property);
                key.assign(e.type);
                key += '\0'; // in no type name
                key += property;
                auto [it, fresh] = deviationOf.try_emplace(key, deviations.size());
                if (fresh) {
                    DeviationSlot& slot = deviations.emplace_back();
                    slot.dev.type = e.type;
                    slot.dev.path = property;
                    slot.dev.at = pair;
                    slot.dev.bucket = e.bucket;
                    slot.dev.uniqueId = e.uniqueId;
                }
                DeviationSlot& slot = deviations[it->second];
                PropertyDeviation& dev = slot.dev;
                if (d.deviation && (!dev.numeric || *d.deviation > dev.maxDeviation)) {
                    dev.numeric = true;
                    dev.maxDeviation = *d.deviation;
                    dev.at = pair;
                    dev.bucket = e.bucket;
                    dev.uniqueId = e.uniqueId;
                }
                if (slot.lastEntity != entitySerial) { // once per entity
                    slot.lastEntity = entitySerial;
                    ++dev.pairs;
                    ++pd.properties;
                    if (slot.lastPair != pairSerial) { // and once per pair
                        slot.lastPair = pairSerial;
                        ++dev.framePairs;
                    }
                }
            }
        }
        report.divergentPairs.push_back(pd);

        if (!report.firstDivergence) {
            report.firstDivergence = pair;
            size_t listed = 0;
            const EntityLabels labelsA = EntityLabels::choose(a.schema()), labelsB = EntityLabels::choose(b.schema());
            for (const EntityResult& e : entities) {
                EntityDivergence ed{e.bucket, e.uniqueId, {}, e.type, e.status, {}};
                // Named as in A's frame; an entity only B has, as in B's.
                if (const ContainerView ca = findEntity(ha->view(), e.bucket, e.uniqueId); !ca.isNull())
                    ed.displayName = std::string(labelsA.label(ca));
                else if (const ContainerView cb = findEntity(hb->view(), e.bucket, e.uniqueId); !cb.isNull())
                    ed.displayName = std::string(labelsB.label(cb));
                for (const Difference& d : e.differences)
                    if (listed++ < options.maxFirstChanges)
                        ed.properties.push_back({d.path, d.a, d.b, d.deviation, d.aForReading, d.bForReading});
                report.firstEntities.push_back(std::move(ed));
            }
        }
    }
    reportProgress();
    // By type, then property: the report's order.
    std::sort(deviations.begin(), deviations.end(),
              [](const DeviationSlot& x, const DeviationSlot& y) { return std::tie(x.dev.type, x.dev.path) < std::tie(y.dev.type, y.dev.path); });
    for (DeviationSlot& slot : deviations)
        report.properties.push_back(std::move(slot.dev));
    return report;
}

Json divergeJson(const DivergeReport& r, const std::string& pathA, const std::string& pathB)
{
    Json j;
    j["a"] = pathA;
    j["b"] = pathB;
    j["frames_a"] = r.framesA;
    j["frames_b"] = r.framesB;
    j["align"] = alignmentName(r.alignment);
    j["offset"] = r.offset;
    j["compared_by"] = r.byName ? "name" : "layout";
    j["pairs_compared"] = r.pairsCompared;
    j["pairs_unreadable"] = r.pairsUnreadable;
    Json unreadable = Json::array();
    for (const UnreadablePairs& u : r.unreadable)
        unreadable.push_back(Json{{"first", Json{{"frame_a", u.first.frameA}, {"frame_b", u.first.frameB}}},
                                  {"last", Json{{"frame_a", u.last.frameA}, {"frame_b", u.last.frameB}}},
                                  {"pairs", u.pairs},
                                  {"reason", u.reason}});
    j["unreadable"] = std::move(unreadable);
    j["diverged"] = r.diverged();
    Json schema = Json::array();
    for (const SchemaDifference& d : r.schemaDifferences) {
        Json s{{"kind", schemaDifferenceKindName(d.kind)}, {"type", d.type}};
        if (!d.property.empty())
            s["property"] = d.property;
        if (!d.typeA.empty())
            s["type_a"] = d.typeA;
        if (!d.typeB.empty())
            s["type_b"] = d.typeB;
        schema.push_back(std::move(s));
    }
    j["schema_differences"] = std::move(schema);
    if (r.firstDivergence) {
        Json first{{"frame_a", r.firstDivergence->frameA}, {"frame_b", r.firstDivergence->frameB}};
        Json ents = Json::array();
        for (const EntityDivergence& e : r.firstEntities) {
            Json je{{"bucket", e.bucket},
                    {"unique_id", e.uniqueId},
                    {"display_name", e.displayName.empty() ? Json(nullptr) : Json(sanitizeUtf8(e.displayName))},
                    {"type", e.type},
                    {"status", entityStatusName(e.status)}};
            Json props = Json::array();
            for (const PropertyDivergence& p : e.properties) {
                Json jp{{"path", p.path}, {"a", p.a}, {"b", p.b}};
                if (p.deviation)
                    jp["deviation"] = *p.deviation;
                props.push_back(std::move(jp));
            }
            je["properties"] = std::move(props);
            ents.push_back(std::move(je));
        }
        first["entities"] = std::move(ents);
        j["first_divergence"] = std::move(first);
    } else {
        j["first_divergence"] = nullptr;
    }
    Json frames = Json::array();
    for (const PairDivergence& p : r.divergentPairs)
        frames.push_back(Json{{"frame_a", p.frames.frameA}, {"frame_b", p.frames.frameB}, {"entities", p.entities}, {"properties", p.properties}});
    j["divergent_frames"] = std::move(frames);
    Json props = Json::array();
    for (const PropertyDeviation& p : r.properties) {
        Json jp{{"type", p.type}, {"path", p.path}, {"frames", p.framePairs}, {"entity_frames", p.pairs}};
        if (p.numeric)
            jp["max_deviation"] = p.maxDeviation;
        jp["at"] = Json{{"frame_a", p.at.frameA}, {"frame_b", p.at.frameB}, {"bucket", p.bucket}, {"unique_id", p.uniqueId}};
        props.push_back(std::move(jp));
    }
    j["properties"] = std::move(props);
    return j;
}

std::string divergeText(const DivergeReport& r)
{
    std::ostringstream s;
    s << r.pairsCompared << " frame pairs compared (align " << alignmentName(r.alignment) << ", offset " << r.offset << ")\n";
    if (r.pairsUnreadable > 0) {
        s << r.pairsUnreadable << (r.pairsUnreadable == 1 ? " frame pair" : " frame pairs") << " not compared: unreadable\n";
        for (const UnreadablePairs& u : r.unreadable)
            s << "  frames " << u.first.frameA << "-" << u.last.frameA << " of A (" << u.pairs << (u.pairs == 1 ? " pair" : " pairs")
              << "): " << u.reason << '\n';
    }
    for (const SchemaDifference& d : r.schemaDifferences)
        s << "schema: " << schemaDifferenceKindName(d.kind) << ' ' << d.type << (d.property.empty() ? "" : "." + d.property)
          << (d.kind == SchemaDifference::Kind::PropertyRetyped ? " (" + d.typeA + " -> " + d.typeB + ")" : "") << '\n';
    if (!r.firstDivergence) {
        s << "no divergence\n";
        return s.str();
    }
    s << "first divergence: frame " << r.firstDivergence->frameA << " of A, frame " << r.firstDivergence->frameB << " of B\n";
    for (const EntityDivergence& e : r.firstEntities) {
        s << "  " << entityStatusName(e.status) << ' ' << (e.displayName.empty() ? "" : e.displayName + " · ") << e.bucket << ':' << e.uniqueId
          << " (" << e.type << ")\n";
        for (const PropertyDivergence& p : e.properties)
            s << "    " << p.path << ": " << p.a << " -> " << p.b << '\n';
    }
    s << r.divergentPairs.size() << " of " << r.pairsCompared << " frame pairs differ\n";
    for (const PropertyDeviation& p : r.properties) {
        s << "  " << p.type << '.' << p.path << ": " << p.framePairs << (p.framePairs == 1 ? " frame, " : " frames, ") << p.pairs
          << (p.pairs == 1 ? " entity-frame" : " entity-frames");
        if (p.numeric)
            s << ", max deviation " << p.maxDeviation;
        s << " at frame " << p.at.frameA << " (" << p.bucket << ':' << p.uniqueId << ")\n";
    }
    return s.str();
}

} // namespace vtx
