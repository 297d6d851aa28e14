// SPDX-License-Identifier: MIT
#pragma once
// The diff panel: frame A pinned (or the previous frame), B following the playhead (or set),
// the diff recomputed live as B moves. Counts, a filterable tree of changed entities and
// properties with old → new values and signed, colour-coded deltas, next/previous change
// navigation, swap, and copy/export as JSON or CSV.

#include "diff/DiffModel.hpp"
#include "entities/EntityTreeModel.hpp"

#include "vtx/diff/FrameDiff.hpp"

#include "common/HintTreeView.hpp"

#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;
class QTreeView;

namespace vtxw {

class CompareSession;
class ReplaySession;
class ViewState;

class DiffPanel : public QWidget {
    Q_OBJECT
public:
    /// A and B are `view`'s markers (ViewState::pinA, setB, …); B following the playhead is
    /// `view`'s shown frame, other frames come from `session`'s side channels.
    DiffPanel(ReplaySession* session, ViewState* view, QWidget* parent = nullptr);

    /// Two replays (File ▸ Compare with…): while `compare` has a file open, A is this replay at
    /// the playhead and B the compared replay's paired frame, following the playhead (the view
    /// state's markers stay cleared meanwhile). DiffPanelCompare.cpp.
    void setCompareSession(CompareSession* compare);
    bool isComparingFiles() const { return m_comparing; }

    int frameA() const { return m_wantA; }
    int frameB() const { return m_wantB; }
    bool followsPlayhead() const;
    bool previousFrameMode() const;
    bool isActive() const;
    bool isUpToDate() const;

    DiffModel* model() const { return m_model; }
    DiffFilterProxy* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }
    const vtx::DiffOptions& options() const { return m_options; }
    void setOptions(const vtx::DiffOptions& options);

    /// Moves the selection to the next / previous changed property row (wraps around).
    void selectNextChange(bool forward);
    /// The panel's Ctrl+↓ / Ctrl+↑ (next / previous change), keyed while the diff has the
    /// focus: the Diff menu lists these same actions, so it shows their key.
    QAction* changeAction(bool forward) const { return forward ? m_nextChange : m_prevChange; }
    /// The selected row as (entity, property path); path empty on an entity row.
    std::pair<EntityKey, QString> selectedProperty() const;

    /// The diff as the panel shows it: only the entities and properties its filters let
    /// through. Empty while the diff on screen is not the one asked for (never a stale export).
    QString toJson() const;
    QString toCsv() const;
    /// The shown diff restricted to the rows the filters let through; null when not up to date.
    std::shared_ptr<const vtx::FrameDiff> visibleDiff() const;

signals:
    /// The user activated a row: select this entity (and property, when not empty).
    void entityActivated(const EntityKey& entity, const QString& path);
    void diffUpdated();

private:
    void syncMarkers();
    void onFrameReady();
    void onFrameFailed(int frame, const QString& message);
    void requestFrames();
    void recompute();
    void updateSummary();
    void rememberView();
    void restoreView();
    void rebuildFilters();
    void exportTo(bool json);
    void followCompare();
    void syncCompareTolerance();
    void compareArrived();
    QString compareSummary() const;
    /// Why A or B, as wanted now, cannot be read (HTML); empty when both can.
    QString unreadableReason() const;

    ReplaySession* m_session;
    ViewState* m_viewState;
    DiffModel* m_model;
    DiffFilterProxy* m_proxy;
    HintTreeView* m_view;
    QLabel* m_summary;
    QLineEdit* m_filter;
    QComboBox* m_bucketFilter;
    QComboBox* m_typeFilter;
    QCheckBox* m_showAdded;
    QCheckBox* m_showRemoved;
    QCheckBox* m_showChanged;
    QLineEdit* m_epsilon;
    QAction* m_nextChange = nullptr;
    QAction* m_prevChange = nullptr;

    vtx::DiffOptions m_options;
    int m_wantA = -1, m_wantB = -1; ///< the frames the diff needs: the view's markers, or compare mode's pair
    CompareSession* m_compare = nullptr;
    bool m_comparing = false; ///< comparing two replays (m_compare has a file open)
    vtx::FrameHandle m_a, m_b;
    /// A wanted frame that cannot be read, and why; applies while it is still the one wanted.
    struct Unreadable {
        int frame = -1;
        QString why;
    };
    Unreadable m_unreadableA, m_unreadableB;
    QSet<QString> m_damagedA, m_damagedB; ///< "bucket/uniqueId" of entities damaged in A / B (FrameIntegrity)
    // What was expanded / selected, by entity and path, so a live update keeps the view.
    QSet<QString> m_expanded;
    QString m_selectedKey;
};

} // namespace vtxw
