// SPDX-License-Identifier: MIT
#include "QueryBench.hpp"
#include "BenchClock.hpp"

#include "PropertyWalk.hpp"

#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/query/QueryScan.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

namespace vtxbench {

namespace {

int fail(const std::string& m)
{
    std::fprintf(stderr, "vtxscope-bench: %s\n", m.c_str());
    return 1;
}

} // namespace

int queryBench(const std::string& path, const std::string& expression, int rounds)
{
    std::vector<double> readMs, decodeMs, queryMs;
    size_t matchingFrames = 0;
    int64_t matchingEntities = 0, frames = 0;
    uint64_t checksum = 0;
    // Rounds alternate the three so drift (page cache, frequency) hits them alike.
    for (int r = 0; r < std::max(rounds, 1); ++r) {
        // Full read: open, decode every chunk, read every named property of every frame.
        auto t0 = Clock::now();
        {
            auto file = vtx::ReplayFile::open(path);
            if (!file)
                return fail(file.message());
            PropertyWalk walk((*file)->schema());
            WalkTotals t;
            for (size_t ci = 0; ci < (*file)->chunks().size(); ++ci) {
                auto chunk = (*file)->decodeChunk(ci);
                if (!chunk)
                    return fail(chunk.message());
                for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                    walk.frame((*chunk)->frame(lf), t);
            }
            checksum += t.checksum;
        }
        readMs.push_back(msSince(t0));
        // Decode only: open, decode every chunk, touch every frame (verification): the floor
        // any whole-file scan pays.
        t0 = Clock::now();
        {
            auto file = vtx::ReplayFile::open(path);
            if (!file)
                return fail(file.message());
            for (size_t ci = 0; ci < (*file)->chunks().size(); ++ci) {
                auto chunk = (*file)->decodeChunk(ci);
                if (!chunk)
                    return fail(chunk.message());
                for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                    checksum += (*chunk)->frame(lf).bucketCount();
            }
        }
        decodeMs.push_back(msSince(t0));
        // The query: open, compile, scan every frame (matching entities listed, as the CLI does).
        t0 = Clock::now();
        {
            auto file = vtx::ReplayFile::open(path);
            if (!file)
                return fail(file.message());
            vtx::query::ExpressionError error;
            auto e = vtx::query::Expression::compile(expression, (*file)->schema(), &error);
            if (!e)
                return fail("expression: " + error.text());
            // One thread, as the full read above (`vtxscope-bench scan` measures both with two).
            vtx::query::QueryScanOptions opt;
            opt.threads = 1;
            auto result = vtx::query::scanQuery(**file, *e, opt);
            if (!result)
                return fail(result.message());
            matchingFrames = result->frames.size();
            matchingEntities = result->entityMatches;
            frames = result->framesScanned;
        }
        queryMs.push_back(msSince(t0));
    }
    if (checksum == 42) // keeps the reads from being optimized away
        std::fprintf(stderr, "checksum 42\n");
    const double q = median(queryMs), rd = median(readMs), d = median(decodeMs);
    std::cout << vtx::Json{{"bench", "query"},
                           {"file", path},
                           {"expression", expression},
                           {"rounds", rounds},
                           {"frames", frames},
                           {"matching_frames", matchingFrames},
                           {"matching_entities", matchingEntities},
                           {"query_ms", q},
                           {"full_read_ms", rd},
                           {"decode_only_ms", d},
                           {"ratio", q / rd},
                           {"ratio_to_decode_only", q / d}}
                     .dump()
              << '\n';
    return 0;
}

} // namespace vtxbench
