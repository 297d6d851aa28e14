// SPDX-License-Identifier: MIT
#include "diff/DiffPanel.hpp"

#include "common/ExportPath.hpp"
#include "common/FittedColumns.hpp"
#include "common/HintTreeView.hpp"
#include "common/Prompts.hpp"
#include "diff/DiffCellText.hpp"
#include "shell/Theme.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"

#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"
#include "vtx/diff/DiffExport.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace vtxw {

namespace {
QString rowKey(const QModelIndex& i)
{
    return i.data(DiffModel::BucketIndexRole).toString() + QLatin1Char('/') + i.data(DiffModel::UniqueIdRole).toString() + QLatin1Char('/') +
        i.data(DiffModel::PathRole).toString();
}
} // namespace

DiffPanel::DiffPanel(ReplaySession* session, ViewState* view, QWidget* parent) : QWidget(parent), m_session(session), m_viewState(view)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    auto* row1 = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("filter: id, type, property or expression"));
    m_filter->setClearButtonEnabled(true);
    m_bucketFilter = new QComboBox(this);
    m_bucketFilter->setToolTip(tr("Only this bucket"));
    m_typeFilter = new QComboBox(this);
    m_typeFilter->setToolTip(tr("Only this entity type"));
    // Combo boxes as wide as their longest item would set the dock's minimum width; the
    // window must fit 800 × 600 (UX.md).
    for (QComboBox* c : {m_bucketFilter, m_typeFilter}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(6);
    }
    row1->addWidget(m_filter, 1);
    row1->addWidget(m_bucketFilter);
    row1->addWidget(m_typeFilter);
    layout->addLayout(row1);

    auto* row2 = new QHBoxLayout;
    m_showAdded = new QCheckBox(tr("+ added"), this);
    m_showRemoved = new QCheckBox(tr("− removed"), this);
    m_showChanged = new QCheckBox(tr("~ changed"), this);
    for (QCheckBox* c : {m_showAdded, m_showRemoved, m_showChanged}) {
        c->setChecked(true);
        row2->addWidget(c);
    }
    row2->addStretch(1);
    layout->addLayout(row2);
    // Tolerance and actions on their own row, so the panel stays narrow.
    row2 = new QHBoxLayout;
    row2->addWidget(new QLabel(tr("ε"), this));
    m_epsilon = new QLineEdit(this);
    m_epsilon->setObjectName("epsilon");
    m_epsilon->setPlaceholderText(QStringLiteral("0"));
    m_epsilon->setToolTip(tr("Absolute tolerance for float comparisons"));
    m_epsilon->setMaximumWidth(70);
    auto* validator = new QDoubleValidator(0, 1e300, 12, m_epsilon);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    m_epsilon->setValidator(validator);
    row2->addWidget(m_epsilon);
    auto button = [this, row2](const QString& text, const QString& tip, const QKeySequence& key, auto slot, QAction** keyed = nullptr) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setAutoRaise(true);
        b->setToolTip(key.isEmpty() ? tip : tip + " (" + key.toString(QKeySequence::NativeText) + ")");
        connect(b, &QToolButton::clicked, this, slot);
        if (!key.isEmpty()) {
            auto* a = new QAction(tip, this);
            a->setShortcut(key);
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            connect(a, &QAction::triggered, this, slot);
            addAction(a);
            if (keyed)
                *keyed = a;
        }
        row2->addWidget(b);
        return b;
    };
    QToolButton* prevButton = button(
        QStringLiteral("▲"), tr("Previous change"), QKeySequence(Qt::CTRL | Qt::Key_Up), [this] { selectNextChange(false); }, &m_prevChange);
    QToolButton* nextButton = button(
        QStringLiteral("▼"), tr("Next change"), QKeySequence(Qt::CTRL | Qt::Key_Down), [this] { selectNextChange(true); }, &m_nextChange);
    m_prevChange->setObjectName("diffPrevChange");
    m_nextChange->setObjectName("diffNextChange");
    button(QStringLiteral("⇄"), tr("Swap A and B"), {}, [this] { m_viewState->swapAB(); });
    QToolButton* exportButton = button(tr("Export"), tr("Copy or save the diff"), {}, [] {});
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Copy as JSON"), this, [this] { QApplication::clipboard()->setText(toJson()); });
    exportMenu->addAction(tr("Copy as CSV"), this, [this] { QApplication::clipboard()->setText(toCsv()); });
    exportMenu->addSeparator();
    exportMenu->addAction(tr("Save as JSON…"), this, [this] { exportTo(true); });
    exportMenu->addAction(tr("Save as CSV…"), this, [this] { exportTo(false); });
    exportButton->setMenu(exportMenu);
    connect(exportMenu, &QMenu::aboutToShow, this, [this, exportMenu] {
        for (QAction* a : exportMenu->actions())
            a->setEnabled(isUpToDate());
    });
    exportButton->setPopupMode(QToolButton::InstantPopup);
    layout->addLayout(row2);

    m_model = new DiffModel(this);
    m_model->setEntityLabels(&m_viewState->entityLabels());
    connect(m_viewState, &ViewState::entityLabelsChanged, m_model, &DiffModel::labelsChanged);
    m_proxy = new DiffFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_view = new HintTreeView(this);
    m_view->setModel(m_proxy);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_proxy, signal, this, [this](const QModelIndex& under) {
            if (!under.isValid()) // entity rows: the summary counts them
                updateSummary();
        });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &DiffPanel::updateSummary);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &DiffPanel::updateSummary);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTextElideMode(Qt::ElideMiddle); // "~ s1mple · player_765…000  Player"
    // A and B too narrow for a vector: fewer decimals before any eliding.
    m_view->setItemDelegate(new DiffCellDelegate(m_view));
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    // Every column in view at any dock width: the names over a third (an entity row says "~ Zen · car_0  Car"), A and B halves of what is left
    // beside room for Δ (a short number), which takes the rest.
    new FittedColumns(m_view, [tree = m_view](int w) {
        // Δ at least as wide as an entity row's count ("29 changes" read "29 chang…" at 540 px),
        // while A and B keep 60 px each.
        const int counts = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).horizontalAdvance(QStringLiteral("99 changes")) + 12;
        const int delta = std::clamp(std::max(w * 14 / 100, counts), 56, std::max(56, std::min(std::max(120, counts), w / 4)));
        const int name = std::clamp(w * 38 / 100, 110, 280);
        const int value = std::max(60, (w - name - delta) / 2);
        tree->header()->resizeSection(DiffModel::NameColumn, name);
        tree->header()->resizeSection(DiffModel::AColumn, value);
        tree->header()->resizeSection(DiffModel::BColumn, value);
    });
    // Next / previous change only while the list shows one: the Diff menu lists these actions,
    // and with no replay open (or nothing changed) they were enabled and did nothing.
    auto changesShown = [this, prevButton, nextButton] {
        const bool any = m_proxy->rowCount() > 0;
        m_prevChange->setEnabled(any);
        m_nextChange->setEnabled(any);
        prevButton->setEnabled(any);
        nextButton->setEnabled(any);
    };
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, changesShown);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, changesShown);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, changesShown);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, changesShown);
    changesShown();
    m_view->setMinimumHeight(36); // a header and a row; the default minimum would push the window past 600 px
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setText(text);
        // An expression that does not compile says why (column, expected, did you mean).
        const QString error = m_proxy->error();
        m_filter->setToolTip(error.isEmpty() ? tr("One word: ids, types and property paths containing it. Otherwise an expression "
                                                  "on the entity in frame B (A if removed), e.g. Health < 20 && type == Player.")
                                             : error);
        m_filter->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #C62828; }"));
    });
    connect(m_bucketFilter, &QComboBox::currentIndexChanged, this, [this] { m_proxy->setBucket(m_bucketFilter->currentData().toString()); });
    connect(m_typeFilter, &QComboBox::currentIndexChanged, this, [this] { m_proxy->setType(m_typeFilter->currentData().toString()); });
    connect(m_showAdded, &QCheckBox::toggled, this, [this](bool on) { m_proxy->setShowStatus("added", on); });
    connect(m_showRemoved, &QCheckBox::toggled, this, [this](bool on) { m_proxy->setShowStatus("removed", on); });
    connect(m_showChanged, &QCheckBox::toggled, this, [this](bool on) { m_proxy->setShowStatus("changed", on); });
    connect(m_epsilon, &QLineEdit::editingFinished, this, [this] {
        vtx::DiffOptions o = m_options;
        o.tolerance.absolute = m_epsilon->text().isEmpty() ? 0.0 : std::max(0.0, m_epsilon->text().toDouble());
        setOptions(o);
    });
    // An empty field is not "acceptable" to the validator, so editingFinished never comes for
    // it: clearing ε resets the tolerance here, at once.
    connect(m_epsilon, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty() && m_options.tolerance.absolute != 0) {
            vtx::DiffOptions o = m_options;
            o.tolerance.absolute = 0;
            setOptions(o);
        }
    });
    // The selection made elsewhere (the entity list, the map's arrows) selects the entity's row
    // here too, unless the current row already belongs to it (a property row the user chose).
    connect(m_viewState, &ViewState::selectionChanged, this, [this](const EntityKey& e) {
        const QModelIndex current = m_view->currentIndex();
        auto isEntity = [&](const QModelIndex& i) {
            return i.isValid() && i.data(DiffModel::BucketIndexRole).toInt() == e.bucket && i.data(DiffModel::UniqueIdRole).toString() == e.uniqueId;
        };
        if (e.isValid() && isEntity(current))
            return;
        for (int r = 0; e.isValid() && r < m_proxy->rowCount(); ++r) {
            const QModelIndex row = m_proxy->index(r, 0);
            if (isEntity(row) && row.data(DiffModel::PathRole).toString().isEmpty()) {
                m_view->setCurrentIndex(row);
                m_view->expand(row);
                m_view->scrollTo(row);
                return;
            }
        }
        // The selected entity has no change here (or nothing is selected): no row stays
        // highlighted for the entity the user left.
        m_view->selectionModel()->clear();
    });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& i) {
        const EntityKey entity{i.data(DiffModel::BucketIndexRole).toInt(), i.data(DiffModel::UniqueIdRole).toString()};
        m_viewState->setSelection(entity);
        emit entityActivated(entity, i.data(DiffModel::PathRole).toString());
    });
    connect(m_view, &QTreeView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex i = m_view->indexAt(pos);
        if (!i.isValid())
            return;
        const QString path = i.data(DiffModel::PathRole).toString();
        const QString id = i.data(DiffModel::UniqueIdRole).toString();
        const QString a = i.siblingAtColumn(DiffModel::AColumn).data(Qt::ToolTipRole).toString();
        const QString b = i.siblingAtColumn(DiffModel::BColumn).data(Qt::ToolTipRole).toString();
        QMenu menu(this);
        menu.addAction(tr("Show in inspector"), this, [this, i] { emit m_view->activated(i); });
        menu.addAction(tr("Copy path"), this, [id, path] { QApplication::clipboard()->setText(path.isEmpty() ? id : id + "." + path); });
        if (!path.isEmpty()) {
            menu.addAction(tr("Copy A value"), this, [a] { QApplication::clipboard()->setText(a); });
            menu.addAction(tr("Copy B value"), this, [b] { QApplication::clipboard()->setText(b); });
        }
        menu.exec(m_view->viewport()->mapToGlobal(pos));
    });
    connect(view, &ViewState::shownFrameChanged, this, &DiffPanel::onFrameReady);
    connect(view, &ViewState::frameFailed, this, &DiffPanel::onFrameFailed);
    connect(view, &ViewState::diffFramesChanged, this, &DiffPanel::syncMarkers);
    connect(session, &ReplaySession::opened, this, [this] {
        m_unreadableA = m_unreadableB = {};
        m_viewState->clearAB();
        syncMarkers();
        rebuildFilters();
    });
    // A or B may have been read from a chunk before its damage showed (a Protobuf frame is
    // handed out early): read again, it comes marked, or as the error when it lies after the
    // damage. B at the playhead comes again as the shown frame.
    connect(session, &ReplaySession::chunkFailed, this, [this](int chunk) {
        const auto& f = m_session->file();
        if (!f)
            return;
        bool again = false;
        for (auto [slot, failure] : {std::pair{&m_a, &m_unreadableA}, std::pair{&m_b, &m_unreadableB}}) {
            if (slot == &m_b && m_comparing)
                continue; // B is the compared replay's
            const int frame = slot->isNull() ? failure->frame : slot->index();
            if (const auto c = frame >= 0 ? f->chunkForFrame(frame) : std::nullopt; c && int(*c) == chunk) {
                *slot = {};
                *failure = {};
                again = true;
            }
        }
        if (again)
            requestFrames();
    });
    // After Ctrl+W the list said "Press A to pin frame A…" for a replay no longer open.
    connect(session, &ReplaySession::closed, this, &DiffPanel::updateSummary);
    updateSummary();
}

