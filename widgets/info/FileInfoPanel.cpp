// SPDX-License-Identifier: MIT
#include "info/FileInfoPanel.hpp"

#include <QDateTime>
#include <QHeaderView>
#include <QTimeZone>

namespace vtxw {

FileInfoPanel::FileInfoPanel(QWidget* parent) : QTreeWidget(parent)
{
    setHeaderLabels({tr("Field"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setMinimumHeight(40); // a tab in the right column, which shares 600 px with the diff
}

void FileInfoPanel::showFile(const vtx::ReplayFile& f, const QString& path)
{
    clear();
    auto item = [this](QTreeWidgetItem* parent, const QString& k, const QString& v) {
        return parent ? new QTreeWidgetItem(parent, {k, v}) : new QTreeWidgetItem(this, {k, v});
    };
    const auto& h = f.header();
    item(nullptr, tr("File"), path);
    item(nullptr, tr("Size"), QStringLiteral("%1 bytes").arg(f.fileSize()));
    item(nullptr, tr("Backend"), QString::fromLatin1(vtx::backendName(f.backend())));
    item(nullptr, tr("Replay"), QString::fromStdString(h.replayName));
    item(nullptr, tr("UUID"), QString::fromStdString(h.replayUuid));
    item(nullptr, tr("Recorded"), QDateTime::fromSecsSinceEpoch(h.recordedUtcTimestamp, QTimeZone::utc()).toString(Qt::ISODate));
    item(nullptr, tr("Format"), QStringLiteral("%1.%2, schema %3").arg(h.formatMajor).arg(h.formatMinor).arg(h.schemaVersion));
    item(nullptr, tr("Data"),
         QStringLiteral("%1 %2 (%3)")
             .arg(QString::fromStdString(h.dataIdentifier))
             .arg(h.dataVersion)
             .arg(QString::fromStdString(h.dataVersionString)));
    item(nullptr, tr("Frames"), QString::number(f.frameCount()));
    item(nullptr, tr("Duration"), QStringLiteral("%1 s").arg(double(f.footer().durationSeconds), 0, 'f', 3));
    auto* schema = item(nullptr, tr("Schema"), tr("%n struct(s)", nullptr, int(f.schema().structs().size())));
    for (const auto& s : f.schema().structs()) {
        auto* st = item(schema, QString::fromStdString(s.name), tr("type %1").arg(s.typeId));
        for (const auto& fd : s.fields)
            item(st, QString::fromStdString(fd.name),
                 QStringLiteral("%1 %2 slot %3").arg(vtx::fieldTypeName(fd.key.type), vtx::containerKindName(fd.key.container)).arg(fd.key.slot));
    }
    auto* seek = item(nullptr, tr("Seek table"), tr("%n chunk(s)", nullptr, int(f.chunks().size())));
    for (const auto& c : f.chunks())
        item(seek, QStringLiteral("#%1").arg(c.chunkIndex),
             tr("frames %1–%2 · offset %3 · %4 bytes").arg(c.startFrame).arg(c.endFrame).arg(c.fileOffset).arg(c.chunkSizeBytes));
    const auto& problems = f.problems();
    auto* probs = item(nullptr, tr("Problems"), QString::number(problems.size()));
    for (const auto& p : problems)
        item(probs, {}, QString::fromStdString(p.message));
    expandItem(probs);
}

} // namespace vtxw
