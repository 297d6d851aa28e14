// SPDX-License-Identifier: MIT
#include "vtx/base/LibraryVersions.hpp"

#include <flatbuffers/base.h>
#include <google/protobuf/stubs/common.h>
#include <zstd.h>

namespace vtx {

LibraryVersions libraryVersions()
{
    LibraryVersions v;
    v.zstd = ZSTD_versionString();
    v.zstdBuilt = ZSTD_VERSION_STRING;
    v.flatbuffers = std::to_string(FLATBUFFERS_VERSION_MAJOR) + "." + std::to_string(FLATBUFFERS_VERSION_MINOR) + "." +
        std::to_string(FLATBUFFERS_VERSION_REVISION);
    // GOOGLE_PROTOBUF_VERSION is major * 1000000 + minor * 1000 + patch (3021012 → 3.21.12).
    constexpr int p = GOOGLE_PROTOBUF_VERSION;
    v.protobuf = std::to_string(p / 1000000) + "." + std::to_string(p / 1000 % 1000) + "." + std::to_string(p % 1000);
    return v;
}

} // namespace vtx