void DiffPanel::setOptions(const vtx::DiffOptions& options)
{
    m_options = options;
    if (m_epsilon->text().toDouble() != options.tolerance.absolute)
        m_epsilon->setText(options.tolerance.absolute > 0 ? QString::number(options.tolerance.absolute) : QString());
    syncCompareTolerance(); // comparing two replays, the lane and the diff use one ε
    recompute();
}

bool DiffPanel::followsPlayhead() const
{
    return m_comparing || m_viewState->diffMarkers().bFollowsPlayhead;
}
bool DiffPanel::previousFrameMode() const
{
    return !m_comparing && m_viewState->diffMarkers().previousFrame;
}
bool DiffPanel::isActive() const
{
    return m_comparing || m_viewState->diffMarkers().isActive();
}

bool DiffPanel::isUpToDate() const
{
    const auto& d = m_model->diff();
    return isActive() && d && !d->a.isNull() && !d->b.isNull() && d->a.index() == m_wantA && d->b.index() == m_wantB;
}

QString DiffPanel::unreadableReason() const
{
    QStringList parts;
    for (const auto& [side, want, u] : {std::tuple{"A", m_wantA, &m_unreadableA}, std::tuple{"B", m_wantB, &m_unreadableB}})
        if (want >= 0 && u->frame == want)
            parts << tr("%1 (frame %2) cannot be read: %3").arg(QLatin1String(side)).arg(want).arg(u->why.toHtmlEscaped());
    return parts.join(QStringLiteral("  ·  "));
}

