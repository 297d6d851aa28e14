// SPDX-License-Identifier: MIT
#pragma once
// A whole-replay walk (analyses, plot series) run as a job: cancelled with the job, its progress
// shown on a progress bar while the job is the latest of its tracker.

#include "session/JobTracker.hpp"

#include "vtx/analysis/ReplayWalk.hpp"

#include <QPointer>
#include <QProgressBar>
#include <algorithm>

namespace vtxw {

/// The walk's control for `job`: its cancel flag, and progress posted to `bar` as permille of
/// the frames (the bar's range is 0–1000). Made inside the job's work, on its worker.
inline vtx::WalkControl walkControlFor(const JobToken& job, QProgressBar* bar)
{
    vtx::WalkControl control;
    control.cancel = job.flag();
    control.progress = [job, bar = QPointer<QProgressBar>(bar)](int64_t done, int64_t total) {
        const int permille = int(1000 * done / std::max<int64_t>(1, total));
        job.postIfCurrent([bar, permille] {
            if (bar)
                bar->setValue(permille);
        });
    };
    return control;
}

} // namespace vtxw
