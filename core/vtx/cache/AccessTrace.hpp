// SPDX-License-Identifier: MIT
#pragma once
// Access traces: one request per line, "<time in ms> <frame>", '#' starts a comment. Recorded
// from real viewer sessions (TraceRecorder) or generated; replayed by vtxscope-bench.

#include "vtx/base/Status.hpp"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace vtx {

struct TraceEntry {
    double timeMs = 0;
    int32_t frame = 0;
    bool operator==(const TraceEntry&) const = default;
};

struct AccessTrace {
    std::string name;
    std::vector<std::string> comments;
    std::vector<TraceEntry> entries;

    static Result<AccessTrace> parse(const std::string& text, const std::string& name = "trace");
    static Result<AccessTrace> load(const std::string& path);
    std::string toText() const;
    Status save(const std::string& path) const;
};

/// Records requests with their time since the recorder started; thread-safe.
class TraceRecorder {
public:
    TraceRecorder();
    void record(int32_t frame);
    AccessTrace trace(const std::string& name = "recorded") const;

private:
    std::chrono::steady_clock::time_point m_start;
    mutable std::mutex m_mutex;
    std::vector<TraceEntry> m_entries;
};

} // namespace vtx