void DiffPanel::onFrameFailed(int frame, const QString& message)
{
    // The playhead's frame is B when B follows it, and A in compare mode: without it the diff
    // would wait for it ("loading…") forever, over the last pair's rows.
    if (!isActive())
        return;
    if (m_comparing && frame == m_wantA)
        m_unreadableA = {frame, message};
    else if (!m_comparing && followsPlayhead() && frame == m_wantB)
        m_unreadableB = {frame, message};
    else
        return;
    recompute();
}

void DiffPanel::syncMarkers()
{
    if (m_comparing)
        return; // compare mode pairs its own A and B (followCompare)
    const DiffMarkers& m = m_viewState->diffMarkers();
    m_wantA = m.isActive() ? m.a : -1;
    m_wantB = m.isActive() ? m.b : -1;
    if (!m.isActive())
        m_a = m_b = {};
    else if (m.previousFrame && m_a.isNull())
        m_a = {};
    if (!m.isActive())
        m_model->clear();
    requestFrames();
}

void DiffPanel::onFrameReady()
{
    if (m_comparing) {
        followCompare();
        return;
    }
    if (!isActive() || !followsPlayhead())
        return;
    // B follows what the playhead shows, exactly like the inspector: no extra request.
    const vtx::FrameHandle& shown = m_viewState->shownFrame();
    if (shown.isNull())
        return;
    m_b = shown;
    requestFrames();
}

