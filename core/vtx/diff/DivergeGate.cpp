// SPDX-License-Identifier: MIT
#include "vtx/diff/DivergeGate.hpp"

#include "vtx/base/NumberText.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>

namespace vtx {
namespace {

RunError errorOf(const Error& e, const char* stage)
{
    return {errcName(e.code), stage, e.message};
}

/// Opens and compares one run; never throws past here (a worker must not die with a run).
GateRun compareRun(const ReplayFile& baseline, const std::string& path, const DivergeOptions& options)
{
    GateRun run;
    run.path = path;
    const auto started = std::chrono::steady_clock::now();
    auto finish = [&](GateRun& r) {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return std::move(r);
    };
    try {
        auto file = ReplayFile::open(path);
        if (!file) {
            run.error = errorOf(file.error(), "open");
            return finish(run);
        }
        if ((*file)->isRecovered()) {
            run.error = RunError{"recovered", "open", path + ": " + (*file)->recovery().summary()};
            return finish(run);
        }
        auto report = diverge(baseline, **file, options);
        if (!report) {
            run.error = errorOf(report.error(), "compare");
            return finish(run);
        }
        run.divergentPairs = report->divergentPairs.size();
        report->divergentPairs = {}; // the per-frame list is the pair form's; the gate keeps counts
        run.lengthDiffers = options.alignment == Alignment::Frame && options.offset == 0 && report->framesA != report->framesB;
        run.verdict = report->diverged() || run.lengthDiffers ? RunVerdict::Diverges : RunVerdict::Agrees;
        run.report = std::move(*report);
    } catch (const std::exception& e) {
        run.error = RunError{"failed", "compare", path + ": internal error: " + e.what()};
    }
    return finish(run);
}

std::string numberText(double v)
{
    return readableDouble(v);
}

/// XML 1.0 text: markup characters escaped; control characters XML cannot hold become U+FFFD.
std::string xmlEscape(std::string_view s)
{
    const std::string clean = sanitizeUtf8(s);
    std::string out;
    out.reserve(clean.size());
    for (char c : clean) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += "\xEF\xBF\xBD";
            else
                out += c;
        }
    }
    return out;
}

/// Seconds as xs:decimal (the schema's type for `time`): fixed point, never an exponent.
std::string secondsText(double seconds)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", std::max(0.0, seconds));
    return buf;
}

std::string baseName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

/// "Player s1mple (0:p1)", or "Player 0:p1" without a name.
std::string entityText(const EntityDivergence& e)
{
    std::string s = e.type.empty() ? std::string("entity") : e.type;
    if (!e.displayName.empty())
        return s + ' ' + e.displayName + " (" + std::to_string(e.bucket) + ':' + e.uniqueId + ')';
    return s + ' ' + std::to_string(e.bucket) + ':' + e.uniqueId;
}

std::string propertyText(const PropertyDivergence& p)
{
    std::string s = p.path + ' ' + (p.a.empty() ? "(absent)" : p.a) + " -> " + (p.b.empty() ? "(absent)" : p.b);
    if (p.deviation)
        s += ", deviation " + numberText(*p.deviation);
    return s;
}

std::string toleranceText(const FloatTolerance& t)
{
    std::string s = "epsilon " + numberText(t.absolute);
    if (t.relative > 0)
        s += ", relative " + numberText(t.relative);
    return s;
}

std::string lengthText(const GateRun& run)
{
    return "the run has " + std::to_string(run.report->framesB) + " frames, the baseline " + std::to_string(run.report->framesA);
}

std::string errorText(const RunError& e)
{
    return e.stage + ": " + e.code + ": " + e.message;
}

} // namespace

const char* runVerdictName(RunVerdict v)
{
    switch (v) {
    case RunVerdict::Agrees: return "agrees";
    case RunVerdict::Diverges: return "diverges";
    case RunVerdict::Error: return "error";
    }
    return "error";
}

const char* errcName(Errc code)
{
    switch (code) {
    case Errc::Failed: return "failed";
    case Errc::Superseded: return "superseded";
    case Errc::OutOfRange: return "out_of_range";
    }
    return "failed";
}

