#pragma once
// What the window is looking at, in one place (after hotspot's filter-and-zoom stack): the
// frame the playhead asks for, the frame on screen, the selected entity, the diff's A and B,
// the timeline's visible range and the entity filter. Panels observe it and find their data in
// the shown frame themselves, so no one has to push frames to them in the right order.

#include "vtx/model/DecodedChunk.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"
#include "vtx/model/Schema.hpp"
#include "vtxwidgets/EntityTreeModel.hpp"

#include <QObject>

namespace vtxw {

class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject* parent = nullptr) : QObject(parent) {}

    /// The playhead: the frame asked for (may be ahead of the shown one while it decodes).
    int requestedFrame() const { return m_requested; }
    void setRequestedFrame(int frame);
    /// The decoded frame on screen (null: nothing open, or nothing decoded yet) and the schema
    /// that names its properties (valid while the replay is open).
    const vtx::FrameHandle& shownFrame() const { return m_shown; }
    const vtx::Schema* schema() const { return m_schema; }
    void setShownFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema);
    /// The stored-hash check of the shown frame (FrameIntegrity): which entities' values are not
    /// the writer's. Computed once per shown frame, before shownFrameChanged is emitted (one
    /// XXH3 pass over the frame's values, in memory already).
    const vtx::FrameIntegrity& shownIntegrity() const { return m_integrity; }

    const EntityKey& selection() const { return m_selection; }
    void setSelection(const EntityKey& entity);

    /// The diff's frames; -1 when not set.
    int frameA() const { return m_a; }
    int frameB() const { return m_b; }
    void setDiffFrames(int a, int b);

    /// The timeline's visible frame range.
    double zoomFirst() const { return m_zoomFirst; }
    double zoomLast() const { return m_zoomLast; }
    void setZoom(double first, double last);

    /// The entity filter's text (EntityFilter syntax).
    const QString& entityFilter() const { return m_filter; }
    void setEntityFilter(const QString& text);

    /// Back to nothing open (keeps the filter, which is the user's, not the file's).
    void reset();

signals:
    void requestedFrameChanged(int frame);
    /// Every new shown frame, even with the same index (a followed file re-read, a reopen).
    void shownFrameChanged();
    void selectionChanged(const EntityKey& entity);
    void diffFramesChanged(int a, int b);
    void zoomChanged(double first, double last);
    void entityFilterChanged(const QString& text);

private:
    int m_requested = 0;
    vtx::FrameHandle m_shown;
    vtx::FrameIntegrity m_integrity;
    const vtx::Schema* m_schema = nullptr;
    EntityKey m_selection;
    int m_a = -1, m_b = -1;
    double m_zoomFirst = 0, m_zoomLast = 0;
    QString m_filter;
};

} // namespace vtxw
