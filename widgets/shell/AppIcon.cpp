// SPDX-License-Identifier: MIT
#include "shell/AppIcon.hpp"

// Q_INIT_RESOURCE must be called outside any namespace; the resources live in this static
// library, whose registration object the linker would otherwise drop.
static void initVtxscopeResources()
{
    Q_INIT_RESOURCE(vtxscope);
}

namespace vtxw {

QIcon appIcon()
{
    static const bool registered = (initVtxscopeResources(), true);
    (void)registered;
    QIcon icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/vtxscope/icons/%1.png").arg(size), QSize(size, size));
    return icon;
}

} // namespace vtxw
