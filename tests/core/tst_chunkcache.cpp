// SPDX-License-Identifier: MIT
// ChunkCache: correctness of every answer, the byte budget, pinned frames, latest-wins, the
// SDK-style fixed window, and many threads at once (also run under ThreadSanitizer).

#include "TestSupport.hpp"
#include "vtx/cache/AccessTrace.hpp"
#include "vtx/cache/ChunkCache.hpp"
#include "vtx/file/ByteSource.hpp"
#include "vtxgen/Generator.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>

using namespace vtx;

namespace {
/// A file in memory whose reads wait, once closed, until it is opened again: a decode held in
/// its read, so what else the cache starts meanwhile can be seen without timing.
class GatedSource : public ByteSource {
public:
    explicit GatedSource(std::shared_ptr<const ByteSource> inner) : m_inner(std::move(inner)) { }
    uint64_t size() const override { return m_inner->size(); }
    const std::string& name() const override { return m_inner->name(); }
    Status readAt(uint64_t offset, std::span<uint8_t> out) const override
    {
        std::unique_lock lock(m_mutex);
        ++m_waiting;
        m_changed.notify_all();
        m_changed.wait(lock, [&] { return m_open; });
        --m_waiting;
        lock.unlock();
        return m_inner->readAt(offset, out);
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_open = false;
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    /// Reads waiting at the gate now.
    int waiting() const
    {
        std::lock_guard lock(m_mutex);
        return m_waiting;
    }

private:
    std::shared_ptr<const ByteSource> m_inner;
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    mutable int m_waiting = 0;
    bool m_open = true;
};

/// The frame a handle shows must be the frame asked for: compare with an uncached decode.

} // namespace

class TestChunkCache : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<ReplayFile> m_file;
    size_t m_chunkBytes = 0; ///< largest decoded chunk

private slots:
    void initTestCase()
    {
        vtxgen::GeneratorOptions o;
        o.frames = 640;
        o.chunkFrames = 32;
        o.zstdLevel = 1;
        const std::string p = (m_dir.path() + "/c.vtx").toStdString();
        VTX_VERIFY_OK(vtxgen::generateReplay(p, o));
        auto f = ReplayFile::open(p);
        VTX_VERIFY_OK(f);
        m_file = *f;
        QCOMPARE(m_file->chunks().size(), size_t(20));
        for (size_t c = 0; c < m_file->chunks().size(); ++c) {
            auto d = m_file->decodeChunk(c);
            VTX_VERIFY_OK(d);
            m_chunkBytes = std::max(m_chunkBytes, (*d)->memoryBytes());
        }
    }

