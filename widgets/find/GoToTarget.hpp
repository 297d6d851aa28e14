// SPDX-License-Identifier: MIT
#pragma once
// What the Go to dialog's text means: a frame number ("1200") or a game time in seconds with
// an `s` suffix ("12.5s"). Parsed here, resolved against the replay by the caller.

#include <QString>
#include <optional>

namespace vtxw {

struct GoToTarget {
    enum class Kind { Frame, Seconds };
    Kind kind = Kind::Frame;
    int frame = 0;
    double seconds = 0;

    /// nullopt when the text is neither (the caller says so in the status bar).
    static std::optional<GoToTarget> parse(const QString& text);
};

} // namespace vtxw
