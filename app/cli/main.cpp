// SPDX-License-Identifier: MIT
// vtxscope-cli: headless access to VTX replays, JSON on stdout. Exit code 0 on success,
// 1 on failure with a one-line error on stderr, 2 on bad usage.

#include "vtx/diff/DiffExport.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/diff/DivergeGate.hpp"
#include "vtx/export/InfoText.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/integrity/Validate.hpp"
#include "vtx/query/QueryScan.hpp"
#include "vtxgen/Generator.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

const char* kUsage = R"(usage: vtxscope-cli [-v] COMMAND ...

commands:
  info FILE [--json]        header, schema summary, seek table, times, events, per-type hash trust
                            (from the first, middle and last chunk), problems; a summary for a
                            person on a terminal, JSON with --json or when stdout is not a terminal
  frame FILE N              every entity of frame N with named property values; N is a frame
                            number or "last"
  diff FILE A B [--json] [--epsilon E] [--relative R] [--ignore NAME]... [--only BUCKET:ID]... [--no-hash]
                            what changed from frame A to frame B (entities matched by unique id);
                            A and B are frame numbers or "last"; text report, or JSON with --json
  diverge A B [--align frame|time] [--offset N] [--epsilon E] [--relative R] [--ignore NAME]... [--json]
            [--skip-unreadable]
                            where two runs diverge: frames paired by index or by game time (B's last
                            frame at or before A's time), B shifted by N frames or N game-time ticks;
                            types and properties matched by name; first divergent frame, per-frame
                            counts, per property the largest deviation (in frames and in
                            entity-frames); exit 0 when the runs agree within tolerance, 1 when
                            they diverge, 2 on error. A frame that cannot be read is an error;
                            with --skip-unreadable its pairs are listed (pairs_unreadable,
                            unreadable) and the rest compared, and the exit code is 2 when any
                            pair was unreadable (the report is printed all the same)
  diverge --baseline GOLD RUN... [--jobs N] [--junit FILE] [--json] [same options as above]
                            regression gate: every RUN compared with GOLD, N runs at once (default:
                            the hardware threads; one core each), results in the order of the RUN
                            arguments; a line per run (JSON with --json); --junit writes a JUnit
                            XML report (a test case per run: a diverging run is a failure naming
                            the first divergent frame, entity, property, both values and the
                            deviation; an unreadable run is an error with its code). A run with
                            another frame count diverges (frame alignment, no offset); a run
                            without a usable footer (recovered) is an error. Exit 2 when GOLD or
                            any run cannot be read or on bad usage, else 1 when any run diverges,
                            else 0 (an error decides over a divergence; the reports list both)
  query FILE EXPR [--from A] [--to B] [--json]
                            frames where the expression holds and, per frame, the entities it
                            matches (README "Query language"); A and B are frame numbers or "last";
                            a bad expression prints its column and what was expected (JSON with
                            --json) and exits 2
  validate FILE             strict-mode checks over every chunk (content hashes, offsets, ...); known
                            writer quirks are "info" lines, not problems; per-type counts keyed by
                            type name (type_ids maps names to ids); exit 1 when a problem is found
  generate KIND OUT [--backend fbs|proto] [--seed N] [--frames N] [--fps F] [--level L] [--hashes spec|sdk] [--blobs on|off]
                            write a synthetic replay; KIND is demo, cs2 or rl; --fps: frames per
                            second of game time, 0.001 to 1e6 (default: the kind's rate; 0.5 makes
                            450 frames last 15 minutes); --hashes: content_hash as the spec says or
                            as the SDK v0.2.0 writer does (default sdk for cs2); --blobs: bone
                            payloads by the SDK's blob convention (cs2 only, default on)

options:
  -v, --verbose             debug logging on stderr
  -h, --help                this text
)";

int fail(const std::string& message)
{
    std::fprintf(stderr, "vtxscope-cli: %s\n", message.c_str());
    return 1;
}

int usage(const std::string& message)
{
    std::fprintf(stderr, "vtxscope-cli: %s\n%s", message.c_str(), kUsage);
    return 2;
}

/// "bad option --epsilon -1"
int badOption(const std::string& option, const std::string& value)
{
    std::string message = "bad option ";
    message += option;
    message += ' ';
    message += value;
    return usage(message);
}

