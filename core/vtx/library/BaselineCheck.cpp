// SPDX-License-Identifier: MIT
#include "vtx/library/BaselineCheck.hpp"

namespace vtx {

RunVerdict runVerdict(const Result<DivergeReport>& report)
{
    RunVerdict v;
    if (!report) {
        v.kind = RunVerdict::Kind::Failed;
        v.error = report.message();
        v.errorCode = report.code();
        return v;
    }
    const DivergeReport& r = *report;
    v.baselineFrames = r.framesA;
    v.runFrames = r.framesB;
    v.pairsCompared = r.pairsCompared;
    v.divergentPairs = r.divergentPairs.size();
    if (!r.firstDivergence) {
        v.kind = RunVerdict::Kind::Matches;
        return v;
    }
    v.kind = RunVerdict::Kind::Diverges;
    v.first = r.firstDivergence;
    v.entitiesInFirst = r.firstEntities.size();
    if (r.firstEntities.empty())
        return v;
    const EntityDivergence& e = r.firstEntities.front();
    v.bucket = e.bucket;
    v.uniqueId = e.uniqueId;
    v.displayName = e.displayName;
    v.entityType = e.type;
    v.status = e.status;
    if (!e.properties.empty()) {
        const PropertyDivergence& p = e.properties.front();
        v.property = p.path;
        v.baselineValue = p.a;
        v.runValue = p.b;
        v.baselineValueForReading = p.aForReading;
        v.runValueForReading = p.bForReading;
        v.deviation = p.deviation;
    }
    return v;
}

RunVerdict checkRun(const ReplayFile& baseline, const std::string& runPath, const DivergeOptions& options, const SourceOpener& open)
{
    auto source = open ? open(runPath) : openFileSource(runPath);
    if (!source)
        return runVerdict(source.error());
    auto run = ReplayFile::open(std::move(*source));
    if (!run)
        return runVerdict(run.error());
    // The same rules as `vtxscope-cli diverge --baseline` (DivergeGate): a run without a usable
    // footer is an error (it is not the recording it claims to be), and runs paired frame by
    // frame from the start diverge when their lengths differ, even if every pair matches: the
    // library said "matches" for a truncated copy the gate failed.
    if ((*run)->isRecovered())
        return runVerdict(Error{runPath + ": no usable footer, a recovered recording: " + (*run)->recovery().summary()});
    RunVerdict v = runVerdict(diverge(baseline, **run, options));
    if (v.kind != RunVerdict::Kind::Failed && options.alignment == Alignment::Frame && options.offset == 0 && v.baselineFrames != v.runFrames) {
        v.lengthDiffers = true;
        v.kind = RunVerdict::Kind::Diverges;
    }
    return v;
}

} // namespace vtx
