// SPDX-License-Identifier: MIT
#pragma once
// What the window is looking at, in one place (after hotspot's filter-and-zoom stack): the
// frame the playhead asks for, the frame on screen with its loading / error state, the zoom,
// the diff's A and B, the A–B loop, the selected entity, the entity filter and how a compared
// replay is paired. It is the only owner of these facts: panels change them here and react to
// these signals only, so no panel relays to another and no two panels can disagree.
//
// The frames themselves come from a FrameSource (the ReplaySession): it is asked for every
// requested frame and publishes what it shows with setLoading / setShownFrame / setFrameFailed.

#include "entities/EntityTreeModel.hpp"

#include "vtx/diff/ReplayPairing.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"
#include "vtx/model/DecodedChunk.hpp"
#include "vtx/model/EntityLabels.hpp"
#include "vtx/model/Schema.hpp"

#include <QObject>

namespace vtxw {

/// Turns the requested frame into a shown one (ReplaySession; tests use their own).
class FrameSource {
public:
    virtual ~FrameSource() = default;
    /// The playhead moved to `frame`: show it when it is decoded.
    virtual void fetchRequestedFrame(int frame) = 0;
};

/// The diff's markers: A pinned (or the frame before B), B set or following the playhead.
struct DiffMarkers {
    int a = -1, b = -1; ///< -1: not set
    bool bFollowsPlayhead = true; ///< B is the requested frame, moving with it
    bool previousFrame = false; ///< "Diff with previous frame": A is always B − 1
    bool operator==(const DiffMarkers&) const = default;
    bool isActive() const { return previousFrame || a >= 0; }
};

/// How the compared replay's frames pair with this one's (File ▸ Compare with…): what the user
/// chose, remembered in QSettings (`compare/…`).
struct ComparePairing {
    vtx::Alignment alignment = vtx::Alignment::Frame;
    int64_t offset = 0; ///< frames of B, or game-time ticks (Alignment::Time)
    double epsilon = 0; ///< absolute float tolerance (0: exact), shared by the lane and the diff
    friend bool operator==(const ComparePairing&, const ComparePairing&) = default;

