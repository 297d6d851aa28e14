// SPDX-License-Identifier: MIT
#pragma once
// What to open and where to start: the command line's FILE with --frame, --select, --follow and
// --compare, or a plain path from File ▸ Open, a recent file or a drop.

#include "entities/EntityTreeModel.hpp"

#include <QString>

namespace vtx {
class Schema;
}

namespace vtxw {

struct OpenRequest {
    OpenRequest(QString p = {}) : path(std::move(p)) { }
    QString path;
    int frame = -1; ///< --frame N
    QString selectBucket; ///< --select BUCKET:UNIQUE_ID (bucket name or index)
    QString selectId;
    bool follow = false; ///< --follow: re-read the file as it grows
    QString compare; ///< --compare B.vtx: compare with this replay once the file is open

    /// The entity --select names, with its bucket looked up in `schema` by index or name;
    /// invalid when nothing is asked or the bucket does not exist.
    EntityKey selection(const vtx::Schema& schema) const;
};

} // namespace vtxw
