// SPDX-License-Identifier: MIT
#pragma once
// Limits a verified chunk must also respect before anything walks it: the verifier proves
// every offset is in bounds, not that a bucket's million entities or a 500 MB string is
// something the viewer should try to show. Applied to both backends' decoded form.

#include "vtx/base/Status.hpp"
#include "vtx/file/backend/BackendCodec.hpp"

namespace vtx {

/// Checks entity counts per bucket, the length of every string and the alignment of every
/// 8-byte value vector in the chunk. The error names the limit, the frame, the bucket and the
/// entity.
/// The chunk must be verified in full (every frame).
Status checkChunkLimits(const fbsvtx::Chunk& chunk, const DecodeLimits& limits, const std::string& what);
/// The same for one verified frame; `what` names the frame.
Status checkFrameLimits(const fbsvtx::Frame& frame, const DecodeLimits& limits, const std::string& what);

} // namespace vtx
