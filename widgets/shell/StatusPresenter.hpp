// SPDX-License-Identifier: MIT
#pragma once
// What the window says about itself outside the panels: the status bar (the playhead's frame and
// time, the last request's latency, the cache summary, transient messages, a progress bar for
// searches) and the banner above the inspector (a frame that cannot be shown, following that
// stopped, a recovered file, problems in the file). It observes the view state and the
// session itself; the window only tells it what happened (a follow error, a search's progress).

#include "vtx/model/DecodedChunk.hpp"

#include <QObject>
#include <QString>

#include <optional>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace vtxw {

class ReplaySession;
class UserSettings;
class ViewState;

class StatusPresenter : public QObject {
    Q_OBJECT
public:
    /// Adds its widgets to `bar`; `banner` is the label above the inspector (hidden when empty).
    StatusPresenter(QStatusBar* bar, QLabel* banner, ReplaySession* session, UserSettings* settings, QObject* parent = nullptr);

    /// A transient message (0: until the next one).
    void showMessage(const QString& text, int timeoutMs = 0);
    /// The status bar's frame text: "frame 12 of 0–10655".
    static QString frameText(int frame, int frameCount);
    /// Where the diff's markers are: "Diff: A = frame 120, B follows the playhead", "Diff
    /// cleared", or that they are the two replays' frames while comparing.
    static QString diffMarkersText(const ViewState& view);
    QString currentMessage() const;
    void clearMessage();

    /// A search with progress (Esc cancels it): shown until finishProgress.
    void startProgress(const QString& what);
    void setProgress(int percent);
    void finishProgress(const QString& message, int timeoutMs);

    /// Why following the growing file stopped, shown in the banner until the next open or until
    /// following starts again (empty: nothing).
    void setFollowError(const QString& message);

    /// The banner's text when it is shown, else empty.
    QString bannerText() const;
    void setCacheSummary(const QString& text);
    /// The latency and cache fields, shown with the developer tools.
    void setDeveloperFields(bool shown);
    bool developerFieldsShown() const;
    /// The entity filter's expression error ("Filter: …" until it compiles; empty: none).
    void showFilterError(const QString& error);

    /// Brings the frame / time / latency labels and the banner up to date.
    void refresh();

private:
    void updateBanner();
    /// How to read more of an incomplete recording (what to say after the recovery banner),
    /// empty while following it.
    QString followHint() const;
    /// The damage of the chunk the frame on screen came from, when it is the frame asked for.
    std::optional<vtx::ChunkDamage> shownFrameDamage() const;
    void updateLabels();

    QStatusBar* m_bar;
    QLabel* m_banner;
    ReplaySession* m_session;
    ViewState* m_view;
    UserSettings* m_settings;
    QLabel* m_frame;
    QLabel* m_time;
    QLabel* m_latency;
    QLabel* m_cache;
    QProgressBar* m_progress;
    QString m_followError;
    QString m_openFileName; ///< the open replay's file name, for the message when it closes
};

} // namespace vtxw
