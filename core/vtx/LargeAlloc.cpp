#include "vtx/LargeAlloc.hpp"

#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace vtx {

bool hugePagesEnabled()
{
    static const bool enabled = [] {
        const char* off = std::getenv("VTXSCOPE_NO_HUGEPAGES");
        return !(off && *off && *off != '0');
    }();
    return enabled;
}

void* allocateLarge(size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    void* p = nullptr;
    if (bytes >= kLargeAllocThreshold && hugePagesEnabled()) {
        constexpr size_t kHuge = size_t(2) << 20;
        const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
        if (posix_memalign(&p, kHuge, rounded) == 0)
            madvise(p, rounded, MADV_HUGEPAGE); // advice only: failure costs speed, not correctness
        else
            p = nullptr;
    }
    if (!p)
        p = std::malloc(bytes);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void freeLarge(void* p) noexcept
{
    std::free(p);
}

} // namespace vtx
