// SPDX-License-Identifier: MIT
#pragma once
// The regression gate: many runs compared with one baseline (diverge()), several at once, and
// each run's verdict — agrees, diverges, cannot be read — handed out in the order the runs were
// given, whatever order they finish in; then the reports a CI system reads (JUnit XML, JSON,
// text). `vtxscope-cli diverge --baseline GOLD RUN...` is this plus argument parsing.
//
// Threads and memory: `jobs` workers each compare one run at a time. The baseline is opened once
// and shared read-only by every worker (ReplayFile is immutable after open and decodes
// concurrently; its decoded chunks are not shared: workers are at different frames). A worker
// decodes both files' chunks on its own thread, one chunk per file alive at a time, so `jobs`
// workers keep about `jobs` cores busy and hold at most 2 x jobs decoded chunks; only when there
// are at least two cores per worker (more jobs than runs) does each comparison decode ahead on
// threads of its own (DivergeOptions::threads, three chunks per file). A finished run keeps
// its counts, first divergence and per-property deviations, not its per-frame list, so memory
// does not grow with the length of the runs.

#include "vtx/diff/Diverge.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace vtx {

enum class RunVerdict { Agrees, Diverges, Error };
const char* runVerdictName(RunVerdict v); ///< "agrees", "diverges", "error"

/// Why a run (or the baseline) could not be compared.
struct RunError {
    /// The core's error code (`errcName`: "failed", "out_of_range", "superseded"), or "recovered":
    /// the file opened in recovery mode (no usable footer: a recording that stopped or is still
    /// being written), which a gate must not take for a complete run.
    std::string code;
    std::string stage; ///< "baseline" (the baseline could not be read), "open" or "compare"
    std::string message; ///< names the file and, where known, the chunk, offset or frame
};

struct GateRun {
    std::string path; ///< as given
    RunVerdict verdict = RunVerdict::Error;
    /// Compared: the report without its per-frame list (divergentPairs is emptied; its size is
    /// `divergentPairs` below).
    std::optional<DivergeReport> report;
    uint64_t divergentPairs = 0;
    /// Frame alignment without an offset: the run and the baseline have different frame counts
    /// (a run that stopped early diverges even when every frame it has agrees).
    bool lengthDiffers = false;
    std::optional<RunError> error;
    double seconds = 0; ///< wall time of this run's comparison (open included)
};

struct GateOptions {
    DivergeOptions diverge; ///< tolerance, alignment, offset, ignored names (progress and cancel unused)
    unsigned jobs = 0; ///< runs compared at once; 0: the hardware threads
};

const char* errcName(Errc code);

/// Compares every run with `baseline`. `done(i, run)` is called once per run in the order of
/// `runs` (run i only after runs 0..i-1), never two calls at once, from whichever worker
/// completes the sequence: a caller can print results as they become final.
std::vector<GateRun> runGate(const ReplayFile& baseline, const std::vector<std::string>& runs, const GateOptions& options,
                             const std::function<void(size_t index, const GateRun& run)>& done = {});

/// Every run an error of the baseline's (it could not be opened or is incomplete).
std::vector<GateRun> baselineFailed(const std::vector<std::string>& runs, const RunError& error);

/// 2 when any run could not be read, else 1 when any run diverges, else 0: an unreadable run
/// decides the exit code over a diverging one (the gate cannot say the set agrees), while the
/// reports still list every divergence.
int gateExitCode(const std::vector<GateRun>& runs);

/// JUnit XML (the Jenkins / GitLab / Ant form, python/tests/junit.xsd): one <testsuite>, one
/// <testcase> per run in the order given; a diverging run holds a <failure> naming the first
/// divergent frame, the entity (display name and id), the property, both values and the
/// deviation; a run that cannot be read holds an <error> with the code and context.
std::string gateJunit(const std::vector<GateRun>& runs, const std::string& baselinePath, const GateOptions& options);
/// The gate as JSON (`--json`): options, one object per run (no timings: the same input gives the
/// same document), a summary and the exit code.
Json gateJson(const std::vector<GateRun>& runs, const std::string& baselinePath, const GateOptions& options);
/// One run for a person: a verdict line, then (diverging) the first divergence's properties.
std::string gateRunText(const GateRun& run);
/// The closing line: how many runs agree, diverge and failed.
std::string gateSummaryText(const std::vector<GateRun>& runs);
/// The first divergence in one line: "frame 30 (baseline frame 30): Player s1mple (0:p1) Health
/// 91.5 -> 91, deviation 0.5". Empty when the run did not diverge.
std::string firstDivergenceLine(const GateRun& run);

} // namespace vtx
