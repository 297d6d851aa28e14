// SPDX-License-Identifier: MIT
// libFuzzer entry: one binary per target, the target chosen by name at compile time.
#include "FuzzTargets.hpp"

#include <cstdio>
#include <cstdlib>

namespace {

void (*targetBody())(std::span<const uint8_t>)
{
    for (const vtxfuzz::Target& t : vtxfuzz::targets())
        if (t.name == VTXFUZZ_TARGET)
            return t.run;
    std::fprintf(stderr, "no fuzz target named %s\n", VTXFUZZ_TARGET);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const auto run = targetBody();
    run(std::span<const uint8_t>(data, size));
    return 0;
}
