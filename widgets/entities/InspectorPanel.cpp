// SPDX-License-Identifier: MIT
#include "entities/InspectorPanel.hpp"

#include "common/ElidedLabel.hpp"
#include "common/FittedColumns.hpp"
#include "common/NumberFitDelegate.hpp"

#include "entities/ByteInspector.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace vtxw {

namespace {
/// Tints values that changed since the previous frame (with a marker, not colour alone).
/// The change mark, and values with fewer decimals when their column is too narrow.
class ChangeDelegate : public NumberFitDelegate {
public:
    explicit ChangeDelegate(QObject* parent) : NumberFitDelegate({PropertyTreeModel::ValueColumn}, parent) { }
    bool enabled = true;
    void initStyleOption(QStyleOptionViewItem* o, const QModelIndex& i) const override
    {
        unfittedStyleOption(o, i); // the mark goes in before the text is fitted
        if (enabled && i.column() == PropertyTreeModel::ValueColumn && i.data(PropertyTreeModel::ChangedRole).toBool()) {
            o->backgroundBrush = QColor(0xE6, 0x9F, 0x00, 70);
            o->text = QStringLiteral("• ") + o->text;
        }
        if (i.data(PropertyTreeModel::AbsentRole).toBool())
            o->palette.setColor(QPalette::Text, o->palette.color(QPalette::PlaceholderText));
        fit(o, i);
    }
};
} // namespace