/// A frame argument the file does not have: its range, or that it has none (a recovered file can
/// hold no frame at all, and "0..-1" is no range).
int frameOutOfRange(const std::string& path, const std::string& frame, int32_t frameCount)
{
    if (frameCount <= 0)
        return fail(path + ": the file has no frames (frame " + frame + " asked for)");
    return fail(path + ": frame " + frame + " is out of range (0.." + std::to_string(frameCount - 1) + " or last)");
}

/// "1 frame", "2400 frames"
std::string countText(int64_t n, const char* one, const char* many)
{
    return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

bool parseInt(const std::string& s, long long& out)
{
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size();
}

void print(const vtx::Json& j)
{
    std::cout << vtx::jsonText(j, 1) << '\n';
}

/// Opens a replay; a recovered one (no usable footer) says so on stderr, whatever the command.
vtx::Result<std::shared_ptr<vtx::ReplayFile>> openReplay(const std::string& path)
{
    auto file = vtx::ReplayFile::open(path);
    if (file && (*file)->isRecovered())
        std::fprintf(stderr, "vtxscope-cli: warning: %s: %s\n", path.c_str(), (*file)->recovery().summary().c_str());
    return file;
}

int cmdInfo(const std::vector<std::string>& args)
{
    std::vector<std::string> files;
    bool json = false;
    for (const std::string& a : args) {
        if (a == "--json")
            json = true;
        else if (a.starts_with("--"))
            return usage("bad option " + a);
        else
            files.push_back(a);
    }
    if (files.size() != 1)
        return usage("info takes exactly one FILE");
    auto file = openReplay(files[0]);
    if (!file)
        return fail(file.message());
    (*file)->gatherHashEvidence(); // first, middle and last chunk: the stored-hash verdicts
    // A person at a terminal reads the summary; a pipe or a file (scripts, tests) gets JSON.
    if (json || !isatty(STDOUT_FILENO))
        print(vtx::infoJson(**file));
    else
        std::cout << vtx::infoText(**file);
    return 0;
}

int cmdFrame(const std::vector<std::string>& args)
{
    if (args.size() != 2)
        return usage("frame takes FILE and a frame number or \"last\"");
    long long n = 0;
    if (args[1] != "last" && !parseInt(args[1], n))
        return usage("frame takes FILE and a frame number or \"last\"");
    auto file = openReplay(args[0]);
    if (!file)
        return fail(file.message());
    if (args[1] == "last")
        n = (*file)->frameCount() - 1;
    if (n < 0 || n >= (*file)->frameCount())
        return frameOutOfRange(args[0], args[1], (*file)->frameCount());
    // The whole chunk is read, so damage anywhere in it is said (integrity.chunk_damage) and a
    // frame it made unreadable is the error, as `validate` finds it.
    auto frame = (*file)->frameCheckingChunk(static_cast<int32_t>(n));
    if (!frame)
        return fail(frame.message());
    print(vtx::frameJson(**file, *frame));
    return 0;
}

bool parseDouble(const std::string& s, double& out)
{
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size() && out >= 0;
}

int cmdDiff(const std::vector<std::string>& args)
{
    if (args.size() < 3)
        return usage("diff takes FILE, frame A and frame B");
    auto file = openReplay(args[0]);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    auto frameArg = [&](const std::string& s, int32_t& out) {
        long long n = 0;
        if (s == "last")
            n = f.frameCount() - 1;
        else if (!parseInt(s, n))
            return false;
        if (n < 0 || n >= f.frameCount())
            return false;
        out = static_cast<int32_t>(n);
        return true;
    };
    int32_t a = 0, b = 0;
    for (int k = 1; k <= 2; ++k)
        if (!frameArg(args[size_t(k)], k == 1 ? a : b))
            return frameOutOfRange(args[0], args[size_t(k)], f.frameCount());
    vtx::DiffOptions opt;
    bool json = false;
    for (size_t i = 3; i < args.size(); ++i) {
        const std::string& o = args[i];
        if (o == "--json") {
            json = true;
            continue;
        }
        if (o == "--no-hash") {
            opt.useContentHash = false;
            continue;
        }
        if (i + 1 >= args.size())
            return usage("option " + o + " needs a value");
        const std::string& val = args[++i];
        if (o == "--epsilon" && parseDouble(val, opt.tolerance.absolute))
            continue;
        if (o == "--relative" && parseDouble(val, opt.tolerance.relative))
            continue;
        if (o == "--ignore") {
            opt.ignore.push_back(val);
            continue;
        }
        if (o == "--only") {
            const size_t colon = val.find(':');
            if (colon == std::string::npos)
                return usage("--only takes BUCKET:UNIQUE_ID");
            const std::string bucket = val.substr(0, colon);
            long long bi = -1;
            if (!parseInt(bucket, bi)) {
                const auto& names = f.schema().bucketNames();
                auto it = std::find(names.begin(), names.end(), bucket);
                if (it == names.end())
                    return fail(args[0] + ": no bucket named '" + bucket + "'");
                bi = it - names.begin();
            }
            opt.only.push_back({static_cast<uint32_t>(bi), val.substr(colon + 1)});
            continue;
        }
        return badOption(o, val);
    }
    auto fa = f.frame(a);
    if (!fa)
        return fail(fa.message());
    auto fb = f.frame(b);
    if (!fb)
        return fail(fb.message());
    const vtx::FrameDiff d = vtx::diffFrames(*fa, *fb, f.schema(), opt);
    if (json)
        print(vtx::diffJson(d, f.schema(), opt));
    else
        std::cout << vtx::diffText(d, f.schema());
    return 0;
}

/// `diverge --baseline GOLD RUN...`: the regression gate (vtx/diff/DivergeGate.hpp).
int runDivergeGate(const std::string& baselinePath, const std::vector<std::string>& runs, const vtx::GateOptions& options,
                   const std::string& junitPath, bool json)
{
    std::vector<vtx::GateRun> results;
    auto baseline = openReplay(baselinePath);
    if (!baseline || (*baseline)->isRecovered()) {
        const vtx::RunError e = baseline ? vtx::RunError{"recovered", "baseline", baselinePath + ": " + (*baseline)->recovery().summary()}
                                         : vtx::RunError{vtx::errcName(baseline.code()), "baseline", baseline.message()};
        std::fprintf(stderr, "vtxscope-cli: baseline: %s\n", e.message.c_str());
        results = vtx::baselineFailed(runs, e);
    } else {
        // Printed as each run's result becomes final, in the order of the arguments.
        results = vtx::runGate(**baseline, runs, options, [json](size_t, const vtx::GateRun& run) {
            if (!json)
                std::cout << vtx::gateRunText(run) << std::flush;
        });
    }
    if (!junitPath.empty()) {
        std::ofstream out(junitPath, std::ios::binary | std::ios::trunc);
        out << vtx::gateJunit(results, baselinePath, options);
        if (!out.flush()) {
            std::fprintf(stderr, "vtxscope-cli: %s: cannot write the JUnit report\n", junitPath.c_str());
            return 2;
        }
    }
    if (json)
        print(vtx::gateJson(results, baselinePath, options));
    else
        std::cout << vtx::gateSummaryText(results);
    return vtx::gateExitCode(results);
}

int cmdDiverge(const std::vector<std::string>& args)
{
    // Exit 1 means "the runs diverge", so every failure here is 2 (a CI check must tell them apart).
    auto error = [](const std::string& message) {
        std::fprintf(stderr, "vtxscope-cli: %s\n", message.c_str());
        return 2;
    };
    vtx::GateOptions gate;
    vtx::DivergeOptions& opt = gate.diverge;
    bool json = false;
    std::optional<std::string> baseline;
    std::string junit;
    bool jobsGiven = false;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& o = args[i];
        if (!o.starts_with("--")) {
            files.push_back(o);
            continue;
        }
        if (o == "--json") {
            json = true;
            continue;
        }
        if (o == "--skip-unreadable") {
            opt.skipUnreadable = true;
            continue;
        }
        if (i + 1 >= args.size())
            return usage("option " + o + " needs a value");
        const std::string& val = args[++i];
        long long n = 0;
        if (o == "--align" && (val == "frame" || val == "time"))
            opt.alignment = val == "frame" ? vtx::Alignment::Frame : vtx::Alignment::Time;
        else if (o == "--offset" && parseInt(val, n))
            opt.offset = n;
        else if ((o == "--epsilon" && parseDouble(val, opt.tolerance.absolute)) || (o == "--relative" && parseDouble(val, opt.tolerance.relative)))
            continue;
        else if (o == "--ignore")
            opt.ignore.push_back(val);
        else if (o == "--baseline" && !baseline)
            baseline = val;
        else if (o == "--jobs" && parseInt(val, n) && n >= 1 && n <= 1024) {
            gate.jobs = unsigned(n);
            jobsGiven = true;
        } else if (o == "--junit" && !val.empty())
            junit = val;
        else
            return badOption(o, val);
    }
    if (baseline && opt.skipUnreadable)
        return usage("--skip-unreadable belongs to diverge A B (the gate reports an unreadable run as an error)");
    if (baseline) {
        if (files.empty())
            return usage("diverge --baseline GOLD takes one or more RUN files");
        return runDivergeGate(*baseline, files, gate, junit, json);
    }
    if (jobsGiven || !junit.empty())
        return usage("--jobs and --junit belong to diverge --baseline GOLD RUN...");
    if (files.size() != 2)
        return usage("diverge takes two files A and B (or --baseline GOLD RUN...)");
    // Opened (and, in diverge(), decoded) side by side.
    vtx::Result<std::shared_ptr<vtx::ReplayFile>> fileB = vtx::Error{};
    std::thread openB([&] { fileB = openReplay(files[1]); });
    auto fileA = openReplay(files[0]);
    openB.join();
    if (!fileA)
        return error(fileA.message());
    if (!fileB)
        return error(fileB.message());
    auto report = vtx::diverge(**fileA, **fileB, opt);
    if (!report)
        return error(report.message());
    if (json)
        print(vtx::divergeJson(*report, files[0], files[1]));
    else
        std::cout << vtx::divergeText(*report);
    // "Agree" (0) only when every pair was compared: unreadable pairs decide, as in the gate.
    if (report->pairsUnreadable > 0)
        return 2;
    return report->diverged() ? 1 : 0;
}

