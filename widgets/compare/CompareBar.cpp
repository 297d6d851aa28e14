// SPDX-License-Identifier: MIT
#include "compare/CompareBar.hpp"

#include "compare/CompareSession.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace vtxw {

CompareBar::CompareBar(CompareSession* compare, QWidget* parent) : QWidget(parent), m_compare(compare)
{
    setObjectName("compareBar");
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(4, 0, 4, 0);
    m_file = new QLabel(this);
    m_file->setTextFormat(Qt::RichText);
    l->addWidget(m_file);
    m_frame = new QLabel(this);
    l->addWidget(m_frame);
    l->addStretch(1);
    m_alignment = new QComboBox(this);
    m_alignment->addItem(tr("by frame"), int(vtx::Alignment::Frame));
    m_alignment->addItem(tr("by game time"), int(vtx::Alignment::Time));
    m_alignment->setToolTip(tr("Pair A's frames with B's frame of the same index, or with B's last frame at or before the same game time"));
    l->addWidget(m_alignment);
    m_offset = new QDoubleSpinBox(this);
    m_offset->setObjectName("compareOffset");
    m_offset->setToolTip(tr("Offset added to A's position in B: frames, or seconds of game time"));
    m_offset->setRange(-1e7, 1e7);
    m_offset->setKeyboardTracking(false);
    l->addWidget(m_offset); // no label: the suffix says frames or s, the tooltip the rest (the bar must fit 800 px)
    l->addWidget(new QLabel(tr("ε"), this));
    m_epsilon = new QLineEdit(this);
    m_epsilon->setObjectName("compareEpsilon");
    m_epsilon->setPlaceholderText(QStringLiteral("0"));
    m_epsilon->setToolTip(tr("Absolute tolerance for float comparisons (lane and diff)"));
    m_epsilon->setMaximumWidth(70);
    auto* validator = new QDoubleValidator(0, 1e300, 12, m_epsilon);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    m_epsilon->setValidator(validator);
    l->addWidget(m_epsilon);
    m_lane = new QLabel(this);
    l->addWidget(m_lane);
    m_cancelLane = new QToolButton(this);
    m_cancelLane->setText(tr("Stop"));
    m_cancelLane->setToolTip(tr("Stop comparing the rest of the replays (what is on the lane stays)"));
    m_cancelLane->setAutoRaise(true);
    l->addWidget(m_cancelLane);
    auto* close = new QToolButton(this);
    close->setObjectName("closeComparison");
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close comparison (%1)").arg(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W).toString(QKeySequence::NativeText)));
    close->setAutoRaise(true);
    l->addWidget(close);
    // The labels give up width before the controls do: the window must still fit 800 px.
    for (QLabel* label : {m_file, m_frame, m_lane})
        label->setMinimumWidth(24);
    setVisible(false);

    connect(m_alignment, &QComboBox::activated, this, &CompareBar::applyOptions);
    connect(m_offset, &QDoubleSpinBox::valueChanged, this, &CompareBar::applyOptions);
    connect(m_epsilon, &QLineEdit::editingFinished, this, &CompareBar::applyOptions);
    connect(m_epsilon, &QLineEdit::textChanged, this, [this](const QString& t) {
        if (t.isEmpty())
            applyOptions(); // an empty field never finishes editing through the validator
    });
    connect(m_cancelLane, &QToolButton::clicked, compare, [compare] {
        if (compare->isLaneComputing())
            compare->cancelLane();
        else
            compare->recomputeLane();
    });
    connect(close, &QToolButton::clicked, this, &CompareBar::closeRequested);
    connect(compare, &CompareSession::opened, this, [this] {
        setVisible(true);
        showOptions();
        updateFrame();
        updateLane();
    });
    connect(compare, &CompareSession::closed, this, [this] { setVisible(false); });
    connect(compare->viewState(), &ViewState::comparePairingChanged, this, &CompareBar::showOptions);
    connect(compare, &CompareSession::frameBRequested, this, &CompareBar::updateFrame);
    connect(compare, &CompareSession::frameBReady, this, &CompareBar::updateFrame);
    connect(compare, &CompareSession::laneChanged, this, &CompareBar::updateLane);
    connect(compare, &CompareSession::laneFinished, this, &CompareBar::updateLane);
    showOptions();
}

