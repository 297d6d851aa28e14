// SPDX-License-Identifier: MIT
#pragma once
// What a host does with memory a process frees, which decides what touching fresh memory costs
// there (issue 28 item 2). On a VM with free page reporting (virtio-balloon, Linux
// `page_reporting`), free blocks of 2^order pages are handed back to the hypervisor after a
// while, and the next touch of such a page faults in the hypervisor too: on the AMD EPYC VM this
// project's figures come from, ~1.7 ms per MB after 2 s idle instead of ~0.13 right away.

#include "vtx/export/JsonExport.hpp"

namespace vtxbench {

/// The host's free page reporting (Linux `page_reporting` parameters: the smallest block it
/// reports, its delays as this kernel has them, MiB reported since boot; "active" when any was),
/// or null when the kernel has none (bare metal, or a VM without a reporting balloon).
vtx::Json freedMemoryReturn();

/// `vtxscope-bench refault [--mb N] [--rounds R] [--idle-ms T]`: ms per MB to touch N MB (256)
/// of fresh anonymous memory, mapped as `LargeAlloc` maps its blocks (transparent huge pages
/// advised): the first time in the process, again right after unmapping it (pages the kernel
/// just got back), and again after the block stayed unmapped for T ms (2,000). Medians of R
/// rounds (3), in that order each round.
int refaultBench(int mb, int rounds, int idleMs);

} // namespace vtxbench