    void everyFrameIsTheRightOne_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::newRow("none") << "none";
        QTest::newRow("fixed:2,2") << "fixed:2,2";
        QTest::newRow("adaptive") << "adaptive";
    }
    void everyFrameIsTheRightOne()
    {
        QFETCH(QString, policy);
        ChunkCache cache(m_file, {m_chunkBytes * 4, 2, policy.toStdString()});
        std::mt19937 rng(5);
        for (int i = 0; i < 300; ++i) {
            const int32_t f = i < 150 ? i * 2 : int32_t(rng() % 640);
            auto h = cache.get(f);
            VTX_VERIFY_OK(h);
            QCOMPARE(h->index(), f);
            auto direct = m_file->frame(f);
            VTX_VERIFY_OK(direct);
            QCOMPARE(toData(h->view()), toData(direct->view()));
        }
        const CacheStats s = cache.stats();
        QCOMPARE(s.hits + s.misses, uint64_t(300));
        QVERIFY(s.peakResidentBytes <= s.budgetBytes);
        QCOMPARE(s.policy, policy.toStdString());
    }

    void invalidFramesFailCleanly()
    {
        ChunkCache cache(m_file, {m_chunkBytes * 2, 1, "adaptive"});
        for (int32_t f : {-1, 640, 1 << 30}) {
            auto h = cache.get(f);
            QVERIFY(!h.isOk());
            QCOMPARE(h.code(), Errc::OutOfRange);
            QVERIFY(h.message().find("out of range") != std::string::npos); // and the message says so
        }
    }

    void budgetIsNeverExceeded_data()
    {
        QTest::addColumn<int>("chunks");
        QTest::addColumn<QString>("policy");
        for (int chunks : {1, 2, 3, 5, 30})
            for (const char* p : {"adaptive", "fixed:3,3", "none"})
                QTest::addRow("%d chunks, %s", chunks, p) << chunks << p;
    }
    void budgetIsNeverExceeded()
    {
        QFETCH(int, chunks);
        QFETCH(QString, policy);
        const size_t budget = m_chunkBytes * size_t(chunks);
        ChunkCache cache(m_file, {budget, 2, policy.toStdString()});
        std::mt19937 rng{uint32_t(chunks)};
        for (int i = 0; i < 200; ++i) {
            const int32_t f = i % 3 ? int32_t(rng() % 640) : i; // mixed playback and jumps
            auto h = cache.get(f);
            VTX_VERIFY_OK(h);
            QVERIFY(cache.stats().residentBytes <= budget);
        }
        QVERIFY(cache.stats().peakResidentBytes <= budget);
    }

    void pinnedFramesSurvive()
    {
        // Budget for three chunks, two pinned (A of a diff and the frame on screen).
        ChunkCache cache(m_file, {m_chunkBytes * 3, 2, "adaptive"});
        auto a = cache.get(10);
        auto b = cache.get(600);
        VTX_VERIFY_OK(a);
        VTX_VERIFY_OK(b);
        const FrameData before = toData(a->view());
        for (int i = 0; i < 100; ++i)
            VTX_VERIFY_OK(cache.get(int32_t((i * 37) % 640)));
        QVERIFY(cache.peek(10).has_value());
        QVERIFY(cache.peek(600).has_value());
        QCOMPARE(toData(a->view()), before);
        QVERIFY(cache.stats().peakResidentBytes <= m_chunkBytes * 3);
        const auto states = cache.chunkStates();
        QCOMPARE(states[0], ChunkState::Cached);
        QCOMPARE(states[600 / 32], ChunkState::Cached);
    }

    void fixedWindowDropsEverythingElse()
    {
        ChunkCache cache(m_file, {m_chunkBytes * 40, 2, "fixed:1,1"});
        // What the cache holds, for the failure message (CI machines can be slow: a long timeout).
        auto held = [&] {
            QByteArray s;
            const auto states = cache.chunkStates();
            for (size_t c = 0; c < states.size(); ++c)
                s += QByteArray::number(int(states[c]));
            return s;
        };
        VTX_VERIFY_OK(cache.get(5 * 32));
        QTRY_VERIFY2_WITH_TIMEOUT(cache.stats().residentChunks == 3, held().constData(), 20000); // 4, 5, 6 once prefetch lands
        VTX_VERIFY_OK(cache.get(15 * 32));
        QTRY_VERIFY2_WITH_TIMEOUT(cache.stats().residentChunks == 3, held().constData(), 20000);
        const auto states = cache.chunkStates();
        for (size_t c = 0; c < states.size(); ++c)
            QCOMPARE(states[c] == ChunkState::Cached, c >= 14 && c <= 16);
    }

    void latestWins()
    {
        ChunkCache cache(m_file, {m_chunkBytes * 2, 1, "none"});
        std::mutex mutex;
        std::vector<std::pair<int32_t, std::string>> done;
        const int n = 30;
        for (int i = 0; i < n; ++i) {
            const int32_t f = (i * 97) % 640;
            cache.request(f, [&, f](const Result<FrameHandle>& r) {
                std::lock_guard lock(mutex);
                // Told apart by the code, not the text.
                done.emplace_back(f, r ? std::to_string(r->index()) : r.code() == Errc::Superseded ? "superseded" : "error: " + r.message());
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(
            [&] {
                std::lock_guard l(mutex);
                return int(done.size());
            }(),
            n, 20000);
        std::lock_guard lock(mutex);
        int superseded = 0;
        for (auto& [f, r] : done) {
            if (r == "superseded")
                ++superseded;
            else
                QCOMPARE(r, std::to_string(f));
        }
        const int32_t last = ((n - 1) * 97) % 640;
        QVERIFY(std::any_of(done.begin(), done.end(), [&](auto& d) { return d.first == last && d.second == std::to_string(last); }));
        QVERIFY(superseded > 0);
        QCOMPARE(cache.stats().superseded, uint64_t(superseded));
    }

    // A prefetch does not start beside an open's first decode someone waits for unless the host
    // has a core to spare for it besides the UI thread's: on 2 cores the prefetch of chunk 1 at
    // an open made the first frame come later. Beside later demands it does (a run of jumps is
    // faster with their neighbours decoding meanwhile). Chunk 0's decode is held in its read.
    void prefetchWaitsForTheDemandOnASmallHost_data()
    {
        QTest::addColumn<unsigned>("cores");
        QTest::addColumn<bool>("afterAnOpen");
        QTest::addColumn<bool>("besideTheDemand");
        QTest::newRow("2 cores, the open's decode: after it") << 2u << false << false;
        QTest::newRow("8 cores, the open's decode: beside it") << 8u << false << true;
        QTest::newRow("2 cores, a later decode: beside it") << 2u << true << true;
    }
    void prefetchWaitsForTheDemandOnASmallHost()
    {
        QFETCH(unsigned, cores);
        QFETCH(bool, afterAnOpen);
        QFETCH(bool, besideTheDemand);
        const std::string p = (m_dir.path() + "/c.vtx").toStdString();
        auto plain = openFileSource(p);
        VTX_VERIFY_OK(plain);
        auto gate = std::make_shared<GatedSource>(*plain);
        auto f = ReplayFile::open(gate);
        VTX_VERIFY_OK(f);
        std::atomic<int> answered{0}, failed{0}; // before the cache: its workers may answer until it goes
        auto count = [&](const Result<FrameHandle>& r) { ++(r ? answered : failed); };
        ChunkCache cache(*f, {m_chunkBytes * 20, 2, "fixed:0,1", cores}); // prefetches the chunk after the request's
        if (afterAnOpen) {
            VTX_VERIFY_OK(cache.get(10 * 32));
            QTRY_COMPARE(cache.chunkStates()[11], ChunkState::Cached);
        }
        gate->close();
        struct Reopen { // a failed check must not leave the cache's workers held at the gate (gone before the cache)
            GatedSource& g;
            ~Reopen() { g.open(); }
        } reopen{*gate};
        cache.request(0, count, {true, -1});
        int requests = 1;
        if (besideTheDemand) {
            QVERIFY(QTest::qWaitFor([&] { return gate->waiting() >= 2; })); // chunk 0's decode and chunk 1's prefetch, held
            QCOMPARE(cache.chunkStates()[1], ChunkState::Decoding);
        } else {
            QVERIFY(QTest::qWaitFor([&] { return gate->waiting() >= 1; })); // chunk 0's decode, held
            // Another request wakes the workers again: each asks itself whether to start a prefetch.
            cache.request(1, count, {true, -1});
            ++requests;
            QCOMPARE(gate->waiting(), 1);
            QVERIFY(cache.chunkStates()[1] != ChunkState::Decoding);
        }
        gate->open();
        QTRY_COMPARE(answered.load(), requests);
        QCOMPARE(failed.load(), 0);
        QTRY_COMPARE(cache.chunkStates()[1], ChunkState::Cached); // prefetched, after the demand on 2 cores
    }

    void manyThreadsTinyBudget()
    {
        ChunkCache cache(m_file, {m_chunkBytes, 2, "adaptive"});
        std::atomic<int> wrong{0}, failed{0}, asyncDone{0};
        std::vector<std::thread> threads;
        threads.reserve(6);
        for (int t = 0; t < 6; ++t) {
            threads.emplace_back([&, t] {
                std::mt19937 rng{uint32_t(t)};
                for (int i = 0; i < 60; ++i) {
                    const int32_t f = int32_t(rng() % 640);
                    if (i % 4 == 0) {
                        cache.request(f,
                                      [&, f](const Result<FrameHandle>& r) {
                                          if (r && r->index() != f)
                                              ++wrong;
                                          ++asyncDone;
                                      },
                                      {false, t});
                        continue;
                    }
                    auto h = cache.get(f, {t == 0, -1});
                    if (!h)
                        ++failed;
                    else if (h->index() != f || h->view().bucketCount() != 3)
                        ++wrong;
                    (void)cache.stats();
                    (void)cache.chunkStates();
                }
            });
        }
        for (auto& th : threads)
            th.join();
        QTRY_COMPARE_WITH_TIMEOUT(asyncDone.load(), 6 * 15, 20000);
        QCOMPARE(wrong.load(), 0);
        QCOMPARE(failed.load(), 0);
        QVERIFY(cache.stats().peakResidentBytes <= m_chunkBytes);
    }

    // A followed recording grows while workers decode: the cache adopts the longer file, keeps
    // what it decoded, and serves the new frames (run under TSan by scripts/test).
    void extendWhileDecoding()
    {
        std::vector<uint8_t> bytes(m_file->fileSize());
        auto src = openFileSource(m_file->path());
        VTX_VERIFY_OK(src);
        QVERIFY((*src)->readAt(0, bytes).isOk());
        const ChunkEntry& tenth = m_file->chunks()[9];
        auto partial = ReplayFile::open(memorySource({bytes.begin(), bytes.begin() + long(tenth.fileOffset + tenth.chunkSizeBytes)}, "c.vtx"));
        VTX_VERIFY_OK(partial);
        QVERIFY((*partial)->isRecovered());
        QCOMPARE((*partial)->frameCount(), 320);
        ChunkCache cache(*partial, {m_chunkBytes * 4, 2, "adaptive"});
        std::atomic<bool> stop{false};
        std::atomic<int> wrong{0};
        std::thread reader([&] {
            std::mt19937 rng{7};
            while (!stop) {
                const int32_t f = int32_t(rng() % 320);
                auto h = cache.get(f);
                if (!h || h->index() != f)
                    ++wrong;
            }
        });
        QVERIFY(cache.get(5).isOk());
        // Another file's chunk list is refused; the grown one is adopted.
        auto other = ReplayFile::open(memorySource({bytes.begin(), bytes.begin() + long(m_file->chunks()[4].fileOffset)}, "c.vtx"));
        VTX_VERIFY_OK(other);
        QVERIFY(!cache.extendTo(*other));
        QVERIFY(cache.extendTo(m_file));
        auto late = cache.get(639);
        VTX_VERIFY_OK(late);
        QCOMPARE(late->index(), 639);
        stop = true;
        reader.join();
        QCOMPARE(wrong.load(), 0);
        QCOMPARE(cache.file().frameCount(), 640);
        QCOMPARE(cache.chunkStates().size(), size_t(20));
    }

    void traceFormat()
    {
        auto t = AccessTrace::parse("# comment\n0 5\n16.5 6\n\n33 7\n", "t");
        VTX_VERIFY_OK(t);
        QCOMPARE(t->entries.size(), size_t(3));
        QCOMPARE(t->entries[1], (TraceEntry{16.5, 6}));
        auto again = AccessTrace::parse(t->toText());
        VTX_VERIFY_OK(again);
        QCOMPARE(again->entries, t->entries);
        QVERIFY(!AccessTrace::parse("5 x\n").isOk());
        QVERIFY(!AccessTrace::parse("5 1\n3 2\n").isOk()); // time goes backwards
        TraceRecorder rec;
        rec.record(3);
        rec.record(4);
        QCOMPARE(rec.trace().entries.size(), size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestChunkCache)
#include "tst_chunkcache.moc"
