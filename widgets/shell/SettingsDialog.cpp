// SPDX-License-Identifier: MIT
#include "shell/SettingsDialog.hpp"

#include "session/PlaybackController.hpp"
#include "session/ReplaySession.hpp"
#include "shell/UserSettings.hpp"

#include "vtx/cache/ChunkCache.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace vtxw {

namespace {
QString mbText(double bytes)
{
    return bytes >= double(1 << 30) ? QObject::tr("%1 GB").arg(bytes / double(1 << 30), 0, 'f', 1)
                                    : QObject::tr("%1 MB").arg(bytes / double(1 << 20), 0, 'f', 0);
}
} // namespace

SettingsDialog::SettingsDialog(UserSettings* settings, ReplaySession* session, QWidget* parent)
    : QDialog(parent), m_settings(settings), m_session(session)
{
    setObjectName("settingsDialog");
    setWindowTitle(tr("Settings"));
    auto* form = new QFormLayout;

    // Memory: automatic (a quarter of RAM) or a fixed number of MB.
    const int defaultMB = int(vtx::defaultCacheBudget() >> 20);
    m_autoBudget = new QCheckBox(tr("Automatic (a quarter of memory: %1)").arg(mbText(double(vtx::defaultCacheBudget()))), this);
    m_autoBudget->setObjectName("autoBudget");
    m_budget = new QSpinBox(this);
    m_budget->setObjectName("cacheBudget");
    m_budget->setRange(64, std::max(64, defaultMB * 4));
    m_budget->setSingleStep(256);
    m_budget->setSuffix(tr(" MB"));
    m_budget->setValue(settings->cacheBudgetMB() > 0 ? settings->cacheBudgetMB() : defaultMB);
    m_autoBudget->setChecked(settings->cacheBudgetMB() == 0);
    m_budget->setEnabled(!m_autoBudget->isChecked());
    auto applyBudget = [this] {
        m_budget->setEnabled(!m_autoBudget->isChecked());
        m_settings->setCacheBudgetMB(m_autoBudget->isChecked() ? 0 : m_budget->value());
        refreshMemoryUse();
    };
    connect(m_autoBudget, &QCheckBox::toggled, this, applyBudget);
    // editingFinished, not valueChanged: typing "2048" must not pass through a 2 MB budget.
    connect(m_budget, &QSpinBox::editingFinished, this, applyBudget);
    m_memoryUse = new QLabel(this);
    m_memoryUse->setObjectName("memoryUse");
    auto* memory = new QVBoxLayout;
    memory->addWidget(m_autoBudget);
    memory->addWidget(m_budget);
    memory->addWidget(m_memoryUse);
    form->addRow(tr("Decoded-frame memory:"), memory);

    auto* timeUnit = new QComboBox(this);
    timeUnit->setObjectName("timeUnit");
    timeUnit->addItem(tr("Frame number"), int(TimeUnit::Frame));
    timeUnit->addItem(tr("Game time"), int(TimeUnit::GameTime));
    timeUnit->addItem(tr("UTC clock"), int(TimeUnit::Utc));
    timeUnit->setCurrentIndex(timeUnit->findData(int(settings->timeUnit())));
    connect(timeUnit, &QComboBox::activated, this, [this, timeUnit] { m_settings->setTimeUnit(TimeUnit(timeUnit->currentData().toInt())); });
    form->addRow(tr("Time display:"), timeUnit);

    auto* theme = new QComboBox(this);
    theme->setObjectName("theme");
    theme->addItem(tr("System"), int(Theme::System));
    theme->addItem(tr("Light"), int(Theme::Light));
    theme->addItem(tr("Dark"), int(Theme::Dark));
    theme->setCurrentIndex(theme->findData(int(settings->theme())));
    connect(theme, &QComboBox::activated, this, [this, theme] { m_settings->setTheme(Theme(theme->currentData().toInt())); });
    form->addRow(tr("Theme:"), theme);

    auto* flash = new QCheckBox(tr("Flash values that change while playing"), this);
    flash->setObjectName("flashChanges");
    flash->setChecked(settings->flashChanges());
    connect(flash, &QCheckBox::toggled, settings, &UserSettings::setFlashChanges);
    connect(settings, &UserSettings::flashChangesChanged, flash, &QCheckBox::setChecked);
    form->addRow(tr("Inspector:"), flash);

    auto* speed = new QComboBox(this);
    speed->setObjectName("defaultSpeed");
    for (double s : PlaybackController::speeds())
        speed->addItem(QStringLiteral("%1×").arg(s), s);
    const int current = speed->findData(settings->defaultSpeed());
    speed->setCurrentIndex(current >= 0 ? current : speed->findData(1.0));
    connect(speed, &QComboBox::activated, this, [this, speed] { m_settings->setDefaultSpeed(speed->currentData().toDouble()); });
    form->addRow(tr("Playback starts at:"), speed);

    auto* developer = new QCheckBox(tr("Developer tools (the Debug menu: access trace, cache policy)"), this);
    developer->setObjectName("developerTools");
    developer->setChecked(settings->developerTools());
    connect(developer, &QCheckBox::toggled, settings, &UserSettings::setDeveloperTools);
    form->addRow(tr("Advanced:"), developer);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Changes apply at once."), this));
    layout->addWidget(buttons);

    auto* timer = new QTimer(this);
    timer->setInterval(500);
    connect(timer, &QTimer::timeout, this, &SettingsDialog::refreshMemoryUse);
    timer->start();
    refreshMemoryUse();
}

QString SettingsDialog::memoryUseText() const
{
    return m_memoryUse->text();
}

void SettingsDialog::refreshMemoryUse()
{
    const vtx::ChunkCache* cache = m_session->cache();
    if (!cache) {
        m_memoryUse->setText(tr("In use now: nothing (no replay open); budget %1").arg(mbText(double(m_session->cacheBudget()))));
        return;
    }
    const vtx::CacheStats s = cache->stats();
    const QString chunks = s.residentChunks == 1 ? tr("1 chunk") : tr("%1 chunks").arg(s.residentChunks);
    m_memoryUse->setText(tr("In use now: %1 of %2 (%3, peak %4)")
                             .arg(mbText(double(s.residentBytes)), mbText(double(s.budgetBytes)), chunks, mbText(double(s.peakResidentBytes))));
}

} // namespace vtxw
