// SPDX-License-Identifier: MIT
#include "vtx/query/QueryScan.hpp"
#include "vtx/base/StreamIn.hpp"
#include "vtx/model/EntityLabels.hpp"

#include <algorithm>

namespace vtx::query {

Result<QueryScanResult> scanQuery(const ReplayFile& file, const Expression& expression, const QueryScanOptions& options)
{
    QueryScanResult result;
    const int32_t frames = file.frameCount();
    const int32_t to = options.to < 0 ? frames - 1 : options.to;
    if (frames <= 0)
        return result;
    if (options.from < 0 || options.from >= frames || to >= frames || to < options.from)
        return Error{"frames " + std::to_string(options.from) + ".." + std::to_string(to) + " are not a range of this file (0.." +
                         std::to_string(frames - 1) + ")",
                     Errc::OutOfRange};
    Expression e = expression; // evaluation state (path caches, any/all) is per scan
    const EntityLabels labels = options.listEntities ? EntityLabels::choose(file.schema()) : EntityLabels{};
    const int64_t total = int64_t(to) - options.from + 1;
    // The previous frame stays readable across a chunk boundary: its chunk is kept alive.
    std::shared_ptr<const DecodedChunk> chunk, previousChunk;
    FrameView previous;
    // changed() at `from` compares with the frame before it: that frame is read, not reported.
    int32_t f = e.usesPrevious() && options.from > 0 ? options.from - 1 : options.from;
    // The chunks the loop below will ask for, in its order, less the ones the caller holds.
    std::vector<size_t> order;
    if (const auto firstChunk = file.chunkForFrame(f), lastChunk = file.chunkForFrame(to); firstChunk && lastChunk)
        for (size_t ci : ChunkPipeline::chunkRange(file, *firstChunk, *lastChunk))
            if (std::none_of(options.decoded.begin(), options.decoded.end(), [ci](const auto& held) { return held && held->index() == ci; }))
                order.push_back(ci);
    ChunkPipelineOptions po;
    po.threads = options.threads;
    po.cancel = options.cancel;
    ChunkPipeline pipeline(file, std::move(order), po);
    // Frames [first, last] not read, and why: said, and those in the range (not the warm-up
    // frame before it) counted and listed.
    auto skipFrames = [&](int32_t first, int32_t last, std::string why) {
        first = std::max(first, options.from);
        if (first <= last) {
            result.framesUnreadable += last + 1 - first;
            result.unreadable.push_back({first, last, why});
        }
        result.problems.push_back({Problem::Severity::Warning, std::move(why)});
    };
    while (f <= to) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            return result;
        }
        const int32_t iterationStart = f;
        const auto ci = file.chunkForFrame(f);
        if (!ci) {
            skipFrames(f, f, "frame " + std::to_string(f) + " is in no chunk");
            previous = {};
            ++f;
            continue;
        }
        // The chunk before the current one is let go before the next is taken: only the current
        // one's last frame can be `previous` now. Holding three chunks beside the engine's two
        // ahead overflowed the large-block recycler, and every chunk's blocks were mapped and
        // zeroed afresh (a 2-thread query of a CS2 file cost 1.3x the CPU of the full read).
        previousChunk.reset();
        std::shared_ptr<const DecodedChunk> next;
        for (const auto& held : options.decoded)
            if (held && held->index() == *ci)
                next = held;
        if (!next) {
            auto d = pipeline.take(*ci);
            if (!d) {
                // Its frames are skipped, and changed() knows nothing about the frame after them.
                const int32_t skipTo = std::max(f + 1, std::min(to + 1, file.chunks()[*ci].endFrame + 1));
                skipFrames(f, skipTo - 1, d.message());
                f = skipTo;
                previous = {};
                continue;
            }
            next = std::move(*d);
        }
        previousChunk = std::move(chunk);
        chunk = std::move(next);
        const int32_t first = chunk->startFrame();
        const int32_t last = std::min(to, first + int32_t(chunk->frameCount()) - 1);
        for (; f <= last; ++f) {
            const FrameView view = chunk->frame(size_t(f - first));
            if (f < options.from) { // the warm-up frame
                previous = view;
                continue;
            }
            if (view.isNull()) {
                skipFrames(f, f, "frame " + std::to_string(f) + ": " + chunk->frameStatus(size_t(f - first)).message());
                previous = {};
                continue;
            }
            ++result.framesScanned;
            // Cold when a worker decoded it a chunk ago: one stream instead of the evaluation's
            // misses one at a time (as walkReplay does).
            streamIn(view.bytes());
            e.setFrame(view, previous);
            if (e.perEntity()) {
                FrameMatch* m = nullptr;
                e.forEachMatch([&](uint32_t bucket, size_t index) {
                    if (!m) {
                        result.frames.push_back({f, {}});
                        m = &result.frames.back();
                    }
                    ++result.entityMatches;
                    if (options.listEntities)
                        m->entities.push_back({bucket, std::string(view.bucket(bucket).uniqueId(index)), view.bucket(bucket).entity(index).typeId(),
                                               std::string(labels.label(view.bucket(bucket).entity(index)))});
                });
            } else if (e.matchesFrame()) {
                result.frames.push_back({f, {}});
            }
            previous = view;
            previousChunk.reset(); // `previous` is in this chunk from here on
        }
        // The index may claim frames the chunk does not hold: they are skipped, said, and never
        // revisited (the loop always moves past this chunk).
        const int32_t indexEnd = std::min(to, std::max(file.chunks()[*ci].endFrame, first - 1));
        if (f <= indexEnd) {
            skipFrames(f, indexEnd, "chunk " + std::to_string(*ci) + " holds no frames " + std::to_string(f) + ".." + std::to_string(indexEnd));
            f = indexEnd + 1;
            previous = {};
        }
        if (f == iterationStart) { // nothing moved: the index and the chunk disagree about where it is
            skipFrames(f, f, "chunk " + std::to_string(*ci) + " does not hold frame " + std::to_string(f));
            ++f;
            previous = {};
        }
        if (options.progress)
            options.progress(result.framesScanned + result.framesUnreadable, total);
    }
    return result;
}

