#include "session/ViewState.hpp"

namespace vtxw {

void ViewState::setRequestedFrame(int frame)
{
    if (frame == m_requested)
        return;
    m_requested = frame;
    emit requestedFrameChanged(frame);
}

void ViewState::setShownFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema)
{
    m_shown = frame;
    m_schema = schema;
    m_integrity = frame.isNull() || !schema ? vtx::FrameIntegrity{}
                                            : vtx::checkFrameIntegrity(frame.view(), *schema, frame.chunk()->hashTrust());
    emit shownFrameChanged();
}

void ViewState::setSelection(const EntityKey& entity)
{
    if (entity == m_selection)
        return;
    m_selection = entity;
    emit selectionChanged(entity);
}

void ViewState::setDiffFrames(int a, int b)
{
    if (a == m_a && b == m_b)
        return;
    m_a = a;
    m_b = b;
    emit diffFramesChanged(a, b);
}

void ViewState::setZoom(double first, double last)
{
    if (first == m_zoomFirst && last == m_zoomLast)
        return;
    m_zoomFirst = first;
    m_zoomLast = last;
    emit zoomChanged(first, last);
}

void ViewState::setEntityFilter(const QString& text)
{
    if (text == m_filter)
        return;
    m_filter = text;
    emit entityFilterChanged(text);
}

void ViewState::reset()
{
    setShownFrame({}, nullptr);
    setRequestedFrame(0);
    setDiffFrames(-1, -1);
}

} // namespace vtxw
