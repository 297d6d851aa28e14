// SPDX-License-Identifier: MIT
#pragma once
// Settings ▸ Theme: the desktop's own style and palette, or Fusion with a light or a dark
// palette. The Okabe–Ito colours that carry meaning (the diff's signs and added / removed) are
// picked per base so they stay readable (contrast ≥ 4.5:1 against a dark base).

#include "shell/UserSettings.hpp"

#include <QColor>
#include <QPalette>

namespace vtxw {

/// Applies `theme` to the whole application (style and palette). The first call remembers the
/// desktop's style and palette so System can return to them.
void applyTheme(Theme theme);
QPalette darkPalette();
/// True when the application's base colour is dark (a dark theme, or a dark desktop palette).
bool isDarkBase();

/// The meaning-carrying colours, picked for the current base.
struct SemanticColours {
    QColor increase, decrease, added, removed;
};
SemanticColours semanticColours();

/// WCAG contrast ratio of two colours (1 to 21): 3:1 reads for graphics, 4.5:1 for text.
double contrastRatio(const QColor& a, const QColor& b);

} // namespace vtxw
