// SPDX-License-Identifier: MIT
#pragma once
// A copy of a replay with one chunk's bytes scrambled (its index entry left intact), so that
// chunk fails to decode and every other chunk still reads: for tests of how a scan shows holes.

#include "vtx/file/ReplayFile.hpp"

#include <QFile>
#include <QString>

namespace vtxtest {

/// Writes `source` to `target` with chunk `chunk` scrambled; false when either file fails.
inline bool writeCorruptChunkCopy(const QString& source, const QString& target, size_t chunk)
{
    auto good = vtx::ReplayFile::open(source.toStdString());
    if (!good || chunk >= (*good)->chunks().size())
        return false;
    const vtx::ChunkEntry bad = (*good)->chunks()[chunk];
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray bytes = in.readAll();
    for (qsizetype i = qsizetype(bad.fileOffset) + 40; i < qsizetype(bad.fileOffset) + qsizetype(bad.chunkSizeBytes) && i < bytes.size(); i += 5)
        bytes[i] = char(bytes[i] ^ 0x5A);
    QFile out(target);
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

} // namespace vtxtest
