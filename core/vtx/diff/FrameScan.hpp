#pragma once
// Seek by change: from a frame, find the next (or previous) frame where one entity's property
// changes, or where a condition on it ("Health < 20", "IsAlive == false", "Name != \"Delta\"")
// becomes true. Chunks are decoded here, in frame order, without touching the playhead's cache;
// the scan is cancellable and reports progress, so a GUI runs it on a worker thread.

#include "vtx/PropertyPath.hpp"
#include "vtx/ReplayFile.hpp"
#include "vtx/diff/FrameDiff.hpp"

#include <atomic>
#include <functional>
#include <optional>

namespace vtx {

class Condition {
public:
    enum class Op { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual };
    /// "PATH OP LITERAL"; LITERAL is a number, true/false, or a string (quoted or bare).
    static Result<Condition> parse(std::string_view text);
    const PropertyPath& path() const { return m_path; }
    Op op() const { return m_op; }
    const std::string& text() const { return m_text; }
    /// False when the value is absent or cannot be compared with the literal.
    bool holds(const Value& v) const;

private:
    std::string m_text;
    PropertyPath m_path;
    Op m_op = Op::Equal;
    enum class Literal { Number, Bool, String } m_kind = Literal::Number;
    double m_number = 0;
    std::string m_string;
};

struct FrameScanRequest {
    enum class Mode {
        NextChange,           ///< the value differs from the previous frame's (changes at frame f)
        ConditionBecomesTrue, ///< the condition holds at f and not at f − 1
    };
    Mode mode = Mode::NextChange;
    EntityRef entity;
    std::string path;              ///< for NextChange
    std::optional<Condition> condition; ///< for ConditionBecomesTrue
    int32_t from = 0;              ///< the scan starts after (or before) this frame
    bool forward = true;
};

struct FrameScanControl {
    const std::atomic<bool>* cancel = nullptr;
    /// Frames scanned so far and the most the scan can visit; called about once per chunk.
    std::function<void(int64_t done, int64_t total)> progress;
    /// Chunks the caller already holds decoded (the one on screen): used instead of decoding
    /// them again.
    std::vector<std::shared_ptr<const DecodedChunk>> decoded;
};

struct FrameScanResult {
    std::optional<int32_t> frame; ///< nullopt: not found before the end (or start) of the replay
    bool cancelled = false;
    int64_t framesScanned = 0;
    std::vector<Problem> problems; ///< chunks that could not be decoded (skipped)
};

Result<FrameScanResult> scanFrames(const ReplayFile& file, const FrameScanRequest& request, const FrameScanControl& control = {});

} // namespace vtx
