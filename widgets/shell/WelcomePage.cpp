// SPDX-License-Identifier: MIT
#include "shell/WelcomePage.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace vtxw {

WelcomePage::WelcomePage(QWidget* parent) : QScrollArea(parent)
{
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* hint = new QLabel(tr("Open a replay (Ctrl+O) or drop a .vtx file here"), page);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true); // its one-line width would set the window's minimum
    QFont big = hint->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    hint->setFont(big);
    layout->addStretch();
    layout->addWidget(hint);
    auto* start = new QLabel(page);
    start->setObjectName("gettingStarted");
    start->setTextFormat(Qt::RichText);
    start->setWordWrap(true);
    start->setMaximumWidth(560);
    start->setText(tr("<p><b>Getting started</b></p><ol>"
                      "<li><b>Open</b> a replay: File ▸ Open (Ctrl+O), drop a .vtx file on the window, or pick a recent file below.</li>"
                      "<li><b>Scrub</b> by dragging the timeline; Space plays, ← / → step one frame, Home / End jump to the ends.</li>"
                      "<li><b>Inspect</b>: pick an entity on the left; its properties show here. Right-click a value to watch or plot it.</li>"
                      "<li><b>Compare</b>: A pins frame A at the playhead, B sets frame B; the Diff panel lists what changed.</li>"
                      "<li>F1 lists every shortcut; File ▸ Settings (Ctrl+,) sets the memory budget, time display and theme.</li>"
                      "</ol>"));
    // Centred by stretches, not by an alignment: aligned, the label got its size hint's width
    // (392 px) and a height for another width, and the list stopped in item 4 at 1920 × 1080.
    // Between stretches it is as wide as the room up to its maximum, and as tall as that needs.
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(start, 1);
    row->addStretch();
    layout->addLayout(row);
    m_recentHost = new QWidget(page);
    m_recentHost->setObjectName("recentFiles");
    m_recentHost->setLayout(new QVBoxLayout);
    layout->addWidget(m_recentHost, 0, Qt::AlignHCenter);
    layout->addStretch();
    // Scrolled, so that a long recent-files list never raises the window's minimum height
    // (the window must fit 800 × 600 whatever the list holds).
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(true);
    setWidget(page);
}

void WelcomePage::setRecentFiles(const QStringList& paths)
{
    // Out of the layout at once (a stale button would still count towards its size); deleted
    // later because this runs from a button's own clicked signal.
    for (QWidget* old : m_recentHost->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        m_recentHost->layout()->removeWidget(old);
        old->hide();
        old->deleteLater();
    }
    for (const QString& p : paths) {
        auto* b = new QPushButton(QFileInfo(p).fileName(), m_recentHost);
        b->setFlat(true);
        b->setToolTip(p);
        connect(b, &QPushButton::clicked, this, [this, p] { emit openRequested(p); });
        m_recentHost->layout()->addWidget(b);
    }
}

} // namespace vtxw
