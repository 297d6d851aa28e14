// SPDX-License-Identifier: MIT
#pragma once
// The application icon from resources/vtxscope.qrc (PNG renderings of resources/icons/vtxscope.svg:
// the Qt SVG module is not a dependency, so the sizes are committed rather than rendered at run time).

#include <QIcon>

namespace vtxw {

QIcon appIcon();

} // namespace vtxw
