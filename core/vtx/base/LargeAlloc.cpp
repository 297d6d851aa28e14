// SPDX-License-Identifier: MIT
#include "vtx/base/LargeAlloc.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <vector>

namespace vtx {

namespace {
constexpr size_t kHugePage = size_t(2) << 20;

// Under AddressSanitizer or ThreadSanitizer every block comes from the sanitizer's malloc
// (isLarge says why).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kBlocksFromMalloc = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kBlocksFromMalloc = true;
#else
constexpr bool kBlocksFromMalloc = false;
#endif
#else
constexpr bool kBlocksFromMalloc = false;
#endif

} // namespace

size_t largeAllocThreshold()
{
    static const size_t threshold = [] {
        const char* v = std::getenv("VTXSCOPE_LARGE_FROM_KB");
        if (!v || !*v)
            return kLargeAllocThreshold;
        char* end = nullptr;
        const unsigned long long kb = std::strtoull(v, &end, 10);
        return *end || kb == 0 || kb > (size_t(1) << 30) ? kLargeAllocThreshold : size_t(kb) << 10;
    }();
    return threshold;
}

namespace {

bool isLarge(size_t bytes)
{
    // Under AddressSanitizer every block comes from malloc, so overflows stay detectable.
    // Under ThreadSanitizer too, from its allocator's own heap: TSan keeps a history per address,
    // forgotten when its malloc or an mmap it sees hands the address out, and our blocks are
    // mapped beside thread stacks and kept across owners. With blocks from 1 MiB, tst_models
    // reported about one run in two a "race" on a block with a finished thread whose write had no
    // stack, at the same distance above a chunk worker's stack each time; the block was never
    // written while given back (it was mprotect'ed), and a write of the whole block by the thread
    // giving it back raised nothing (every earlier write was ordered before it). Mapping a
    // recycled block afresh when taken left one run in ten; malloc'd blocks, none in twelve.
    return !kBlocksFromMalloc && bytes >= largeAllocThreshold();
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
///
/// Blocks are mapped with 1/8 spare capacity (address space only: a page costs memory once it
/// is written), so a chunk slightly larger than the last one still fits; a block keeps its
/// capacity when reused for a smaller request. Without that, chunks of varying size each mapped
/// a new block while the old one was held, and a full read's peak memory grew by a chunk.
class BlockRecycler {
public:
    /// A kept block of at least `size` bytes and at most about twice that (best fit: a chunk's
    /// block is not spent on its compressed blob), or null; kept blocks too small for it are
    /// returned to the system, as the caller is about to map a larger one.
    void* take(size_t size)
    {
        std::vector<Block> drop;
        void* found = nullptr;
        {
            std::lock_guard lock(m_mutex);
            auto best = m_free.end();
            for (auto it = m_free.begin(); it != m_free.end(); ++it)
                if (it->capacity >= size && it->capacity <= 2 * size + kHugePage && (best == m_free.end() || it->capacity < best->capacity))
                    best = it;
            if (best != m_free.end()) {
                found = best->p;
                m_live.push_back(*best);
                m_held -= best->capacity;
                m_free.erase(best);
            } else {
                for (auto it = m_free.begin(); it != m_free.end();) {
                    if (it->capacity < size) {
                        drop.push_back(*it);
                        m_held -= it->capacity;
                        it = m_free.erase(it);
                    } else {
                        ++it;
                    }
                }
            }
        }
        unmap(drop);
        return found;
    }
    /// Records a block the caller mapped, so that give() knows its capacity.
    void adopt(void* p, size_t capacity)
    {
        std::lock_guard lock(m_mutex);
        m_live.push_back({p, capacity});
    }
    /// Keeps the block (the oldest ones go when more than kMaxHeldBytes would be held).
    void give(void* p)
    {
        std::vector<Block> drop;
        {
            std::lock_guard lock(m_mutex);
            const auto it = std::find_if(m_live.begin(), m_live.end(), [p](const Block& b) { return b.p == p; });
            if (it == m_live.end())
                return; // not ours: freeLarge's contract was broken; leaking beats unmapping a guess
            m_free.push_back(*it);
            m_held += it->capacity;
            m_live.erase(it);
            while (m_held > kMaxHeldBytes) {
                drop.push_back(m_free.front());
                m_held -= m_free.front().capacity;
                m_free.erase(m_free.begin());
            }
        }
        unmap(drop);
    }
    void releaseAll()
    {
        std::vector<Block> drop;
        {
            std::lock_guard lock(m_mutex);
            drop.swap(m_free);
            m_held = 0;
        }
        unmap(drop);
    }
    size_t held()
    {
        std::lock_guard lock(m_mutex);
        return m_held;
    }

private:
    struct Block {
        void* p;
        size_t capacity;
    };
    static void unmap(const std::vector<Block>& blocks) // outside the lock: unmapping 33 MB takes a while
    {
        for (const Block& b : blocks)
            munmap(b.p, b.capacity);
    }
    std::mutex m_mutex;
    std::vector<Block> m_free; ///< oldest first
    std::vector<Block> m_live; ///< handed out; a few at a time (one per chunk being decoded or held)
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
    if (bytes > SIZE_MAX / 4) // rounding up (and the spare eighth) must not wrap to a small block
        throw std::bad_alloc();
    if (!isLarge(bytes)) {
        void* p = std::malloc(bytes);
        if (!p)
            throw std::bad_alloc();
        return p;
    }
    // Mapped directly, so freeing returns the pages to the system at once: from the heap, glibc
    // raises its mmap threshold after the first free and then keeps freed chunks' pages, which
    // held a 2-thread Protobuf read at 650 MB.
    const bool recycle = recyclingEnabled();
    if (recycle)
        if (void* p = recycler().take(bytes))
            return p;
    const size_t size = mappedSize(recycle ? bytes + bytes / 8 : bytes);
    const size_t reserve = size + kHugePage; // room to align the start to a huge page
    void* raw = mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw std::bad_alloc();
    const auto start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start)
        munmap(raw, aligned - start);
    if (const uintptr_t tail = start + reserve - (aligned + size); tail > 0)
        munmap(reinterpret_cast<void*>(aligned + size), tail); // NOLINT(performance-no-int-to-ptr): trimming an mmap'd range is address arithmetic
    void* p = reinterpret_cast<void*>(aligned); // NOLINT(performance-no-int-to-ptr): the same
    if (hugePagesEnabled())
        madvise(p, size, MADV_HUGEPAGE); // advice only: failure costs speed, not correctness
    if (recycle)
        recycler().adopt(p, size);
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
        recycler().give(p);
    else
        munmap(p, mappedSize(bytes));
}

} // namespace vtx
