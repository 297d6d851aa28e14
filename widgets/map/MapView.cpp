// SPDX-License-Identifier: MIT
#include "map/MapView.hpp"

#include "common/ExportPath.hpp"
#include "common/Prompts.hpp"
#include "session/ReplaySession.hpp"
#include "session/ViewState.hpp"

#include <QActionGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QImageReader>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QSettings>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <numeric>
#include <unordered_map>

namespace vtxw {

// ---------------------------------------------------------------------------------------------
// MapCanvas

MapCanvas::MapCanvas(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_vp.size = size();
}

void MapCanvas::setScene(MapScene scene)
{
    // The background belongs to the file, not to the frame.
    scene.background = std::move(m_scene.background);
    scene.backgroundWorld = m_scene.backgroundWorld;
    m_scene = std::move(scene);
    m_scene.hovered = m_scene.glyphAt(m_vp, m_cursor);
    m_scene.hoveredArrow = m_scene.hovered < 0 && m_scene.comparing ? m_scene.arrowAt(m_vp, m_cursor) : -1;
    update();
}

void MapCanvas::setBackgroundImage(const QImage& image, const QRectF& world)
{
    m_scene.background = image;
    m_scene.backgroundWorld = world;
    update();
}

void MapCanvas::setViewport(const MapViewport& vp)
{
    m_vp = vp;
    m_vp.size = size();
    update();
    emit viewportChanged();
}

void MapCanvas::fit()
{
    QRectF b = m_scene.worldBounds();
    if (m_scene.backgroundWorld.isValid())
        b = b.isNull() ? m_scene.backgroundWorld : b.united(m_scene.backgroundWorld);
    if (b.isNull() && m_scene.glyphs.empty())
        return;
    m_vp.size = size();
    m_vp.fit(b, 24, MapRenderer::overlayRect(m_scene, fontMetrics(), m_vp.size),
             MapRenderer::scaleBarHeight(fontMetrics()) + MapRenderer::kGlyphRadius);
    m_userMoved = false;
    update();
    emit viewportChanged();
}

QImage MapCanvas::render(QSize size)
{
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    MapViewport vp = m_vp;
    // The same world centre and scale, so a test's pixel maths holds for any size.
    vp.size = size;
    QPainter p(&img);
    m_renderer.paint(p, m_scene, vp, palette());
    return img;
}

void MapCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    m_renderer.paint(p, m_scene, m_vp, palette());
}

void MapCanvas::resizeEvent(QResizeEvent*)
{
    m_vp.size = size();
    // Until the user zooms or pans, the map keeps showing everything (a dock that starts
    // squeezed would otherwise keep the scale it was fitted at).
    if (!m_userMoved)
        fit();
}

void MapCanvas::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    m_vp.zoomAt(e->position(), std::pow(1.2, steps));
    m_userMoved = true;
    update();
    emit viewportChanged();
    e->accept();
}

void MapCanvas::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    m_pressed = true;
    m_dragging = false;
    m_pressAt = m_lastDrag = e->position();
}

void MapCanvas::mouseMoveEvent(QMouseEvent* e)
{
    m_cursor = e->position();
    if (m_pressed && (e->buttons() & Qt::LeftButton)) {
        if (!m_dragging && (e->position() - m_pressAt).manhattanLength() >= 4)
            m_dragging = true;
        if (m_dragging) {
            m_vp.panBy(e->position() - m_lastDrag);
            m_lastDrag = e->position();
            m_userMoved = true;
            update();
            emit viewportChanged();
            return;
        }
    }
    updateHover(e->position());
}

void MapCanvas::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    // A click: the glyph under the cursor, else an arrow, else an event.
    const QPointF at = e->position();
    if (const int g = m_scene.glyphAt(m_vp, at); g >= 0)
        emit glyphClicked(g);
    else if (const int a = m_scene.comparing ? m_scene.arrowAt(m_vp, at) : -1; a >= 0)
        emit arrowClicked(a);
    else if (const int ev = m_scene.eventAt(m_vp, at); ev >= 0)
        emit eventClicked(ev);
}

void MapCanvas::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton)
        fit();
}

void MapCanvas::keyPressEvent(QKeyEvent* e)
{
    if (e->key() == Qt::Key_F && !(e->modifiers() & ~Qt::KeypadModifier)) {
        fit();
        e->accept();
        return;
    }
    QWidget::keyPressEvent(e);
}

void MapCanvas::leaveEvent(QEvent*)
{
    m_cursor = {-1e9, -1e9};
    updateHover(m_cursor);
}

void MapCanvas::updateHover(QPointF pixel)
{
    const int g = m_scene.glyphAt(m_vp, pixel);
    const int a = g < 0 && m_scene.comparing ? m_scene.arrowAt(m_vp, pixel) : -1;
    if (g != m_scene.hovered || a != m_scene.hoveredArrow) {
        m_scene.hovered = g;
        m_scene.hoveredArrow = a;
        update();
    }
}

