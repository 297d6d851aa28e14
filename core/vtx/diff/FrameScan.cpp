// SPDX-License-Identifier: MIT
#include "vtx/diff/FrameScan.hpp"

#include <algorithm>

namespace vtx {

namespace {

/// The one or two decoded chunks a scan needs at once (frame f and f ± 1 may straddle a
/// boundary): the least recently used is replaced. An undecodable chunk is reported once.
class ChunkWindow {
public:
    ChunkWindow(const ReplayFile& file, const FrameScanControl& control, FrameScanResult& result) : m_file(file), m_control(control), m_result(result)
    {
    }

    /// Frame f's view; null when its chunk cannot be decoded (or the frame fails verification).
    /// `loaded` is set when a chunk had to be fetched (the scan reports progress then).
    FrameView at(int32_t f, bool* loaded = nullptr)
    {
        const auto ci = m_file.chunkForFrame(f);
        if (!ci)
            return {};
        for (int s = 0; s < 2; ++s)
            if (m_slots[s] && m_slots[s]->index() == *ci) {
                m_lastUsed = s;
                return frameIn(*m_slots[s], f);
            }
        if (std::find(m_failed.begin(), m_failed.end(), *ci) != m_failed.end())
            return {};
        std::shared_ptr<const DecodedChunk> next;
        for (const auto& held : m_control.decoded)
            if (held && held->index() == *ci)
                next = held;
        if (!next) {
            auto d = m_file.decodeChunk(*ci);
            if (!d) {
                m_result.problems.push_back({Problem::Severity::Warning, d.message()});
                m_failed.push_back(*ci);
                return {};
            }
            next = std::move(*d);
        }
        if (loaded)
            *loaded = true;
        const int s = 1 - m_lastUsed;
        m_slots[s] = std::move(next);
        m_lastUsed = s;
        return frameIn(*m_slots[s], f);
    }

private:
    static FrameView frameIn(const DecodedChunk& c, int32_t f)
    {
        const int64_t local = int64_t(f) - c.startFrame();
        return local >= 0 && local < int64_t(c.frameCount()) ? c.frame(size_t(local)) : FrameView{};
    }
    const ReplayFile& m_file;
    const FrameScanControl& m_control;
    FrameScanResult& m_result;
    std::shared_ptr<const DecodedChunk> m_slots[2];
    int m_lastUsed = 1;
    std::vector<size_t> m_failed;
};

} // namespace

Result<FrameScanResult> scanFrames(const ReplayFile& file, const FrameScanRequest& req, const FrameScanControl& control)
{
    FrameScanResult result;
    const int32_t frames = file.frameCount();
    if (frames <= 0)
        return result;
    const bool conditionMode = req.mode == FrameScanRequest::Mode::ConditionBecomesTrue;
    if (conditionMode && !req.condition)
        return Error{"scan: an expression is required for this mode"};
    PropertyPath path;
    if (!conditionMode) {
        auto p = PropertyPath::parse(req.path);
        if (!p)
            return p.error();
        path = std::move(*p);
    }
    std::optional<query::Expression> expr = req.condition; // evaluation state is per scan
    const Schema& schema = file.schema();
    const FloatTolerance exact;
    ChunkWindow window(file, control, result);
    int32_t hint = -1;
    // What the scan compares between neighbouring frames: the property's value, or whether the
    // expression matches the frame. Absent (Value{}) when the frame cannot be read.
    struct Sample {
        bool readable = false;
        Value value;
        bool holds = false;
    };
    auto sample = [&](int32_t f, bool* loaded) {
        Sample s;
        const FrameView view = window.at(f, loaded);
        if (view.isNull())
            return s;
        s.readable = true;
        if (!conditionMode) {
            s.value = path.evaluate(findEntity(view, req.entity.bucket, req.entity.uniqueId, &hint), schema);
        } else {
            // changed() needs frame f − 1 whichever way the scan runs.
            expr->setFrame(view, expr->usesPrevious() && f > 0 ? window.at(f - 1) : FrameView{});
            if (expr->usesPrevious() && f > 0)
                window.at(f); // keep f's chunk the most recently used
            s.holds = expr->matchesFrame();
        }
        return s;
    };
    // Frames are visited in scan order; `previous` holds the sample of the frame visited before.
    // Forward, frame f is compared with f − 1 (a change "at f"); backward with f + 1, and a
    // hit is reported at the later frame of the pair, so F3 and Shift+F3 land on the same
    // change points. Unreadable frames break the comparison chain.
    const int32_t step = req.forward ? 1 : -1;
    const int32_t start = std::clamp(req.from, 0, frames - 1);
    const int64_t total = req.forward ? frames - 1 - start : start;
    Sample previous;
    int64_t lastReport = -1;
    for (int32_t f = start; f >= 0 && f < frames; f += step) {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            return result;
        }
        bool loaded = false;
        const Sample s = sample(f, &loaded);
        if (loaded && control.progress && result.framesScanned != lastReport) {
            control.progress(result.framesScanned, total);
            lastReport = result.framesScanned;
        }
        if (s.readable && previous.readable) {
            const int32_t later = req.forward ? f : f + 1;
            const Sample& older = req.forward ? previous : s;
            const Sample& newer = req.forward ? s : previous;
            const bool hit = conditionMode ? newer.holds && !older.holds : !valuesEqual(older.value, newer.value, exact);
            if (hit && later != start) {
                result.frame = later;
                return result;
            }
        }
        previous = s;
        if (f != start)
            ++result.framesScanned;
    }
    if (control.progress)
        control.progress(total, total);
    return result;
}

} // namespace vtx
