// SPDX-License-Identifier: MIT
// The adaptive policy's classifier and window sizing, pinned on synthetic request streams.

#include "TestSupport.hpp"
#include "vtx/cache/CachePolicy.hpp"

#include <QtTest>
#include <algorithm>

using namespace vtx;

namespace {

CacheGeometry geometry(size_t budgetChunks = 100)
{
    CacheGeometry g;
    for (int32_t c = 0; c < 11; ++c)
        g.chunkStartFrames.push_back(c * 1000);
    g.frameCount = 10600;
    g.estimatedChunkBytes = 32e6;
    g.budgetBytes = size_t(budgetChunks * 32e6);
    g.decodeMs = 60;
    g.workers = 2;
    return g;
}

struct Stream {
    Stream() = default;
    explicit Stream(AdaptivePolicy p) : policy(std::move(p)) { }
    AdaptivePolicy policy;
    CacheGeometry g = geometry();
    double now = 0;
    CachePlan last;
    CachePlan at(int32_t frame, double dtMs = 1000.0 / 60)
    {
        now += dtMs;
        return last = policy.observe({frame, now}, g);
    }
    AccessMode mode() const { return policy.state().mode; }
};

} // namespace

class TestCachePolicy : public QObject {
    Q_OBJECT
private slots:
    void classifies_data()
    {
        QTest::addColumn<QVector<int>>("frames");
        QTest::addColumn<double>("dtMs");
        QTest::addColumn<int>("mode");
        QVector<int> play1, play4, play10, rev, drag, jumps, toggle, still;
        for (int i = 0; i < 10; ++i) {
            play1 << 2000 + i;
            play4 << 2000 + i * 4;
            play10 << 2000 + i * 11;
            rev << 8000 - i * 2;
            drag << 3000 + (i < 5 ? i * 80 : (10 - i) * 80);
            still << 4000 + (i % 2);
        }
        jumps << 100 << 9000 << 3100 << 7700 << 500 << 6200;
        toggle << 1500 << 8500 << 1500 << 8501 << 1500 << 8502;
        QTest::newRow("playback 1x") << play1 << 1000.0 / 60 << int(AccessMode::Playback);
        QTest::newRow("playback 4x") << play4 << 1000.0 / 60 << int(AccessMode::Playback);
        QTest::newRow("playback 10x") << play10 << 1000.0 / 60 << int(AccessMode::Playback);
        QTest::newRow("reverse 2x") << rev << 1000.0 / 60 << int(AccessMode::Reverse);
        QTest::newRow("drag back and forth") << drag << 1000.0 / 60 << int(AccessMode::Scrub);
        QTest::newRow("random jumps") << jumps << 0.0 << int(AccessMode::Random);
        QTest::newRow("A/B toggling") << toggle << 150.0 << int(AccessMode::Toggle);
        QTest::newRow("stepping in place") << still << 100.0 << int(AccessMode::Idle);
    }
    void classifies()
    {
        QFETCH(QVector<int>, frames);
        QFETCH(double, dtMs);
        QFETCH(int, mode);
        Stream s;
        for (int f : frames)
            s.at(f, dtMs);
        QCOMPARE(accessModeName(s.mode()), accessModeName(AccessMode(mode)));
    }

    void playbackPrefetchesAheadInOrder()
    {
        Stream s;
        for (int i = 0; i < 6; ++i)
            s.at(2900 + i * 4);
        QCOMPARE(s.mode(), AccessMode::Playback);
        QVERIFY(s.last.forward >= 1);
        QCOMPARE(s.last.direction, 1);
        QCOMPARE(s.last.prefetch.front(), size_t(2));
        QCOMPARE(s.last.prefetch.at(1), size_t(3)); // the next chunk before anything behind
        QVERIFY(s.last.back <= 1);
    }

    // AdaptivePolicyConfig is what the policy reads: a smaller playback step turns the same
    // stream into scrubbing, a longer lead looks further ahead.
    void configIsHonoured()
    {
        Stream base;
        for (int i = 0; i < 6; ++i)
            base.at(2900 + i * 20);
        QCOMPARE(base.mode(), AccessMode::Playback);
        AdaptivePolicyConfig strict;
        strict.playbackStepFrames = 8;
        Stream s(AdaptivePolicy{strict});
        for (int i = 0; i < 6; ++i)
            s.at(2900 + i * 20);
        QCOMPARE(s.mode(), AccessMode::Scrub);
        AdaptivePolicyConfig lead;
        lead.playbackLeadSeconds = 10;
        Stream far(AdaptivePolicy{lead});
        for (int i = 0; i < 6; ++i)
            far.at(2900 + i * 20);
        QCOMPARE(far.mode(), AccessMode::Playback);
        QVERIFY(far.last.forward > base.last.forward);
    }