InspectorPanel::InspectorPanel(ReplaySession* session, ViewState* view, QWidget* parent)
    : QWidget(parent), m_session(session), m_viewState(view), m_model(new PropertyTreeModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 4, 6, 0);
    // Elided in the middle: the label and the type at the ends say more than the id's digits.
    m_header = new ElidedLabel(tr("Select an entity"), this, Qt::ElideMiddle);
    m_header->setObjectName("inspectorHeader");
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);
    // Always shown, its width reserved; only the text comes and goes. Showing and hiding it on
    // every seek re-laid out the inspector and cost a synchronous round trip to the X server
    // (QWidget::setVisible asks for the cursor position): part of the UI stalls while scrubbing.
    m_loading = new QLabel(this);
    m_loading->setObjectName("loading");
    m_loading->setStyleSheet("color: #E69F00");
    m_loading->setMinimumWidth(m_loading->fontMetrics().horizontalAdvance(tr("loading…")) + 2);
    m_damage = new QLabel(this);
    m_damage->setObjectName("damage");
    m_damage->setWordWrap(true);
    m_damage->setStyleSheet("background: #F6D5C4; color: #6B2A00; padding: 3px;");
    m_damage->setVisible(false);
    top->addWidget(m_header, 1);
    top->addWidget(m_loading);
    layout->addLayout(top);
    layout->addWidget(m_damage);
    m_view = new QTreeView(this);
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setTextElideMode(Qt::ElideMiddle); // long strings keep both ends; the tooltip has all
    m_view->installEventFilter(this);
    m_view->setAlternatingRowColors(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setItemDelegate(new ChangeDelegate(m_view));
    // The value column takes the width that is left, so a value is never cut off at the
    // viewport's edge: it shows whole or elided in the middle with the whole in its tooltip
    // (issue 26 item 3). The name column keeps at most a third; the type goes first when narrow.
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->header()->setSectionResizeMode(PropertyTreeModel::ValueColumn, QHeaderView::Stretch);
    m_view->header()->resizeSection(PropertyTreeModel::NameColumn, 180);
    m_view->header()->resizeSection(PropertyTreeModel::TypeColumn, 110);
    // The name column a third of the width; the type column as wide as the widest type shown,
    // up to a quarter (110 px cut "WeaponProperties[2]" to "Weapon…ies[2]", review item 7),
    // hidden where the values need its room. The user's own column widths are kept.
    auto* columns = new FittedColumns(m_view, [tree = m_view](int w) {
        auto* items = static_cast<QAbstractItemView*>(tree);
        const bool typesShown = w >= 480;
        tree->header()->setSectionHidden(PropertyTreeModel::TypeColumn, !typesShown);
        const int types = std::clamp(items->sizeHintForColumn(PropertyTreeModel::TypeColumn), 80, std::max(110, w / 4));
        tree->header()->resizeSection(PropertyTreeModel::TypeColumn, types);
        // Names as wide as the widest shown (with its indentation), from a third of the view up
        // to 45 % of it: a third of a 285 px inspector (the Map layout at 1280 px) cut every
        // name ("Cu…nt") beside a value column with room to spare.
        const int names = items->sizeHintForColumn(PropertyTreeModel::NameColumn);
        const int least = std::clamp(w / 3, 90, 180);
        int most = std::max(least, std::min(w * 45 / 100, 260));
        // A name cut in the middle reads like its neighbours ("Last…rame" was both
        // LastBallTouchFrame and LastBallImpactFrame, review 4 item 10): names then take room
        // from the values, which keep their widest or two fifths of the view (a value too
        // narrow drops decimals first, NumberFitDelegate).
        if (names > most) {
            const int values = std::max(std::min(items->sizeHintForColumn(PropertyTreeModel::ValueColumn), w * 2 / 5), 80);
            most = std::max(most, std::min({names, w - (typesShown ? types : 0) - values, 360}));
        }
        tree->header()->resizeSection(PropertyTreeModel::NameColumn, std::clamp(names, least, most));
    });
    // Rows shown or gone change the widest type: fitted again once they are laid out.
    auto refit = [columns] { QMetaObject::invokeMethod(columns, &FittedColumns::refit, Qt::QueuedConnection); };
    connect(m_view, &QTreeView::expanded, columns, refit);
    connect(m_view, &QTreeView::collapsed, columns, refit);
    connect(m_model, &QAbstractItemModel::modelReset, columns, refit);
    connect(m_model, &QAbstractItemModel::rowsInserted, columns, refit);
    m_bytes = new ByteInspector(this);
    m_bytes->setVisible(false);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_view);
    split->addWidget(m_bytes);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_view, &QTreeView::customContextMenuRequested, this, &InspectorPanel::showMenu);
    connect(m_view, &QTreeView::expanded, this, [this](const QModelIndex& i) { m_expanded.insert(i.data(PropertyTreeModel::PathRole).toString()); });
    connect(m_view, &QTreeView::collapsed, this, [this](const QModelIndex& i) { m_expanded.remove(i.data(PropertyTreeModel::PathRole).toString()); });
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, &InspectorPanel::rememberView);
    connect(m_model, &QAbstractItemModel::modelReset, this, &InspectorPanel::restoreView);
    // After restoreView (connected first), so the hex view follows the restored current row.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &InspectorPanel::updateByteInspector);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &InspectorPanel::updateByteInspector);
    connect(m_model, &QAbstractItemModel::modelReset, this, &InspectorPanel::updateByteInspector);
    connect(session->viewState(), &ViewState::loadingChanged, m_loading, [this](bool loading) {
        m_loading->setText(loading ? tr("loading…") : QString());
        m_model->setStale(loading || !m_viewState->frameError().isEmpty());
    });
    connect(view, &ViewState::shownFrameChanged, this, &InspectorPanel::refresh);
    connect(view, &ViewState::frameFailed, this, &InspectorPanel::refresh); // "frame N is unavailable"
    connect(view, &ViewState::selectionChanged, this, &InspectorPanel::setEntity);
    connect(view, &ViewState::entityLabelsChanged, this, &InspectorPanel::refresh);
    connect(session, &ReplaySession::closed, this, [this] {
        m_previous = {};
        m_previousRequested = -1;
        setEntity({});
    });
}

QString InspectorPanel::headerText() const
{
    return m_header->text();
}

void InspectorPanel::setEntity(const EntityKey& key)
{
    if (key == m_entity)
        return;
    m_entity = key;
    refresh();
}

