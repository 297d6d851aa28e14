// SPDX-License-Identifier: MIT
#pragma once
// The Map dock: every entity of the shown frame as a glyph on the plane across the up axis,
// coloured by type or by a chosen property, with trails of the last seconds, the diff's frame A
// as ghosts with arrows to B, and events that carry a location. Selection goes both ways
// through the ViewState. Positions come from the schema (vtx::EntityPositions); the user's
// choices (plane, flip, colour, per-type position fields, background) are remembered per file.
// Trails are read on a worker from chunks it decodes itself, never through the playhead's
// cache window, and fill in chunk by chunk.

#include "map/MapRenderer.hpp"
#include "session/JobTracker.hpp"
#include "vtx/map/EntityPositions.hpp"
#include "vtx/map/Trails.hpp"

#include <QHash>
#include <QWidget>
#include <optional>
#include <string>
#include <unordered_map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QMenu;
class QToolButton;

namespace vtxw {

class ReplaySession;
class ViewState;

/// The painted map: owns the viewport, turns the mouse into zoom, pan, hover and clicks.
class MapCanvas : public QWidget {
    Q_OBJECT
public:
    explicit MapCanvas(QWidget* parent = nullptr);
    /// Replaces what is drawn; the viewport stays (hover is re-resolved at the cursor).
    void setScene(MapScene scene);
    const MapScene& scene() const { return m_scene; }
    MapScene& sceneForUpdate() { return m_scene; }
    const MapViewport& viewport() const { return m_vp; }
    void setViewport(const MapViewport& vp);
    /// Shows every glyph, ghost and trail.
    void fit();
    /// What the canvas shows, at `size` (export and tests).
    QImage render(QSize size);
    QSize sizeHint() const override { return {420, 360}; }
    QSize minimumSizeHint() const override { return {120, 10}; } // the top right tab group is 59 px high at the minimum window
    void setBackgroundImage(const QImage& image, const QRectF& world);

signals:
    void glyphClicked(int glyph);
    void arrowClicked(int ghost);
    void eventClicked(int event);
    void viewportChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent*) override;

private:
    void updateHover(QPointF pixel);
    MapScene m_scene;
    MapViewport m_vp;
    MapRenderer m_renderer;
    QPointF m_pressAt, m_lastDrag;
    bool m_dragging = false;
    bool m_pressed = false;
    bool m_userMoved = false; ///< zoomed or panned since the last fit
    QPointF m_cursor{-1e9, -1e9};
};

class MapView : public QWidget {
    Q_OBJECT
public:
    MapView(ReplaySession* session, ViewState* view, QWidget* parent = nullptr);
    ~MapView() override;

    /// The diff's frame A (null: none on hand). Drawn as hollow ghosts against the frame shown,
    /// whether or not that is B (the note says which), while the view state's A is this frame;
    /// otherwise the map says A is loading.
    void setComparisonFrame(const vtx::FrameHandle& a);
    /// The colour index (of the seven) of a type's glyphs and legend entry: by its rank among
    /// the types with a position, so up to seven types on the map never share one.
    int typeColour(int32_t typeId) const;
    /// Two replays compared (File ▸ Compare with…): the compared replay's frame `wanted`, paired
    /// with the shown frame, drawn as hollow ghosts with arrows to this replay's glyphs; `frame`
    /// is the one on hand (a different index: the map says it is loading). `wanted` < 0: no
    /// partner frame. `sameLayout` false: its types cannot be placed through this schema.
    /// MapViewCompare.cpp.
    void setOtherReplayFrame(const vtx::FrameHandle& frame, int wanted, bool sameLayout);
    /// Back to the diff's A (comparison closed).
    void clearOtherReplay();

