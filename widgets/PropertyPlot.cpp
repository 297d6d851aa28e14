#include "vtxwidgets/PropertyPlot.hpp"

#include "vtx/FrameIntegrity.hpp"
#include "vtx/PropertyPath.hpp"
#include "vtx/PropertyTree.hpp"
#include "vtxwidgets/ReplaySession.hpp"
#include "vtxwidgets/TimeFormat.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QProgressBar>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>
#include <cmath>

namespace vtxw {

PlotCanvas::PlotCanvas(ReplaySession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    setMouseTracking(true);
    setMinimumHeight(48); // the window must fit 800 × 600 with every dock open
    connect(session, &ReplaySession::currentFrameChanged, this, qOverload<>(&QWidget::update));
}

void PlotCanvas::setSeries(PlotSeries s, int firstFrame, int lastFrame)
{
    m_series = std::move(s);
    m_first = firstFrame;
    m_last = std::max(firstFrame + 1, lastFrame);
    m_min = 1e300;
    m_max = -1e300;
    for (double v : m_series.values)
        if (std::isfinite(v))
            m_min = std::min(m_min, v), m_max = std::max(m_max, v);
    if (m_min > m_max)
        m_min = 0, m_max = 1;
    if (m_max - m_min < 1e-12)
        m_min -= 0.5, m_max += 0.5;
    update();
}

QRect PlotCanvas::plotRect() const { return rect().adjusted(64, 8, -8, -16); }

int PlotCanvas::frameAtX(int x) const
{
    const QRect r = plotRect();
    const double t = std::clamp(double(x - r.left()) / std::max(1, r.width()), 0.0, 1.0);
    return int(std::lround(m_first + t * (m_last - m_first)));
}

void PlotCanvas::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    update();
}

void PlotCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QRect r = plotRect();
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r);
    if (m_series.frames.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Right-click a numeric property in the inspector and choose Plot"));
        return;
    }
    auto xOf = [&](double f) { return r.left() + (f - m_first) / double(m_last - m_first) * r.width(); };
    auto yOf = [&](double v) { return r.bottom() - (v - m_min) / (m_max - m_min) * r.height(); };
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(0, r.top() - 6, 60, 14), Qt::AlignRight, QString::number(m_max, 'g', 5));
    p.drawText(QRect(0, r.bottom() - 8, 60, 14), Qt::AlignRight, QString::number(m_min, 'g', 5));
    // One vertex per pixel column at most: min/max folding keeps spikes visible.
    QPainterPath path;
    int lastX = INT_MIN;
    double colMin = 0, colMax = 0;
    bool started = false;
    for (size_t i = 0; i < m_series.frames.size(); ++i) {
        const int x = int(xOf(m_series.frames[i]));
        const double v = m_series.values[i];
        if (x != lastX) {
            if (started) {
                path.lineTo(lastX, yOf(colMin));
                path.lineTo(lastX, yOf(colMax));
            }
            colMin = colMax = v;
            if (!started)
                path.moveTo(x, yOf(v)), started = true;
            lastX = x;
        } else {
            colMin = std::min(colMin, v);
            colMax = std::max(colMax, v);
        }
    }
    if (started)
        path.lineTo(lastX, yOf(colMax));
    p.setPen(QPen(QColor(0x00, 0x72, 0xB2), 1.5));
    p.drawPath(path);
    // Points that are not what was recorded: a vermillion tick under the curve at each.
    p.setPen(QPen(QColor(0xD5, 0x5E, 0x00), 2));
    for (int f : m_series.damagedFrames)
        p.drawLine(QPointF(xOf(f), r.bottom() - 6), QPointF(xOf(f), r.bottom()));
    const int cur = m_session->currentFrame();
    if (cur >= m_first && cur <= m_last) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1));
        p.drawLine(int(xOf(cur)), r.top(), int(xOf(cur)), r.bottom());
    }
    if (m_hoverX >= r.left() && m_hoverX <= r.right()) {
        const int f = frameAtX(m_hoverX);
        auto it = std::lower_bound(m_series.frames.begin(), m_series.frames.end(), f);
        if (it != m_series.frames.end()) {
            const double v = m_series.values[size_t(it - m_series.frames.begin())];
            p.setPen(palette().color(QPalette::WindowText));
            QString at = tr("frame %1").arg(*it);
            if (m_unit != TimeUnit::Frame && m_session->file())
                at += QStringLiteral(" (%1)").arg(rulerLabel(*m_session->file(), *it, m_unit));
            p.drawText(QRect(r.left() + 4, r.bottom() + 1, r.width(), 14), Qt::AlignLeft, tr("%1: %2").arg(at).arg(v, 0, 'g', 8));
        }
    }
}

void PlotCanvas::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton && !m_series.frames.empty())
        emit seekRequested(frameAtX(int(e->position().x())));
}

