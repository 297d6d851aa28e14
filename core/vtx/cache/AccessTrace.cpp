// SPDX-License-Identifier: MIT
#include "vtx/cache/AccessTrace.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace vtx {

Result<AccessTrace> AccessTrace::parse(const std::string& text, const std::string& name)
{
    AccessTrace t;
    t.name = name;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    double last = -1;
    while (std::getline(in, line)) {
        ++lineNo;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos)
            continue;
        if (line[first] == '#') {
            t.comments.push_back(line.substr(first + 1));
            continue;
        }
        double ms = 0;
        long long frame = 0;
        char extra = 0;
        if (std::sscanf(line.c_str(), "%lf %lld %c", &ms, &frame, &extra) != 2 || ms < 0 || frame < 0 || frame > INT32_MAX)
            // NOLINTNEXTLINE(performance-inefficient-string-concatenation): an error ends the loop
            return Error{name + ":" + std::to_string(lineNo) + ": expected \"<time ms> <frame>\", got \"" + line + "\""};
        if (ms < last)
            return Error{name + ":" + std::to_string(lineNo) + ": time goes backwards"};
        last = ms;
        t.entries.push_back({ms, int32_t(frame)});
    }
    return t;
}

Result<AccessTrace> AccessTrace::load(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        return Error{"cannot read trace " + path};
    std::stringstream ss;
    ss << in.rdbuf();
    const auto slash = path.find_last_of('/');
    std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    if (name.size() > 6 && name.ends_with(".trace"))
        name.resize(name.size() - 6);
    return parse(ss.str(), name);
}

std::string AccessTrace::toText() const
{
    std::string out;
    for (const auto& c : comments)
        out += "#" + c + "\n";
    char buf[64];
    for (const auto& e : entries) {
        std::snprintf(buf, sizeof buf, "%.3f %d\n", e.timeMs, e.frame);
        out += buf;
    }
    return out;
}

Status AccessTrace::save(const std::string& path) const
{
    std::ofstream out(path);
    out << toText();
    if (!out)
        return Error{"cannot write trace " + path};
    return {};
}

TraceRecorder::TraceRecorder() : m_start(std::chrono::steady_clock::now()) { }

void TraceRecorder::record(int32_t frame)
{
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
    std::lock_guard lock(m_mutex);
    m_entries.push_back({ms, frame});
}

AccessTrace TraceRecorder::trace(const std::string& name) const
{
    std::lock_guard lock(m_mutex);
    AccessTrace t;
    t.name = name;
    t.comments.push_back(" recorded by vtxscope: <time ms> <frame>");
    t.entries = m_entries;
    return t;
}

} // namespace vtx