void DiffPanel::requestFrames()
{
    if (!isActive()) {
        updateSummary();
        return;
    }
    auto fromLoaded = [this](int frame) -> std::shared_ptr<const vtx::DecodedChunk> {
        // Frames in a chunk we already hold need no request (the previous frame usually is).
        for (const vtx::FrameHandle* h :
             {&m_viewState->shownFrame(), static_cast<const vtx::FrameHandle*>(&m_a), static_cast<const vtx::FrameHandle*>(&m_b)}) {
            const auto& c = h->chunk();
            if (!c || frame < c->startFrame() || frame >= c->startFrame() + int(c->frameCount()))
                continue;
            // A frame handed out before its chunk's damage showed is not reused: read again, it
            // comes marked (the shown frame can still be that one when chunkFailed arrives).
            if (c->index() == vtx::ReplayFile::kPartialChunk && !c->damage())
                if (const auto ci = m_session->file()->chunkForFrame(frame); ci && m_session->file()->knownDamage(*ci))
                    continue;
            return c;
        }
        return {};
    };
    auto ensure = [&](vtx::FrameHandle& slot, int want, ReplaySession::Channel channel) {
        Unreadable& failure = &slot == &m_a ? m_unreadableA : m_unreadableB;
        if (want < 0 || (!slot.isNull() && slot.index() == want) || failure.frame == want)
            return;
        if (const auto c = fromLoaded(want)) {
            // A frame of a chunk that decoded can still fail its own verification: it is then
            // unreadable, not a frame without entities (which the diff would call all removed).
            if (vtx::Status s = c->frameStatus(size_t(want - c->startFrame())); !s)
                failure = {want, QString::fromStdString(s.message())};
            else
                slot = vtx::FrameHandle(c, want);
            return;
        }
        if (&slot == &m_b && followsPlayhead() && !m_comparing)
            return; // the playhead's frame arrives as the shown frame (onFrameReady) or fails (frameFailed)
        vtx::FrameHandle* target = &slot;
        m_session->requestFrame(want, channel, [this, target, want](const vtx::Result<vtx::FrameHandle>& r) {
            const int current = target == &m_a ? m_wantA : m_wantB;
            if (want != current)
                return; // superseded by a newer want
            if (r)
                *target = *r;
            else
                (target == &m_a ? m_unreadableA : m_unreadableB) = {want, QString::fromStdString(r.message())};
            recompute();
        });
    };
    ensure(m_b, m_wantB, ReplaySession::Channel::DiffB);
    ensure(m_a, m_wantA, ReplaySession::Channel::DiffA);
    recompute();
}

