// SPDX-License-Identifier: MIT
#include "library/LibraryModel.hpp"

#include <QColor>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

namespace vtxw {
namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString backendText(const std::optional<vtx::Backend>& b)
{
    if (!b)
        return QStringLiteral("—");
    return *b == vtx::Backend::FlatBuffers ? QStringLiteral("FlatBuffers") : QStringLiteral("Protobuf");
}

// One form for the whole column, m:ss.s (h:mm:ss from an hour): "6.2 s", "60.0 s" and "1:19" side
// by side did not compare at a glance (review 4, item 15).
QString durationText(double seconds)
{
    const qint64 tenths = std::llround(std::max(0.0, seconds) * 10);
    if (tenths < 36000) {
        const qint64 inMinute = tenths % 600;
        return QStringLiteral("%1:%2.%3").arg(tenths / 600).arg(inMinute / 10, 2, 10, QLatin1Char('0')).arg(inMinute % 10);
    }
    const qint64 whole = std::llround(seconds);
    return QStringLiteral("%1:%2:%3").arg(whole / 3600).arg((whole / 60) % 60, 2, 10, QLatin1Char('0')).arg(whole % 60, 2, 10, QLatin1Char('0'));
}

QDateTime recordedAt(const vtx::ReplaySummary& s)
{
    return s.recordedUtcSeconds ? QDateTime::fromSecsSinceEpoch(s.recordedUtcSeconds, Qt::UTC) : QDateTime();
}

} // namespace

void LibraryModel::reset(const QString& folder)
{
    beginResetModel();
    m_folder = folder;
    m_baseline.clear();
    m_rows.clear();
    m_rowByPath.clear();
    endResetModel();
}

void LibraryModel::addSummaries(std::vector<vtx::ReplaySummary> summaries)
{
    std::vector<Row> fresh;
    const QDir folder(m_folder);
    for (vtx::ReplaySummary& s : summaries) {
        Row r;
        r.path = qs(s.path);
        r.name = m_folder.isEmpty() ? r.path : folder.relativeFilePath(r.path);
        QStringList types;
        for (const std::string& t : s.entityTypes)
            types << qs(t);
        r.types = types.join(QStringLiteral(", "));
        r.summary = std::move(s);
        if (const int existing = rowOfPath(r.path); existing >= 0) {
            Row& old = m_rows[size_t(existing)];
            r.check = old.check;
            r.verdict = std::move(old.verdict);
            old = std::move(r);
            emit dataChanged(index(existing, 0), index(existing, ColumnCount - 1));
        } else {
            fresh.push_back(std::move(r));
        }
    }
    if (fresh.empty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (Row& r : fresh) {
        m_rowByPath.insert(r.path, int(m_rows.size()));
        m_rows.push_back(std::move(r));
    }
    endInsertRows();
}

int LibraryModel::rowOfPath(const QString& path) const
{
    return m_rowByPath.value(path, -1);
}

QString LibraryModel::pathAt(int row) const
{
    return row >= 0 && size_t(row) < m_rows.size() ? m_rows[size_t(row)].path : QString();
}

void LibraryModel::beginCheck(const QString& baseline, const QStringList& runs)
{
    m_baseline = baseline;
    for (Row& r : m_rows) {
        r.check = r.path == baseline ? CheckState::Baseline : CheckState::None;
        r.verdict.reset();
    }
    for (const QString& run : runs)
        if (const int row = rowOfPath(run); row >= 0 && run != baseline)
            m_rows[size_t(row)].check = CheckState::Pending;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void LibraryModel::setCheckResult(const QString& run, vtx::RunVerdict verdict)
{
    const int row = rowOfPath(run);
    if (row < 0)
        return;
    Row& r = m_rows[size_t(row)];
    r.check = CheckState::Done;
    r.verdict = std::move(verdict);
    emitCheckColumnsChanged(row);
}

void LibraryModel::cancelPendingChecks()
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].check == CheckState::Pending) {
            m_rows[i].check = CheckState::Cancelled;
            emitCheckColumnsChanged(int(i));
        }
}

void LibraryModel::emitCheckColumnsChanged(int row)
{
    emit dataChanged(index(row, FirstColumnOfCheck), index(row, ColumnCount - 1));
}

int LibraryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LibraryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LibraryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Frames: return tr("Frames");
    case Duration: return tr("Duration");
    case Size: return tr("Size");
    case Backend: return tr("Backend");
    case Recorded: return tr("Recorded (UTC)");
    case EntityTypes: return tr("Entity types");
    case Integrity: return tr("Integrity");
    case Divergence: return tr("vs baseline");
    case Entity: return tr("Entity");
    case Property: return tr("Property");
    case BaselineValue: return tr("Baseline value");
    case RunValue: return tr("Run value");
    default: return {};
    }
}

