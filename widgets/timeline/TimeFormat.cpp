// SPDX-License-Identifier: MIT
#include "timeline/TimeFormat.hpp"

#include "vtx/file/ReplayFile.hpp"

#include <QDateTime>
#include <QObject>
#include <QTimeZone>

namespace vtxw {

int64_t utcMsOfFrame(const vtx::ReplayFile& file, int frame)
{
    int64_t utc = file.createdUtcTicks(frame);
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
    const int64_t ms = ticks / 10000;
    const int64_t minutes = ms / 60000;
    return QStringLiteral("%1:%2").arg(minutes).arg(double(ms - minutes * 60000) / 1000.0, 6, 'f', 3, QLatin1Char('0'));
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

QString statusTimeText(const vtx::ReplayFile& file, int frame, TimeUnit unit)
{
    switch (unit) {
    case TimeUnit::GameTime: return QObject::tr("game %1").arg(gameTimeText(file.gameTimeTicks(frame)));
    case TimeUnit::Utc: return QObject::tr("UTC %1").arg(utcText(file, frame));
    case TimeUnit::Frame: break;
    }
    return QObject::tr("game %1 · UTC %2").arg(gameTimeText(file.gameTimeTicks(frame)), utcText(file, frame));
}

} // namespace vtxw