bool MapCanvas::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QPointF at = help->pos();
        // Everything under the cursor, top first, the one a click takes marked: entities share
        // places (a player and the weapon it carries).
        if (const std::vector<int> under = m_scene.glyphsAt(m_vp, at); !under.empty()) {
            const int clicked = m_scene.glyphAt(m_vp, at);
            QStringList lines;
            for (int g : under)
                lines << (under.size() > 1 && g == clicked ? tr("%1 — a click selects this").arg(m_scene.glyphs[size_t(g)].name)
                                                           : m_scene.glyphs[size_t(g)].name);
            QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
        } else if (const int a = m_scene.comparing ? m_scene.arrowAt(m_vp, at) : -1; a >= 0) {
            const MapGhost& g = m_scene.ghosts[size_t(a)];
            QToolTip::showText(help->globalPos(), tr("%1 moved %2 %3\nΔ %4").arg(g.name).arg(g.distance, 0, 'g', 6).arg(m_scene.unitName, g.delta),
                               this);
        } else if (const int ev = m_scene.eventAt(m_vp, at); ev >= 0) {
            const MapEvent& m = m_scene.events[size_t(ev)];
            QToolTip::showText(help->globalPos(), tr("%1 (frame %2) — click to seek").arg(m.label).arg(m.frame), this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

// ---------------------------------------------------------------------------------------------
// MapView

namespace {
/// Chunk `c`: one of `held` (chunks a job took from the cache) when it is there, else decoded
/// here; null when it cannot be decoded.
std::shared_ptr<const vtx::DecodedChunk> heldOrDecoded(const vtx::ReplayFile& file, size_t c,
                                                       const std::vector<std::shared_ptr<const vtx::DecodedChunk>>& held)
{
    for (const auto& h : held)
        if (h && h->index() == c)
            return h;
    auto d = file.decodeChunk(c);
    return d ? *d : nullptr;
}

QString valueText(vtx::ContainerView c, const vtx::FieldDef& f)
{
    switch (f.key.type) {
    case vtx::FieldType::Bool: {
        auto v = c.get<bool>(f.key);
        return v ? (*v ? QStringLiteral("true") : QStringLiteral("false")) : QString();
    }
    case vtx::FieldType::Int8:
    case vtx::FieldType::Int32: {
        auto v = c.get<int32_t>(f.key);
        return v ? QString::number(*v) : QString();
    }
    case vtx::FieldType::Int64: {
        auto v = c.get<int64_t>(f.key);
        return v ? QString::number(*v) : QString();
    }
    case vtx::FieldType::String: {
        auto v = c.get<std::string_view>(f.key);
        return v ? QString::fromUtf8(v->data(), qsizetype(v->size())) : QString();
    }
    default: return {};
    }
}

/// Decoded chunks may have no other owner: freeing tens of MB is pool work, not UI work.
void retireOnPool(std::vector<std::shared_ptr<const vtx::DecodedChunk>> chunks)
{
    if (!chunks.empty())
        detail::startOnPool([chunks = std::move(chunks)]() mutable { chunks.clear(); });
}

bool colourable(const vtx::FieldDef& f)
{
    using vtx::FieldType;
    return !f.shadowed && f.key.container == vtx::ContainerKind::Scalar &&
        (f.key.type == FieldType::Bool || f.key.type == FieldType::Int8 || f.key.type == FieldType::Int32 || f.key.type == FieldType::Int64 ||
         f.key.type == FieldType::String);
}

} // namespace

MapView::MapView(ReplaySession* session, ViewState* view, QWidget* parent) : QWidget(parent), m_session(session), m_view(view)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(2, 0, 2, 0);
    m_planeBox = new QComboBox(this);
    m_planeBox->setToolTip(tr("The map's plane: chosen from the data (the axis the entities spread least along is up), or XY / XZ / YZ"));
    m_planeBox->addItem(tr("Auto"), QString());
    for (auto up : {vtx::UpAxis::Z, vtx::UpAxis::Y, vtx::UpAxis::X})
        m_planeBox->addItem(QString::fromLatin1(vtx::planeName(up)), QString::fromLatin1(vtx::upAxisName(up)));
    m_flipBox = new QCheckBox(tr("Flip"), this);
    m_flipBox->setToolTip(tr("Mirror the map left to right"));
    m_colourBox = new QComboBox(this);
    m_colourBox->setToolTip(tr("Colour the entities by their type or by a property's value"));
    // Narrow at rest: the right column must fit the 800 × 600 minimum window.
    m_colourBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_colourBox->setMinimumContentsLength(5);
    m_planeBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_planeBox->setMinimumContentsLength(4);
    m_trailBox = new QDoubleSpinBox(this);
    m_trailBox->setRange(0, 60);
    m_trailBox->setDecimals(1);
    m_trailBox->setSingleStep(0.5);
    m_trailBox->setSuffix(tr(" s"));
    m_trailBox->setSpecialValueText(tr("no trails"));
    m_trailBox->setToolTip(tr("Trails: where each entity was over the last seconds"));
    m_moreButton = new QToolButton(this);
    m_moreButton->setText(tr("⋯"));
    m_moreButton->setToolTip(tr("Positions, flip, background, export"));
    m_moreButton->setPopupMode(QToolButton::InstantPopup);
    auto* more = new QMenu(m_moreButton);
    m_positionsMenu = more->addMenu(tr("Position of each type"));
    QAction* flip = more->addAction(tr("Flip left to right"));
    flip->setCheckable(true);
    connect(flip, &QAction::toggled, m_flipBox, &QCheckBox::setChecked);
    connect(m_flipBox, &QCheckBox::toggled, flip, &QAction::setChecked);
    more->addAction(tr("Fit (F)"), this, [this] { m_canvas->fit(); });
    more->addAction(tr("Background image…"), this, &MapView::chooseBackground);
    more->addAction(tr("No background"), this, [this] { setBackground({}, {}); });
    more->addAction(tr("Export view as PNG…"), this, &MapView::chooseExport);
    m_moreButton->setMenu(more);
    m_flipBox->setVisible(false); // in the ⋯ menu; the box holds the state the menu shows
    bar->addWidget(m_planeBox);
    bar->addWidget(m_colourBox, 1);
    bar->addWidget(m_trailBox);
    bar->addWidget(m_moreButton);
    layout->addLayout(bar);
    m_canvas = new MapCanvas(this);
    layout->addWidget(m_canvas, 1);

    QSettings settings;
    m_trailSeconds = settings.value("map/trailSeconds", 2.0).toDouble();
    m_trailBox->setValue(m_trailSeconds);
    m_colourBox->addItem(tr("Colour: type"), QString());

    connect(m_planeBox, &QComboBox::activated, this, [this](int i) {
        const QString up = m_planeBox->itemData(i).toString();
        std::optional<vtx::UpAxis> o;
        if (up == "X")
            o = vtx::UpAxis::X;
        else if (up == "Y")
            o = vtx::UpAxis::Y;
        else if (up == "Z")
            o = vtx::UpAxis::Z;
        setPlane(o, m_flipBox->isChecked());
    });
    connect(m_flipBox, &QCheckBox::toggled, this, [this](bool on) { setPlane(m_planeOverride, on); });
    connect(m_colourBox, &QComboBox::activated, this, [this](int i) { setColourBy(m_colourBox->itemData(i).toString()); });
    connect(m_trailBox, &QDoubleSpinBox::valueChanged, this, &MapView::setTrailSeconds);
    connect(m_canvas, &MapCanvas::glyphClicked, this, [this](int g) { m_view->setSelection(scene().glyphs[size_t(g)].key); });
    connect(m_canvas, &MapCanvas::arrowClicked, this, [this](int a) { m_view->setSelection(scene().ghosts[size_t(a)].key); });
    connect(m_canvas, &MapCanvas::eventClicked, this, [this](int e) { emit seekRequested(scene().events[size_t(e)].frame); });

    connect(session, &ReplaySession::opened, this, &MapView::onOpened);
    connect(session, &ReplaySession::closed, this, &MapView::onClosed);
    connect(view, &ViewState::shownFrameChanged, this, [this] {
        rebuild();
        requestTrails();
        if (m_upAxisPending && !m_view->shownFrame().isNull())
            chooseUpAxisLater();
    });
    connect(view, &ViewState::entityLabelsChanged, this, &MapView::rebuild);
    connect(view, &ViewState::frameFailed, this, [this] {
        rebuild(); // faded, with the frame said
        if (m_upAxisPending)
            chooseUpAxisLater(); // from the frames that can be read
    });
    connect(view, &ViewState::selectionChanged, this, [this] {
        int sel = glyphOf(m_view->selection());
        m_canvas->sceneForUpdate().selected = sel;
        m_canvas->update();
    });
    connect(view, &ViewState::diffFramesChanged, this, [this](int a, int) {
        if (a < 0)
            m_a = {};
        rebuild();
    });
    setEnabled(false);
}

MapView::~MapView()
{
    m_trailJobs.cancel();
    m_upJobs.cancel();
}

QString MapView::fileSettingsGroup() const
{
    // Per file, by its absolute path: what a user sets for one replay (a radar image, a position
    // field) rarely fits another.
    const QByteArray path = QFileInfo(m_session->path()).absoluteFilePath().toUtf8();
    return QStringLiteral("map/files/") + QString::fromLatin1(QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex().left(16));
}

void MapView::saveFileSetting(const QString& key, const QVariant& value)
{
    if (!m_session->isOpen())
        return;
    QSettings settings;
    settings.beginGroup(fileSettingsGroup());
    // Unchanged values are not written: each write is the settings file rewritten and synced
    // to disk on the UI thread, and choosing the up axis at every open rewrote it twice.
    if (settings.value(key) == value)
        return;
    if (value.isValid())
        settings.setValue(key, value);
    else
        settings.remove(key);
}

void MapView::onOpened()
{
    setEnabled(true);
    auto file = m_session->file();
    m_positions = vtx::EntityPositions(file->schema());
    m_colourOfValue.clear();
    m_a = {};
    m_trails.clear();
    retireOnPool(std::exchange(m_trailChunks, {}));
    m_trailFrame = m_trailFirst = -1;
    m_autoUpKnown = false;
    m_needsFit = true;
    loadFileSettings();
    rebuildColourMenu();
    rebuildPositionsMenu();
    m_upAxisPending = true; // chosen once the first frame is on screen (chooseUpAxisLater)
    updatePlaneControls();
    rebuild();
}

void MapView::chooseUpAxisLater()
{
    m_upAxisPending = false;
    // The up axis comes from the first 64 frames, read on a worker, never on the UI thread.
    // It starts once the first frame is on screen, from the chunks the cache holds by then
    // (chunk 0 at an open): started at the open, it decoded chunk 0 a second time beside the
    // cache's own decode of it, and the first frame waited for both (docs/PERFORMANCE.md,
    // "Open in the window").
    auto file = m_session->file();
    std::vector<std::shared_ptr<const vtx::DecodedChunk>> held;
    if (const vtx::ChunkCache* cache = m_session->cache())
        for (size_t c = 0; c < file->chunks().size() && c < 2; ++c)
            if (auto h = cache->peek(file->chunks()[c].startFrame); h && h->chunk()->index() == c)
                held.push_back(h->chunk());
    const vtx::EntityPositions positions = m_positions;
    m_upJobs.runLatest(
        [file, positions, held](const JobToken& job) -> std::optional<vtx::UpAxis> {
            std::vector<std::shared_ptr<const vtx::DecodedChunk>> chunks;
            std::vector<vtx::FrameView> frames;
            for (size_t c = 0; c < file->chunks().size() && frames.size() < 64 && !job.isCancelled(); ++c) {
                std::shared_ptr<const vtx::DecodedChunk> chunk = heldOrDecoded(*file, c, held);
                if (!chunk)
                    continue;
                chunks.push_back(chunk);
                for (size_t i = 0; i < chunk->frameCount() && frames.size() < 64; ++i)
                    if (const vtx::FrameView f = chunk->frame(i); !f.isNull())
                        frames.push_back(f);
            }
            if (frames.empty())
                return std::nullopt;
            return vtx::chooseUpAxis(frames, positions);
        },
        [this](std::optional<vtx::UpAxis> up) {
            m_autoUp = up.value_or(vtx::UpAxis::Z);
            m_autoUpKnown = true;
            updatePlaneControls();
            if (!m_planeOverride) {
                m_needsFit = true;
                setPlane(std::nullopt, m_plane.flip);
            }
            emit upAxisChosen();
        });
}

void MapView::onClosed()
{
    m_upAxisPending = false;
    m_trailJobs.cancel();
    m_upJobs.cancel();
    m_positions = {};
    m_a = {};
    m_trails.clear();
    retireOnPool(std::exchange(m_trailChunks, {}));
    m_trailFrame = m_trailFirst = -1;
    m_canvas->setBackgroundImage({}, {});
    MapScene none;
    none.emptyText = tr("No replay open.");
    m_canvas->setScene(std::move(none));
    setEnabled(false);
}

void MapView::loadFileSettings()
{
    QSettings settings;
    settings.beginGroup(fileSettingsGroup());
    const QString plane = settings.value("upAxis").toString();
    m_planeOverride.reset();
    if (plane == "X")
        m_planeOverride = vtx::UpAxis::X;
    else if (plane == "Y")
        m_planeOverride = vtx::UpAxis::Y;
    else if (plane == "Z")
        m_planeOverride = vtx::UpAxis::Z;
    m_plane.flip = settings.value("flip", false).toBool();
    m_plane.up = m_planeOverride.value_or(m_autoUp);
    m_colourBy = settings.value("colourBy").toString();
    settings.beginGroup("positions");
    const vtx::Schema& schema = m_session->file()->schema();
    for (const QString& type : settings.childKeys())
        if (const vtx::StructDef* s = schema.structByName(type.toStdString()))
            m_positions.setOverride(s->typeId, settings.value(type).toString().toStdString());
    settings.endGroup();
    m_backgroundPath = settings.value("background").toString();
    m_backgroundWorld = settings.value("backgroundWorld").toRectF();
    QImage bg;
    if (!m_backgroundPath.isEmpty())
        bg = QImageReader(m_backgroundPath).read();
    m_canvas->setBackgroundImage(bg, m_backgroundWorld);
}

void MapView::updatePlaneControls()
{
    const QSignalBlocker b1(m_planeBox), b2(m_flipBox);
    m_planeBox->setItemText(0, m_autoUpKnown ? tr("Auto (%1)").arg(QString::fromLatin1(vtx::planeName(m_autoUp))) : tr("Auto"));
    m_planeBox->setCurrentIndex(m_planeOverride ? m_planeBox->findData(QString::fromLatin1(vtx::upAxisName(*m_planeOverride))) : 0);
    m_flipBox->setChecked(m_plane.flip);
}

void MapView::setPlane(std::optional<vtx::UpAxis> up, bool flip)
{
    const bool changed = up != m_planeOverride || flip != m_plane.flip || m_plane.up != up.value_or(m_autoUp);
    m_planeOverride = up;
    m_plane = {up.value_or(m_autoUp), flip};
    saveFileSetting("upAxis", up ? QVariant(QString::fromLatin1(vtx::upAxisName(*up))) : QVariant());
    saveFileSetting("flip", flip ? QVariant(true) : QVariant());
    updatePlaneControls();
    if (!changed)
        return;
    m_needsFit = true; // the old view's centre and scale mean nothing on another plane
    rebuild();
}

void MapView::setColourBy(const QString& field)
{
    m_colourBy = field;
    m_colourOfValue.clear();
    saveFileSetting("colourBy", field.isEmpty() ? QVariant() : QVariant(field));
    const QSignalBlocker block(m_colourBox);
    m_colourBox->setCurrentIndex(std::max(0, m_colourBox->findData(field)));
    rebuild();
    applyTrails();
}

void MapView::setPositionField(const QString& type, std::optional<QString> field)
{
    if (!m_session->isOpen())
        return;
    const vtx::StructDef* s = m_session->file()->schema().structByName(type.toStdString());
    if (!s)
        return;
    QSettings settings;
    settings.beginGroup(fileSettingsGroup() + "/positions");
    if (field) {
        if (!m_positions.setOverride(s->typeId, field->toStdString()))
            return;
        settings.setValue(type, *field);
    } else {
        m_positions.clearOverride(s->typeId);
        settings.remove(type);
    }
    rebuildPositionsMenu();
    rebuild();
    // Trails were read with the old fields.
    m_trails.clear();
    m_trailFrame = -1;
    requestTrails();
}

void MapView::setTrailSeconds(double seconds)
{
    if (seconds == m_trailSeconds)
        return;
    m_trailSeconds = seconds;
    QSettings().setValue("map/trailSeconds", seconds);
    const QSignalBlocker block(m_trailBox);
    m_trailBox->setValue(seconds);
    m_trailFrame = -1;
    m_trails.clear();
    requestTrails();
    rebuild();
}

void MapView::rebuildColourMenu()
{
    const QSignalBlocker block(m_colourBox);
    m_colourBox->clear();
    m_colourBox->addItem(tr("Colour: type"), QString());
    if (!m_session->isOpen())
        return;
    QStringList names;
    for (const vtx::StructDef& s : m_session->file()->schema().structs())
        if (m_positions.source(s.typeId).valid())
            for (const vtx::FieldDef& f : s.fields)
                if (colourable(f) && !names.contains(QString::fromStdString(f.name)))
                    names << QString::fromStdString(f.name);
    names.sort(Qt::CaseInsensitive);
    for (const QString& n : names)
        m_colourBox->addItem(tr("Colour: %1").arg(n), n);
    m_colourBox->setCurrentIndex(std::max(0, m_colourBox->findData(m_colourBy)));
}

void MapView::rebuildPositionsMenu()
{
    QMenu* menu = m_positionsMenu;
    menu->clear();
    if (!m_session->isOpen())
        return;
    for (const vtx::StructDef& s : m_session->file()->schema().structs()) {
        const vtx::PositionSource& src = m_positions.source(s.typeId);
        const QString type = QString::fromStdString(s.name);
        QMenu* sub = menu->addMenu(QStringLiteral("%1: %2").arg(type, src.valid() ? QString::fromStdString(src.field) : tr("not on the map")));
        auto* group = new QActionGroup(sub);
        auto add = [&](const QString& text, const std::optional<QString>& field, bool checked) {
            QAction* a = sub->addAction(text, this, [this, type, field] { setPositionField(type, field); });
            a->setCheckable(true);
            a->setChecked(checked);
            group->addAction(a);
        };
        add(tr("Automatic"), std::nullopt, !src.overridden);
        for (const std::string& f : vtx::positionCandidates(s))
            add(QString::fromStdString(f), QString::fromStdString(f), src.overridden && src.field == f);
        add(tr("None (not on the map)"), QString(), src.overridden && !src.valid());
    }
}

int MapView::glyphOf(const EntityKey& entity) const
{
    const auto& glyphs = scene().glyphs;
    for (size_t i = 0; i < glyphs.size(); ++i)
        if (glyphs[i].key == entity)
            return int(i);
    return -1;
}

std::optional<QPointF> MapView::pixelOf(const EntityKey& entity) const
{
    const int g = glyphOf(entity);
    if (g < 0)
        return std::nullopt;
    return m_canvas->viewport().toPixel(scene().glyphs[size_t(g)].world);
}

void MapView::setComparisonFrame(const vtx::FrameHandle& a)
{
    m_a = a;
    rebuild();
}

void MapView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    rebuild();
    requestTrails();
}

