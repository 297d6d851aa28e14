// SPDX-License-Identifier: MIT
#include "shell/Theme.hpp"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace vtxw {

namespace {
struct DesktopLook {
    QString style;
    QPalette palette;
};
const DesktopLook& desktopLook()
{
    static const DesktopLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}
} // namespace

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2B, 0x2D, 0x31), base(0x1E, 0x1F, 0x22), text(0xE6, 0xE6, 0xE6), disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2C));
    p.setColor(QPalette::ToolTipBase, QColor(0x3A, 0x3D, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9A, 0x9A, 0x9A));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3C));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x4A, 0x4D, 0x53));
    p.setColor(QPalette::Midlight, QColor(0x3C, 0x3F, 0x44));
    p.setColor(QPalette::Mid, QColor(0x6E, 0x72, 0x78));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1B));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x3D, 0x8E, 0xD8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x56, 0xB4, 0xE9));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

void applyTheme(Theme theme)
{
    const DesktopLook& desktop = desktopLook();
    if (theme == Theme::System) {
        if (QStyle* style = QStyleFactory::create(desktop.style))
            QApplication::setStyle(style);
        QApplication::setPalette(desktop.palette);
        return;
    }
    QStyle* fusion = QStyleFactory::create("Fusion");
    if (!fusion)
        return; // Fusion is built into QtWidgets; never expected
    QApplication::setStyle(fusion);
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : fusion->standardPalette());
}

bool isDarkBase()
{
    return QApplication::palette().color(QPalette::Base).lightness() < 128;
}

SemanticColours semanticColours()
{
    // Okabe–Ito throughout: blue / vermillion / bluish green / reddish purple on light; on
    // dark the blue / orange pair (sky blue and orange: blue and vermillion are too dark there,
    // under 4.5:1); bluish green and reddish purple already read well on a dark base.
    if (isDarkBase())
        return {QColor(0x56, 0xB4, 0xE9), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7)};
    return {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7)};
}

double contrastRatio(const QColor& a, const QColor& b)
{
    auto luminance = [](const QColor& c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace vtxw