int cmdQuery(const std::vector<std::string>& args)
{
    if (args.size() < 2)
        return usage("query takes FILE and an expression");
    bool json = false;
    std::string fromArg, toArg;
    for (size_t i = 2; i < args.size(); ++i) {
        if (args[i] == "--json") {
            json = true;
        } else if ((args[i] == "--from" || args[i] == "--to") && i + 1 < args.size()) {
            (args[i] == "--from" ? fromArg : toArg) = args[i + 1];
            ++i;
        } else {
            return usage("bad option " + args[i]);
        }
    }
    auto file = openReplay(args[0]);
    if (!file)
        return fail(file.message());
    const vtx::ReplayFile& f = **file;
    if (f.frameCount() <= 0) // no range to scan: "0 of 0 frames match" would read as "no match"
        return fail(args[0] + ": the file has no frames");
    vtx::query::QueryScanOptions opt;
    opt.to = f.frameCount() - 1;
    for (auto [text, out] : {std::pair{&fromArg, &opt.from}, std::pair{&toArg, &opt.to}}) {
        if (text->empty())
            continue;
        long long n = 0;
        if (*text == "last")
            n = f.frameCount() - 1;
        else if (!parseInt(*text, n))
            return usage("--from and --to take a frame number or \"last\"");
        if (n < 0 || n >= f.frameCount())
            return frameOutOfRange(args[0], *text, f.frameCount());
        *out = static_cast<int32_t>(n);
    }
    if (opt.from > opt.to)
        return usage("--from " + std::to_string(opt.from) + " is after --to " + std::to_string(opt.to));
    vtx::query::ExpressionError error;
    auto expr = vtx::query::Expression::compile(args[1], f.schema(), &error);
    if (!expr) {
        // Exit 2 like bad usage: the expression is part of the command line.
        if (json)
            print(vtx::query::expressionErrorJson(args[1], error));
        std::fprintf(stderr, "vtxscope-cli: expression: %s\n  %s\n  %s^\n", error.text().c_str(), args[1].c_str(),
                     std::string(error.column, ' ').c_str());
        return 2;
    }
    auto result = vtx::query::scanQuery(f, *expr, opt);
    if (!result)
        return fail(result.message());
    const auto& schema = f.schema();
    auto typeName = [&](int32_t t) {
        const vtx::StructDef* s = schema.structById(t);
        return s ? s->name : "type " + std::to_string(t);
    };
    if (json) {
        print(vtx::query::queryJson(f, *expr, opt, *result));
    } else {
        for (const auto& m : result->frames) {
            std::cout << "frame " << m.frame;
            for (size_t i = 0; i < m.entities.size(); ++i)
                std::cout << (i ? ", " : ": ") << typeName(m.entities[i].typeId) << ' ' << m.entities[i].uniqueId;
            std::cout << '\n';
        }
        // Of the frames evaluated; the ones that could not be read are counted apart.
        const auto matching = int64_t(result->frames.size());
        std::cout << matching << " of " << countText(result->framesScanned, "frame", "frames") << (matching == 1 ? " matches" : " match");
        if (expr->perEntity())
            std::cout << " (" << countText(result->entityMatches, "entity match", "entity matches") << ')';
        if (result->framesUnreadable > 0)
            std::cout << "; " << countText(result->framesUnreadable, "frame", "frames") << " could not be read";
        std::cout << '\n';
        for (const auto& p : result->problems)
            std::cout << "problem: " << p.message << '\n';
    }
    return 0;
}

