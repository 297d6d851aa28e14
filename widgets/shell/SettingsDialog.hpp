// SPDX-License-Identifier: MIT
#pragma once
// Edit ▸ Settings: every choice applies at once (UserSettings announces it) and is kept in
// QSettings; the memory row shows what the cache holds now, refreshed while the dialog is open.

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace vtxw {

class ReplaySession;
class UserSettings;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(UserSettings* settings, ReplaySession* session, QWidget* parent = nullptr);
    /// Re-reads the cache's use (a timer calls this while the dialog is shown).
    void refreshMemoryUse();
    QString memoryUseText() const;

private:
    UserSettings* m_settings;
    ReplaySession* m_session;
    QCheckBox* m_autoBudget;
    QSpinBox* m_budget;
    QLabel* m_memoryUse;
};

} // namespace vtxw