void MapView::rebuild()
{
    // A map behind another tab or closed costs nothing: it catches up when shown.
    if (!isVisible())
        return;
    MapScene s;
    s.palette = mapPalette();
    const vtx::FrameHandle& shown = m_view->shownFrame();
    const vtx::Schema* schema = m_view->schema();
    if (shown.isNull() || !schema || !m_session->isOpen()) {
        s.emptyText = m_session->isOpen() ? tr("Loading…") : tr("No replay open.");
        m_canvas->setScene(std::move(s));
        return;
    }
    const auto& types = schema->structs();
    // Colour: by type (its id), or by the chosen field's value (in order of first appearance).
    std::vector<const vtx::FieldDef*> colourField(types.size(), nullptr);
    for (size_t t = 0; t < types.size(); ++t) {
        if (!m_colourBy.isEmpty())
            if (const vtx::FieldDef* f = types[t].field(m_colourBy.toStdString()); f && colourable(*f))
                colourField[t] = f;
    }
    std::vector<bool> typeOnMap(types.size(), false);
    const int noValue = 7; // grey: the entity's type has no such field
    std::unordered_map<std::string, int> glyphByKey;
    std::vector<int> glyphType;
    std::string key;
    const vtx::FrameView frame = shown.view();
    for (size_t b = 0; b < frame.bucketCount(); ++b) {
        const vtx::BucketView bucket = frame.bucket(b);
        const size_t n = std::min(bucket.entityCount(), bucket.uniqueIds().size());
        for (size_t i = 0; i < n; ++i) {
            const vtx::ContainerView e = bucket.entity(i);
            const auto place = m_positions.placementOf(e);
            if (!place) {
                ++s.unplaced;
                continue;
            }
            const std::string_view id = bucket.uniqueId(i);
            const size_t t = size_t(e.typeId());
            MapGlyph g;
            g.key = {int(b), QString::fromUtf8(id.data(), qsizetype(id.size()))};
            g.world = toWorld(place->position);
            g.position = place->position;
            if (place->rotation)
                if (auto h = m_plane.heading(*place->rotation))
                    g.heading = *h;
            // The label of this frame (the view state's choice per type), the id second.
            g.name = g.key.uniqueId;
            if (const QString label = m_view->entityLabel(e); !label.isEmpty() && label != g.name) {
                g.name = label + QStringLiteral(" · ") + g.name;
                g.mapLabel = label;
            }
            if (m_colourBy.isEmpty()) {
                g.colour = typeColour(int32_t(t));
                if (t < types.size())
                    typeOnMap[t] = true;
            } else if (t < types.size() && colourField[t]) {
                const QString v = valueText(e, *colourField[t]);
                auto it = m_colourOfValue.find(v);
                if (it == m_colourOfValue.end())
                    it = m_colourOfValue.insert(v, int(m_colourOfValue.size() % 7));
                g.colour = *it;
            } else {
                g.colour = noValue;
            }
            g.damaged = m_view->shownIntegrity().isDamaged(uint32_t(b), uint32_t(i));
            if (g.damaged) {
                g.name += tr(" — damaged: not as recorded");
                if (!g.mapLabel.isEmpty())
                    g.mapLabel += tr(" — damaged: not as recorded");
            }
            glyphType.push_back(int(t));
            s.glyphs.push_back(std::move(g));
        }
    }
    {
        // Rarer types on top: a player stands where the weapon it carries is, a ball among cars.
        // Between types as common, the earlier bucket's on top: the SDK's bone data (its own
        // bucket, one skeleton per player, at the player's place) covered every player.
        std::vector<int> perType(types.size() + 1, 0);
        for (int t : glyphType)
            ++perType[std::min(size_t(t), types.size())];
        std::vector<size_t> order(s.glyphs.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
            const int nx = perType[std::min(size_t(glyphType[x]), types.size())], ny = perType[std::min(size_t(glyphType[y]), types.size())];
            return nx != ny ? nx > ny : s.glyphs[x].key.bucket > s.glyphs[y].key.bucket;
        });
        std::vector<MapGlyph> sorted;
        sorted.reserve(order.size());
        for (size_t i : order)
            sorted.push_back(std::move(s.glyphs[i]));
        s.glyphs = std::move(sorted);
        for (size_t i = 0; i < s.glyphs.size(); ++i) {
            const MapGlyph& g = s.glyphs[i];
            key.assign(std::to_string(g.key.bucket)).append(1, '\x1f').append(g.key.uniqueId.toStdString());
            glyphByKey.emplace(key, int(i));
        }
    }
    if (m_colourBy.isEmpty()) {
        for (size_t t = 0; t < types.size(); ++t)
            if (typeOnMap[t])
                s.legend.push_back({QString::fromStdString(types[t].name), typeColour(int32_t(t))});
    } else {
        QList<QPair<int, QString>> values;
        for (auto it = m_colourOfValue.begin(); it != m_colourOfValue.end(); ++it)
            values.append({it.value(), it.key()});
        std::sort(values.begin(), values.end());
        for (const auto& [c, v] : values)
            s.legend.push_back({QStringLiteral("%1 = %2").arg(m_colourBy, v.isEmpty() ? tr("(empty)") : v), c});
    }
    for (size_t i = 0; i < s.glyphs.size(); ++i)
        if (s.glyphs[i].key == m_view->selection())
            s.selected = int(i);

    if (m_otherActive)
        addOtherReplay(s, glyphByKey, shown.index());
    else
        addComparison(s, glyphByKey, shown.index());
    addEvents(s, shown.index());
    if (m_trailSeconds > 0 && m_trailFrame != shown.index() && s.note.isEmpty())
        s.note = tr("trails loading…");
    if (!m_view->frameError().isEmpty() && m_view->requestedFrame() != shown.index()) {
        // The frame asked for cannot be read (a damaged chunk): the entities stay where the
        // last frame shown had them, faded and said, as the inspector greys its values.
        s.stale = true;
        s.note = tr("frame %1 is unavailable: faded positions are frame %2's").arg(m_view->requestedFrame()).arg(shown.index());
    }

    m_canvas->setScene(std::move(s));
    applyTrails();
    if (m_needsFit && !m_canvas->scene().glyphs.empty()) {
        m_needsFit = false;
        m_canvas->fit();
    }
}

