#include "vtx/LargeAlloc.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <vector>

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

bool envFlag(const char* name)
{
    const char* v = std::getenv(name);
    return v && *v && *v != '0';
}

/// Freed large blocks kept for the next allocation. A chunk decode writes ~33 MB into fresh
/// memory; fresh pages are faulted in and zeroed by the kernel (and on this VM are sometimes
/// not even backed by the host yet: 64 MB first-touched in 90-130 ms instead of 6), while a
/// block a previous chunk used is ready. The cache evicts one chunk as it decodes the next, and
/// a full read frees each chunk before decoding the next, so one or two blocks are enough.
class BlockRecycler {
public:
    /// A block of exactly `size` mapped bytes (2 MiB multiple), or null.
    void* take(size_t size)
    {
        std::lock_guard lock(m_mutex);
        auto best = m_blocks.end();
        for (auto it = m_blocks.begin(); it != m_blocks.end(); ++it)
            if (it->size >= size && (best == m_blocks.end() || it->size < best->size))
                best = it;
        if (best == m_blocks.end())
            return nullptr;
        Block b = *best;
        m_blocks.erase(best);
        m_held -= b.size;
        if (b.size > size) // trimmed at a huge-page boundary: the rest goes back to the system
            munmap(static_cast<char*>(b.p) + size, b.size - size);
        return b.p;
    }
    /// Keeps the block (the oldest ones go when more than kMaxHeldBytes would be held).
    void give(void* p, size_t size)
    {
        std::vector<Block> drop;
        {
            std::lock_guard lock(m_mutex);
            m_blocks.push_back({p, size});
            m_held += size;
            while (m_held > kMaxHeldBytes) {
                drop.push_back(m_blocks.front());
                m_held -= m_blocks.front().size;
                m_blocks.erase(m_blocks.begin());
            }
        }
        for (const Block& b : drop) // outside the lock: unmapping 33 MB takes a while
            munmap(b.p, b.size);
    }

    void releaseAll()
    {
        std::vector<Block> drop;
        {
            std::lock_guard lock(m_mutex);
            drop.swap(m_blocks);
            m_held = 0;
        }
        for (const Block& b : drop)
            munmap(b.p, b.size);
    }
    size_t held()
    {
        std::lock_guard lock(m_mutex);
        return m_held;
    }

private:
    struct Block {
        void* p;
        size_t size;
    };
    std::mutex m_mutex;
    std::vector<Block> m_blocks; ///< oldest first
    size_t m_held = 0;
};

BlockRecycler& recycler()
{
    static BlockRecycler* r = new BlockRecycler; // never destroyed: blocks may be freed during exit
    return *r;
}
} // namespace

void releaseRecycledBlocks()
{
    recycler().releaseAll();
}

size_t recycledBytesHeld()
{
    return recycler().held();
}

bool recyclingEnabled()
{
    static const bool enabled = !envFlag("VTXSCOPE_NO_RECYCLE");
    return enabled;
}

bool hugePagesEnabled()
{
    static const bool enabled = !envFlag("VTXSCOPE_NO_HUGEPAGES");
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
    if (recyclingEnabled())
        if (void* p = recycler().take(size))
            return p;
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
    else if (recyclingEnabled())
        recycler().give(p, mappedSize(bytes));
    else
        munmap(p, mappedSize(bytes));
}

} // namespace vtx
