// SPDX-License-Identifier: MIT
// DiffPanel's compare mode (two replays): A is this replay at the playhead, B the compared
// replay's frame paired with it (CompareSession), both following the playhead.

#include "compare/CompareSession.hpp"
#include "diff/DiffPanel.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "vtx/diff/ReplayPairing.hpp"

#include <QLineEdit>

namespace vtxw {

void DiffPanel::setCompareSession(CompareSession* compare)
{
    m_compare = compare;
    // The view state cleared A and B on entering and leaving compare mode (ViewState::setComparing).
    connect(compare, &CompareSession::opened, this, [this] {
        m_comparing = true;
        vtx::DiffOptions o = m_options;
        o.tolerance.absolute = m_compare->pairing().epsilon;
        m_options = o;
        m_epsilon->setText(o.tolerance.absolute > 0 ? QString::number(o.tolerance.absolute) : QString());
        followCompare();
    });
    connect(compare, &CompareSession::closed, this, [this] {
        if (!m_comparing)
            return;
        m_comparing = false;
        syncMarkers();
    });
    connect(compare, &CompareSession::frameBReady, this, &DiffPanel::compareArrived);
    connect(compare, &CompareSession::repaired, this, [this] {
        if (!m_comparing)
            return;
        if (m_options.tolerance.absolute != m_compare->pairing().epsilon) {
            m_options.tolerance.absolute = m_compare->pairing().epsilon;
            m_epsilon->setText(m_options.tolerance.absolute > 0 ? QString::number(m_options.tolerance.absolute) : QString());
        }
        m_b = {}; // re-paired: the B frame on hand may no longer be the partner
        followCompare();
    });
    // The B frame is asked for as soon as the playhead moves, while A's frame decodes.
    connect(m_viewState, &ViewState::requestedFrameChanged, this, [this] {
        if (m_comparing)
            followCompare();
    });
}

void DiffPanel::syncCompareTolerance()
{
    if (!m_comparing || !m_compare || m_compare->pairing().epsilon == m_options.tolerance.absolute)
        return;
    ComparePairing o = m_compare->pairing();
    o.epsilon = m_options.tolerance.absolute;
    m_compare->viewState()->setComparePairing(o);
}

void DiffPanel::followCompare()
{
    m_wantA = m_viewState->requestedFrame();
    // A is what the inspector shows; while the playhead's frame decodes, the shown one lags and
    // the summary says "loading" (isUpToDate compares the frames with the ones wanted).
    m_a = m_viewState->shownFrame();
    m_compare->requestFrameFor(m_wantA); // may answer at once (compareArrived)
    m_wantB = m_compare->wantedFrameB();
    if (!m_compare->isLoadingB() && m_wantB >= 0)
        m_b = m_compare->frameB();
    recompute();
}

void DiffPanel::compareArrived()
{
    if (!m_comparing || m_compare->wantedFrameA() != m_wantA)
        return;
    m_wantB = m_compare->wantedFrameB();
    if (!m_compare->isLoadingB() && m_wantB >= 0)
        m_b = m_compare->frameB();
    recompute();
}

QString DiffPanel::compareSummary() const
{
    if (!m_compare->sameLayout())
        return tr("The compared replay's schema lays its types out differently: this panel compares replays that share one "
                  "layout. The divergence lane compares them by name; <tt>vtxscope-cli diverge</tt> lists the properties.");
    if (m_wantB < 0) {
        // A file without game times pairs nothing by time: say why rather than blame the offset.
        if (const auto& a = m_session->file(), &b = m_compare->fileB(); a && b)
            if (vtx::Status s = vtx::checkAlignment(*a, *b, m_compare->pairing().alignment); !s)
                return tr("Nothing is paired: %1.").arg(QString::fromStdString(s.message()).toHtmlEscaped());
        return tr("A = frame %1 of this replay: the compared replay has no frame paired with it (see the alignment and offset).").arg(m_wantA);
    }
    if (!m_compare->frameBError().isEmpty())
        return tr("B = frame %1 of the compared replay could not be read: %2").arg(m_wantB).arg(m_compare->frameBError().toHtmlEscaped());
    return {};
}

} // namespace vtxw