QPointF MapView::toWorld(const vtx::Vec3& p) const
{
    const auto uv = m_plane.project(p);
    return QPointF(uv[0], uv[1]);
}

void MapView::addGhosts(MapScene& s, const std::unordered_map<std::string, int>& glyphByKey, vtx::FrameView other, const QString& unmatchedSuffix,
                        bool otherIsB) const
{
    // `other`'s entities as hollow ghosts; one also on screen gets an arrow to its glyph (how far
    // the shown frame is from `other`), the shown frame's entities absent from `other` are
    // "added". `other` must share this schema's layout: these positions address its data.
    s.comparing = true;
    s.ghostsAreB = otherIsB;
    std::vector<bool> inOther(s.glyphs.size(), false);
    std::string key;
    for (const vtx::FrameEntity entity : other.entitiesWithIds()) {
        const vtx::ContainerView e = entity.entity;
        const auto place = m_positions.placementOf(e);
        if (!place)
            continue;
        const size_t b = entity.bucket;
        const std::string_view id = entity.uniqueId();
        key.assign(std::to_string(b)).append(1, '\x1f').append(id);
        MapGhost g;
        g.world = toWorld(place->position);
        g.key = {int(b), QString::fromUtf8(id.data(), qsizetype(id.size()))};
        g.name = g.key.uniqueId + unmatchedSuffix;
        g.colour = typeColour(e.typeId());
        if (auto it = glyphByKey.find(key); it != glyphByKey.end()) {
            const MapGlyph& here = s.glyphs[size_t(it->second)];
            g.glyph = it->second;
            inOther[size_t(it->second)] = true;
            g.colour = here.colour;
            g.name = here.name;
            // B − A, as the diff's Δ (subtracted, not negated: no "-0").
            const vtx::Vec3& from = otherIsB ? here.position : place->position;
            const vtx::Vec3& to = otherIsB ? place->position : here.position;
            const vtx::Vec3 d{to.x - from.x, to.y - from.y, to.z - from.z};
            g.distance = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
            g.delta = QStringLiteral("(%1, %2, %3)")
                          .arg(QString::fromStdString(vtx::formatDelta(vtx::Value::Kind::Double, d.x)),
                               QString::fromStdString(vtx::formatDelta(vtx::Value::Kind::Double, d.y)),
                               QString::fromStdString(vtx::formatDelta(vtx::Value::Kind::Double, d.z)));
        }
        s.ghosts.push_back(std::move(g));
    }
    for (size_t i = 0; i < inOther.size(); ++i)
        if (!inOther[i])
            s.added.push_back(int(i));
}

