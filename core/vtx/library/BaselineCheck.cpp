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
    v.entityType = e.type;
    v.status = e.status;
    if (!e.properties.empty()) {
        const PropertyDivergence& p = e.properties.front();
        v.property = p.path;
        v.baselineValue = p.a;
        v.runValue = p.b;
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
    return runVerdict(diverge(baseline, **run, options));
}

} // namespace vtx