void DiffPanel::recompute()
{
    const auto& f = m_session->file();
    // No B frame to compare with, or a frame that cannot be read: no diff, and nothing stale
    // stays listed.
    if ((m_comparing && !compareSummary().isEmpty()) || (isActive() && !unreadableReason().isEmpty())) {
        m_model->clear();
        m_damagedA.clear();
        m_damagedB.clear();
        updateSummary();
        emit diffUpdated();
        return;
    }
    if (!f || !isActive() || m_a.isNull() || m_b.isNull() || m_a.index() != m_wantA || m_b.index() != m_wantB) {
        updateSummary(); // keeps the last diff on screen with a "loading" note
        return;
    }
    auto d = std::make_shared<vtx::FrameDiff>();
    vtx::diffFrames(m_a, m_b, f->schema(), m_options, *d);
    rememberView();
    m_model->setDiff(std::move(d), &f->schema());
    // Entities whose stored hash disagrees with their values in A or B: the rows say so, and so
    // does the summary (a damaged entity may show no change at all).
    auto damaged = [&](const vtx::FrameHandle& h) {
        QSet<QString> keys;
        for (const vtx::DamagedContainer& x : vtx::checkFrameIntegrity(h.view(), f->schema(), h.chunk()->hashTrust()).damaged)
            keys.insert(QString::number(x.bucket) + QLatin1Char('/') + QString::fromStdString(x.uniqueId));
        return keys;
    };
    m_damagedA = damaged(m_a);
    m_damagedB = damaged(m_b);
    m_model->setDamage(m_damagedA, m_damagedB);
    restoreView();
    updateSummary();
    emit diffUpdated();
}