std::vector<GateRun> runGate(const ReplayFile& baseline, const std::vector<std::string>& runs, const GateOptions& options,
                             const std::function<void(size_t, const GateRun&)>& done)
{
    std::vector<GateRun> results(runs.size());
    if (runs.empty())
        return results;
    const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
    const size_t workers = std::min<size_t>(jobs, runs.size());
    DivergeOptions diverge = options.diverge;
    diverge.progress = nullptr;
    diverge.cancel = nullptr;
    // A worker is one core; with two or more cores per worker, each comparison decodes ahead.
    diverge.threads = jobs >= 2 * workers ? kScanThreads : 1;

    std::atomic<size_t> next{0};
    std::mutex mutex; // guards `finished` and `emitted`, and serializes `done`
    std::vector<char> finished(runs.size(), 0);
    size_t emitted = 0;
    auto work = [&] {
        for (size_t i = next++; i < runs.size(); i = next++) {
            GateRun r = compareRun(baseline, runs[i], diverge);
            std::lock_guard lock(mutex);
            results[i] = std::move(r);
            finished[i] = 1;
            while (emitted < runs.size() && finished[emitted]) {
                if (done)
                    done(emitted, results[emitted]);
                ++emitted;
            }
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(workers - 1);
    for (size_t w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work(); // the calling thread is the first worker
    for (std::thread& t : threads)
        t.join();
    return results;
}

std::vector<GateRun> baselineFailed(const std::vector<std::string>& runs, const RunError& error)
{
    std::vector<GateRun> out;
    for (const std::string& path : runs) {
        GateRun r;
        r.path = path;
        r.error = error;
        out.push_back(std::move(r));
    }
    return out;
}

int gateExitCode(const std::vector<GateRun>& runs)
{
    int code = 0;
    for (const GateRun& r : runs)
        code = std::max(code, r.verdict == RunVerdict::Error ? 2 : r.verdict == RunVerdict::Diverges ? 1 : 0);
    return code;
}

std::string firstDivergenceLine(const GateRun& run)
{
    if (run.verdict != RunVerdict::Diverges || !run.report)
        return {};
    const DivergeReport& r = *run.report;
    if (!r.firstDivergence)
        return lengthText(run);
    std::string s = "frame " + std::to_string(r.firstDivergence->frameB) + " (baseline frame " + std::to_string(r.firstDivergence->frameA) + "): ";
    if (r.firstEntities.empty())
        return s + "differs";
    // The first entity with a differing property names it; else the first entity present on one side only.
    const EntityDivergence* pick = &r.firstEntities.front();
    for (const EntityDivergence& e : r.firstEntities)
        if (!e.properties.empty()) {
            pick = &e;
            break;
        }
    s += entityText(*pick);
    if (pick->status == EntityStatus::Added)
        return s + " only in the run";
    if (pick->status == EntityStatus::Removed)
        return s + " missing from the run";
    if (pick->properties.empty())
        return s + " differs";
    return s + ' ' + propertyText(pick->properties.front());
}

std::string gateJunit(const std::vector<GateRun>& runs, const std::string& baselinePath, const GateOptions& options)
{
    size_t failures = 0, errors = 0;
    double total = 0;
    for (const GateRun& r : runs) {
        failures += r.verdict == RunVerdict::Diverges;
        errors += r.verdict == RunVerdict::Error;
        total += r.seconds;
    }
    const std::string tolerance = toleranceText(options.diverge.tolerance);
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuite name=\"vtxscope-diverge\" tests=\"" << runs.size() << "\" failures=\"" << failures << "\" errors=\"" << errors
      << "\" skipped=\"0\" time=\"" << secondsText(total) << "\">\n";
    for (const GateRun& r : runs) {
        x << "  <testcase classname=\"vtxscope.diverge\" name=\"" << xmlEscape(r.path) << "\" file=\"" << xmlEscape(r.path) << "\" time=\""
          << secondsText(r.seconds) << "\"";
        if (r.verdict == RunVerdict::Agrees) {
            x << "/>\n";
            continue;
        }
        x << ">\n";
        if (r.verdict == RunVerdict::Error) {
            const RunError& e = *r.error;
            const std::string message = errorText(e);
            x << "    <error type=\"" << xmlEscape(e.code) << "\" message=\"" << xmlEscape(message) << "\">" << xmlEscape(message)
              << "\ncode: " << xmlEscape(e.code) << "\nstage: " << xmlEscape(e.stage) << "\nbaseline: " << xmlEscape(baselinePath) << "</error>\n";
        } else {
            const DivergeReport& rep = *r.report;
            const std::string message = "diverges from " + baseName(baselinePath) + " at " + firstDivergenceLine(r) + " (" + tolerance + ")";
            std::string detail = message;
            // What differs in the first divergent frame, up to kDetailLines lines (the JSON has the rest).
            constexpr size_t kDetailLines = 40;
            size_t lines = 0, omitted = 0;
            for (const EntityDivergence& e : rep.firstEntities) {
                if (lines++ < kDetailLines)
                    detail += "\n  " + std::string(entityStatusName(e.status)) + ' ' + entityText(e);
                else
                    ++omitted;
                for (const PropertyDivergence& p : e.properties)
                    if (lines++ < kDetailLines)
                        detail += "\n    " + propertyText(p);
                    else
                        ++omitted;
            }
            if (omitted)
                detail += "\n  (" + std::to_string(omitted) + " more lines of the first divergent frame: --json lists them)";
            if (r.lengthDiffers)
                detail += "\n" + lengthText(r);
            detail += "\n" + std::to_string(r.divergentPairs) + " of " + std::to_string(rep.pairsCompared) + " frame pairs differ";
            for (const PropertyDeviation& p : rep.properties) {
                detail +=
                    "\n  " + p.type + '.' + p.path + ": " + std::to_string(p.framePairs) + " frames, " + std::to_string(p.pairs) + " entity-frames";
                if (p.numeric)
                    detail += ", max deviation " + numberText(p.maxDeviation) + " at frame " + std::to_string(p.at.frameB);
            }
            x << "    <failure type=\"divergence\" message=\"" << xmlEscape(message) << "\">" << xmlEscape(detail) << "</failure>\n";
        }
        x << "  </testcase>\n";
    }
    x << "</testsuite>\n";
    return x.str();
}

Json gateJson(const std::vector<GateRun>& runs, const std::string& baselinePath, const GateOptions& options)
{
    const DivergeOptions& o = options.diverge;
    Json j;
    j["baseline"] = sanitizeUtf8(baselinePath);
    j["align"] = alignmentName(o.alignment);
    j["offset"] = o.offset;
    j["epsilon"] = o.tolerance.absolute;
    j["relative"] = o.tolerance.relative;
    Json ignore = Json::array();
    for (const std::string& n : o.ignore)
        ignore.push_back(sanitizeUtf8(n));
    j["ignore"] = std::move(ignore);
    Json list = Json::array();
    size_t agree = 0, diverge = 0, error = 0;
    for (const GateRun& r : runs) {
        agree += r.verdict == RunVerdict::Agrees;
        diverge += r.verdict == RunVerdict::Diverges;
        error += r.verdict == RunVerdict::Error;
        Json jr;
        jr["file"] = sanitizeUtf8(r.path);
        jr["verdict"] = runVerdictName(r.verdict);
        if (r.error) {
            jr["error"] = Json{{"code", r.error->code}, {"stage", r.error->stage}, {"message", sanitizeUtf8(r.error->message)}};
            list.push_back(std::move(jr));
            continue;
        }
        // The pair form's report with the run as B, minus its per-frame list (a count here).
        Json rep = divergeJson(*r.report, baselinePath, r.path);
        jr["frames"] = r.report->framesB;
        jr["baseline_frames"] = r.report->framesA;
        jr["length_differs"] = r.lengthDiffers;
        jr["pairs_compared"] = r.report->pairsCompared;
        jr["divergent_frames"] = r.divergentPairs;
        jr["compared_by"] = rep["compared_by"];
        jr["first_divergence"] = rep["first_divergence"];
        jr["properties"] = rep["properties"];
        jr["schema_differences"] = rep["schema_differences"];
        list.push_back(std::move(jr));
    }
    j["runs"] = std::move(list);
    j["summary"] = Json{{"runs", runs.size()}, {"agree", agree}, {"diverge", diverge}, {"error", error}};
    j["exit_code"] = gateExitCode(runs);
    return j;
}

std::string gateRunText(const GateRun& r)
{
    std::ostringstream s;
    switch (r.verdict) {
    case RunVerdict::Agrees: s << "agrees    " << r.path << " (" << r.report->pairsCompared << " frame pairs)\n"; break;
    case RunVerdict::Diverges:
        s << "DIVERGES  " << r.path << ": " << firstDivergenceLine(r) << '\n';
        s << "          " << r.divergentPairs << " of " << r.report->pairsCompared << " frame pairs differ";
        if (r.lengthDiffers)
            s << "; " << lengthText(r);
        s << '\n';
        break;
    case RunVerdict::Error: s << "ERROR     " << r.path << ": " << errorText(*r.error) << '\n'; break;
    }
    return s.str();
}

std::string gateSummaryText(const std::vector<GateRun>& runs)
{
    size_t agree = 0, diverge = 0, error = 0;
    for (const GateRun& r : runs) {
        agree += r.verdict == RunVerdict::Agrees;
        diverge += r.verdict == RunVerdict::Diverges;
        error += r.verdict == RunVerdict::Error;
    }
    return std::to_string(runs.size()) + (runs.size() == 1 ? " run: " : " runs: ") + std::to_string(agree) + " agree, " + std::to_string(diverge) +
        " diverge, " + std::to_string(error) + (error == 1 ? " error" : " errors") + " (exit " + std::to_string(gateExitCode(runs)) + ")\n";
}

} // namespace vtx
