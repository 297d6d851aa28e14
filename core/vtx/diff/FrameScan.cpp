#include "vtx/diff/FrameScan.hpp"

#include <charconv>
#include <cmath>

namespace vtx {

namespace {
std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}
} // namespace

Result<Condition> Condition::parse(std::string_view text)
{
    Condition c;
    c.m_text = std::string(trim(text));
    // The operator is the first one outside brackets (map keys may contain anything).
    size_t at = std::string_view::npos, len = 0;
    int depth = 0;
    for (size_t i = 0; i < text.size() && at == std::string_view::npos; ++i) {
        const char ch = text[i];
        if (ch == '[')
            ++depth;
        else if (ch == ']')
            depth = std::max(0, depth - 1);
        else if (depth == 0 && (ch == '<' || ch == '>' || ch == '=' || ch == '!')) {
            at = i;
            len = i + 1 < text.size() && text[i + 1] == '=' ? 2 : 1;
        }
    }
    if (at == std::string_view::npos)
        return Error{"condition \"" + c.m_text + "\": expected PATH OP VALUE with OP one of == != < <= > >="};
    const std::string_view op = text.substr(at, len);
    if (op == "==") c.m_op = Op::Equal;
    else if (op == "!=") c.m_op = Op::NotEqual;
    else if (op == "<") c.m_op = Op::Less;
    else if (op == "<=") c.m_op = Op::LessEqual;
    else if (op == ">") c.m_op = Op::Greater;
    else if (op == ">=") c.m_op = Op::GreaterEqual;
    else
        return Error{"condition \"" + c.m_text + "\": unknown operator '" + std::string(op) + "'"};
    auto path = PropertyPath::parse(trim(text.substr(0, at)));
    if (!path)
        return Error{"condition \"" + c.m_text + "\": " + path.message()};
    c.m_path = std::move(*path);
    std::string_view lit = trim(text.substr(at + len));
    if (lit.empty())
        return Error{"condition \"" + c.m_text + "\": missing value after '" + std::string(op) + "'"};
    double number = 0;
    auto [ptr, ec] = std::from_chars(lit.data(), lit.data() + lit.size(), number);
    if (ec == std::errc() && ptr == lit.data() + lit.size()) {
        c.m_kind = Literal::Number;
        c.m_number = number;
    } else if (lit == "true" || lit == "false") {
        c.m_kind = Literal::Bool;
        c.m_number = lit == "true" ? 1 : 0;
    } else {
        if (lit.size() >= 2 && lit.front() == '"' && lit.back() == '"')
            lit = lit.substr(1, lit.size() - 2);
        c.m_kind = Literal::String;
        c.m_string = std::string(lit);
    }
    return c;
}

bool Condition::holds(const Value& v) const
{
    auto compare = [&](auto x, auto y) {
        switch (m_op) {
        case Op::Equal: return x == y;
        case Op::NotEqual: return x != y;
        case Op::Less: return x < y;
        case Op::LessEqual: return x <= y;
        case Op::Greater: return x > y;
        case Op::GreaterEqual: return x >= y;
        }
        return false;
    };
    switch (m_kind) {
    case Literal::Number:
    case Literal::Bool:
        if (!v.isNumber() || std::isnan(v.number))
            return false;
        return compare(v.number, m_number);
    case Literal::String:
        if (v.kind != Value::Kind::String)
            return false;
        return compare(v.text, std::string_view(m_string));
    }
    return false;
}


Result<FrameScanResult> scanFrames(const ReplayFile& file, const FrameScanRequest& req, const FrameScanControl& control)
{
    FrameScanResult result;
    const int32_t frames = file.frameCount();
    if (frames <= 0)
        return result;
    const bool conditionMode = req.mode == FrameScanRequest::Mode::ConditionBecomesTrue;
    if (conditionMode && !req.condition)
        return Error{"scan: a condition is required for this mode"};
    PropertyPath path;
    if (conditionMode) {
        path = req.condition->path();
    } else {
        auto p = PropertyPath::parse(req.path);
        if (!p)
            return p.error();
        path = std::move(*p);
    }
    const Schema& schema = file.schema();
    const FloatTolerance exact;
    int32_t hint = -1;
    auto valueAt = [&](FrameView f) { return path.evaluate(findEntity(f, req.entity.bucket, req.entity.uniqueId, &hint), schema); };
    // Frames are visited in scan order; `previous` holds the value of the frame visited before.
    // Forward, frame f is compared with f − 1 (a change "at f"); backward with f + 1, and a
    // hit is reported at the later frame of the pair, so F3 and Shift+F3 land on the same
    // change points.
    const int32_t step = req.forward ? 1 : -1;
    const int32_t start = std::clamp(req.from, 0, frames - 1);
    const int64_t total = req.forward ? frames - 1 - start : start;
    std::optional<Value> previous;
    std::shared_ptr<const DecodedChunk> chunk;
    // The chunk holding `previous`'s strings must outlive the comparison with the next frame.
    std::shared_ptr<const DecodedChunk> previousChunk;
    int32_t f = start;
    int64_t lastReport = -1;
    while (f >= 0 && f < frames) {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            return result;
        }
        if (!chunk || f < chunk->startFrame() || f >= chunk->startFrame() + int32_t(chunk->frameCount())) {
            auto ci = file.chunkForFrame(f);
            std::shared_ptr<const DecodedChunk> next;
            for (const auto& held : control.decoded)
                if (ci && held && held->index() == *ci)
                    next = held;
            if (ci && !next) {
                auto d = file.decodeChunk(*ci);
                if (d)
                    next = *d;
                else
                    result.problems.push_back({Problem::Severity::Warning, d.message()});
            }
            if (!next) { // unreadable: its frames are skipped and break the comparison chain
                previous.reset();
                const int32_t skipTo = ci ? (req.forward ? file.chunks()[*ci].endFrame + 1 : file.chunks()[*ci].startFrame - 1) : f + step;
                result.framesScanned += std::abs(skipTo - f);
                f = skipTo;
                continue;
            }
            previousChunk = chunk;
            chunk = std::move(next);
            if (control.progress && result.framesScanned != lastReport) {
                control.progress(result.framesScanned, total);
                lastReport = result.framesScanned;
            }
        }
        const Value v = valueAt(chunk->frame(size_t(f - chunk->startFrame())));
        if (previous) {
            const int32_t later = req.forward ? f : f + 1;
            const Value& older = req.forward ? *previous : v;
            const Value& newer = req.forward ? v : *previous;
            const bool hit = conditionMode ? req.condition->holds(newer) && !req.condition->holds(older)
                                           : !valuesEqual(older, newer, exact);
            if (hit && later != start) {
                result.frame = later;
                return result;
            }
        }
        previous = v;
        previousChunk.reset(); // `previous` now views `chunk`
        if (f != start)
            ++result.framesScanned;
        f += step;
    }
    if (control.progress)
        control.progress(total, total);
    return result;
}

} // namespace vtx