int MapView::typeColour(int32_t typeId) const
{
    // The type's rank among the types that have a position: the first seven types on the map
    // get seven different colours, whatever their place in the schema (by type id, a schema's
    // first and eighth types shared one: Player and Skeleton in the CS2-like replays).
    const auto& sources = m_positions.sources();
    int rank = 0;
    for (size_t t = 0; t < sources.size() && t < size_t(std::max(typeId, 0)); ++t)
        rank += sources[t].valid() ? 1 : 0;
    return rank % 7;
}

void MapView::addComparison(MapScene& s, const std::unordered_map<std::string, int>& glyphByKey, int shownFrame) const
{
    // A's entities against the frame on screen, once A's frame is on hand. The playhead need not
    // be on B: the arrows say how far the shown frame is from A, and the note says which frame
    // is solid (it said "A loading…" for ever while the playhead was away from B).
    const int wantA = m_view->frameA();
    if (wantA < 0)
        return;
    if (m_a.isNull() || m_a.index() != wantA) {
        s.note = tr("A (frame %1) loading…").arg(wantA);
        return;
    }
    addGhosts(s, glyphByKey, m_a.view(), QString(), false);
    if (m_view->frameB() != shownFrame)
        s.note = tr("A = frame %1: hollow; frame %2 (shown, not B): solid").arg(wantA).arg(shownFrame);
    else
        s.note = shownFrame - wantA == 1 ? tr("A = frame %1 (previous): hollow; B = %2: solid").arg(wantA).arg(shownFrame)
                                         : tr("A = frame %1: hollow; B = %2: solid").arg(wantA).arg(shownFrame);
}