    MapCanvas* canvas() const { return m_canvas; }
    const MapScene& scene() const { return m_canvas->scene(); }
    const vtx::EntityPositions& positions() const { return m_positions; }
    vtx::MapPlane plane() const { return m_plane; }
    /// nullopt: the up axis chosen from the data.
    void setPlane(std::optional<vtx::UpAxis> up, bool flip);
    std::optional<vtx::UpAxis> planeOverride() const { return m_planeOverride; }
    /// Colour glyphs by this field's value (empty: by type).
    void setColourBy(const QString& field);
    /// Uses `field` for the position of struct `type` (empty: no position; nullopt: the rules).
    void setPositionField(const QString& type, std::optional<QString> field);
    void setTrailSeconds(double seconds);
    double trailSeconds() const { return m_trailSeconds; }
    /// The frame whose trails are on the map (-1: none yet).
    int trailFrame() const { return m_trailFrame; }
    bool trailsComputing() const { return m_trailJobs.isRunning(); }
    /// Glyph index of `entity` on the map, or -1.
    int glyphOf(const EntityKey& entity) const;
    /// The pixel `entity`'s glyph is drawn at, or nullopt.
    std::optional<QPointF> pixelOf(const EntityKey& entity) const;
    void setBackground(const QString& imagePath, const QRectF& world);
    bool exportPng(const QString& path);

signals:
    void seekRequested(int frame);
    /// A new set of trails is on the map (partial while chunks decode).
    void trailsUpdated();
    void upAxisChosen();

protected:
    void showEvent(QShowEvent*) override;

private:
    void onOpened();
    void onClosed();
    /// Starts choosing the up axis; called once the first frame (or its failure) is on screen.
    void chooseUpAxisLater();
    void rebuild();
    void requestTrails();
    QPointF toWorld(const vtx::Vec3& p) const;
    /// A's ghosts, arrows and added entities, when A is pinned and on hand (else a note).
    void addComparison(MapScene& s, const std::unordered_map<std::string, int>& glyphByKey, int shownFrame) const;
    /// Ghosts of `other`'s entities, arrows to the shown glyphs, and the shown entities `other` lacks.
    /// `other`'s entities as ghosts; `otherIsB`: `other` is the diff's B (a compared replay),
    /// else its A (a pinned frame).
    void addGhosts(MapScene& s, const std::unordered_map<std::string, int>& glyphByKey, vtx::FrameView other, const QString& unmatchedSuffix,
                   bool otherIsB) const;
    void addEvents(MapScene& s, int shownFrame) const;
    void addOtherReplay(MapScene& s, const std::unordered_map<std::string, int>& glyphByKey, int shownFrame) const;
    void applyTrails();
    void loadFileSettings();
    void saveFileSetting(const QString& key, const QVariant& value);
    QString fileSettingsGroup() const;
    void rebuildColourMenu();
    void rebuildPositionsMenu();
    void updatePlaneControls();
    void chooseBackground();
    void chooseExport();

    ReplaySession* m_session;
    ViewState* m_view;
    MapCanvas* m_canvas;
    QComboBox* m_planeBox;
    QCheckBox* m_flipBox;
    QComboBox* m_colourBox;
    QDoubleSpinBox* m_trailBox;
    QMenu* m_positionsMenu;
    QToolButton* m_moreButton;

    vtx::EntityPositions m_positions;
    vtx::MapPlane m_plane;
    vtx::UpAxis m_autoUp = vtx::UpAxis::Z;
    bool m_autoUpKnown = false;
    std::optional<vtx::UpAxis> m_planeOverride;
    QString m_colourBy;
    QHash<QString, int> m_colourOfValue; ///< stable colours for the open file
    double m_trailSeconds = 2.0;
    vtx::FrameHandle m_a;
    bool m_otherActive = false; ///< comparing with another replay: its frame, not A, makes the ghosts
    vtx::FrameHandle m_other;
    int m_otherWanted = -1;
    bool m_otherSameLayout = true;
    bool m_needsFit = false;
    QString m_backgroundPath;
    QRectF m_backgroundWorld;

    JobTracker m_upJobs{this};
    bool m_upAxisPending = false; ///< opened, the up axis not asked for yet
    JobTracker m_trailJobs{this};
    vtx::TrailSet m_trails;
    int m_trailFrame = -1;
    int m_trailFirst = -1;
    /// Chunks the last trail job read: the next one starts from them instead of decoding again.
    std::vector<std::shared_ptr<const vtx::DecodedChunk>> m_trailChunks;
};

} // namespace vtxw
