// SPDX-License-Identifier: MIT
#include "session/ViewState.hpp"

#include <QCryptographicHash>
#include <QSettings>
#include <algorithm>
#include <utility>

namespace vtxw {

ComparePairing ComparePairing::load()
{
    QSettings s;
    ComparePairing p;
    p.alignment = s.value("compare/alignment").toString() == QLatin1String("time") ? vtx::Alignment::Time : vtx::Alignment::Frame;
    p.offset = s.value("compare/offset", 0).toLongLong();
    p.epsilon = std::max(0.0, s.value("compare/epsilon", 0.0).toDouble());
    return p;
}

void ComparePairing::save() const
{
    QSettings s;
    s.setValue("compare/alignment", QString::fromLatin1(vtx::alignmentName(alignment)));
    s.setValue("compare/offset", qlonglong(offset));
    s.setValue("compare/epsilon", epsilon);
}

int ViewState::clampFrame(int frame) const
{
    return std::clamp(frame, 0, std::max(0, m_frameCount - 1));
}

void ViewState::setReplayOpen(bool open)
{
    if (open == m_replayOpen)
        return;
    m_replayOpen = open;
    emit replayOpenChanged(open);
}

void ViewState::setFrameCount(int count)
{
    count = std::max(0, count);
    if (count == m_frameCount)
        return;
    const bool showedAll = m_zoomFirst <= 0 && m_zoomLast >= std::max(1, m_frameCount - 1);
    m_frameCount = count;
    emit frameCountChanged(count);
    // A view showing everything keeps showing everything; a zoomed one stays where it is.
    if (showedAll)
        showAll();
    else
        setZoom(m_zoomFirst, m_zoomLast);
}

void ViewState::setRequestedFrame(int frame)
{
    frame = clampFrame(frame);
    if (frame == m_requested)
        return;
    m_requested = frame;
    // B following the playhead moves with it, before anyone hears of the move: a panel
    // reacting to the new frame already sees the markers that go with it.
    const DiffMarkers moved = followed(m_markers);
    const bool markersMoved = moved != m_markers;
    m_markers = moved;
    emit requestedFrameChanged(frame);
    if (markersMoved)
        emit diffFramesChanged(frameA(), frameB());
    if (m_source)
        m_source->fetchRequestedFrame(frame);
}

void ViewState::requestAgain()
{
    if (m_source)
        m_source->fetchRequestedFrame(m_requested);
}

namespace {
// Settings group of a schema's label choices: its struct and field names and types, hashed, so
// every file written with the same schema shares them.
QString labelSettingsGroup(const vtx::Schema& schema)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    for (const vtx::StructDef& def : schema.structs()) {
        h.addData(QByteArrayView(def.name.data(), qsizetype(def.name.size())));
        h.addData(QByteArrayView("{"));
        for (const vtx::FieldDef& f : def.fields) {
            h.addData(QByteArrayView(f.name.data(), qsizetype(f.name.size())));
            h.addData(QByteArrayView(":"));
            h.addData(QByteArrayView(f.typeToken.data(), qsizetype(f.typeToken.size())));
            h.addData(QByteArrayView(","));
        }
        h.addData(QByteArrayView("}"));
    }
    return QStringLiteral("labels/") + QString::fromLatin1(h.result().toHex().left(16));
}
} // namespace

void ViewState::setShownFrame(const vtx::FrameHandle& frame, const vtx::Schema* schema)
{
    m_shown = frame;
    m_schema = schema;
    if (schema != m_labelsFor) {
        m_labelsFor = schema;
        m_labels = schema ? vtx::EntityLabels::choose(*schema) : vtx::EntityLabels{};
        if (schema) {
            QSettings s;
            s.beginGroup(labelSettingsGroup(*schema));
            for (const QString& type : s.childKeys())
                m_labels.setField(*schema, type.toStdString(), s.value(type).toString().toStdString());
        }
    }
    m_integrity = frame.isNull() || !schema ? vtx::FrameIntegrity{} : vtx::checkFrameIntegrity(frame.view(), *schema, frame.chunk()->hashTrust());
    if (!frame.isNull() && frame.index() == m_requested)
        m_frameError.clear();
    emit shownFrameChanged();
}

void ViewState::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    emit loadingChanged(loading);
}

void ViewState::setFrameFailed(int frame, const QString& message)
{
    m_frameError = message;
    emit frameFailed(frame, message);
}

void ViewState::setSelection(const EntityKey& entity)
{
    if (entity == m_selection)
        return;
    m_selection = entity;
    emit selectionChanged(entity);
}

bool ViewState::setLabelField(const QString& typeName, const QString& field)
{
    if (!m_schema || !m_labels.setField(*m_schema, typeName.toStdString(), field.toStdString()))
        return false;
    QSettings().setValue(labelSettingsGroup(*m_schema) + QLatin1Char('/') + typeName, field);
    emit entityLabelsChanged();
    return true;
}

QString ViewState::entityLabel(const vtx::ContainerView& entity) const
{
    const std::string_view l = m_labels.label(entity);
    return QString::fromUtf8(l.data(), qsizetype(l.size()));
}