void MapView::addEvents(MapScene& s, int shownFrame) const
{
    // Events that carry a location, within the trail window (or 2 s) of the shown frame.
    const auto& events = m_session->file()->footer().events;
    bool anyLocated = false;
    const double window = std::max(m_trailSeconds, 2.0);
    const double now = double(m_session->gameTimeTicks(shownFrame)) / double(vtx::kTicksPerSecond);
    for (const vtx::TimelineEvent& e : events) {
        if (e.location == vtx::Vec3{})
            continue;
        anyLocated = true;
        if (std::abs(double(e.gameTimeSeconds) - now) > window)
            continue;
        s.events.push_back({toWorld(e.location), QString::fromStdString(e.type + (e.label.empty() ? "" : ": " + e.label)),
                            m_session->placeEvent(double(e.gameTimeSeconds)).frame});
    }
    s.eventLegend = tr("events within %1 s of this frame").arg(window);
    if (!events.empty() && !anyLocated && s.note.isEmpty())
        s.note = tr("%n event(s), none with a location", nullptr, int(events.size()));
}

void MapView::applyTrails()
{
    MapScene& s = m_canvas->sceneForUpdate();
    s.trails.clear();
    const vtx::FrameHandle& shown = m_view->shownFrame();
    // Only the trails of the frame on screen: older ones would show where entities were not.
    if (shown.isNull() || m_trailFrame != shown.index() || m_trailSeconds <= 0) {
        m_canvas->update();
        return;
    }
    std::unordered_map<std::string, int> glyphByKey;
    for (size_t i = 0; i < s.glyphs.size(); ++i)
        glyphByKey.emplace(std::to_string(s.glyphs[i].key.bucket) + '\x1f' + s.glyphs[i].key.uniqueId.toStdString(), int(i));
    const double span = std::max(1, m_trailFrame - m_trailFirst);
    for (const auto& [key, points] : m_trails) {
        auto it = glyphByKey.find(std::to_string(key.first) + '\x1f' + key.second);
        if (it == glyphByKey.end() || points.size() < 2)
            continue;
        MapTrail t;
        t.glyph = it->second;
        t.points.reserve(points.size());
        t.ages.reserve(points.size());
        t.breaks.reserve(points.size());
        for (const vtx::TrailPoint& p : points) {
            const auto uv = m_plane.project(p.position);
            t.points.emplace_back(uv[0], uv[1]);
            t.ages.push_back(float(double(m_trailFrame - p.frame) / span));
            t.breaks.push_back(p.breakBefore);
        }
        s.trails.push_back(std::move(t));
    }
    if (s.note == tr("trails loading…"))
        s.note.clear();
    m_canvas->update();
}