Json queryJson(const ReplayFile& file, const Expression& expression, const QueryScanOptions& options, const QueryScanResult& result)
{
    const Schema& schema = file.schema();
    auto typeName = [&](int32_t t) {
        const StructDef* s = schema.structById(t);
        return s ? s->name : "type " + std::to_string(t);
    };
    Json frames = Json::array();
    for (const auto& m : result.frames) {
        Json entities = Json::array();
        for (const auto& e : m.entities)
            entities.push_back({{"bucket", schema.bucketName(e.bucket)},
                                {"id", e.uniqueId},
                                {"display_name", e.label.empty() ? Json(nullptr) : Json(sanitizeUtf8(e.label))},
                                {"type", typeName(e.typeId)}});
        Json jf{{"frame", m.frame}};
        if (expression.perEntity())
            jf["entities"] = std::move(entities);
        frames.push_back(std::move(jf));
    }
    Json problems = Json::array();
    for (const auto& p : result.problems)
        problems.push_back(p.message);
    return Json{{"expression", expression.text()},
                {"from", options.from},
                {"to", options.to},
                {"per_entity", expression.perEntity()},
                {"frames_scanned", result.framesScanned},
                {"frames_unreadable", result.framesUnreadable},
                {"matching_frames", result.frames.size()},
                {"matching_entities", result.entityMatches},
                {"frames", std::move(frames)},
                {"problems", std::move(problems)}};
}

Json expressionErrorJson(std::string_view text, const ExpressionError& error)
{
    Json e{{"column", error.column}, {"message", error.message}};
    if (!error.suggestion.empty())
        e["did_you_mean"] = error.suggestion;
    return Json{{"expression", std::string(text)}, {"error", std::move(e)}};
}

} // namespace vtx::query
