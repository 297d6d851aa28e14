// SPDX-License-Identifier: MIT
#pragma once
// A copy of a replay with one chunk's bytes scrambled (its index entry left intact), so that
// chunk fails to decode and every other chunk still reads: for tests of how a scan shows holes.
// Also: one frame damaged in a chunk that decodes, noise in a chunk, a file cut short.

#include "vtx/file/ReplayFile.hpp"
#include "vtx_generated.h"

#include <QFile>
#include <QString>

#include <algorithm>
#include <random>

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

/// `source`, a FlatBuffers replay with chunks stored raw, copied to `target` with frame
/// `frameInChunk` of chunk `chunk` given a vtable offset far outside the chunk: the chunk
/// decodes, that one frame fails its verification. False when a file fails.
inline bool writeHostileFrameCopy(const QString& source, const QString& target, size_t chunk, uint32_t frameInChunk)
{
    auto good = vtx::ReplayFile::open(source.toStdString());
    if (!good || chunk >= (*good)->chunks().size())
        return false;
    auto blob = (*good)->readChunkBlob(chunk);
    if (!blob)
        return false;
    const auto* root = flatbuffers::GetRoot<fbsvtx::Chunk>(blob->data());
    if (!root->frames() || frameInChunk >= root->frames()->size())
        return false;
    const auto table = reinterpret_cast<const uint8_t*>(root->frames()->Get(frameInChunk)) - blob->data();
    QFile::remove(target);
    if (!QFile::copy(source, target))
        return false;
    QFile out(target);
    const int32_t hostile = 0x7ffffff0;
    return out.open(QIODevice::ReadWrite) && out.seek(qint64((*good)->chunks()[chunk].fileOffset) + 4 + table) &&
        out.write(reinterpret_cast<const char*>(&hostile), sizeof hostile) == qint64(sizeof hostile);
}

/// The first `numerator / denominator` of `source` written to `target`: a recording cut short,
/// which opens in recovery mode without the footer's frame times. False when either file fails.
inline bool writeCutCopy(const QString& source, const QString& target, qint64 numerator, qint64 denominator)
{
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = in.readAll();
    const QByteArray kept = bytes.left(bytes.size() * numerator / denominator);
    QFile out(target);
    return out.open(QIODevice::WriteOnly) && out.write(kept) == kept.size();
}

/// Writes noise over the middle of chunk `entry`'s stored blob in `bytes` (the whole file): 4 KB,
/// or a quarter of a smaller blob, from a generator seeded with `seed`. zstd keeps no checksum in
/// the SDK's files, so this decodes into wrong bytes before anything fails (review 5, #3).
template <class Bytes> void writeNoiseInChunk(Bytes& bytes, const vtx::ChunkEntry& entry, unsigned seed)
{
    const size_t blobBytes = entry.chunkSizeBytes - 4;
    const size_t noise = std::min<size_t>(4096, blobBytes / 4);
    std::mt19937 random(seed);
    for (size_t k = 0; k < noise; ++k)
        bytes[entry.fileOffset + 4 + blobBytes / 2 + k] = static_cast<typename Bytes::value_type>(random());
}

/// `source` copied to `target` with writeNoiseInChunk() over chunk `chunk`.
inline bool writeNoisyChunkCopy(const QString& source, const QString& target, size_t chunk, unsigned seed)
{
    auto good = vtx::ReplayFile::open(source.toStdString());
    if (!good || chunk >= (*good)->chunks().size())
        return false;
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray bytes = in.readAll();
    writeNoiseInChunk(bytes, (*good)->chunks()[chunk], seed);
    QFile out(target);
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

} // namespace vtxtest
