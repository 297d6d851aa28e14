// SPDX-License-Identifier: MIT
#pragma once
// One walk over a FlatBuffers frame that both verifies it and checks its DecodeLimits. It accepts
// exactly what flatbuffers::Verifier (with the same depth and table limits) followed by
// checkFrameLimits accepts: the same bounds, alignment, offset and terminator checks, done per
// field present in the vtable instead of per field of the schema, and the limits checked in the
// same pass instead of a second walk. tst_frameverifier and the chunk fuzz target require the two
// to reach the same verdict. Only the verdict comes from here: on a rejection, the caller runs the
// reference pair for its error message (rejections are rare; the message then says exactly what
// it said before).

#include "vtx/file/backend/BackendCodec.hpp"

#include <cstddef>
#include <cstdint>

namespace vtx {

/// `frameTable`: the frame table's offset in `buffer`. `maxDepth` and `maxTables` as in
/// flatbuffers::Verifier::Options, counted from the frame table.
bool frameIsValid(const uint8_t* buffer, size_t size, size_t frameTable, const DecodeLimits& limits, uint32_t maxDepth, uint32_t maxTables);

} // namespace vtx
