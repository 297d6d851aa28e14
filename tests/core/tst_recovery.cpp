// SPDX-License-Identifier: MIT
// Unfinished recordings and files that change under us: recovery mode (no usable footer) walks
// the chunk records, a corrupt chunk costs only its frames, a growing file is followed chunk by
// chunk, and a file truncated, replaced or deleted while open gives errors, never a crash.

#include "TestSupport.hpp"
#include "vtx/file/ReplayWriter.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtxgen/Generator.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

using namespace vtx;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<uint8_t> readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeAll(const std::string& path, std::span<const uint8_t> bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

/// A digest of a chunk's values: every entity's unique id and its content hash recomputed from
/// the values (not the stored hash), frame by frame.
uint64_t valueDigest(const DecodedChunk& chunk)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001B3ull + (h >> 29); };
    for (size_t f = 0; f < chunk.frameCount(); ++f) {
        FrameView frame = chunk.frame(f);
        mix(frame.bucketCount());
        for (size_t b = 0; b < frame.bucketCount(); ++b) {
            BucketView bucket = frame.bucket(b);
            for (size_t e = 0; e < bucket.entityCount(); ++e) {
                mix(std::hash<std::string_view>{}(bucket.uniqueId(e)));
                mix(computeContentHash(bucket.entity(e)));
            }
        }
    }
    return h;
}

FrameData counterFrame(int32_t i)
{
    FrameData f;
    f.buckets.resize(1);
    PropertyContainerData e;
    e.typeId = 0;
    e.int32s = {i};
    f.buckets[0].entities.push_back(std::move(e));
    f.buckets[0].uniqueIds.push_back("counter");
    return f;
}

} // namespace

class TestRecovery : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::vector<uint8_t> m_fbs, m_proto; // CS2-like replays, 16 chunks
    const std::vector<uint8_t>& bytesFor(int backend) const { return backend == int(Backend::Protobuf) ? m_proto : m_fbs; }