void InspectorPanel::refresh()
{
    const vtx::FrameHandle& shown = m_viewState->shownFrame();
    const vtx::ContainerView c = m_entity.isValid() && !shown.isNull()
        ? vtx::findEntity(shown.view(), uint32_t(m_entity.bucket), m_entity.uniqueId.toStdString())
        : vtx::ContainerView{};
    static_cast<ChangeDelegate*>(m_view->itemDelegate())->enabled = m_flash;
    // The values below are the last shown frame's while the asked-for one loads or failed:
    // dimmed, without change marks (they would claim changes of a frame not on screen).
    m_model->setStale(m_viewState->isLoading() || !m_viewState->frameError().isEmpty());
    if (!m_entity.isValid()) {
        m_header->setText(tr("Select an entity"));
    } else if (shown.isNull()) {
        m_header->setText(m_viewState->frameError().isEmpty()
                              ? tr("%1 — loading frame %2…").arg(m_entity.uniqueId).arg(m_viewState->requestedFrame())
                              : tr("%1 — frame %2 is unavailable").arg(m_entity.uniqueId).arg(m_viewState->requestedFrame()));
    } else if (c.isNull()) {
        m_header->setText(tr("%1 — not present in frame %2").arg(m_entity.uniqueId).arg(shown.index()));
    } else {
        const auto* def = m_session->file() ? m_session->file()->schema().structById(c.typeId()) : nullptr;
        // The label read from this frame, the id second (the label alone could be ambiguous).
        const QString type = def ? QString::fromStdString(def->name) : tr("type %1").arg(c.typeId());
        const QString label = m_viewState->entityLabel(c);
        m_header->setText(label.isEmpty() ? QStringLiteral("%1 (%2)").arg(m_entity.uniqueId, type)
                                          : QStringLiteral("%1 · %2 (%3)").arg(label, m_entity.uniqueId, type));
    }
    m_model->setContainer(c, m_viewState->schema(), c.isNull() ? vtx::ContainerView{} : previousContainer());

    // Values whose stored hash disagrees are not shown as true: the header says so, the
    // damaged nested containers are marked (the entity's own hash covers all of its rows).
    QHash<QString, QString> damage;
    QStringList reasons;
    if (!c.isNull() && m_viewState->schema()) {
        const std::string id = m_entity.uniqueId.toStdString();
        for (const vtx::DamagedContainer& d : m_viewState->shownIntegrity().damaged)
            if (int(d.bucket) == m_entity.bucket && d.uniqueId == id) {
                const QString why = QString::fromStdString(vtx::damageText(d, *m_viewState->schema()));
                reasons << why;
                if (!d.path.empty())
                    damage.insert(QString::fromStdString(d.path), why);
            }
    }
    m_model->setDamage(damage);
    m_damage->setVisible(!reasons.isEmpty());
    m_damage->setText(
        reasons.isEmpty()
            ? QString()
            : tr("⚠ Damaged in frame %1: these values are not what was recorded (stored hash mismatch)").arg(m_viewState->shownFrame().index()));
    m_damage->setToolTip(reasons.join(QLatin1Char('\n')));
}

vtx::ContainerView InspectorPanel::previousContainer()
{
    const vtx::FrameHandle& shown = m_viewState->shownFrame();
    if (shown.isNull() || shown.index() == 0 || !m_session->cache())
        return {};
    const int want = int(shown.index()) - 1;
    if (m_previous.isNull() || int(m_previous.index()) != want) {
        m_previous = {};
        // Usually in the chunk on screen, which is held: no request, no wait.
        if (auto h = m_session->cache()->peek(want)) {
            m_previous = *h;
        } else if (m_previousRequested != want) {
            m_previousRequested = want;
            QPointer<InspectorPanel> self(this);
            m_session->requestFrame(want, ReplaySession::Channel::Previous, [self, this, want](const vtx::Result<vtx::FrameHandle>& previous) {
                if (!self || !previous)
                    return; // an unreadable N−1: no value to mark a change against, so none is marked
                const vtx::FrameHandle& now = m_viewState->shownFrame();
                if (now.isNull() || int(now.index()) != want + 1)
                    return; // the shown frame moved on; its own N−1 is asked for then
                m_previous = *previous;
                refresh();
            });
        }
    }
    if (m_previous.isNull())
        return {};
    return vtx::findEntity(m_previous.view(), uint32_t(m_entity.bucket), m_entity.uniqueId.toStdString());
}

void InspectorPanel::rememberView()
{
    m_currentPath = currentPath();
    const QModelIndex top = m_view->indexAt(QPoint(4, 4));
    m_topPath = top.isValid() ? top.data(PropertyTreeModel::PathRole).toString() : QString();
}

