// SPDX-License-Identifier: MIT
#pragma once
// The Analysis dock: one analysis at a time (entity lifetimes, unique values, property spans)
// computed on a worker over the whole replay with progress and cancel, shown in a sortable,
// filterable table, exported as CSV. Activating a row seeks to its first frame.

#include "analysis/AnalysisModel.hpp"
#include "session/JobTracker.hpp"

#include <QWidget>
#include <functional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace vtxw {

class ReplaySession;
class ViewState;

class AnalysisPanel : public QWidget {
    Q_OBJECT
public:
    using Work = std::function<vtx::Result<vtx::AnalysisTable>(const vtx::ReplayFile&, const vtx::WalkControl&)>;
    /// `view` (optional) names the entities in the tables as the window does (its label choice).
    explicit AnalysisPanel(ReplaySession* session, ViewState* view = nullptr, QWidget* parent = nullptr);
    ~AnalysisPanel() override;

    /// Runs `work` on a worker (a running analysis is superseded); `title` names it.
    void run(const QString& title, Work work);
    void runLifetimes();
    /// Analysis ▸ Unique values… / Property spans…: asks for the properties (the last answer
    /// offered, remembered in QSettings) and runs the analysis; false when the user cancelled.
    bool askUniqueValues();
    bool askPropertySpans();
    void runUniqueValues(const vtx::UniqueValuesRequest& request);
    void runPropertySpans(const vtx::PropertySpansRequest& request);
    void cancel();
    bool isComputing() const { return m_jobs.isRunning(); }

    AnalysisModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QString title() const;
    /// The line under the table: rows shown, frames that could not be read, or the error.
    QString statusText() const;
    /// The rows the filter shows, in the view's order, as CSV.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

signals:
    void seekRequested(int frame);
    void finished();
    /// An analysis started (true) or ended, was cancelled or dropped (false): Cancel applies.
    void runningChanged(bool running);

private:
    QString tableStatus() const;
    void setRunning(bool running);
    ReplaySession* m_session;
    ViewState* m_viewState;
    /// The view state's label choice, copied for a worker (the defaults for the file without one).
    std::shared_ptr<const vtx::EntityLabels> labelsForJob() const;
    AnalysisModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_title;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    QPushButton* m_csv;
    QString m_shownTitle;
    JobTracker m_jobs{this};
};

} // namespace vtxw
