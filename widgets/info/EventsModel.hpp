// SPDX-License-Identifier: MIT
#pragma once
// Timeline events of the open replay as a table (time, type, label, entity, frame).

#include <QAbstractTableModel>
#include <vector>

namespace vtxw {

class ReplaySession;

class EventsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, TypeColumn, LabelColumn, EntityColumn, FrameColumn, ColumnCount };
    /// FrameRole: the frame an event is shown at; OffClockRole: what to say when no frame's
    /// time reaches the event's (ReplaySession::offClockNote), empty otherwise.
    enum Roles { FrameRole = Qt::UserRole + 1, OffClockRole };
    explicit EventsModel(ReplaySession* session, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    /// Index of the first event after / last event before `frame`, or -1.
    int nextEventFrame(int frame) const;
    int previousEventFrame(int frame) const;

private:
    void reload();
    struct Row {
        double seconds;
        QString type, label, entity;
        int frame;
        QString offClock; ///< ReplaySession::offClockNote: empty when a frame reaches the event's time
    };
    ReplaySession* m_session;
    std::vector<Row> m_rows;
};

} // namespace vtxw