void DiffPanel::updateSummary()
{
    // What to do next is said in the empty list, not above it: the summary line is for what
    // the list shows.
    auto showHint = [this](const QString& hint) {
        m_summary->clear();
        m_summary->setVisible(false);
        m_view->setHint(hint);
    };
    m_view->setHint({});
    m_summary->setVisible(true);
    if (!m_session->isOpen()) {
        showHint(tr("No replay open."));
        return;
    }
    if (m_comparing) {
        if (const QString why = compareSummary(); !why.isEmpty()) {
            m_summary->setText(why);
            return;
        }
    }
    if (!isActive()) {
        showHint(tr("Press <b>A</b> to pin frame A at the playhead, then scrub to compare it with B — "
                    "or <b>Ctrl+D</b> to diff each frame with the previous one."));
        return;
    }
    QString text = previousFrameMode() ? tr("Previous frame: A=%1 B=%2").arg(m_wantA).arg(m_wantB)
        : m_comparing                  ? tr("A = this replay, frame %1  ·  B = compared replay, frame %2").arg(m_wantA).arg(m_wantB)
                                       : tr("A=%1  B=%2").arg(m_wantA).arg(m_wantB);
    if (!followsPlayhead() && !m_comparing)
        text += tr(" (B set)");
    if (const QString why = unreadableReason(); !why.isEmpty()) {
        m_summary->setText(text + QStringLiteral("  ·  <span style='color:%1'>%2</span>").arg(semanticColours().removed.name(), why));
        m_summary->setToolTip(why);
        return;
    }
    m_summary->setToolTip({});
    if (const auto& d = m_model->diff()) {
        const vtx::BucketDiffCounts t = d->totals();
        const SemanticColours colours = semanticColours();
        text += tr("  ·  <span style='color:%5'>+%1</span> <span style='color:%6'>−%2</span> ~%3 entities  ·  %4 properties")
                    .arg(t.added)
                    .arg(t.removed)
                    .arg(t.changed)
                    .arg(d->changes.size())
                    .arg(colours.added.name(), colours.removed.name());
        text += tr("  ·  %1 unchanged").arg(t.unchanged);
        if (m_proxy->isFiltering()) // the counts above are the whole diff's; say what the filter shows
            text += tr("  ·  <b>showing %1 of %2 entities</b>").arg(m_proxy->rowCount()).arg(m_model->rowCount());
        if (d->omittedChanges)
            text += tr("  ·  %1 element changes not listed").arg(d->omittedChanges);
        if (d->entities.empty())
            text += tr("  ·  <b>identical</b>");
    }
    if (!m_damagedA.isEmpty() || !m_damagedB.isEmpty())
        text += tr("  ·  <span style='color:#D55E00'>⚠ damaged entities: %1 in A, %2 in B</span>").arg(m_damagedA.size()).arg(m_damagedB.size());
    // A frame that reads from a damaged chunk may hold wrong values where no hash checks them:
    // the changes listed are between the values as read (review 5, #3).
    for (const auto& [side, h] : {std::pair{"A", &m_a}, std::pair{"B", &m_b}})
        if (const auto damage = !h->isNull() ? h->chunk()->damage() : std::nullopt)
            text += tr("  ·  <span style='color:#D55E00'>⚠ %1 (frame %2) is from damaged chunk %3: values no content hash checks may be "
                       "wrong</span>")
                        .arg(QLatin1String(side))
                        .arg(h->index())
                        .arg(damage->chunk);
    if (!isUpToDate())
        text += tr("  ·  <i>loading…</i>");
    m_summary->setText(text);
}

void DiffPanel::rememberView()
{
    if (!m_model->diff())
        return;
    m_expanded.clear();
    const int n = m_proxy->rowCount();
    for (int r = 0; r < n; ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (m_view->isExpanded(i))
            m_expanded.insert(rowKey(i));
    }
    const QModelIndex cur = m_view->currentIndex();
    m_selectedKey = cur.isValid() ? rowKey(cur) : QString();
}

void DiffPanel::restoreView()
{
    const int n = m_proxy->rowCount();
    // A fresh diff opens small ones fully; after that the user's expansions are kept.
    const bool expandAll = m_expanded.isEmpty() && n <= 12;
    for (int r = 0; r < n; ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (expandAll || m_expanded.contains(rowKey(i)))
            m_view->expand(i);
        if (!m_selectedKey.isEmpty() && rowKey(i) == m_selectedKey)
            m_view->setCurrentIndex(i);
        if (!m_selectedKey.isEmpty() && m_selectedKey.startsWith(rowKey(i))) {
            const int m = m_proxy->rowCount(i);
            for (int c = 0; c < m; ++c) {
                const QModelIndex j = m_proxy->index(c, 0, i);
                if (rowKey(j) == m_selectedKey)
                    m_view->setCurrentIndex(j);
            }
        }
    }
}

void DiffPanel::rebuildFilters()
{
    const auto& f = m_session->file();
    m_bucketFilter->clear();
    m_typeFilter->clear();
    m_bucketFilter->addItem(tr("all buckets"), QString());
    m_typeFilter->addItem(tr("all types"), QString());
    if (!f)
        return;
    for (size_t i = 0; i < f->schema().bucketNames().size(); ++i)
        m_bucketFilter->addItem(QString::fromStdString(f->schema().bucketName(i)), QString::fromStdString(f->schema().bucketName(i)));
    for (const auto& s : f->schema().structs())
        m_typeFilter->addItem(QString::fromStdString(s.name), QString::fromStdString(s.name));
}