    void fasterPlaybackLooksFurtherAhead()
    {
        Stream slow, fast;
        for (int i = 0; i < 8; ++i) {
            slow.at(1000 + i);
            fast.at(1000 + i * 20);
        }
        QCOMPARE(fast.mode(), AccessMode::Playback);
        QVERIFY2(fast.last.forward > slow.last.forward, qPrintable(QString("fast %1 slow %2").arg(fast.last.forward).arg(slow.last.forward)));
    }

    void reverseLooksBehind()
    {
        Stream s;
        for (int i = 0; i < 6; ++i)
            s.at(5010 - i * 2);
        QCOMPARE(s.mode(), AccessMode::Reverse);
        QCOMPARE(s.last.direction, -1);
        QCOMPARE(s.last.prefetch.at(1), size_t(4));
        QVERIFY(s.last.back >= 1);
    }

    void reactsWithinAFewRequests()
    {
        Stream s;
        for (int i = 0; i < 20; ++i)
            s.at(1000 + i);
        QCOMPARE(s.mode(), AccessMode::Playback);
        s.at(7000);
        QCOMPARE(s.mode(), AccessMode::Random);
        s.at(7001);
        s.at(7002);
        QCOMPARE(s.mode(), AccessMode::Playback);
        QCOMPARE(s.last.center, size_t(7));
    }

    void togglingProtectsBothSpots()
    {
        Stream s;
        for (int i = 0; i < 6; ++i)
            s.at(i % 2 ? 9000 + i : 1200, 200);
        QCOMPARE(s.mode(), AccessMode::Toggle);
        QVERIFY(std::find(s.last.hot.begin(), s.last.hot.end(), size_t(1)) != s.last.hot.end());
        QVERIFY(std::find(s.last.hot.begin(), s.last.hot.end(), size_t(9)) != s.last.hot.end());
    }

    void randomFillsOnlyWhenTheReplayFits()
    {
        Stream roomy;
        roomy.g = geometry(100);
        Stream tight;
        tight.g = geometry(4);
        for (int f : {100, 9000, 4100, 6000}) {
            roomy.at(f, 0);
            tight.at(f, 0);
        }
        QCOMPARE(roomy.mode(), AccessMode::Random);
        QCOMPARE(roomy.last.prefetch.size(), size_t(11)); // background fill, nearest first
        QCOMPARE(roomy.last.prefetch.front(), size_t(6));
        QCOMPARE(tight.last.prefetch, std::vector<size_t>{6}); // only the chunk asked for
    }

    void windowsNeverExceedTheBudget()
    {
        Stream s;
        s.g = geometry(3);
        for (int i = 0; i < 10; ++i)
            s.at(100 + i * 23);
        QVERIFY(s.last.back + s.last.forward + 1 <= 3);
    }

    void specs()
    {
        QCOMPARE(makeCachePolicy("none")->name(), std::string("none"));
        QCOMPARE(makeCachePolicy("fixed:2,3")->name(), std::string("fixed:2,3"));
        QCOMPARE(makeCachePolicy("adaptive")->name(), std::string("adaptive"));
        std::string err;
        QVERIFY(!makeCachePolicy("fixed:2", &err));
        QVERIFY(err.find("unknown cache policy") != std::string::npos);
        QVERIFY(!makeCachePolicy("fixed:-1,2"));
        QVERIFY(!makeCachePolicy("lru"));
        // The SDK's window: center, then forward and back, everything else dropped.
        auto fixed = makeCachePolicy("fixed:1,2");
        CachePlan p = fixed->observe({5500, 0}, geometry());
        QVERIFY(p.dropOutsideWindow);
        QCOMPARE(p.prefetch, (std::vector<size_t>{5, 6, 4, 7}));
    }
};

QTEST_GUILESS_MAIN(TestCachePolicy)
#include "tst_cachepolicy.moc"