QVariant LibraryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = m_rows[size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return column >= FirstColumnOfCheck ? checkDisplay(r, column) : display(r, column);
    case SortRole: return sortValue(r, column);
    case Qt::ToolTipRole: return toolTip(r, column);
    case PathRole: return r.path;
    case FilterTextRole: return QStringList{r.name, qs(r.summary.replayName), r.types, backendText(r.summary.backend)}.join(QLatin1Char('\n'));
    case VerdictRole: return int(r.summary.verdict);
    case DivergenceFrameRole:
        if (r.verdict && r.verdict->first)
            return qint64(r.verdict->first->frameA);
        return {};
    case Qt::TextAlignmentRole:
        if (column == Frames || column == Duration || column == Size)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (column == Integrity && !r.summary.opens())
            return QColor(0xd5, 0x5e, 0x00); // Okabe–Ito vermilion, as the diff's removals
        if (column >= FirstColumnOfCheck && r.verdict && r.verdict->kind == vtx::RunVerdict::Kind::Failed)
            return QColor(0xd5, 0x5e, 0x00);
        return {};
    case Qt::FontRole:
        if (r.check == CheckState::Baseline || (column == Divergence && r.verdict && r.verdict->kind == vtx::RunVerdict::Kind::Diverges)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default: return {};
    }
}

QVariant LibraryModel::display(const Row& r, int column) const
{
    const vtx::ReplaySummary& s = r.summary;
    switch (column) {
    case Name: return r.name;
    case Frames: return s.frames ? QLocale().toString(*s.frames) : QStringLiteral("?");
    case Duration: return s.durationSeconds ? durationText(*s.durationSeconds) : QString();
    case Size: return QLocale().formattedDataSize(qint64(s.fileSize));
    case Backend: return backendText(s.backend);
    case Recorded: {
        const QDateTime t = recordedAt(s);
        return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
    }
    case EntityTypes: return r.types;
    case Integrity: return qs(s.verdictText);
    default: return {};
    }
}

QString LibraryModel::entityText(const vtx::RunVerdict& v)
{
    if (v.uniqueId.empty() && v.entityType.empty())
        return {};
    // As the diff panel names entities: the name first, then the id and the type.
    // What happened to a whole entity is the Property column's (entityChangeText): appended
    // here it was elided away ("smokegrenade · ent_5000  Entity…").
    return v.displayName.empty() ? QStringLiteral("%1  %2").arg(qs(v.uniqueId), qs(v.entityType))
                                 : QStringLiteral("%1 · %2  %3").arg(qs(v.displayName), qs(v.uniqueId), qs(v.entityType));
}

QString LibraryModel::entityChangeText(const vtx::RunVerdict& v)
{
    // The regression gate's words (its JUnit failure text and `diverge --baseline`).
    if (!v.property.empty())
        return {};
    if (v.status == vtx::EntityStatus::Added)
        return tr("entity only in the run");
    if (v.status == vtx::EntityStatus::Removed)
        return tr("entity missing from the run");
    return {};
}

QVariant LibraryModel::checkDisplay(const Row& r, int column) const
{
    switch (r.check) {
    case CheckState::None: return {};
    case CheckState::Baseline: return column == Divergence ? tr("baseline") : QVariant();
    case CheckState::Pending: return column == Divergence ? tr("checking…") : QVariant();
    case CheckState::Cancelled: return column == Divergence ? tr("cancelled") : QVariant();
    case CheckState::Done: break;
    }
    const vtx::RunVerdict& v = *r.verdict;
    if (column != Divergence && v.kind != vtx::RunVerdict::Kind::Diverges)
        return {};
    if (v.kind == vtx::RunVerdict::Kind::Matches) // said when the runs differ in length: only the paired frames were compared
        return v.baselineFrames == v.runFrames ? tr("matches") : tr("matches (%1 vs %2 frames)").arg(v.baselineFrames).arg(v.runFrames);
    if (v.kind == vtx::RunVerdict::Kind::Diverges && !v.first) // every pair matched; the lengths do not
        return column == Divergence ? tr("length: run %1 frames, baseline %2").arg(v.runFrames).arg(v.baselineFrames) : QVariant();
    if (v.kind == vtx::RunVerdict::Kind::Failed) { // the row names the run already
        const QString error = qs(v.error), prefix = r.path + QStringLiteral(": ");
        return error.startsWith(prefix) ? error.mid(prefix.size()) : error;
    }
    switch (column) {
    case Divergence:
        return v.first->frameA == v.first->frameB ? tr("frame %1").arg(v.first->frameA)
                                                  : tr("frame %1 (run: %2)").arg(v.first->frameA).arg(v.first->frameB);
    case Entity: return entityText(v);
    case Property: return v.property.empty() ? entityChangeText(v) : qs(v.property);
    case BaselineValue: return qs(v.baselineValueForReading);
    case RunValue: return qs(v.runValueForReading);
    default: return {};
    }
}