void InspectorPanel::restoreView()
{
    for (const QString& p : std::as_const(m_expanded)) {
        const QModelIndex i = m_model->indexOfPath(p);
        if (i.isValid())
            m_view->expand(i);
    }
    if (const QModelIndex cur = m_model->indexOfPath(m_currentPath); cur.isValid()) {
        // Selecting must not scroll: the scroll position is restored next, as it was.
        const bool autoScroll = m_view->hasAutoScroll();
        m_view->setAutoScroll(false);
        m_view->selectionModel()->setCurrentIndex(cur, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->setAutoScroll(autoScroll);
    }
    if (const QModelIndex top = m_model->indexOfPath(m_topPath); top.isValid())
        m_view->scrollTo(top, QAbstractItemView::PositionAtTop);
}

void InspectorPanel::updateByteInspector()
{
    const QModelIndex i = m_view->currentIndex().siblingAtColumn(PropertyTreeModel::NameColumn);
    const QVariant bytes = i.data(PropertyTreeModel::BytesRole);
    m_bytes->setVisible(bytes.isValid());
    if (!bytes.isValid())
        return;
    const QString value = i.siblingAtColumn(0).data(PropertyTreeModel::CopyTextRole).toString();
    QString title = QStringLiteral("%1 — %2").arg(i.data().toString(), value);
    if (i.data(PropertyTreeModel::BlobRole).toBool())
        title += tr(" (the SDK's blob convention: bytes stored for this Int8 array field)");
    else if (i.data(PropertyTreeModel::UnnamedRole).toBool())
        title += tr(" (no schema name addresses these bytes)");
    m_bytes->setBytes(title, bytes.toByteArray());
}

QString InspectorPanel::currentPath() const
{
    return m_view->currentIndex().data(PropertyTreeModel::PathRole).toString();
}

void InspectorPanel::showMenu(const QPoint& pos)
{
    const QModelIndex i = m_view->indexAt(pos);
    if (!i.isValid())
        return;
    const QString path = i.data(PropertyTreeModel::PathRole).toString();
    const QString value = i.siblingAtColumn(0).data(PropertyTreeModel::CopyTextRole).toString();
    QMenu menu(this);
    menu.addAction(tr("Copy value"), this, [value] { QApplication::clipboard()->setText(value); });
    menu.addAction(tr("Copy path"), this, [this, path] { QApplication::clipboard()->setText(m_entity.uniqueId + QLatin1Char('.') + path); });
    menu.addSeparator();
    menu.addAction(tr("Watch"), this, [this, path] { emit watchRequested(m_entity, path); });
    QAction* plot = menu.addAction(tr("Plot"), this, [this, path] { emit plotRequested(m_entity, path); });
    // A number plots as one series; a vector (x, y, z) or a transform (its translation) as its
    // three components (PlotPanel::addPropertySeries splits them).
    const QModelIndex row = i.siblingAtColumn(PropertyTreeModel::NameColumn);
    bool vectorLike = false;
    for (int r = 0; r < m_model->rowCount(row) && !vectorLike; ++r) {
        const QString child = m_model->index(r, PropertyTreeModel::NameColumn, row).data().toString();
        vectorLike = child == QLatin1String("x") || child == QLatin1String("translation");
    }
    plot->setEnabled(i.data(PropertyTreeModel::NumberRole).isValid() || vectorLike);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

bool InspectorPanel::eventFilter(QObject* watched, QEvent* event)
{
    // With the tree focused, ← collapses an expanded row and → expands a collapsed one (the
    // tree's own keys); everywhere else they step frames, as in every other panel: the tree
    // took them all, and after a click in the inspector ← moved its cursor to the parent row
    // instead of the previous frame, with nothing on screen saying why (review item 14).
    if (watched == m_view && event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->modifiers() == Qt::NoModifier && treeTakesKey(key->key())) {
            event->accept();
            return true;
        }
    }
    // → on a leaf has nothing to expand; the tree would scroll sideways instead (issue 26 8k).
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Left || key->key() == Qt::Key_Right) && key->modifiers() == Qt::NoModifier && !treeTakesKey(key->key()))
            return true;
    }
    return QWidget::eventFilter(watched, event);
}

bool InspectorPanel::treeTakesKey(int key) const
{
    const QModelIndex current = m_view->currentIndex().siblingAtColumn(0);
    if (!current.isValid())
        return false;
    if (key == Qt::Key_Left)
        return m_view->isExpanded(current);
    if (key == Qt::Key_Right)
        return m_view->model()->hasChildren(current) && !m_view->isExpanded(current);
    return false;
}

} // namespace vtxw
