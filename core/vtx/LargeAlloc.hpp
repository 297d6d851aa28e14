#pragma once
// Memory for large, freshly written blocks: decoded chunks, the Protobuf arena that parses a
// chunk, the FlatBuffers builder that flattens it. On this machine a first touch of a 4 KiB page
// costs microseconds, so a 33 MB chunk paid ~8,000 page faults (2/3 of a cold jump); blocks of
// at least kLargeAllocThreshold bytes are 2 MiB-aligned and advised for transparent huge pages,
// which cuts the faults 512-fold (bench: `vtxscope-bench cold-jumps`, docs/PERFORMANCE.md).
// Large blocks are mapped directly and unmapped when freed; smaller ones come from malloc.
// Release with freeLarge() and the size that was asked for.

#include <cstddef>
#include <cstdint>

namespace vtx {

constexpr size_t kLargeAllocThreshold = size_t(4) << 20;

/// Never null: throws std::bad_alloc.
void* allocateLarge(size_t bytes);
/// `bytes`: the size given to allocateLarge.
void freeLarge(void* p, size_t bytes) noexcept;

/// Whether huge-page advice is used (off with VTXSCOPE_NO_HUGEPAGES=1, for measuring).
bool hugePagesEnabled();

} // namespace vtx