QVariant LibraryModel::sortValue(const Row& r, int column) const
{
    const vtx::ReplaySummary& s = r.summary;
    switch (column) {
    case Frames: return s.frames ? QVariant(qint64(*s.frames)) : QVariant();
    case Duration: return s.durationSeconds ? QVariant(*s.durationSeconds) : QVariant();
    case Size: return QVariant(quint64(s.fileSize));
    case Recorded: {
        const QDateTime t = recordedAt(s);
        return t.isValid() ? QVariant(t) : QVariant();
    }
    case Integrity: // sound files first, then by what is wrong
        return QStringLiteral("%1 %2").arg(int(s.verdict)).arg(qs(s.verdictText));
    case Divergence: // the earliest divergence first, then matches, then errors; unchecked rows last
        if (r.check == CheckState::Done) {
            const vtx::RunVerdict& v = *r.verdict;
            if (v.kind == vtx::RunVerdict::Kind::Diverges) // a length difference where the shorter ends
                return qint64(v.first ? v.first->frameA : std::min(v.baselineFrames, v.runFrames));
            return v.kind == vtx::RunVerdict::Kind::Matches ? std::numeric_limits<qint64>::max() - 1 : std::numeric_limits<qint64>::max();
        }
        return {};
    default: return column >= FirstColumnOfCheck ? checkDisplay(r, column) : display(r, column);
    }
}

QVariant LibraryModel::toolTip(const Row& r, int column) const
{
    const vtx::ReplaySummary& s = r.summary;
    switch (column) {
    case Name: return s.replayName.empty() ? r.path : tr("%1\nreplay name: %2").arg(r.path, qs(s.replayName));
    case Frames:
        return s.frames ? tr("%1 frames in %2 chunks").arg(*s.frames).arg(s.chunks) : tr("unknown: the footer, which counts them, was not read");
    case Size: return tr("%1 bytes").arg(QLocale().toString(quint64(s.fileSize)));
    case EntityTypes: return r.types.isEmpty() ? QVariant() : tr("From the schema: the struct types no other type nests\n%1").arg(r.types);
    case Integrity: {
        QStringList lines;
        for (const std::string& f : s.findings)
            lines << qs(f);
        lines << tr("(read from the header and footer only; `vtxscope-cli validate` checks every chunk)");
        return lines.join(QLatin1Char('\n'));
    }
    default: break;
    }
    if (column >= FirstColumnOfCheck && r.check == CheckState::Done) {
        const vtx::RunVerdict& v = *r.verdict;
        if (v.kind == vtx::RunVerdict::Kind::Failed)
            return qs(v.error);
        QString t = tr("%1 of %2 frame pairs differ").arg(v.divergentPairs).arg(v.pairsCompared);
        if (column == Entity && !v.uniqueId.empty())
            t = tr("%1 (id %2, bucket %3)\n").arg(qs(v.displayName.empty() ? v.uniqueId : v.displayName), qs(v.uniqueId)).arg(v.bucket) + t;
        // The cell shows the value for reading; the exact text (what the gate's report says) here.
        if (column == BaselineValue && !v.baselineValue.empty())
            t = tr("Exact: %1\n").arg(qs(v.baselineValue)) + t;
        if (column == RunValue && !v.runValue.empty())
            t = tr("Exact: %1\n").arg(qs(v.runValue)) + t;
        if (v.kind == vtx::RunVerdict::Kind::Diverges && v.first) {
            t += tr("; %n entities differ in the first", nullptr, int(v.entitiesInFirst));
            if (v.deviation)
                t += tr("; deviation %1").arg(*v.deviation);
            t += tr("\nClick to open the pair at this frame");
        }
        if (v.lengthDiffers)
            t += tr("\nThe run has %1 frames, the baseline %2: a regression gate counts that as a divergence").arg(v.runFrames).arg(v.baselineFrames);
        return t;
    }
    return {};
}

LibraryProxy::LibraryProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(LibraryModel::SortRole);
    setFilterRole(LibraryModel::FilterTextRole);
    setFilterKeyColumn(LibraryModel::Name);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

bool LibraryProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole()), b = right.data(sortRole());
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString)
        return naturalLess(a.toString(), b.toString());
    return QSortFilterProxyModel::lessThan(left, right);
}

bool naturalLess(QStringView a, QStringView b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            // Compare the digit runs as numbers of any length: without leading zeros, the longer
            // is larger, else the first differing digit decides.
            const qsizetype si = i, sj = j;
            while (i < a.size() && a[i].isDigit())
                ++i;
            while (j < b.size() && b[j].isDigit())
                ++j;
            QStringView da = a.sliced(si, i - si), db = b.sliced(sj, j - sj);
            while (da.size() > 1 && da.front() == u'0')
                da = da.sliced(1);
            while (db.size() > 1 && db.front() == u'0')
                db = db.sliced(1);
            if (da.size() != db.size())
                return da.size() < db.size();
            if (const int c = da.compare(db); c != 0)
                return c < 0;
            continue;
        }
        const char32_t ca = a[i].toCaseFolded().unicode(), cb = b[j].toCaseFolded().unicode();
        if (ca != cb)
            return ca < cb;
        ++i;
        ++j;
    }
    if (i < a.size() || j < b.size())
        return i >= a.size(); // a prefix of the other goes first
    return a.compare(b) < 0; // equal but for case or zeros: a stable, total order
}

} // namespace vtxw