    static ComparePairing load();
    void save() const;
};

class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject* parent = nullptr) : QObject(parent) { }

    /// The source asked for each requested frame. Asked after every listener of
    /// requestedFrameChanged has run: a frame already in memory is published at once, and no
    /// panel may see it before the request it answers.
    void setFrameSource(FrameSource* source) { m_source = source; }

    /// Frames in the open replay (0: nothing open). Set by the frame source on open, growth and
    /// close; the requested frame, the zoom and the markers are kept inside it.
    int frameCount() const { return m_frameCount; }
    void setFrameCount(int count);
    /// Whether a replay is open: the one fact every panel's "No replay open." reads. Not
    /// frameCount() > 0: a recovered file can be open with no frame.
    bool replayOpen() const { return m_replayOpen; }
    void setReplayOpen(bool open);

    // --- The playhead ------------------------------------------------------------------
    /// The frame asked for (may be ahead of the shown one while it decodes).
    int requestedFrame() const { return m_requested; }
    /// Moves the playhead (clamped to the replay); an equal frame changes nothing.
    void setRequestedFrame(int frame);
    /// Asks the source for the requested frame again without moving (a reopened or rewritten
    /// file: what was decoded no longer counts).
    void requestAgain();

    /// The decoded frame on screen (null: nothing open, or nothing decoded yet) and the schema
    /// that names its properties (valid while the replay is open).
    const vtx::FrameHandle& shownFrame() const { return m_shown; }
    const vtx::Schema* schema() const { return m_schema; }
    /// The stored-hash check of the shown frame (FrameIntegrity): which entities' values are not
    /// the writer's. Computed once per shown frame, before shownFrameChanged is emitted.
    const vtx::FrameIntegrity& shownIntegrity() const { return m_integrity; }
    /// True while the requested frame is being decoded (the shown frame lags it).
    bool isLoading() const { return m_loading; }
    /// Why the requested frame could not be shown, empty when it is on screen. The last good
    /// frame stays shown meanwhile.
    const QString& frameError() const { return m_frameError; }

    /// For the frame source only.
    void setShownFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema);
    void setLoading(bool loading);
    void setFrameFailed(int frame, const QString& message);

    // --- What is looked at -----------------------------------------------------------------
    const EntityKey& selection() const { return m_selection; }
    /// Which property names the entities of each type of the shown schema (vtx::EntityLabels:
    /// chosen from the schema, then the user's choices for this schema from QSettings
    /// `labels/<schema fingerprint>/<type>`). Chosen again when the schema changes, before
    /// shownFrameChanged. Labels are read from a frame: `entityLabel` of the entity there.
    const vtx::EntityLabels& entityLabels() const { return m_labels; }
    /// Names the entities of `typeName` by `field` (empty: by their id), remembered for this
    /// schema. False when the field cannot name them (not a scalar string of the type).
    bool setLabelField(const QString& typeName, const QString& field);
    /// The entity's label in the frame `entity` comes from; empty when it has none there (show
    /// the id).
    QString entityLabel(const vtx::ContainerView& entity) const;
    void setSelection(const EntityKey& entity);

    /// The entity filter's text (query language, or a word matching id or type).
    const QString& entityFilter() const { return m_filter; }
    void setEntityFilter(const QString& text);

    /// The visible frame range of the timeline and every linked panel.
    double zoomFirst() const { return m_zoomFirst; }
    double zoomLast() const { return m_zoomLast; }
    /// Shows [first, last], at least 20 frames and inside the replay (the timeline's rule, so
    /// a panel asking for a range and the timeline showing it agree: one change, not two).
    void setZoom(double first, double last);
    void showAll();

    // --- The diff's A and B ------------------------------------------------------------------
    const DiffMarkers& diffMarkers() const { return m_markers; }
    /// The markers as the timeline shows them: -1 while the diff is not active (a B set
    /// before A is kept for when A is pinned).
    int frameA() const { return m_markers.isActive() ? m_markers.a : -1; }
    int frameB() const { return m_markers.isActive() ? m_markers.b : -1; }
    /// Pins A at `frame` (the playhead when -1); a B that follows moves to the playhead.
    void pinA(int frame = -1);
    /// Sets B at `frame` and stops following the playhead (-1: follow it again).
    void setB(int frame);
    void setPreviousFrameMode(bool on);
    void swapAB();
    void clearAB();

    // --- The A–B loop ------------------------------------------------------------------------
    bool isLooping() const { return m_loopFirst >= 0; }
    int loopFirst() const { return m_loopFirst; }
    int loopLast() const { return m_loopLast; }
    /// Loops over [first, last] while playing (swapped when reversed; cleared when empty).
    void setLoop(int first, int last);
    /// Playback ▸ Loop A–B: loops between A and a set B. Refuses (false, no loop) unless A is
    /// pinned and B is set apart from it — a B that follows the playhead is no end to loop to.
    bool loopBetweenMarkers();
    void clearLoop();

    // --- Two replays -------------------------------------------------------------------------
    /// A compared replay is open: A is this replay at the playhead, B its paired frame, and
    /// the markers are not the user's to move (pinA, setB, swapAB and clearAB do nothing).
    /// The markers the user had set come back when the comparison closes (not when the replay
    /// does): the README promised A/B "waits until the comparison is closed", and they were lost.
    bool isComparing() const { return m_comparing; }
    void setComparing(bool on);
    const ComparePairing& comparePairing() const { return m_pairing; }
    void setComparePairing(const ComparePairing& pairing);

    /// Back to nothing open (keeps the filter and the pairing, which are the user's, not the
    /// file's).
    void reset();

signals:
    void frameCountChanged(int count);
    void replayOpenChanged(bool open);
    void requestedFrameChanged(int frame);
    void loadingChanged(bool loading);
    /// Every new shown frame, even with the same index (a followed file re-read, a reopen).
    void shownFrameChanged();
    /// The requested frame cannot be decoded (frameError() says why).
    void frameFailed(int frame, const QString& message);
    void selectionChanged(const EntityKey& entity);
    /// The user chose another label property for a type (setLabelField).
    void entityLabelsChanged();
    void entityFilterChanged(const QString& text);
    void zoomChanged(double first, double last);
    /// A, B, B's follow mode or the previous-frame mode changed (a, b: the markers, -1 unset).
    void diffFramesChanged(int a, int b);
    void loopChanged(bool looping);
    void comparingChanged(bool comparing);
    void comparePairingChanged();

private:
    void setMarkers(const DiffMarkers& markers);
    DiffMarkers followed(DiffMarkers m) const;
    int clampFrame(int frame) const;

    FrameSource* m_source = nullptr;
    int m_frameCount = 0;
    bool m_replayOpen = false;
    int m_requested = 0;
    vtx::FrameHandle m_shown;
    vtx::FrameIntegrity m_integrity;
    const vtx::Schema* m_schema = nullptr;
    bool m_loading = false;
    QString m_frameError;
    EntityKey m_selection;
    vtx::EntityLabels m_labels;
    const vtx::Schema* m_labelsFor = nullptr;
    QString m_filter;
    double m_zoomFirst = 0, m_zoomLast = 0;
    DiffMarkers m_markers;
    DiffMarkers m_markersBeforeComparing; ///< the user's, while comparing
    int m_loopFirst = -1, m_loopLast = -1;
    bool m_comparing = false;
    ComparePairing m_pairing;
};

} // namespace vtxw
