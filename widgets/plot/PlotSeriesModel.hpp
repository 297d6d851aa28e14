// SPDX-License-Identifier: MIT
#pragma once
// The plot's series: the legend's model. Each row is one series with its colour, whether it is
// shown (the check box), and its data once the worker has computed it. How a series reads a
// frame is a factory of core samplers, made fresh on the worker for each scan — a property of
// an entity today; any other SeriesSampler (an expression) is added the same way.

#include "vtx/plot/Decimate.hpp"
#include "vtx/plot/SeriesScan.hpp"

#include <QAbstractListModel>
#include <QColor>
#include <functional>
#include <memory>

namespace vtxw {

/// Makes the sampler a scan uses, on the worker thread (it must not touch the UI).
using SamplerFactory = std::function<vtx::Result<std::unique_ptr<vtx::SeriesSampler>>(const vtx::ReplayFile&)>;

struct PlotSeriesEntry {
    quint64 id = 0;
    QString name; ///< unambiguous: "player_76561198000000000.Health" (CSV columns, tooltips)
    QString shownName; ///< what the legend and the readout say: "s1mple · Health", else `name`
    int bucket = -1; ///< a property series: its entity (bucket, id) and path; else bucket -1
    QString uniqueId;
    QString path;
    QString vectorPath; ///< a component or the length of this vector ("Transform.translation"), else empty
    QColor colour;
    bool visible = true;
    SamplerFactory factory;
    std::shared_ptr<const vtx::SeriesData> data; ///< null while being computed
    std::shared_ptr<const vtx::SeriesSummary> summary; ///< of `data`, made on the worker
    QString error; ///< the sampler could not be made (bad path)
};

class PlotSeriesModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { IdRole = Qt::UserRole + 1, PointCountRole, ComputingRole, DamagedCountRole };
    using QAbstractListModel::QAbstractListModel;

    /// Adds a series to compute; returns its id. Colours cycle through a colour-blind-safe set.
    quint64 add(const QString& name, SamplerFactory factory);
    /// Adds the series of `path` on entity (bucket, uniqueId): named "uniqueId.path" until
    /// setEntityLabels gives its entity a label.
    /// `vectorPath`: the vector this series is a component or the length of (the legend offers
    /// the other way to plot it). A series of the same entity and path already there is not
    /// added again: its id is returned (Player.Health after s1mple's Health gave 11 series
    /// for 10 players, two of them one curve).
    quint64 addProperty(int bucket, const QString& uniqueId, const QString& path, SamplerFactory factory, const QString& vectorPath = {});
    /// Names each property series by its entity's label (`labelOf(bucket, id)`, empty: the id):
    /// "label · path". Emits dataChanged for the rows whose name changed.
    void setEntityLabels(const std::function<QString(int bucket, const QString& uniqueId)>& labelOf);
    void remove(quint64 id);
    void clear();
    /// The worker's answer for `id` (ignored when the series was removed meanwhile).
    void setSeriesData(quint64 id, std::shared_ptr<const vtx::SeriesData> data, const QString& error = {},
                       std::shared_ptr<const vtx::SeriesSummary> summary = {});
    void setVisible(int row, bool visible);

    const std::vector<PlotSeriesEntry>& entries() const { return m_entries; }
    int rowOf(quint64 id) const;
    bool hasPending() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    std::vector<PlotSeriesEntry> m_entries;
    quint64 m_nextId = 1;
    int m_colourIndex = 0;
};

} // namespace vtxw