void ViewState::setEntityFilter(const QString& text)
{
    if (text == m_filter)
        return;
    m_filter = text;
    emit entityFilterChanged(text);
}

void ViewState::setZoom(double first, double last)
{
    // The timeline's rule: at least 20 frames, never past either end of the replay.
    const double end = std::max(1.0, double(m_frameCount) - 1);
    const double span = std::clamp(last - first, 20.0, std::max(20.0, end));
    last = first + span;
    if (first < 0)
        first = 0, last = std::min(end, span);
    if (last > end)
        last = end, first = std::max(0.0, end - span);
    if (first == m_zoomFirst && last == m_zoomLast)
        return;
    m_zoomFirst = first;
    m_zoomLast = last;
    emit zoomChanged(first, last);
}

void ViewState::showAll()
{
    setZoom(0, std::max(1.0, double(m_frameCount) - 1));
}

DiffMarkers ViewState::followed(DiffMarkers m) const
{
    if (!m.isActive())
        return m;
    if (m.previousFrame || m.bFollowsPlayhead)
        m.b = m_requested;
    if (m.previousFrame)
        m.a = std::max(0, m.b - 1);
    return m;
}

void ViewState::setMarkers(const DiffMarkers& markers)
{
    if (markers == m_markers)
        return;
    m_markers = markers;
    emit diffFramesChanged(frameA(), frameB());
    // Moving A or a set B moves a running loop with them (a B that follows the playhead moves
    // every frame while playing: the loop keeps the end it started with).
    if (isLooping() && frameA() >= 0)
        setLoop(frameA(), frameB() >= 0 && !m_markers.bFollowsPlayhead ? frameB() : m_loopLast);
}

void ViewState::pinA(int frame)
{
    if (m_comparing)
        return;
    DiffMarkers m = m_markers;
    m.previousFrame = false;
    m.a = frame >= 0 ? clampFrame(frame) : m_requested;
    setMarkers(followed(m));
}

void ViewState::setB(int frame)
{
    if (m_comparing)
        return;
    DiffMarkers m = m_markers;
    m.bFollowsPlayhead = frame < 0;
    m.b = frame < 0 ? m_requested : clampFrame(frame);
    if (m.previousFrame)
        m.a = std::max(0, m.b - 1);
    setMarkers(followed(m));
}

void ViewState::setPreviousFrameMode(bool on)
{
    if (m_comparing)
        return;
    DiffMarkers m = m_markers;
    m.previousFrame = on;
    if (on)
        m.bFollowsPlayhead = true;
    else
        m.a = m.b = -1, m.bFollowsPlayhead = true;
    setMarkers(followed(m));
}

void ViewState::swapAB()
{
    if (m_comparing || !m_markers.isActive() || m_markers.previousFrame)
        return;
    DiffMarkers m = m_markers;
    std::swap(m.a, m.b);
    m.bFollowsPlayhead = false;
    setMarkers(m);
}

void ViewState::clearAB()
{
    if (m_comparing)
        return;
    setMarkers({});
}

void ViewState::setLoop(int first, int last)
{
    if (first > last)
        std::swap(first, last);
    if (first < 0 || last <= first) {
        clearLoop();
        return;
    }
    if (first == m_loopFirst && last == m_loopLast)
        return;
    m_loopFirst = first;
    m_loopLast = last;
    emit loopChanged(true); // also when only the range moved: the timeline shades it
}

bool ViewState::loopBetweenMarkers()
{
    const int a = frameA(), b = frameB();
    if (a < 0 || b < 0 || m_markers.bFollowsPlayhead || a == b) {
        clearLoop();
        return false;
    }
    setLoop(a, b);
    return true;
}

void ViewState::clearLoop()
{
    if (!isLooping())
        return;
    m_loopFirst = m_loopLast = -1;
    emit loopChanged(false);
}

void ViewState::setComparing(bool on)
{
    if (on == m_comparing)
        return;
    // Compare mode sets its own A/B: the user's markers are put aside until it ends.
    DiffMarkers restored;
    if (on) {
        m_markersBeforeComparing = m_markers;
    } else if (m_replayOpen) {
        restored = std::exchange(m_markersBeforeComparing, {});
        if (restored.a >= 0)
            restored.a = clampFrame(restored.a);
        if (restored.b >= 0)
            restored.b = clampFrame(restored.b);
        restored = followed(restored);
    } else {
        m_markersBeforeComparing = {};
    }
    m_comparing = false;
    setMarkers(restored);
    m_comparing = on;
    emit comparingChanged(on);
}

void ViewState::setComparePairing(const ComparePairing& pairing)
{
    if (pairing == m_pairing)
        return;
    m_pairing = pairing;
    emit comparePairingChanged();
}

void ViewState::reset()
{
    // The selection belongs to the file: kept, it would stay highlighted in the next file's
    // list while the inspector shows nothing, and clicking it would change nothing (issue 26 8a).
    setSelection({});
    setShownFrame({}, nullptr);
    setLoading(false);
    m_frameError.clear();
    setFrameCount(0);
    setReplayOpen(false);
    setRequestedFrame(0);
    setMarkers({});
    m_markersBeforeComparing = {}; // the closed replay's
    clearLoop();
}

} // namespace vtxw
