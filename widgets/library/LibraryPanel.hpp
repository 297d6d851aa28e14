// SPDX-License-Identifier: MIT
#pragma once
// The replay library (File ▸ Open folder…, `vtxscope DIR`): every `*.vtx` under a folder in a
// sortable, filterable table, read by background jobs from headers and footers only (never a
// chunk), rows appearing as each file is read; and a check of selected runs against a baseline
// run, each run's first divergence shown in columns of its own.
//
// Contract for the window that hosts it:
// - Construct it with a parent only; it owns its jobs (two JobTrackers: the listing and the
//   check) and asks its questions through vtxw::prompts().
// - setFolder(dir) lists `dir` (a running listing or check is cancelled first); rescan() lists
//   the same folder again.
// - openRequested(path): the user opened a row (double-click, Enter, Open).
// - compareRequested(a, b): Compare with exactly two rows selected; `a` is the upper one in the
//   view's order (the window opens `a` and compares it with `b`, like `--compare`).
// - openPairAtFrame(baseline, run, frame): the user clicked a run's divergence result; `frame`
//   is the baseline's frame of the first divergence (the run's paired frame follows from the
//   compare pairing, frame alignment with offset 0 as the check used). Open the baseline, compare
//   with the run and seek to `frame`.
// - Keyboard: Enter opens the current row, Ctrl+F focuses the filter (both only while focus is
//   inside the panel, so they do not clash with the window's own Ctrl+F).
// - Column widths, order and the sort are remembered in QSettings (`library/header`).

#include "library/LibraryModel.hpp"
#include "session/JobTracker.hpp"

#include "vtx/diff/Diverge.hpp"
#include "vtx/library/ReplaySummary.hpp"

#include <QStringList>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QModelIndex;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace vtxw {

class LibraryPanel : public QWidget {
    Q_OBJECT
public:
    explicit LibraryPanel(QWidget* parent = nullptr);
    ~LibraryPanel() override;

    const QString& folder() const { return m_folder; }
    bool isListing() const { return m_listJobs.isRunning(); }
    bool isChecking() const { return m_checkJobs.isRunning(); }
    /// The baseline the next check uses (set by "Use as baseline" or chosen when checking).
    const QString& baseline() const { return m_baseline; }
    /// Selected rows' paths, in the view's order.
    QStringList selectedPaths() const;
    /// The line under the table: what was read, what failed, the check's progress.
    QString statusText() const;

    /// How the jobs reach files' bytes (tests count what is read); call before setFolder().
    void setSourceOpener(vtx::SourceOpener open) { m_open = std::move(open); }
    /// Alignment, offset, tolerance and ignored properties of the check (default: the CLI's).
    void setDivergeOptions(const vtx::DivergeOptions& options);

    LibraryModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    QLineEdit* filterField() const { return m_filter; }
    QAction* openAction() const { return m_openAction; }
    QAction* compareAction() const { return m_compareAction; }
    QAction* useAsBaselineAction() const { return m_baselineAction; }
    QAction* checkAction() const { return m_checkAction; }

public slots:
    void setFolder(const QString& folder);
    void rescan();
    /// Cancels the listing and the check; what was read so far stays.
    void cancel();
    void openCurrent();
    void compareSelected();
    void setBaseline(const QString& path);
    /// "Check against baseline…": the selected runs against the baseline, which is the one set
    /// with "Use as baseline", else asked for with prompts().openFilePath().
    void checkAgainstBaseline();
    /// Checks `runs` (the baseline itself is skipped) against `baseline` on a job.
    void checkRuns(const QString& baseline, const QStringList& runs);

signals:
    void openRequested(const QString& path);
    void compareRequested(const QString& a, const QString& b);
    void openPairAtFrame(const QString& baseline, const QString& run, qint64 frame);
    void listingFinished(); ///< the listing read every file (not when cancelled or superseded)
    void checkFinished(); ///< the check answered for every run (not when cancelled or superseded)

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateActions();
    void updateStatus();
    void showProgress(bool on);
    void onClicked(const QModelIndex& proxyIndex);
    void onDoubleClicked(const QModelIndex& proxyIndex);
    /// True when `proxyIndex` is a divergence result that opens the pair.
    bool isDivergenceCell(const QModelIndex& proxyIndex) const;
    void showCheckColumns(bool on);
    void saveHeader() const;
    /// The header's state is saved a second after its last change (and when the panel goes):
    /// a window's layout resizes a stretched column many times at once, and each save is a
    /// settings file written and synced to disk on the UI thread (five of them during an open).
    QTimer* m_headerSave;

    QString m_folder;
    QString m_baseline;
    vtx::SourceOpener m_open;
    vtx::DivergeOptions m_divergeOptions;

    LibraryModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    QAction* m_openAction;
    QAction* m_compareAction;
    QAction* m_baselineAction;
    QAction* m_checkAction;
    QAction* m_rescanAction;

    // What the status line says; set by the jobs' deliveries.
    int m_filesListed = -1; ///< -1: the folder is still being listed
    int m_filesRead = 0;
    int m_filesDamaged = 0; ///< rows whose file does not open as it is (counted as they arrive: a status per row must not walk every row)
    QStringList m_listErrors;
    bool m_listCancelled = false;
    int m_runsToCheck = 0;
    int m_runsChecked = 0;
    bool m_checkCancelled = false;
    QString m_checkError; ///< the baseline failed to open

    JobTracker m_listJobs{this};
    JobTracker m_checkJobs{this};
};

} // namespace vtxw
