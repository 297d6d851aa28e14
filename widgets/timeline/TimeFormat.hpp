// SPDX-License-Identifier: MIT
#pragma once
// A frame's time as the user chose to read it (Settings ▸ Time display): the frame number, the
// game time from the footer, or the recording's UTC clock. One place, so the ruler, the status
// bar, the plot and the time data tables agree.

#include "shell/UserSettings.hpp"

#include <QString>
#include <cstdint>

namespace vtx {
class ReplayFile;
}

namespace vtxw {

/// UTC milliseconds since the Unix epoch of a frame, or -1 when the file has no UTC for it.
/// The SDK stores .NET ticks (100 ns since 0001-01-01); small values are already Unix-based.
int64_t utcMsOfFrame(const vtx::ReplayFile& file, int frame);
/// "12.345 s", or "1:02.345" past a minute.
QString gameTimeText(int64_t ticks);
/// "HH:mm:ss.zzz" (UTC), or "—" when unknown.
QString utcText(const vtx::ReplayFile& file, int frame);
/// A ruler label in `unit`: short (no unit suffix for frames); `stepSeconds`, the time between
/// two labels, decides the precision (UTC gets milliseconds below a second, game time more
/// decimals below a tenth), so neighbouring labels never read the same.
QString rulerLabel(const vtx::ReplayFile& file, int frame, TimeUnit unit, double stepSeconds = 1.0);
/// The status bar's time: frame "game 12.345 s · UTC 12:00:01.250"; game "game 12.345 s";
/// UTC "UTC 12:00:01.250".
QString statusTimeText(const vtx::ReplayFile& file, int frame, TimeUnit unit);

} // namespace vtxw
