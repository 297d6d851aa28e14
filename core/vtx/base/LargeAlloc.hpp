// SPDX-License-Identifier: MIT
#pragma once
// Memory for large, freshly written blocks: decoded chunks, the Protobuf arena that parses a
// chunk, the FlatBuffers builder that flattens it. On this machine a first touch of a 4 KiB page
// costs microseconds, so a 33 MB chunk paid ~8,000 page faults (2/3 of a cold jump); blocks of
// at least kLargeAllocThreshold bytes are 2 MiB-aligned and advised for transparent huge pages,
// which cuts the faults 512-fold (bench: `vtxscope-bench cold-jumps`, docs/PERFORMANCE.md).
// Large blocks are mapped directly; when freed, up to kMaxHeldBytes of them are kept for the
// next large allocation (BlockRecycler in the .cpp), the rest unmapped. Smaller blocks come
// from malloc. Release with freeLarge() and the size that was asked for.

#include <cstddef>
#include <cstdint>

namespace vtx {

/// 1 MiB: an RL-like replay's chunks decode to 1-3 MB; below 4 MiB they came from malloc, whose
/// blocks of that size glibc maps and unmaps (or trims from the heap top) at each free, so a
/// 2-thread scan of such a file zeroed fresh pages for every chunk (a query cost 1.25x the CPU
/// of the same query on one thread; `vtxscope-bench scan`, docs/PERFORMANCE.md).
/// VTXSCOPE_LARGE_FROM_KB=N moves it to N KiB, for measuring.
constexpr size_t kLargeAllocThreshold = size_t(1) << 20;
/// Freed large blocks kept for reuse at most, in capacity; counted in the process's memory but
/// not in a chunk cache's budget. One Protobuf CS2-like chunk's decode needs three blocks at once
/// (stored blob ~10 MB, wire bytes ~37 MB, flattened chunk ~56 MB with spare capacity): at 80 MB
/// the older two were unmapped after every chunk and mapped afresh for the next, and a full read
/// zeroed ~300 MB of fresh pages in the kernel (`vtxscope-bench read-cpu`, minor faults;
/// docs/PERFORMANCE.md "Full-read CPU profile"). 128 MB keeps the three.
constexpr size_t kMaxHeldBytes = size_t(128) << 20;

/// The threshold in effect: kLargeAllocThreshold, or VTXSCOPE_LARGE_FROM_KB (for measuring one
/// threshold against another in one build; read once, so a block is freed by the rule it was
/// allocated by).
size_t largeAllocThreshold();

/// Never null: throws std::bad_alloc.
void* allocateLarge(size_t bytes);
/// `bytes`: the size given to allocateLarge.
void freeLarge(void* p, size_t bytes) noexcept;

/// Whether huge-page advice is used (off with VTXSCOPE_NO_HUGEPAGES=1, for measuring).
bool hugePagesEnabled();
/// Whether freed large blocks are kept for reuse (off with VTXSCOPE_NO_RECYCLE=1, for measuring).
bool recyclingEnabled();
/// Bytes of freed blocks kept right now (never more than kMaxHeldBytes).
size_t recycledBytesHeld();
/// Returns every kept block to the system (a viewer that closes its file has no use for them).
void releaseRecycledBlocks();

} // namespace vtx
