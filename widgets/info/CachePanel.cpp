// SPDX-License-Identifier: MIT
#include "info/CachePanel.hpp"

#include "session/ReplaySession.hpp"

#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

namespace vtxw {

namespace {
QString bytesText(double b)
{
    return b >= 1 << 30 ? QStringLiteral("%1 GB").arg(b / double(1 << 30), 0, 'f', 1) : QStringLiteral("%1 MB").arg(b / double(1 << 20), 0, 'f', 0);
}
} // namespace

CachePanel::CachePanel(ReplaySession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    m_label = new QLabel(tr("No replay open"), this);
    m_label->setTextFormat(Qt::RichText);
    m_label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_label->setMinimumHeight(0);
    layout->addWidget(m_label, 1);
    setMinimumHeight(40); // a tab in the right column, which shares 600 px with the diff
    m_timer = new QTimer(this);
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &CachePanel::refresh);
    m_timer->start();
}

void CachePanel::refresh()
{
    auto* cache = m_session->cache();
    if (!cache) {
        m_label->setText(tr("No replay open"));
        emit summaryChanged({});
        return;
    }
    const vtx::CacheStats s = cache->stats();
    const QString mode = QString::fromLatin1(vtx::accessModeName(s.state.mode));
    emit summaryChanged(tr("cache: %1, %2 chunks, %3/%4, hit %5%")
                            .arg(mode)
                            .arg(s.residentChunks)
                            .arg(bytesText(double(s.residentBytes)), bytesText(double(s.budgetBytes)))
                            .arg(int(s.hitRate() * 100)));
    m_label->setText(tr("<table>"
                        "<tr><td>policy</td><td>%1</td></tr><tr><td>mode</td><td>%2</td></tr>"
                        "<tr><td>window</td><td>−%3 / +%4 chunks</td></tr><tr><td>resident</td><td>%5 chunks, %6</td></tr>"
                        "<tr><td>budget</td><td>%7</td></tr><tr><td>hit rate</td><td>%8% (%9 hits, %10 misses)</td></tr>"
                        "<tr><td>decodes</td><td>%11 (%12 prefetch, %13 wasted)</td></tr><tr><td>decode time</td><td>%14 ms</td></tr></table>")
                         .arg(QString::fromStdString(s.policy), mode)
                         .arg(s.state.back)
                         .arg(s.state.forward)
                         .arg(s.residentChunks)
                         .arg(bytesText(double(s.residentBytes)), bytesText(double(s.budgetBytes)))
                         .arg(s.hitRate() * 100, 0, 'f', 1)
                         .arg(s.hits)
                         .arg(s.misses)
                         .arg(s.decodes)
                         .arg(s.prefetchDecodes)
                         .arg(s.prefetchWasted)
                         .arg(s.decodeMs, 0, 'f', 1));
}

} // namespace vtxw
