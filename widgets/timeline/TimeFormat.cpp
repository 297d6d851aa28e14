// SPDX-License-Identifier: MIT
#include "timeline/TimeFormat.hpp"

#include "vtx/file/FrameTimes.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <QDateTime>
#include <QObject>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

namespace vtxw {

int64_t utcMsOfFrame(const vtx::ReplayFile& file, int frame)
{
    const std::optional<int64_t> held = vtx::heldCreatedUtcTicks(file, frame);
    if (!held)
        return -1;
    int64_t utc = *held;
    constexpr int64_t kDotNetUnixEpoch = 621355968000000000LL;
    if (utc >= kDotNetUnixEpoch)
        utc -= kDotNetUnixEpoch;
    return utc > 0 ? utc / 10000 : -1;
}

QString gameTimeText(int64_t ticks)
{
    const double s = double(ticks) / 1e7;
    if (std::abs(s) < 60)
        return QObject::tr("%1 s").arg(s, 0, 'f', 3);
    // Rounded to the millisecond, not cut: 78.1249999 s reads 1:18.125 (issue 26).
    const int64_t ms = int64_t(std::llround(double(ticks) / 1e4));
    const int64_t minutes = std::abs(ms) / 60000, rest = std::abs(ms) % 60000;
    return QStringLiteral("%1%2:%3.%4")
        .arg(ms < 0 ? QStringLiteral("-") : QString())
        .arg(minutes)
        .arg(rest / 1000, 2, 10, QLatin1Char('0'))
        .arg(rest % 1000, 3, 10, QLatin1Char('0'));
}

QString utcText(const vtx::ReplayFile& file, int frame)
{
    const int64_t ms = utcMsOfFrame(file, frame);
    if (ms < 0)
        return QStringLiteral("—");
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString("HH:mm:ss.zzz");
}

QString rulerLabel(const vtx::ReplayFile& file, int frame, TimeUnit unit, double stepSeconds)
{
    switch (unit) {
    case TimeUnit::GameTime: {
        const double s = double(file.gameTimeTicks(frame)) / 1e7;
        if (s >= 60 && stepSeconds >= 1)
            return gameTimeText(file.gameTimeTicks(frame));
        const int decimals = stepSeconds < 0.1 ? 3 : stepSeconds < 1 ? 2 : 1;
        return QStringLiteral("%1 s").arg(s, 0, 'f', decimals);
    }
    case TimeUnit::Utc: {
        const int64_t ms = utcMsOfFrame(file, frame);
        if (ms < 0)
            return QString::number(frame);
        return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(stepSeconds < 1 ? "HH:mm:ss.zzz" : "HH:mm:ss");
    }
    case TimeUnit::Frame: break;
    }
    return QString::number(frame);
}

QString frameGameTimeText(const vtx::ReplayFile& file, int frame)
{
    // A file without frame times (recovered without its footer) has no game time to show: "—",
    // as for UTC, not "0.000 s".
    const std::optional<int64_t> ticks = vtx::heldGameTimeTicks(file, frame);
    return ticks ? gameTimeText(*ticks) : QStringLiteral("—");
}

QString statusTimeText(const vtx::ReplayFile& file, int frame, TimeUnit unit)
{
    const QString game = frameGameTimeText(file, frame);
    switch (unit) {
    case TimeUnit::GameTime: return QObject::tr("game %1").arg(game);
    case TimeUnit::Utc: return QObject::tr("UTC %1").arg(utcText(file, frame));
    case TimeUnit::Frame: break;
    }
    return QObject::tr("game %1 · UTC %2").arg(game, utcText(file, frame));
}

namespace {
/// The footer's per-frame array when it has one value per frame and they are not all the same.
bool variesPerFrame(const std::vector<int64_t>& v, int frames)
{
    if (frames < 2 || v.size() != size_t(frames))
        return false;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return *hi > *lo;
}
} // namespace

bool hasGameTimes(const vtx::ReplayFile& file)
{
    return variesPerFrame(file.footer().times.gameTime, file.frameCount());
}

bool hasUtcTimes(const vtx::ReplayFile& file)
{
    return variesPerFrame(file.footer().times.createdUtc, file.frameCount()) && utcMsOfFrame(file, 0) >= 0;
}

void FrameClock::set(const std::shared_ptr<const vtx::ReplayFile>& file, TimeUnit unit)
{
    const int frames = file ? file->frameCount() : -1;
    if (m_file.lock() == file && m_frames == frames && m_asked == unit && (file || m_values.empty()))
        return;
    m_file = file;
    m_frames = frames;
    m_asked = unit;
    m_shown = TimeUnit::Frame;
    m_note.clear();
    m_values.clear();
    m_ascending = true;
    if (!file || unit == TimeUnit::Frame)
        return;
    if (unit == TimeUnit::GameTime && !hasGameTimes(*file)) {
        m_note = QObject::tr("no game times in this file");
        return;
    }
    if (unit == TimeUnit::Utc && !hasUtcTimes(*file)) {
        m_note = QObject::tr("no UTC times in this file");
        return;
    }
    m_shown = unit;
    m_values.resize(size_t(frames));
    for (int f = 0; f < frames; ++f)
        m_values[size_t(f)] = unit == TimeUnit::GameTime ? double(file->gameTimeTicks(f)) / 1e7 : double(utcMsOfFrame(*file, f));
    m_ascending = std::is_sorted(m_values.begin(), m_values.end());
}

AxisUnit FrameClock::axisUnit() const
{
    switch (m_shown) {
    case TimeUnit::GameTime: return AxisUnit::Seconds;
    case TimeUnit::Utc: return AxisUnit::ClockMs;
    case TimeUnit::Frame: break;
    }
    return AxisUnit::Frame;
}

double FrameClock::valueAt(double frame) const
{
    if (m_values.empty())
        return frame;
    const double f = std::clamp(frame, 0.0, double(m_values.size() - 1));
    const size_t i = size_t(f);
    if (i + 1 >= m_values.size())
        return m_values.back();
    return m_values[i] + (f - double(i)) * (m_values[i + 1] - m_values[i]);
}

std::vector<FrameClock::Tick> FrameClock::ticks(double first, double last, double pixels, const TextWidth& width, double gapPx) const
{
    std::vector<Tick> out;
    if (!(last >= first))
        return out;
    if (m_values.empty()) {
        for (const AxisTick& t : axisTicks(AxisUnit::Frame, first, last, pixels, width, gapPx).ticks)
            out.push_back({t.value, QString::fromStdString(t.label)});
        return out;
    }
    const int n = int(m_values.size());
    const int fa = std::clamp(int(std::floor(first)), 0, n - 1), fb = std::clamp(int(std::ceil(last)), 0, n - 1);
    double lo = valueAt(first), hi = valueAt(last);
    if (!m_ascending) { // a clock that goes back: its whole visible range
        for (int f = fa; f <= fb; ++f)
            lo = std::min(lo, m_values[size_t(f)]), hi = std::max(hi, m_values[size_t(f)]);
    }
    if (!(hi > lo)) { // a paused clock over the whole view: one label at the start
        const AxisTickSet one = axisTicks(axisUnit(), lo, lo, pixels, width, gapPx);
        if (!one.ticks.empty())
            out.push_back({first, QString::fromStdString(one.ticks.front().label)});
        return out;
    }
    const AxisTickSet set = axisTicks(axisUnit(), lo, hi, pixels, width, gapPx);
    for (const AxisTick& t : set.ticks) {
        const QString label = QString::fromStdString(t.label);
        if (m_ascending) {
            // The first frame at or past the value, and the fraction of the way from the one before.
            const auto it = std::lower_bound(m_values.begin(), m_values.end(), t.value);
            if (it == m_values.end())
                continue;
            const size_t i = size_t(it - m_values.begin());
            const double frame = i == 0 ? 0.0 : double(i - 1) + (t.value - m_values[i - 1]) / (m_values[i] - m_values[i - 1]);
            if (frame >= first && frame <= last)
                out.push_back({frame, label});
            continue;
        }
        for (int f = fa; f < fb; ++f) { // every crossing of the value between two frames
            const double a = m_values[size_t(f)], b = m_values[size_t(f) + 1];
            if (a != b && ((a <= t.value && t.value < b) || (b < t.value && t.value <= a))) {
                const double frame = f + (t.value - a) / (b - a);
                if (frame >= first && frame <= last)
                    out.push_back({frame, label});
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.frame < b.frame; });
    return out;
}

} // namespace vtxw
