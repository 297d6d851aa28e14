// SPDX-License-Identifier: MIT
#pragma once
// The versions of the libraries the core decodes with, for About boxes and bug reports: what
// the headers said at build time and, where the library can tell, what is loaded at run time
// (a shared libzstd can be newer than the headers the program was built against).

#include <string>

namespace vtx {

struct LibraryVersions {
    std::string zstd; ///< loaded libzstd (ZSTD_versionString)
    std::string zstdBuilt; ///< libzstd headers at build time
    std::string flatbuffers; ///< header-only: the build-time version is the one in use
    std::string protobuf; ///< the libprotobuf headers at build time
};

LibraryVersions libraryVersions();

} // namespace vtx
