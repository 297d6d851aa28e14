// SPDX-License-Identifier: MIT
#include "entities/EntityListPanel.hpp"

#include "common/HintTreeView.hpp"
#include "entities/EntityColumns.hpp"
#include "session/ViewState.hpp"

#include <QActionGroup>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

namespace vtxw {

EntityListPanel::EntityListPanel(ViewState* view, QWidget* parent) : QWidget(parent), m_viewState(view)
{
    m_model = new EntityTreeModel(this);
    m_proxy = new EntityFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    // While the filter or a new frame removes rows, Qt moves the current index to a neighbour:
    // that is not the user choosing another entity, so the selection stays (and comes back
    // when the entity is shown again). Connected before any view: the view's selection model
    // moves the current index in its own rowsAboutToBeRemoved slot, which must run after this.
    for (auto about : {&QAbstractItemModel::rowsAboutToBeRemoved, &QAbstractItemModel::rowsAboutToBeInserted})
        connect(m_proxy, about, this, [this] { m_rowsChanging = true; });
    // Restored once the proxy is done: during invalidateFilter() it inserts rows in several
    // steps, and moving the current index from inside one of them reads mappings it has not
    // finished (a crash in QSortFilterProxyModel::buddy).
    for (auto done : {&QAbstractItemModel::rowsRemoved, &QAbstractItemModel::rowsInserted})
        connect(m_proxy, done, this, [this] {
            m_rowsChanging = false;
            if (!m_selectionRestoreQueued) {
                m_selectionRestoreQueued = true;
                QMetaObject::invokeMethod(
                    this,
                    [this] {
                        m_selectionRestoreQueued = false;
                        restoreSelection();
                    },
                    Qt::QueuedConnection);
            }
        });
    connect(m_proxy, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] { m_rowsChanging = true; });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, [this] {
        m_rowsChanging = false;
        restoreSelection();
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("filter: name, id, type or expression (Health < 20)"));
    m_filter->setClearButtonEnabled(true);
    m_view = new HintTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    // The name column takes the room; the type column fits its text. The dock keeps a usable
    // minimum so the names never disappear at small window sizes.
    auto* columns = new EntityColumns(m_view, EntityTreeModel::NameColumn, EntityTreeModel::IdColumn, EntityTreeModel::TypeColumn);
    setMinimumWidth(170);
    // Said only when the frame asked for cannot be read; hidden otherwise, also while scrubbing
    // (a widget shown and hidden per frame re-lays out the dock).
    m_staleNote = new QLabel(this);
    m_staleNote->setObjectName("staleNote");
    m_staleNote->setWordWrap(true); // whole in a 170 px dock: two lines rather than "Frame 1200 is unavailable: t…"
    m_staleNote->setStyleSheet(QStringLiteral("font-weight: bold;"));
    m_staleNote->hide();
    layout->addWidget(m_filter);
    layout->addWidget(m_staleNote);
    layout->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, view, &ViewState::setEntityFilter);
    connect(view, &ViewState::entityFilterChanged, this, &EntityListPanel::applyFilter);
    connect(view, &ViewState::replayOpenChanged, this, &EntityListPanel::updateHint);
    connect(view, &ViewState::frameCountChanged, this, &EntityListPanel::updateHint);
    auto showFrame = [this, columns] {
        m_model->setFrame(m_viewState->shownFrame(), m_viewState->schema(), &m_viewState->shownIntegrity(), &m_viewState->entityLabels());
        // Without any label the Name column shows the ids: a second column of them says nothing.
        columns->setIdsWanted(m_model->hasLabels());
    };
    connect(view, &ViewState::shownFrameChanged, this, showFrame);
    connect(view, &ViewState::shownFrameChanged, this, &EntityListPanel::showWhetherStale);
    connect(view, &ViewState::frameFailed, this, &EntityListPanel::showWhetherStale);
    connect(view, &ViewState::entityLabelsChanged, this, showFrame);
    connect(view, &ViewState::selectionChanged, this, &EntityListPanel::restoreSelection);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
        if (m_rowsChanging)
            return;
        if (const EntityKey key = m_model->keyOf(m_proxy->mapToSource(i)); key.isValid())
            m_viewState->setSelection(key);
    });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTreeView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex i = m_proxy->mapToSource(m_view->indexAt(pos));
        if (!i.isValid() || i.data(EntityTreeModel::IsBucketRole).toBool())
            return;
        if (QMenu* menu = labelMenu(i.data(EntityTreeModel::TypeIdRole).toInt(), this)) {
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(m_view->viewport()->mapToGlobal(pos));
        }
    });
    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTreeView::expandAll);
    // A new frame's entities came in row by row: the selected one gets its row back at once
    // (the queued restore after each proxy insertion would leave a neighbour current meanwhile).
    connect(m_model, &EntityTreeModel::frameApplied, this, &EntityListPanel::restoreSelection);
    updateHint();
}