void CompareBar::showOptions()
{
    m_updating = true;
    const ComparePairing& o = m_compare->pairing();
    m_alignment->setCurrentIndex(o.alignment == vtx::Alignment::Time ? 1 : 0);
    if (o.alignment == vtx::Alignment::Time) {
        m_offset->setDecimals(3);
        m_offset->setSuffix(tr(" s"));
        m_offset->setSingleStep(0.1);
        m_offset->setValue(double(o.offset) / double(vtx::kTicksPerSecond));
    } else {
        m_offset->setDecimals(0);
        m_offset->setSuffix(tr(" frames"));
        m_offset->setSingleStep(1);
        m_offset->setValue(double(o.offset));
    }
    m_epsilon->setText(o.epsilon > 0 ? QString::number(o.epsilon) : QString());
    if (m_compare->isActive()) {
        const QString name = QFileInfo(m_compare->path()).fileName().toHtmlEscaped();
        m_file->setText(tr("Comparing with <b>%1</b>%2").arg(name, m_compare->sameLayout() ? QString() : tr(" (schemas differ: compared by name)")));
        m_file->setToolTip(m_compare->path());
    }
    m_updating = false;
}

void CompareBar::applyOptions()
{
    if (m_updating)
        return;
    ComparePairing o = m_compare->pairing();
    const auto alignment = vtx::Alignment(m_alignment->currentData().toInt());
    if (alignment != o.alignment) {
        o.alignment = alignment;
        o.offset = 0; // frames and ticks do not convert into each other
    } else {
        o.offset = alignment == vtx::Alignment::Time ? int64_t(std::llround(m_offset->value() * double(vtx::kTicksPerSecond)))
                                                     : int64_t(std::llround(m_offset->value()));
    }
    o.epsilon = m_epsilon->text().isEmpty() ? 0.0 : std::max(0.0, m_epsilon->text().toDouble());
    m_compare->viewState()->setComparePairing(o);
    showOptions();
}

void CompareBar::updateFrame()
{
    if (!m_compare->isActive())
        return;
    const int b = m_compare->wantedFrameB();
    if (m_compare->wantedFrameA() < 0)
        m_frame->clear();
    else if (b < 0)
        m_frame->setText(tr("· B has no frame paired with %1").arg(m_compare->wantedFrameA()));
    else if (!m_compare->frameBError().isEmpty())
        m_frame->setText(tr("· B frame %1: <span style='color:#D55E00'>%2</span>").arg(b).arg(m_compare->frameBError().toHtmlEscaped()));
    else if (m_compare->isLoadingB())
        m_frame->setText(tr("· B frame %1 <i>loading…</i>").arg(b));
    else
        m_frame->setText(tr("· B frame %1").arg(b));
}

void CompareBar::updateLane()
{
    const bool computing = m_compare->isLaneComputing();
    m_cancelLane->setVisible(m_compare->isActive() && (computing || !m_compare->isLaneComplete()));
    m_cancelLane->setText(computing ? tr("Stop") : tr("Restart"));
    if (!m_compare->isActive()) {
        m_lane->clear();
        return;
    }
    const int first = m_compare->firstDivergence();
    const int unreadable = m_compare->unreadableCount();
    // The reasons name whole paths: they go in the tooltip, the bar keeps to a few words
    // (at 1366 px a reason in the bar squeezed the other labels to "Compar · B f", review 5 #8).
    QString text;
    QStringList tips;
    const QString& error = m_compare->laneError();
    const bool stopped = !error.isEmpty() && error != QLatin1String("cancelled");
    if (stopped) {
        text = tr("<span style='color:#D55E00'>lane stopped</span>");
        tips << tr("The comparison stopped: %1").arg(error.toHtmlEscaped());
    } else if (m_compare->isLaneComputing()) {
        text = tr("comparing %1 %").arg(m_compare->laneProgressPercent());
    } else if (!m_compare->isLaneComplete()) {
        text = tr("stopped at %1 %").arg(m_compare->laneProgressPercent());
    }
    auto append = [&text](const QString& part) { text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) + part; };
    // At 1366 px the bar gives this label ~400 px: the unreadable count comes first, and the
    // verdict that follows it speaks of the rest ("no divergence" alone would claim too much).
    const bool noDivergence = first < 0 && m_compare->isLaneComplete();
    if (noDivergence)
        text.clear();
    if (unreadable > 0) {
        append(tr("<span style='color:#D55E00'>⚠ %n frame(s) unreadable</span>", nullptr, unreadable));
        tips << tr("%n frame(s) of A not compared (hatched on the lane): the frame or its partner in B cannot be read. First reason: %1", nullptr,
                   unreadable)
                    .arg(m_compare->unreadableReason().toHtmlEscaped());
    }
    if (first >= 0)
        append(tr("first divergence: frame %1").arg(first));
    else if (noDivergence)
        append(unreadable > 0 ? tr("<b>no divergence</b> in the rest") : tr("<b>no divergence</b>"));
    m_lane->setText(text);
    m_lane->setToolTip(tips.join(QStringLiteral("<br>")));
}

} // namespace vtxw