private slots:
    void initTestCase()
    {
        for (Backend b : {Backend::FlatBuffers, Backend::Protobuf}) {
            vtxgen::GeneratorOptions o;
            o.kind = vtxgen::Kind::Cs2;
            o.backend = b;
            o.frames = 400;
            o.chunkFrames = 25;
            o.zstdLevel = 1;
            const std::string p = (m_dir.path() + "/cs2.vtx").toStdString();
            VTX_VERIFY_OK(vtxgen::generateReplay(p, o));
            (b == Backend::Protobuf ? m_proto : m_fbs) = readAll(p);
        }
    }

    void backends_data()
    {
        QTest::addColumn<int>("backend");
        QTest::newRow("flatbuffers") << int(Backend::FlatBuffers);
        QTest::newRow("protobuf") << int(Backend::Protobuf);
    }

    // The recorder crashed anywhere after the header: the file always opens, every complete
    // chunk before the cut reads value-identical, and the reported loss is exact.
    void truncatedAtRandomOffsets_data() { backends_data(); }
    void truncatedAtRandomOffsets()
    {
        QFETCH(int, backend);
        const auto& good = bytesFor(backend);
        auto original = ReplayFile::open(memorySource(good, "cs2.vtx"));
        VTX_VERIFY_OK(original);
        const auto& chunks = (*original)->chunks();
        QCOMPARE(chunks.size(), size_t(16));
        std::vector<uint64_t> digests;
        for (size_t i = 0; i < chunks.size(); ++i) {
            auto c = (*original)->decodeChunk(i);
            VTX_VERIFY_OK(c);
            digests.push_back(valueDigest(**c));
        }
        const uint64_t chunkAreaStart = (*original)->headerBlob().offset + (*original)->headerBlob().storedSize;
        std::mt19937_64 rng(20261123 + uint64_t(backend));
        std::vector<uint64_t> cuts;
        cuts.reserve(50);
        for (int i = 0; i < 50; ++i)
            cuts.push_back(chunkAreaStart + rng() % (good.size() - chunkAreaStart));
        for (uint64_t cut : cuts) {
            const std::string at = "cut at " + std::to_string(cut);
            auto f = ReplayFile::open(memorySource({good.begin(), good.begin() + long(cut)}, "cut.vtx"));
            QVERIFY2(f.isOk(), (at + ": " + (f.isOk() ? std::string() : f.message())).c_str());
            QVERIFY2((*f)->isRecovered(), at.c_str());
            size_t complete = 0;
            uint64_t end = chunkAreaStart;
            int32_t frames = 0;
            while (complete < chunks.size() && chunks[complete].fileOffset + chunks[complete].chunkSizeBytes <= cut) {
                end = chunks[complete].fileOffset + chunks[complete].chunkSizeBytes;
                frames += int32_t(chunks[complete].frameCount());
                ++complete;
            }
            QVERIFY2((*f)->chunks().size() == complete, at.c_str());
            QCOMPARE((*f)->frameCount(), frames);
            const RecoveryReport& r = (*f)->recovery();
            QCOMPARE(r.resumeOffset, end);
            QCOMPARE(r.lostBytes, cut - end);
            QVERIFY(r.corruptRecords.empty());
            QCOMPARE(r.lostWhat.empty(), cut == end);
            const std::string counts = "recovered " + std::to_string(frames) + (frames == 1 ? " frame in " : " frames in ") +
                std::to_string(complete) + (complete == 1 ? " chunk" : " chunks") + " without a usable footer";
            QVERIFY2((*f)->problems().front().message.find(counts) != std::string::npos, (*f)->problems().front().message.c_str());
            for (size_t i = 0; i < complete; ++i) {
                QCOMPARE((*f)->chunks()[i], chunks[i]);
                auto c = (*f)->decodeChunk(i);
                VTX_VERIFY_OK(c);
                QVERIFY2(valueDigest(**c) == digests[i], (at + ", chunk " + std::to_string(i)).c_str());
            }
        }
    }

    // A complete file whose footer is damaged: every chunk comes back; only times are lost.
    void corruptFooter_data() { backends_data(); }
    void corruptFooter()
    {
        QFETCH(int, backend);
        auto bytes = bytesFor(backend);
        auto original = ReplayFile::open(memorySource(bytes, "cs2.vtx"));
        VTX_VERIFY_OK(original);
        const uint64_t footer = (*original)->footerBlob().offset;
        for (uint64_t i = footer; i < footer + 16; ++i)
            bytes[i] ^= 0x5A;
        auto f = ReplayFile::open(memorySource(bytes, "cs2.vtx"));
        VTX_VERIFY_OK(f);
        QVERIFY((*f)->isRecovered());
        QCOMPARE((*f)->chunks(), (*original)->chunks());
        QCOMPARE((*f)->frameCount(), (*original)->frameCount());
        QCOMPARE((*f)->recovery().resumeOffset, footer);
        QCOMPARE((*f)->recovery().lostBytes, bytes.size() - footer);
        QCOMPARE((*f)->recovery().lostWhat, std::string("the footer, which could not be used"));
        QCOMPARE((*f)->gameTimeTicks(10), int64_t(0));
        // Strict callers can refuse recovery.
        ReaderOptions strict;
        strict.recover = false;
        QVERIFY(!ReplayFile::open(memorySource(bytes, "cs2.vtx"), strict).isOk());
    }

    // Only the trailing 4-byte sentinel is missing (the writer stopped just before it): the
    // footer is intact and is used, with a warning, instead of opening in recovery mode and losing
    // times and events. One more byte gone (the footer size damaged) is recovery again.
    void sentinelMissing_data() { backends_data(); }
    void sentinelMissing()
    {
        QFETCH(int, backend);
        const auto& good = bytesFor(backend);
        auto original = ReplayFile::open(memorySource(good, "cs2.vtx"));
        VTX_VERIFY_OK(original);
        auto f = ReplayFile::open(memorySource({good.begin(), good.end() - 4}, "cut.vtx"));
        VTX_VERIFY_OK(f);
        QVERIFY(!(*f)->isRecovered());
        QCOMPARE((*f)->chunks(), (*original)->chunks());
        QCOMPARE((*f)->frameCount(), (*original)->frameCount());
        QCOMPARE((*f)->gameTimeTicks(10), (*original)->gameTimeTicks(10));
        QCOMPARE((*f)->footer().events.size(), (*original)->footer().events.size());
        QVERIFY((*f)->gameTimeTicks(10) != 0);
        bool warned = false;
        for (const Problem& p : (*f)->problems())
            warned |= p.message.find("sentinel is missing") != std::string::npos;
        QVERIFY(warned);
        auto g = ReplayFile::open(memorySource({good.begin(), good.end() - 5}, "cut.vtx"));
        VTX_VERIFY_OK(g);
        QVERIFY((*g)->isRecovered());
        QCOMPARE((*g)->chunks(), (*original)->chunks());
    }

    // One corrupt chunk in the middle: with the footer only its frames are unavailable; without
    // it, recovery skips the record, reports it, and keeps walking.
    void corruptChunkInTheMiddle_data() { backends_data(); }
    void corruptChunkInTheMiddle()
    {
        QFETCH(int, backend);
        auto bytes = bytesFor(backend);
        auto original = ReplayFile::open(memorySource(bytes, "cs2.vtx"));
        VTX_VERIFY_OK(original);
        const ChunkEntry bad = (*original)->chunks()[7];
        for (uint64_t i = bad.fileOffset + 4; i < bad.fileOffset + bad.chunkSizeBytes; i += 7)
            bytes[i] ^= 0xA5;
        auto f = ReplayFile::open(memorySource(bytes, "cs2.vtx"));
        VTX_VERIFY_OK(f);
        QVERIFY(!(*f)->isRecovered());
        for (size_t i = 0; i < (*f)->chunks().size(); ++i) {
            auto c = (*f)->decodeChunk(i);
            QCOMPARE(c.isOk(), i != 7);
            if (i == 7)
                QVERIFY2(c.message().find("chunk 7 at offset " + std::to_string(bad.fileOffset)) != std::string::npos, c.message().c_str());
        }
        QVERIFY((*f)->frame(bad.startFrame - 1).isOk());
        QVERIFY(!(*f)->frame(bad.startFrame).isOk());
        QVERIFY((*f)->frame(bad.endFrame + 1).isOk());

        const uint64_t footer = (*original)->footerBlob().offset;
        auto g = ReplayFile::open(memorySource({bytes.begin(), bytes.begin() + long(footer)}, "cut.vtx"));
        VTX_VERIFY_OK(g);
        QVERIFY((*g)->isRecovered());
        QCOMPARE((*g)->chunks().size(), size_t(15));
        QCOMPARE((*g)->frameCount(), (*original)->frameCount() - int32_t(bad.frameCount()));
        QCOMPARE((*g)->recovery().corruptRecords.size(), size_t(1));
        QCOMPARE((*g)->recovery().corruptRecords[0].offset, bad.fileOffset);
        QCOMPARE((*g)->recovery().corruptRecords[0].bytes, uint64_t(bad.chunkSizeBytes));
        QCOMPARE((*g)->recovery().lostBytes, uint64_t(0));
        QCOMPARE((*g)->chunks()[7].fileOffset, (*original)->chunks()[8].fileOffset);
        QVERIFY((*g)->recovery().summary().find("is corrupt and its frames are lost") != std::string::npos);
    }

    // A writer appends chunks in another thread while the reader follows with refresh(): every
    // frame written becomes visible, in order, and the follower never sees a chunk before the
    // writer started writing it. The latency from a chunk's flush() returning to the follower
    // seeing it is reported (a figure for PERFORMANCE.md), not asserted: on a loaded machine or
    // under a sanitizer it is whatever the scheduler makes it.
    void followGrowingFile_data() { backends_data(); }
    void followGrowingFile()
    {
        QFETCH(int, backend);
        const std::string path = (m_dir.path() + "/growing-" + QString::number(backend) + ".vtx").toStdString();
        constexpr int32_t kChunks = 40, kFramesPerChunk = 5;
        WriterOptions wo;
        wo.backend = Backend(backend);
        wo.chunkMaxFrames = kFramesPerChunk;
        auto writer = ReplayWriter::create(path, ReplayHeader{}, wo);
        VTX_VERIFY_OK(writer);
        // Per chunk: when its flush() was called (recorded before the chunk's first byte is
        // written, so a follower that sees the chunk always finds its entry) and when flush()
        // returned (the follower may see the chunk before that: the bytes reach the file while
        // flush() runs).
        std::mutex landedMutex;
        std::vector<Clock::time_point> flushCalled, flushReturned;
        std::atomic<bool> writing{true};
        std::string writerError;
        std::thread recorder([&] {
            for (int32_t c = 0; c < kChunks && writerError.empty(); ++c) {
                for (int32_t i = 0; i < kFramesPerChunk; ++i) {
                    const int32_t frame = c * kFramesPerChunk + i;
                    if (Status s = (*writer)->addFrame(counterFrame(frame), int64_t(frame) * 166666, 1 + int64_t(frame) * 166666); !s)
                        writerError = s.message();
                }
                {
                    std::lock_guard lock(landedMutex);
                    flushCalled.push_back(Clock::now());
                }
                if (Status s = (*writer)->flush(); !s)
                    writerError = s.message();
                {
                    std::lock_guard lock(landedMutex);
                    flushReturned.push_back(Clock::now());
                }
                // The recorder's pace (a chunk every few milliseconds), not synchronisation.
                std::this_thread::sleep_for(std::chrono::milliseconds(4));
            }
            if (auto r = (*writer)->finish(); !r)
                writerError = r.message();
            writing = false;
        });

        auto follower = ReplayFile::open(path);
        QVERIFY2(follower.isOk(), follower.isOk() ? "" : follower.message().c_str());
        std::shared_ptr<ReplayFile> file = *follower;
        int32_t seen = 0;
        double worstMs = 0;
        int seenDuringFlush = 0;
        auto absorb = [&](const ReplayFile& f) {
            const Clock::time_point now = Clock::now();
            for (size_t ci = 0; ci < f.chunks().size(); ++ci) {
                const ChunkEntry& e = f.chunks()[ci];
                if (e.endFrame < seen)
                    continue;
                QCOMPARE(e.startFrame, seen);
                auto chunk = f.decodeChunk(ci);
                VTX_VERIFY_OK(chunk);
                for (size_t lf = 0; lf < (*chunk)->frameCount(); ++lf)
                    QCOMPARE((*chunk)->frame(lf).bucket(0).entity(0).int32s()[0], seen + int32_t(lf));
                seen += int32_t((*chunk)->frameCount());
                std::lock_guard lock(landedMutex);
                QVERIFY2(ci < flushCalled.size(), "the follower saw a chunk before the writer started writing it");
                if (ci < flushReturned.size())
                    worstMs = std::max(worstMs, std::chrono::duration<double, std::milli>(now - flushReturned[ci]).count());
                else
                    ++seenDuringFlush;
            }
        };
        absorb(*file);
        // Follow while the recorder writes; no deadline of our own (CTest's timeout is the hang
        // guard), so a slow machine only makes the test slower.
        while (writing) {
            auto next = file->refresh();
            VTX_VERIFY_OK(next);
            if (*next) {
                file = *next;
                absorb(*file);
            }
            if (QTest::currentTestFailed())
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10)); // the follow poll interval
        }
        recorder.join();
        QVERIFY2(writerError.empty(), writerError.c_str());
        // The recorder finished: one more refresh sees the complete file with its footer.
        auto last = file->refresh();
        VTX_VERIFY_OK(last);
        if (*last) {
            file = *last;
            absorb(*file);
        }
        QCOMPARE(seen, kChunks * kFramesPerChunk);
        QVERIFY(!file->isRecovered()); // the footer landed: times are back
        QCOMPARE(file->gameTimeTicks(10), int64_t(10 * 166666));
        qInfo("followed %d chunks; worst flush-to-visible latency %.1f ms (%d chunk(s) seen while their flush() still ran)", kChunks, worstMs,
              seenDuringFlush);
    }

    // The file changes under an open replay: truncated, deleted, replaced. Positioned reads of
    // an fd: errors for what is gone, never SIGBUS.
    void fileChangesUnderUs()
    {
        const std::string path = (m_dir.path() + "/changing.vtx").toStdString();
        writeAll(path, m_fbs);
        auto f = ReplayFile::open(path);
        VTX_VERIFY_OK(f);
        const auto& chunks = (*f)->chunks();
        std::filesystem::resize_file(path, chunks[8].fileOffset + 10);
        for (size_t i = 0; i < chunks.size(); ++i) {
            auto c = (*f)->decodeChunk(i);
            QCOMPARE(c.isOk(), i < 8);
            if (i >= 8)
                QVERIFY2(c.message().find("changing.vtx") != std::string::npos && c.message().find("shrank") != std::string::npos,
                         c.message().c_str());
        }
        // The truncated file re-read: recovery keeps the 8 complete chunks.
        auto again = (*f)->refresh();
        VTX_VERIFY_OK(again);
        QVERIFY(*again);
        QVERIFY((*again)->isRecovered());
        QCOMPARE((*again)->chunks().size(), size_t(8));

        // Deleted while open: the open descriptor still reads it.
        writeAll(path, m_fbs);
        auto g = ReplayFile::open(path);
        VTX_VERIFY_OK(g);
        std::filesystem::remove(path);
        VTX_VERIFY_OK((*g)->decodeChunk(15));
        auto gone = (*g)->refresh();
        QVERIFY(!gone.isOk());
        QVERIFY2(gone.message().find("changing.vtx") != std::string::npos, gone.message().c_str());

        // Replaced by another replay (rename over it): the open file keeps its own bytes.
        writeAll(path, m_fbs);
        auto h = ReplayFile::open(path);
        VTX_VERIFY_OK(h);
        const std::string other = path + ".new";
        writeAll(other, m_proto);
        std::filesystem::rename(other, path);
        for (size_t i = 0; i < (*h)->chunks().size(); ++i)
            VTX_VERIFY_OK((*h)->decodeChunk(i));
        auto replaced = (*h)->refresh();
        VTX_VERIFY_OK(replaced);
        QVERIFY(*replaced);
        QCOMPARE((*replaced)->backend(), Backend::Protobuf);
    }
};

QTEST_GUILESS_MAIN(TestRecovery)
#include "tst_recovery.moc"
