// SPDX-License-Identifier: MIT
#pragma once
// The user's preferences (Edit ▸ Settings), kept in QSettings and announced when they change so
// the panels that show them follow at once. Keys: cache/budgetMB (0 = a quarter of RAM),
// view/timeUnit (frame | game | utc), view/theme (system | light | dark), view/flashChanges,
// playback/defaultSpeed, advanced/developerTools.

#include <QObject>
#include <QString>

namespace vtxw {

enum class TimeUnit { Frame, GameTime, Utc };
enum class Theme { System, Light, Dark };

class UserSettings : public QObject {
    Q_OBJECT
public:
    explicit UserSettings(QObject* parent = nullptr);

    /// The chunk cache's memory budget in MiB; 0 means the default (a quarter of physical memory).
    int cacheBudgetMB() const { return m_cacheBudgetMB; }
    TimeUnit timeUnit() const { return m_timeUnit; }
    Theme theme() const { return m_theme; }
    bool flashChanges() const { return m_flashChanges; }
    /// The playback speed every replay starts at.
    double defaultSpeed() const { return m_defaultSpeed; }
    /// Settings ▸ Advanced: the Debug menu (access trace, cache policy) is shown.
    bool developerTools() const { return m_developerTools; }

    static QString timeUnitKey(TimeUnit u);
    static QString themeKey(Theme t);

public slots:
    void setCacheBudgetMB(int mb);
    void setTimeUnit(TimeUnit unit);
    void setTheme(Theme theme);
    void setFlashChanges(bool on);
    void setDefaultSpeed(double speed);
    void setDeveloperTools(bool on);

signals:
    void cacheBudgetChanged(int mb);
    void timeUnitChanged(TimeUnit unit);
    void themeChanged(Theme theme);
    void flashChangesChanged(bool on);
    void defaultSpeedChanged(double speed);
    void developerToolsChanged(bool on);

private:
    int m_cacheBudgetMB = 0;
    TimeUnit m_timeUnit = TimeUnit::Frame;
    Theme m_theme = Theme::System;
    bool m_flashChanges = true;
    double m_defaultSpeed = 1.0;
    bool m_developerTools = false;
};

} // namespace vtxw