int cmdValidate(const std::vector<std::string>& args)
{
    if (args.size() != 1)
        return usage("validate takes exactly one FILE");
    auto file = openReplay(args[0]);
    if (!file)
        return fail(file.message());
    const vtx::ValidationReport report = vtx::validate(**file);
    print(vtx::validationJson(report, (*file)->schema()));
    return report.problems.empty() ? 0 : 1;
}

int cmdGenerate(const std::vector<std::string>& args)
{
    if (args.size() < 2)
        return usage("generate takes KIND and OUT");
    vtxgen::GeneratorOptions opt;
    auto kind = vtxgen::kindFromName(args[0]);
    if (!kind)
        return usage("unknown replay kind '" + args[0] + "' (demo, cs2, rl)");
    opt.kind = *kind;
    for (size_t i = 2; i < args.size(); ++i) {
        long long v = 0;
        const std::string& a = args[i];
        if (i + 1 >= args.size())
            return usage("option " + a + " needs a value");
        const std::string& val = args[++i];
        if (a == "--backend") {
            if (val == "fbs" || val == "flatbuffers")
                opt.backend = vtx::Backend::FlatBuffers;
            else if (val == "proto" || val == "protobuf")
                opt.backend = vtx::Backend::Protobuf;
            else
                return usage("unknown backend '" + val + "'");
        } else if (a == "--seed" && parseInt(val, v)) {
            opt.seed = static_cast<uint64_t>(v);
        } else if (a == "--frames" && parseInt(val, v) && v > 0) {
            opt.frames = static_cast<int32_t>(v);
        } else if (double fps = 0; a == "--fps" && parseDouble(val, fps) && fps >= 1e-3 && fps <= 1e6) {
            opt.fps = fps; // the generator checks the range too; here a bad rate is a usage error
        } else if (a == "--level" && parseInt(val, v)) {
            opt.zstdLevel = static_cast<int>(v);
        } else if (a == "--hashes" && (val == "spec" || val == "sdk")) {
            opt.hashVariant = val == "sdk" ? vtx::HashVariant::SdkTail : vtx::HashVariant::Spec;
        } else if (a == "--blobs" && (val == "on" || val == "off")) {
            opt.blobPayloads = val == "on";
        } else {
            return badOption(a, val);
        }
    }
    auto stats = vtxgen::generateReplay(args[1], opt);
    if (!stats)
        return fail(stats.message());
    print(vtx::Json{{"file", args[1]}, {"frames", stats->frames}, {"chunks", stats->chunks}, {"bytes", stats->bytes}});
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    auto logger = spdlog::stderr_color_mt("vtx");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::warn);
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-v" || a == "--verbose")
            spdlog::set_level(spdlog::level::debug);
        else if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return 0;
        } else
            args.push_back(std::move(a));
    }
    if (args.empty())
        return usage("no command given");
    const std::string cmd = args.front();
    args.erase(args.begin());
    try {
        if (cmd == "info")
            return cmdInfo(args);
        if (cmd == "frame")
            return cmdFrame(args);
        if (cmd == "validate")
            return cmdValidate(args);
        if (cmd == "query")
            return cmdQuery(args);
        if (cmd == "diff")
            return cmdDiff(args);
        if (cmd == "diverge")
            return cmdDiverge(args);
        if (cmd == "generate")
            return cmdGenerate(args);
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what());
    }
    return usage("unknown command '" + cmd + "'");
}