void EntityListPanel::showWhetherStale()
{
    // At a frame that cannot be read the list keeps the last frame shown, as the inspector and
    // the map do; greyed and said, since entities come and go between frames.
    const vtx::FrameHandle& shown = m_viewState->shownFrame();
    const bool stale = !m_viewState->frameError().isEmpty() && !shown.isNull();
    if (stale) {
        m_staleNote->setText(tr("Frame %1 is unavailable: the list is frame %2's").arg(m_viewState->requestedFrame()).arg(shown.index()));
        QPalette greyed = m_view->palette();
        greyed.setColor(QPalette::Text, palette().color(QPalette::Disabled, QPalette::Text));
        m_view->setPalette(greyed);
    } else if (!m_staleNote->isHidden()) {
        m_staleNote->clear();
        m_view->setPalette(QPalette()); // the window's palette again (a theme chosen since included)
    }
    if (stale == m_staleNote->isHidden())
        m_staleNote->setVisible(stale);
}

void EntityListPanel::applyFilter(const QString& text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    m_proxy->setFilter(text);
    // A filter that does not compile says why (column, expected, did you mean) instead of
    // showing an empty list; the list then filters by the plain text.
    const QString error = m_proxy->filter().error();
    m_filter->setToolTip(error.isEmpty() ? tr("One word: matches names, ids and types. Otherwise an expression on the shown frame, "
                                              "e.g. Player.Health < 20 && IsAlive (README \"Query language\").")
                                         : error);
    m_filter->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #C62828; }"));
    emit filterErrorChanged(error);
    updateHint();
    m_view->expandAll();
    restoreSelection();
}

void EntityListPanel::updateHint()
{
    // A filter no entity passes at this frame says so; a blank list looked like a failure.
    const QString text = m_filter->text();
    if (!m_viewState->replayOpen())
        m_view->setHint(tr("No replay open."));
    else if (m_viewState->frameCount() == 0) // a recovered file with no complete chunk
        m_view->setHint(tr("This replay has no frame to list."));
    else
        m_view->setHint(text.trimmed().isEmpty() ? QString() : tr("No entity matches <b>%1</b> at this frame.").arg(text.toHtmlEscaped()));
}

void EntityListPanel::restoreSelection()
{
    const EntityKey selected = m_viewState->selection();
    const QModelIndex i = selected.isValid() ? m_proxy->mapFromSource(m_model->indexOf(selected)) : QModelIndex();
    if (i.isValid()) {
        if (m_view->currentIndex() != i)
            m_view->setCurrentIndex(i);
        return;
    }
    // The selected entity is filtered out (or not in this frame, or nothing is selected): Qt
    // moved the current row to a neighbour, which the list then highlighted while the inspector
    // showed the selected entity. No row is highlighted; the selection stays for when its row
    // comes back. (The current-changed handler ignores an invalid index.)
    if (m_view->currentIndex().isValid() || m_view->selectionModel()->hasSelection())
        m_view->selectionModel()->clear();
}

QMenu* EntityListPanel::labelMenu(int typeId, QWidget* parent)
{
    const vtx::Schema* schema = m_viewState->schema();
    const vtx::StructDef* def = schema ? schema->structById(typeId) : nullptr;
    if (!def)
        return nullptr;
    const QString type = QString::fromStdString(def->name);
    auto* menu = new QMenu(parent);
    menu->addSection(tr("Name %1 entities by").arg(type));
    auto* group = new QActionGroup(menu);
    const QString current = QString::fromStdString(std::string(m_viewState->entityLabels().field(typeId)));
    auto add = [&](const QString& text, const QString& field) {
        QAction* a = menu->addAction(text);
        a->setCheckable(true);
        a->setChecked(field == current);
        a->setData(field);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, type, field] { m_viewState->setLabelField(type, field); });
    };
    for (const std::string& field : vtx::EntityLabels::candidates(*def))
        add(QString::fromStdString(field), QString::fromStdString(field));
    add(tr("Id only"), QString());
    return menu;
}

void EntityListPanel::focusFirstMatch()
{
    if (const QString error = m_proxy->filter().error(); !error.isEmpty()) {
        emit filterErrorChanged(error);
        return;
    }
    for (int b = 0; b < m_proxy->rowCount(); ++b) {
        const QModelIndex bucket = m_proxy->index(b, 0);
        if (m_proxy->rowCount(bucket) > 0) {
            const QModelIndex first = m_proxy->index(0, 0, bucket);
            // Selected through the view state, not only made current: when the row already was
            // current, no current-changed signal came and the inspector kept the old entity.
            if (const EntityKey key = m_model->keyOf(m_proxy->mapToSource(first)); key.isValid())
                m_viewState->setSelection(key);
            m_view->setCurrentIndex(first);
            m_view->setFocus(Qt::ShortcutFocusReason);
            return;
        }
    }
    emit message(tr("No entity matches %1").arg(m_filter->text()), 5000);
}

} // namespace vtxw
