// SPDX-License-Identifier: MIT
#pragma once
// A frame's time as the user chose to read it (Settings ▸ Time display): the frame number, the
// game time from the footer, or the recording's UTC clock. One place, so the ruler, the status
// bar, the plot and the time data tables agree.

#include "shell/UserSettings.hpp"
#include "timeline/AxisTicks.hpp"

#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

namespace vtx {
class ReplayFile;
}

namespace vtxw {

/// UTC milliseconds since the Unix epoch of a frame, or -1 when the file has no UTC for it.
/// The SDK stores .NET ticks (100 ns since 0001-01-01); small values are already Unix-based.
int64_t utcMsOfFrame(const vtx::ReplayFile& file, int frame);
/// "12.345 s", or "1:02.345" past a minute.
QString gameTimeText(int64_t ticks);
/// gameTimeText of a frame, or "—" when the file has no game times (recovered without its footer).
QString frameGameTimeText(const vtx::ReplayFile& file, int frame);
/// "HH:mm:ss.zzz" (UTC), or "—" when unknown.
QString utcText(const vtx::ReplayFile& file, int frame);
/// A ruler label in `unit`: short (no unit suffix for frames); `stepSeconds`, the time between
/// two labels, decides the precision (UTC gets milliseconds below a second, game time more
/// decimals below a tenth), so neighbouring labels never read the same.
QString rulerLabel(const vtx::ReplayFile& file, int frame, TimeUnit unit, double stepSeconds = 1.0);
/// The status bar's time: frame "game 12.345 s · UTC 12:00:01.250"; game "game 12.345 s";
/// UTC "UTC 12:00:01.250".
QString statusTimeText(const vtx::ReplayFile& file, int frame, TimeUnit unit);

/// Whether the footer gives the file's frames game times (a recovered file has none: the times
/// lived in the footer) or UTC clock times.
bool hasGameTimes(const vtx::ReplayFile& file);
bool hasUtcTimes(const vtx::ReplayFile& file);

/// A file's frames read in one time unit, for axes (the timeline's ruler, the plot's x axis):
/// the unit's value at a (fractional) frame and the frames where its round values fall. A file
/// without times of the chosen kind is read in frame numbers, with a note that says why, so an
/// axis never shows "0.000 s" on every tick. Built once per file and unit (O(frames)); asking
/// for ticks costs a binary search per tick.
class FrameClock {
public:
    struct Tick {
        double frame = 0; ///< where the round value falls (fractional between two frames)
        QString label;
    };
    /// Reads `file` in `unit`; does nothing when both are what it reads already.
    void set(const std::shared_ptr<const vtx::ReplayFile>& file, TimeUnit unit);
    /// The unit the axis shows: the one asked for, or Frame when the file has no such times.
    TimeUnit shownUnit() const { return m_shown; }
    /// Empty, or why the axis shows frame numbers instead: "no game times in this file".
    const QString& note() const { return m_note; }
    AxisUnit axisUnit() const;
    /// The unit's value at `frame` (seconds, UTC milliseconds, or the frame itself).
    double valueAt(double frame) const;
    /// The ticks of frames [first, last] over `pixels`, ascending by frame.
    std::vector<Tick> ticks(double first, double last, double pixels, const TextWidth& width, double gapPx = 16) const;

private:
    std::weak_ptr<const vtx::ReplayFile> m_file;
    int m_frames = -1;
    TimeUnit m_asked = TimeUnit::Frame, m_shown = TimeUnit::Frame;
    QString m_note;
    std::vector<double> m_values; ///< per frame, in the shown unit (empty for frames)
    bool m_ascending = true; ///< values never decrease: ticks by binary search, else by a scan
};

} // namespace vtxw
