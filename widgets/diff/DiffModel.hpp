// SPDX-License-Identifier: MIT
#pragma once
// The diff panel's model: changed entities (added / removed / changed) as top-level rows, their
// changed properties as children, with old → new values and deltas. Values are lifted from the
// diff's frames only when a row is shown. DiffFilterProxy filters by text, bucket, type and
// change kind, keeping an entity when any of its properties matches; text with an operator is a
// query expression (README "Query language") evaluated on the entity in frame B (A if removed).

#include "vtx/diff/FrameDiff.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/query/Expression.hpp"

#include <QAbstractItemModel>
#include <QHash>
#include <QSet>
#include <QSortFilterProxyModel>
#include <memory>

#include <optional>

namespace vtxw {

/// A change's Δ as the diff shows it (− for minus) and the colour it takes: +1 increase, −1
/// decrease, 0 none (mixed signs, or a delta without a sign such as a rotation's angle).
struct DeltaText {
    QString text;
    int sign = 0;
};
DeltaText deltaText(const vtx::PropertyChange& c, bool forReading = true);

class DiffModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, AColumn, BColumn, DeltaColumn, ColumnCount };
    enum Roles {
        StatusRole = Qt::UserRole + 1, ///< "added" / "removed" / "changed" (entity rows and their children)
        BucketRole, ///< bucket name
        BucketIndexRole,
        TypeRole, ///< entity type name
        UniqueIdRole,
        PathRole, ///< property path; empty on entity rows
        DamageRole, ///< entity rows: "A", "B" or "A, B" where its stored hash mismatches (FrameIntegrity)
        LabelRole, ///< the entity's label in B (A when removed); empty when it has none there
        /// A, B and Δ cells of a changed property: where in the cell's text the part that
        /// changed starts (differenceStart, firstChangedComponent); 0 at the start
        DifferenceAtRole,
    };

    explicit DiffModel(QObject* parent = nullptr);

    /// Replaces the shown diff (the model keeps it, and so its frames, alive).
    void setDiff(std::shared_ptr<const vtx::FrameDiff> diff, const vtx::Schema* schema);
    void clear();
    /// Names entity rows by their label (read from frame B, from A when removed; the id second).
    /// `labels` must outlive the model; null: ids only.
    void setEntityLabels(const vtx::EntityLabels* labels);
    /// The label choice changed: entity rows are named again.
    void labelsChanged();
    /// Entities whose values in frame A / B are damaged (keys "bucket/uniqueId"); call after setDiff.
    void setDamage(const QSet<QString>& inA, const QSet<QString>& inB);
    const std::shared_ptr<const vtx::FrameDiff>& diff() const { return m_diff; }
    const vtx::Schema* schema() const { return m_schema; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant entityData(const vtx::EntityDiff& e, int column, int role) const;
    QVariant changeData(const vtx::EntityDiff& e, const vtx::PropertyChange& c, int column, int role) const;
    QString typeName(int32_t typeId) const;
    QString labelIn(const vtx::EntityDiff& e, bool inB) const;
    /// The label another bucket's entity with the same id has in frame A or B (a player's
    /// name for its bone data, as the entity list lends it), found once per diff.
    QString lentLabel(const QString& uniqueId, bool inB) const;

    std::shared_ptr<const vtx::FrameDiff> m_diff;
    mutable std::optional<QHash<QString, QString>> m_labelOfId[2]; ///< A, B: id → first label
    const vtx::Schema* m_schema = nullptr;
    const vtx::EntityLabels* m_labels = nullptr;
    QSet<QString> m_damagedA, m_damagedB;
    QString damageOf(const vtx::EntityDiff& e) const;
};

class DiffFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DiffFilterProxy(QObject* parent = nullptr);
    void setText(const QString& text);
    void setBucket(const QString& bucket); ///< empty: every bucket
    void setType(const QString& type); ///< empty: every type
    void setShowStatus(const QString& status, bool shown); ///< "added", "removed", "changed"
    /// Why the text is not a usable expression (column, expected, did you mean); empty when it is
    /// one, or plain text.
    QString error() const;
    /// True when rows may be hidden: a text, a bucket or a type set, or a status unticked.
    bool isFiltering() const;
    /// An entity row's "n changes" counts the changes the filter shows ("2 of 5 changes").
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    bool expressionAccepts(int entityRow) const;
    QString m_text, m_bucket, m_type;
    // The text compiled for the shown diff's schema (lazily: a new file recompiles); evaluation
    // keeps per-frame state, hence mutable in a const filter pass.
    mutable std::optional<vtx::query::Expression> m_expression;
    mutable QString m_error;
    mutable const vtx::Schema* m_compiledFor = nullptr;
    mutable bool m_compiled = false;
    mutable bool m_plain = true;
    mutable std::pair<const void*, int32_t> m_bound{nullptr, -1}; ///< the frame the expression is set to
    bool m_added = true, m_removed = true, m_changed = true;
};

} // namespace vtxw