void DiffPanel::selectNextChange(bool forward)
{
    // Property rows in display order, across entities.
    std::vector<QModelIndex> rows;
    const int n = m_proxy->rowCount();
    for (int r = 0; r < n; ++r) {
        const QModelIndex e = m_proxy->index(r, 0);
        const int m = m_proxy->rowCount(e);
        if (m == 0)
            rows.push_back(e); // added / removed entities are changes too
        for (int c = 0; c < m; ++c)
            rows.push_back(m_proxy->index(c, 0, e));
    }
    if (rows.empty())
        return;
    const QModelIndex cur = m_view->currentIndex().siblingAtColumn(0);
    auto it = std::find(rows.begin(), rows.end(), cur);
    size_t next = 0;
    if (it == rows.end())
        next = forward ? 0 : rows.size() - 1;
    else {
        const size_t at = size_t(it - rows.begin());
        next = forward ? (at + 1) % rows.size() : (at + rows.size() - 1) % rows.size();
    }
    m_view->setCurrentIndex(rows[next]);
    m_view->scrollTo(rows[next]);
}

std::pair<EntityKey, QString> DiffPanel::selectedProperty() const
{
    const QModelIndex i = m_view->currentIndex();
    if (!i.isValid())
        return {};
    return {{i.data(DiffModel::BucketIndexRole).toInt(), i.data(DiffModel::UniqueIdRole).toString()}, i.data(DiffModel::PathRole).toString()};
}

std::shared_ptr<const vtx::FrameDiff> DiffPanel::visibleDiff() const
{
    const auto& d = m_model->diff();
    if (!d || !m_model->schema() || !isUpToDate())
        return {};
    // Same frames and path steps (changes refer to steps by index); only the entities and
    // changes behind the proxy's visible rows, in the order shown.
    auto out = std::make_shared<vtx::FrameDiff>();
    out->a = d->a;
    out->b = d->b;
    out->steps = d->steps;
    out->omittedChanges = d->omittedChanges;
    out->buckets = d->buckets;
    for (auto& counts : out->buckets)
        counts.added = counts.removed = counts.changed = 0;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex row = m_proxy->index(r, 0);
        const QModelIndex src = m_proxy->mapToSource(row);
        vtx::EntityDiff e = d->entities[size_t(src.row())];
        const auto changes = d->changesOf(e);
        e.firstChange = uint32_t(out->changes.size());
        e.changeCount = 0;
        for (int c = 0; c < m_proxy->rowCount(row); ++c) {
            const QModelIndex child = m_proxy->mapToSource(m_proxy->index(c, 0, row));
            out->changes.push_back(changes[size_t(child.row())]);
            ++e.changeCount;
        }
        if (e.bucket < out->buckets.size()) {
            auto& counts = out->buckets[e.bucket];
            (e.status == vtx::EntityStatus::Added ? counts.added : e.status == vtx::EntityStatus::Removed ? counts.removed : counts.changed)++;
        }
        out->entities.push_back(e);
    }
    return out;
}

QString DiffPanel::toJson() const
{
    const auto d = visibleDiff();
    if (!d)
        return {};
    return QString::fromStdString(vtx::jsonText(vtx::diffJson(*d, *m_model->schema(), m_options), 1));
}

QString DiffPanel::toCsv() const
{
    const auto d = visibleDiff();
    if (!d)
        return {};
    return QString::fromStdString(vtx::diffCsv(*d, *m_model->schema()));
}

void DiffPanel::exportTo(bool json)
{
    if (!isUpToDate())
        return;
    const QString suggested = QStringLiteral("diff_%1_%2.%3").arg(m_wantA).arg(m_wantB).arg(json ? "json" : "csv");
    const QString path = askExportPath(this, tr("Save diff"), m_session->path(), suggested, json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write((json ? toJson() : toCsv()).toUtf8()) < 0)
        prompts().showError(this, tr("Save diff"), tr("Could not write %1: %2").arg(path, f.errorString()));
}

} // namespace vtxw
