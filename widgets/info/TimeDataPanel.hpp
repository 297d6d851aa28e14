// SPDX-License-Identifier: MIT
#pragma once
// The Time data dock: gaps, segments and per-frame times as tabs of tables; clicking a row (or
// Enter on it) seeks to its frame.

#include <QWidget>
#include <memory>

class QTabWidget;
class QTableView;

namespace vtx {
class ReplayFile;
}

namespace vtxw {

class TimeDataModel;

class TimeDataPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimeDataPanel(QWidget* parent = nullptr);
    void setFile(const std::shared_ptr<const vtx::ReplayFile>& file);
    TimeDataModel* gaps() const { return m_gaps; }
    TimeDataModel* segments() const { return m_segments; }
    TimeDataModel* times() const { return m_times; }
    QTabWidget* tabs() const { return m_tabs; }
    /// The table showing `model` (for tests).
    QTableView* viewOf(TimeDataModel* model) const;

signals:
    void seekRequested(int frame);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Fits a table's columns to its contents now if it is on screen, else when it is shown:
    /// measuring 1,000 rows of the per-frame times took 15 ms of the UI thread at every open,
    /// for a tab that is mostly not on screen.
    void fitColumns(QTableView* view);

    QTabWidget* m_tabs;
    TimeDataModel* m_gaps;
    TimeDataModel* m_segments;
    TimeDataModel* m_times;
};

} // namespace vtxw