void MapView::requestTrails()
{
    if (!isVisible())
        return;
    const vtx::FrameHandle shown = m_view->shownFrame();
    auto file = m_session->file();
    if (!file || shown.isNull() || m_trailSeconds <= 0) {
        m_trailJobs.cancel();
        return;
    }
    if (m_trailFrame == shown.index())
        return;
    const int frame = shown.index();
    const int first = vtx::trailWindowStart(file->footer().times, frame, m_trailSeconds);
    // Chunks on hand: the shown one and what the last job read. Everything else is decoded by
    // the job itself, so the playhead's cache never sees these reads.
    std::vector<std::shared_ptr<const vtx::DecodedChunk>> held = m_trailChunks;
    held.push_back(shown.chunk());
    // Chunks of the window the cache already holds: peek() neither waits nor tells the policy.
    if (vtx::ChunkCache* cache = m_session->cache())
        for (int x = frame; x >= first;) {
            const auto c = file->chunkForFrame(x);
            if (!c)
                break;
            if (auto h = cache->peek(std::max(first, file->chunks()[*c].startFrame)))
                held.push_back(h->chunk());
            x = file->chunks()[*c].startFrame - 1;
        }
    const vtx::EntityPositions positions = m_positions;
    QPointer<MapView> self(this);
    struct Answer {
        vtx::TrailSet trails;
        std::vector<std::shared_ptr<const vtx::DecodedChunk>> chunks;
    };
    m_trailJobs.run(
        [file, positions, frame, first, held, self](const JobToken& job) {
            Answer a;
            std::vector<size_t> chunks;
            for (int x = frame; x >= first;) {
                const auto c = file->chunkForFrame(x);
                if (!c)
                    break;
                chunks.push_back(*c);
                x = file->chunks()[*c].startFrame - 1;
            }
            for (size_t i = 0; i < chunks.size() && !job.isCancelled(); ++i) {
                std::shared_ptr<const vtx::DecodedChunk> chunk = heldOrDecoded(*file, chunks[i], held);
                if (!chunk)
                    continue; // the frames of a chunk that fails stay missing: the trail breaks there
                a.chunks.push_back(chunk);
                vtx::appendTrails(*chunk, first, frame, positions, a.trails);
                if (i + 1 < chunks.size()) {
                    // Filled in as chunks decode: what is read so far goes on screen now.
                    vtx::TrailSet partial = a.trails;
                    vtx::finishTrails(partial, file->footer().times);
                    job.postIfCurrent([self, frame, first, partial = std::move(partial)]() mutable {
                        if (!self || self->m_view->shownFrame().index() != frame)
                            return;
                        self->m_trails = std::move(partial);
                        self->m_trailFrame = frame;
                        self->m_trailFirst = first;
                        self->applyTrails();
                        emit self->trailsUpdated();
                    });
                }
            }
            vtx::finishTrails(a.trails, file->footer().times);
            return a;
        },
        [self, frame, first](JobOutcome outcome, Answer a) {
            if (outcome != JobOutcome::Current || !self) { // not runLatest: a dropped answer's chunks are retired off the UI thread
                retireOnPool(std::move(a.chunks));
                return;
            }
            self->m_trailJobs.finish(self->m_trailJobs.currentId());
            retireOnPool(std::exchange(self->m_trailChunks, std::move(a.chunks)));
            if (self->m_view->shownFrame().index() != frame)
                return;
            self->m_trails = std::move(a.trails);
            self->m_trailFrame = frame;
            self->m_trailFirst = first;
            self->applyTrails();
            emit self->trailsUpdated();
        });
}

