// SPDX-License-Identifier: MIT
#pragma once
// Strict-mode validation of a whole file (spec §8.4 SHOULD list): decodes every chunk and checks
// what the reader does not check on its hot path. Findings are warnings: the file stays usable.

#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/integrity/HashTrust.hpp"
#include "vtx/scan/ChunkPipeline.hpp"

#include <functional>
#include <map>

namespace vtx {

struct ValidationReport {
    size_t chunksChecked = 0;
    size_t chunksFailed = 0;
    int64_t framesChecked = 0;
    int64_t entities = 0;
    size_t containersHashed = 0;
    size_t hashMismatches = 0; ///< stored hashes matching neither the spec's nor the SDK's variant
    /// Per type id, how every container's stored hash matched (spec / SDK v0.2.0 / both).
    std::map<int32_t, HashEvidence> hashVariants;
    std::map<int32_t, int64_t> entitiesPerType;
    size_t distinctUniqueIds = 0;
    /// XXH3-64 over every frame, bucket and entity: unique_id, 0x00, stored hash (u64 LE).
    uint64_t framesDigest = 0;
    std::vector<Problem> problems; ///< open problems first; at most maxProblems chunk findings
    /// Known writer quirks and notes that are not problems (the SDK hash variant, schema notes).
    std::vector<Problem> info;
    size_t problemsOmitted = 0;
};

/// `progress(done, total)` is called after each chunk; return false to stop early. `threads`:
/// the scan engine's decode threads (ChunkPipelineOptions::threads; 1 decodes every chunk on the
/// calling thread). Same report whatever the count.
ValidationReport validate(const ReplayFile& file, const std::function<bool(size_t, size_t)>& progress = {}, size_t maxProblems = 200,
                          unsigned threads = kScanThreads);

/// Per-type figures keyed by type id ("0", "1", ...): the form the SDK's reference values use.
Json validationJson(const ValidationReport& r);
/// Per-type figures keyed by the schema's type names (`vtxscope-cli validate`), a type id the
/// schema does not name as "type_<id>"; `type_ids` maps each key to its numeric id.
Json validationJson(const ValidationReport& r, const Schema& schema);

} // namespace vtx
