// SPDX-License-Identifier: MIT
#include "vtx/export/InfoText.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/export/JsonExport.hpp"

#include <algorithm>
#include <ctime>
#include <sstream>
#include <vector>

namespace vtx {
namespace {

std::string sizeText(uint64_t bytes)
{
    std::ostringstream s;
    s.precision(3);
    if (bytes >= 1'000'000)
        s << double(bytes) / 1e6 << " MB";
    else if (bytes >= 1'000)
        s << double(bytes) / 1e3 << " kB";
    else
        s << bytes << " bytes";
    return s.str();
}

/// Seconds since 1970 as "2026-11-23 10:50:23 UTC"; empty for 0 (not recorded).
std::string utcText(int64_t seconds)
{
    if (seconds <= 0)
        return {};
    const std::time_t t = seconds;
    std::tm tm{};
    if (!gmtime_r(&t, &tm))
        return {};
    char buf[32];
    return std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm) ? std::string(buf) : std::string();
}

std::string plural(size_t n, const char* one, const char* many)
{
    return groupDigits(std::to_string(n)) + ' ' + (n == 1 ? one : many);
}

} // namespace

std::string infoText(const ReplayFile& file)
{
    const Json j = infoJson(file);
    const Json& h = j["header"];
    std::ostringstream s;
    s << j["file"].get<std::string>() << ": " << sizeText(j["file_size"].get<uint64_t>()) << ", " << j["backend"].get<std::string>() << " ("
      << j["magic"].get<std::string>() << "), format " << h["version"]["format_major"].get<int>() << '.' << h["version"]["format_minor"].get<int>()
      << '\n';
    const std::string name = h["replay_name"].get<std::string>();
    s << "  replay     " << (name.empty() ? "(no name)" : name) << ", uuid " << h["replay_uuid"].get<std::string>() << '\n';
    if (const std::string utc = utcText(h["recorded_utc_timestamp"].get<int64_t>()); !utc.empty())
        s << "  recorded   " << utc << '\n';
    s << "  data       " << h["data_identifier"].get<std::string>() << ' ' << h["data_version_string"].get<std::string>() << '\n';
    const size_t chunks = j["chunks"].size();
    s << "  frames     " << plural(size_t(j["total_frames"].get<int64_t>()), "frame", "frames") << " in " << plural(chunks, "chunk", "chunks")
      << ", ";
    // A recovered file lost the footer's duration, times, gaps, segments and events: unknown, not 0.
    const bool lost = j.contains("recovery");
    if (j["duration_seconds"].is_null())
        s << "game time unknown\n";
    else
        s << formatFloat(j["duration_seconds"].get<float>()) << " s of game time\n";
    const Json& times = j["times"];
    if (lost)
        s << "  times      unknown (lost with the footer)\n";
    else
        s << "  times      game time for " << plural(times["game_time_len"].get<size_t>(), "frame", "frames") << ", UTC for "
          << groupDigits(std::to_string(times["created_utc_len"].get<size_t>())) << "; " << plural(times["gaps"].size(), "gap", "gaps") << ", "
          << plural(times["segments"].size(), "segment", "segments") << '\n';
    const Json& schema = j["schema"];
    s << "  schema     version " << schema["version"].get<std::string>() << ", buckets";
    for (const auto& b : schema["buckets"])
        s << ' ' << b.get<std::string>();
    s << '\n';
    s << "  types      ";
    size_t column = 13;
    bool first = true;
    for (const auto& t : schema["structs"]) {
        const std::string item = t["name"].get<std::string>() + " (" + std::to_string(t["fields"].size()) + ")";
        if (!first && column + item.size() + 2 > 100) {
            s << ",\n             ";
            column = 13;
        } else if (!first) {
            s << ", ";
            column += 2;
        }
        s << item;
        column += item.size();
        first = false;
    }
    s << (first ? "none\n" : "\n");
    if (lost)
        s << "  events     unknown (lost with the footer)";
    else
        s << "  events     " << plural(j["events"].size(), "event", "events");
    if (!j["events"].empty())
        s << " (first: " << j["events"][0]["event_type"].get<std::string>() << " \"" << j["events"][0]["label"].get<std::string>() << "\")";
    s << '\n';
    // Stored-hash verdicts grouped: "sdk_v0.2.0: Player, Weapon; spec: ...".
    const Json& trust = j["hash_trust"];
    std::vector<std::pair<std::string, std::string>> groups; // verdict -> types, in first-seen order
    for (const auto& t : trust["types"]) {
        const std::string v = t["verdict"].get<std::string>();
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == v; });
        if (it == groups.end())
            groups.emplace_back(v, t["type"].get<std::string>());
        else
            it->second += ", " + t["type"].get<std::string>();
    }
    s << "  hashes     from " << plural(trust["sampled_chunks"].get<size_t>(), "sampled chunk", "sampled chunks");
    for (const auto& [verdict, types] : groups)
        s << "\n             " << verdict << ": " << types;
    s << '\n';
    if (j.contains("recovery"))
        s << "  RECOVERED  " << j["recovery"]["summary"].get<std::string>() << '\n';
    if (j["problems"].empty()) {
        s << "  problems   none\n";
    } else {
        s << "  problems   " << j["problems"].size() << '\n';
        for (const auto& p : j["problems"])
            s << "             " << p.get<std::string>() << '\n';
    }
    s << "(JSON with --json: chunks, schema fields, times, events)\n";
    return s.str();
}

} // namespace vtx
