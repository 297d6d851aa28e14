// SPDX-License-Identifier: MIT
#include "shell/OpenRequest.hpp"

#include "vtx/model/Schema.hpp"

namespace vtxw {

EntityKey OpenRequest::selection(const vtx::Schema& schema) const
{
    if (selectId.isEmpty())
        return {};
    const auto& names = schema.bucketNames();
    bool isIndex = false;
    const int index = selectBucket.toInt(&isIndex);
    if (isIndex)
        return index >= 0 && size_t(index) < names.size() ? EntityKey{index, selectId} : EntityKey{};
    for (size_t b = 0; b < names.size(); ++b)
        if (QString::fromStdString(names[b]) == selectBucket)
            return {int(b), selectId};
    return {};
}

} // namespace vtxw
