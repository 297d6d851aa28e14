// SPDX-License-Identifier: MIT
#include "shell/DebugMenu.hpp"

#include "common/Prompts.hpp"
#include "session/ReplaySession.hpp"
#include "shell/ActionTable.hpp"
#include "shell/UserSettings.hpp"

#include <QActionGroup>
#include <QMenu>
#include <QMenuBar>

namespace vtxw {

DebugMenu::DebugMenu(ReplaySession* session, UserSettings* settings, ActionTable& actions, QMenuBar* menuBar, QWidget* window)
    : QObject(window), m_settings(settings), m_menu(menuBar->addMenu(tr("De&bug")))
{
    m_menu->setObjectName("debugMenu");
    QAction* record = actions.add(m_menu, "recordTrace", tr("Record &access trace"), {}, [session](bool on) { session->setTraceRecording(on); });
    record->setCheckable(true);
    actions.add(
        m_menu, "saveTrace", tr("Save access trace…"), {},
        [session, window] {
            const QString p = prompts().saveFilePath(window, tr("Save access trace"), {}, tr("Traces (*.trace)"));
            if (p.isEmpty())
                return;
            if (auto st = session->recordedTrace().save(p.toStdString()); !st)
                prompts().showError(window, tr("Save access trace"), QString::fromStdString(st.message()));
        },
        ActionTable::When::ReplayOpen);
    QMenu* policy = m_menu->addMenu(tr("Cache &policy"));
    auto* policies = new QActionGroup(policy);
    for (const QString& spec : {QStringLiteral("adaptive"), QStringLiteral("fixed:2,2"), QStringLiteral("none")}) {
        QAction* a = policy->addAction(spec);
        a->setObjectName("cachePolicy:" + spec);
        a->setCheckable(true);
        a->setChecked(spec == session->cachePolicy());
        policies->addAction(a);
        connect(a, &QAction::triggered, session, [session, spec] { session->setCachePolicy(spec); });
    }
    connect(settings, &UserSettings::developerToolsChanged, this, &DebugMenu::updateVisibility);
    updateVisibility();
}

void DebugMenu::forceVisible(bool on)
{
    m_forced = on;
    updateVisibility();
}

bool DebugMenu::isVisible() const
{
    return m_menu->menuAction()->isVisible();
}

void DebugMenu::updateVisibility()
{
    const bool shown = m_forced || m_settings->developerTools();
    if (shown == m_menu->menuAction()->isVisible())
        return;
    m_menu->menuAction()->setVisible(shown);
    emit visibilityChanged(shown);
}

} // namespace vtxw