void PlotCanvas::mouseMoveEvent(QMouseEvent* e)
{
    m_hoverX = int(e->position().x());
    if (e->buttons() & Qt::LeftButton && !m_series.frames.empty())
        emit seekRequested(frameAtX(m_hoverX));
    update();
}

PropertyPlot::PropertyPlot(ReplaySession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(tr("No property plotted"), this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(200);
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setVisible(false);
    top->addWidget(m_title, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancelButton);
    layout->addLayout(top);
    m_canvas = new PlotCanvas(session, this);
    layout->addWidget(m_canvas, 1);
    connect(m_cancelButton, &QPushButton::clicked, this, &PropertyPlot::cancel);
    connect(m_canvas, &PlotCanvas::seekRequested, this, &PropertyPlot::seekRequested);
    connect(session, &ReplaySession::closed, this, [this] {
        m_shownTitle.clear();
        cancel();
        m_canvas->setSeries({}, 0, 1);
    });
}

PropertyPlot::~PropertyPlot() { m_jobs.cancel(); }

QString PropertyPlot::title() const { return m_title->text(); }

void PropertyPlot::cancel()
{
    m_jobs.cancel();
    m_progress->setVisible(false);
    m_cancelButton->setVisible(false);
    // The curve on screen is still the previous one: so is the title.
    m_title->setText(m_shownTitle.isEmpty() ? tr("No property plotted") : m_shownTitle);
}

void PropertyPlot::plot(const EntityKey& entity, const QString& path, int firstFrame, int lastFrame)
{
    auto file = m_session->file();
    if (!file)
        return;
    firstFrame = std::clamp(firstFrame, 0, file->frameCount() - 1);
    lastFrame = std::clamp(lastFrame, firstFrame, file->frameCount() - 1);
    const QString title = tr("%1.%2 · frames %3–%4").arg(entity.uniqueId, path).arg(firstFrame).arg(lastFrame);
    m_title->setText(tr("%1 (computing…)").arg(title));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancelButton->setVisible(true);
    QPointer<PropertyPlot> self(this);
    auto work = [file, entity, path, firstFrame, lastFrame, self](const JobToken& job) {
        PlotSeries s;
        const std::string id = entity.uniqueId.toStdString();
        const vtx::Schema& schema = file->schema();
        // Parsed once; field lookups are cached per struct type, entity positions by hint.
        auto parsed = vtx::PropertyPath::parse(path.toStdString());
        const vtx::PropertyPath compiled = parsed ? std::move(*parsed) : vtx::PropertyPath{};
        int32_t hint = -1;
        int frame = parsed ? firstFrame : lastFrame + 1; // a bad path plots nothing
        while (frame <= lastFrame && !job.isCancelled()) {
            auto ci = file->chunkForFrame(frame);
            if (!ci)
                break;
            // Decoded here, not through the playhead's cache, so a scan never moves the
            // playhead's window and outlives nothing it borrowed (it owns `file`).
            auto d = file->decodeChunk(*ci);
            if (!d) {
                frame = file->chunks()[*ci].endFrame + 1;
                continue;
            }
            const std::shared_ptr<const vtx::DecodedChunk> chunk = *d;
            const int end = std::min(lastFrame, chunk->startFrame() + int(chunk->frameCount()) - 1);
            for (; frame <= end && !job.isCancelled(); ++frame) {
                const vtx::FrameView fv = chunk->frame(size_t(frame - chunk->startFrame()));
                const vtx::ContainerView c = vtx::findEntity(fv, uint32_t(entity.bucket), id, &hint);
                const vtx::Value v = compiled.evaluate(c, schema);
                if (v.isNumber()) {
                    s.frames.push_back(frame);
                    s.values.push_back(v.number);
                    if (!vtx::checkEntityIntegrity(c, schema, chunk->hashTrust(), fv).clean())
                        s.damagedFrames.push_back(frame);
                }
            }
            frame = std::max(frame, end + 1);
            const int permille = int(1000.0 * (frame - firstFrame) / std::max(1, lastFrame - firstFrame + 1));
            job.post([self, permille](JobOutcome outcome) {
                if (outcome == JobOutcome::Current)
                    self->m_progress->setValue(permille);
            });
        }
        return s;
    };
    m_jobs.run(std::move(work), [self, title, firstFrame, lastFrame](JobOutcome outcome, PlotSeries s) {
        if (outcome != JobOutcome::Current)
            return; // superseded by a newer plot, or cancelled: cancel() already restored the title
        self->m_jobs.finish(self->m_jobs.currentId());
        self->m_progress->setVisible(false);
        self->m_cancelButton->setVisible(false);
        self->m_shownTitle = s.damagedFrames.empty()
                                 ? title
                                 : title + tr("  ·  ⚠ %n damaged frame(s): not as recorded (marked)", nullptr, int(s.damagedFrames.size()));
        self->m_title->setText(self->m_shownTitle);
        self->m_canvas->setSeries(std::move(s), firstFrame, lastFrame);
        emit self->finished();
    });
}

} // namespace vtxw
