#include "vtx/LargeAlloc.hpp"

#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace vtx {

namespace {
constexpr size_t kHugePage = size_t(2) << 20;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif
#else
constexpr bool kUnderAsan = false;
#endif

bool isLarge(size_t bytes)
{
    // Under AddressSanitizer every block comes from malloc, so overflows stay detectable.
    return !kUnderAsan && bytes >= kLargeAllocThreshold;
}

size_t mappedSize(size_t bytes)
{
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}
} // namespace

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
    if (!isLarge(bytes)) {
        void* p = std::malloc(bytes);
        if (!p)
            throw std::bad_alloc();
        return p;
    }
    // Mapped directly, so freeing returns the pages to the system at once: from the heap, glibc
    // raises its mmap threshold after the first free and then keeps freed chunks' pages, which
    // held a 2-thread Protobuf read at 650 MB.
    const size_t size = mappedSize(bytes);
    const size_t reserve = size + kHugePage; // room to align the start to a huge page
    void* raw = mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw std::bad_alloc();
    const auto start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start)
        munmap(raw, aligned - start);
    if (const uintptr_t tail = start + reserve - (aligned + size); tail > 0)
        munmap(reinterpret_cast<void*>(aligned + size), tail);
    void* p = reinterpret_cast<void*>(aligned);
    if (hugePagesEnabled())
        madvise(p, size, MADV_HUGEPAGE); // advice only: failure costs speed, not correctness
    return p;
}

void freeLarge(void* p, size_t bytes) noexcept
{
    if (!p)
        return;
    if (bytes == 0)
        bytes = 1;
    if (!isLarge(bytes))
        std::free(p);
    else
        munmap(p, mappedSize(bytes));
}

} // namespace vtx
