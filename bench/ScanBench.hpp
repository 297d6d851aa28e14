// SPDX-License-Identifier: MIT
#pragma once
// `vtxscope-bench scan FILE [--other FILE2] [--expr E] [--rounds N]`: the scan engine (issue 28
// item 3) against its limits, every figure measured in the same process, rounds interleaved:
// zstd of every chunk (the limit; ÷ 2 for two threads), the full read with 1 and 2 threads
// through the engine and the older split full read (each thread decodes and walks its share),
// a query and an analysis over the whole file with 1 and 2 threads, and with --other, diverge
// of the two files (decoded on the comparing thread, and through the engine) against the
// slower file's 1-thread read.

#include <string>

namespace vtxbench {

int scanBench(const std::string& path, const std::string& other, const std::string& expression, int rounds);

/// `vtxscope-bench read-cpu FILE [--rounds N]`: the CPU side of the full read, for a machine
/// whose wall times are noise (other agents' builds): per measure the process's CPU time
/// (getrusage, every thread) and its minor page faults, rounds interleaved in one process: zstd
/// of every chunk on one thread (the limit), the full read through the engine with 1 and 2
/// threads, and a decode-only pass (every chunk decoded through the engine, every frame taken,
/// no value read); ratios of their CPU medians to zstd's. The first round pays the process's
/// first touch of its decode blocks; medians of 3 or more rounds leave it out.
int readCpuBench(const std::string& path, int rounds);

} // namespace vtxbench