void MapView::setBackground(const QString& imagePath, const QRectF& world)
{
    m_backgroundPath = imagePath;
    m_backgroundWorld = world;
    QImage img;
    if (!imagePath.isEmpty())
        img = QImageReader(imagePath).read();
    m_canvas->setBackgroundImage(img, world);
    saveFileSetting("background", imagePath.isEmpty() ? QVariant() : QVariant(imagePath));
    saveFileSetting("backgroundWorld", imagePath.isEmpty() ? QVariant() : QVariant(world));
}

void MapView::chooseBackground()
{
    const QString path = prompts().openFilePath(this, tr("Background image"), {}, tr("Images (*.png *.jpg *.jpeg *.bmp *.webp)"));
    if (path.isEmpty())
        return;
    // World bounds of the image's corners, on the map's plane: left, bottom, right, top.
    const QRectF current = m_canvas->scene().worldBounds();
    const QString initial = QStringLiteral("%1 %2 %3 %4").arg(current.left()).arg(current.top()).arg(current.right()).arg(current.bottom());
    QString text = initial;
    const bool ok = prompts().askText(
        this, tr("Background bounds"),
        tr("World bounds of the image on the %1 plane: left bottom right top").arg(QString::fromLatin1(vtx::planeName(m_plane.up))), text);
    if (!ok)
        return;
    const QStringList parts = text.split(' ', Qt::SkipEmptyParts);
    if (parts.size() != 4)
        return;
    const QRectF world(QPointF(parts[0].toDouble(), parts[1].toDouble()), QPointF(parts[2].toDouble(), parts[3].toDouble()));
    setBackground(path, world.normalized());
}

bool MapView::exportPng(const QString& path)
{
    return m_canvas->render(m_canvas->size()).save(path, "PNG");
}

void MapView::chooseExport()
{
    const QString path = askExportPath(this, tr("Export map view"), m_session->path(), QStringLiteral("map.png"), tr("PNG images (*.png)"));
    if (!path.isEmpty())
        exportPng(path);
}

} // namespace vtxw
