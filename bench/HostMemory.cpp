// SPDX-License-Identifier: MIT
#include "HostMemory.hpp"

#include "BenchClock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <vector>

namespace vtxbench {
namespace {

std::optional<long long> readParameter(const char* name)
{
    const std::string path = std::string("/sys/module/page_reporting/parameters/") + name;
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f)
        return std::nullopt;
    long long v = 0;
    const bool ok = std::fscanf(f, "%lld", &v) == 1;
    std::fclose(f);
    return ok ? std::optional<long long>(v) : std::nullopt;
}

/// Maps `bytes`, touches every page and unmaps it; the touch's milliseconds, none when the
/// mapping failed.
std::optional<double> touchFresh(size_t bytes)
{
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return std::nullopt;
    madvise(p, bytes, MADV_HUGEPAGE); // as LargeAlloc: advice only
    const auto t0 = Clock::now();
    std::memset(p, 1, bytes);
    const double ms = msSince(t0);
    munmap(p, bytes);
    return ms;
}

} // namespace

vtx::Json freedMemoryReturn()
{
    const auto order = readParameter("page_reporting_order");
    if (!order)
        return nullptr;
    // The parameters as the kernel names them: when a free block is reported depends on the
    // kernel (upstream waits ~2 s; some VMs' kernels add a minimum free time and a backlog).
    vtx::Json out{{"active", readParameter("reported_kib").value_or(0) > 0}, {"block_kib", 4LL << *order}};
    for (const char* name : {"min_free_ms", "max_waiting_mib"})
        if (const auto v = readParameter(name))
            out[name] = *v;
    out["reported_mib"] = readParameter("reported_kib").value_or(0) / 1024;
    return out;
}

int refaultBench(int mb, int rounds, int idleMs)
{
    if (mb <= 0 || rounds <= 0 || idleMs < 0) {
        std::cerr << "refault: --mb and --rounds must be positive, --idle-ms not negative\n";
        return 2;
    }
    const size_t bytes = size_t(mb) << 20;
    const vtx::Json returned = freedMemoryReturn();
    std::vector<double> first, again, afterIdle;
    const auto perMb = [&](std::vector<double>& into) {
        const auto ms = touchFresh(bytes);
        if (ms)
            into.push_back(*ms / mb);
        return ms.has_value();
    };
    for (int r = 0; r < rounds; ++r) {
        if (!perMb(first) || !perMb(again))
            break;
        // The idle period is what is measured (memory left free that long), not a wait for
        // another thread.
        std::this_thread::sleep_for(std::chrono::milliseconds(idleMs));
        if (!perMb(afterIdle))
            break;
    }
    if (afterIdle.size() != size_t(rounds)) {
        std::cerr << "refault: could not map " << mb << " MB\n";
        return 1;
    }
    std::cout << vtx::Json{{"bench", "refault"},
                           {"mb", mb},
                           {"rounds", rounds},
                           {"first_touch_ms_per_mb", median(first)},
                           {"retouch_at_once_ms_per_mb", median(again)},
                           {"retouch_after_idle_ms_per_mb", median(afterIdle)},
                           {"idle_ms", idleMs},
                           {"after_idle_vs_at_once", median(afterIdle) / std::max(median(again), 1e-9)},
                           {"freed_memory_return", returned}}
                     .dump()
              << '\n';
    return 0;
}

} // namespace vtxbench
