// SPDX-License-Identifier: MIT
#include "shell/UserSettings.hpp"

#include <QSettings>

namespace vtxw {

QString UserSettings::timeUnitKey(TimeUnit u)
{
    switch (u) {
    case TimeUnit::GameTime: return QStringLiteral("game");
    case TimeUnit::Utc: return QStringLiteral("utc");
    case TimeUnit::Frame: break;
    }
    return QStringLiteral("frame");
}

QString UserSettings::themeKey(Theme t)
{
    switch (t) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

UserSettings::UserSettings(QObject* parent) : QObject(parent)
{
    QSettings s;
    m_cacheBudgetMB = std::max(0, s.value("cache/budgetMB", 0).toInt());
    const QString unit = s.value("view/timeUnit").toString();
    for (TimeUnit u : {TimeUnit::Frame, TimeUnit::GameTime, TimeUnit::Utc})
        if (unit == timeUnitKey(u))
            m_timeUnit = u;
    const QString theme = s.value("view/theme").toString();
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (theme == themeKey(t))
            m_theme = t;
    m_flashChanges = s.value("view/flashChanges", true).toBool();
    m_developerTools = s.value("advanced/developerTools", false).toBool();
    m_defaultSpeed = s.value("playback/defaultSpeed", 1.0).toDouble();
    if (!(m_defaultSpeed > 0))
        m_defaultSpeed = 1.0;
}

void UserSettings::setCacheBudgetMB(int mb)
{
    mb = std::max(0, mb);
    if (mb == m_cacheBudgetMB)
        return;
    m_cacheBudgetMB = mb;
    QSettings().setValue("cache/budgetMB", mb);
    emit cacheBudgetChanged(mb);
}

void UserSettings::setTimeUnit(TimeUnit unit)
{
    if (unit == m_timeUnit)
        return;
    m_timeUnit = unit;
    QSettings().setValue("view/timeUnit", timeUnitKey(unit));
    emit timeUnitChanged(unit);
}

void UserSettings::setTheme(Theme theme)
{
    if (theme == m_theme)
        return;
    m_theme = theme;
    QSettings().setValue("view/theme", themeKey(theme));
    emit themeChanged(theme);
}

void UserSettings::setFlashChanges(bool on)
{
    if (on == m_flashChanges)
        return;
    m_flashChanges = on;
    QSettings().setValue("view/flashChanges", on);
    emit flashChangesChanged(on);
}

void UserSettings::setDefaultSpeed(double speed)
{
    if (!(speed > 0) || speed == m_defaultSpeed)
        return;
    m_defaultSpeed = speed;
    QSettings().setValue("playback/defaultSpeed", speed);
    emit defaultSpeedChanged(speed);
}

void UserSettings::setDeveloperTools(bool on)
{
    if (on == m_developerTools)
        return;
    m_developerTools = on;
    QSettings().setValue("advanced/developerTools", on);
    emit developerToolsChanged(on);
}

} // namespace vtxw
