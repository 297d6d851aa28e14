// SPDX-License-Identifier: MIT
// FrameView::entities() / entitiesWithIds() (issue 25): the bucket × entity loop as one range.
// Checked against the nested loop it replaces, on hand-built frames with empty buckets, buckets
// whose id list is shorter or missing, a frame without buckets and a null frame, and on every
// frame of the samples.

#include "TestSupport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/model/FrameView.hpp"

#include <QtTest>

#include <tuple>
#include <vector>

using namespace vtx;

namespace {

// (bucket, index, container table, unique id) of every entity, as a range yields them.
using Seen = std::vector<std::tuple<uint32_t, size_t, const void*, std::string>>;

Seen fromRange(FrameEntities range)
{
    Seen out;
    for (const FrameEntity e : range)
        out.emplace_back(e.bucket, e.index, e.entity.raw(), std::string(e.uniqueId()));
    return out;
}

// The hand-written loop: every entity (withIds: up to the shorter of the two lists).
Seen fromLoop(FrameView frame, bool withIds)
{
    Seen out;
    for (size_t b = 0; b < frame.bucketCount(); ++b) {
        const BucketView bucket = frame.bucket(b);
        const size_t n = withIds ? std::min(bucket.entityCount(), bucket.uniqueIds().size()) : bucket.entityCount();
        for (size_t i = 0; i < n; ++i)
            out.emplace_back(uint32_t(b), i, bucket.entity(i).raw(), std::string(bucket.uniqueId(i)));
    }
    return out;
}

// A frame of buckets given as (entity count, ids): -1 ids leaves the ids vector out.
flatbuffers::DetachedBuffer buildFrame(const std::vector<std::pair<int, std::vector<std::string>>>& buckets, bool noData = false)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbsvtx::Bucket>> bs;
    int type = 0;
    for (const auto& [entities, ids] : buckets) {
        std::vector<flatbuffers::Offset<fbsvtx::PropertyContainer>> es;
        es.reserve(size_t(entities));
        for (int i = 0; i < entities; ++i)
            es.push_back(fbsvtx::CreatePropertyContainer(fbb, type++));
        const auto ev = fbb.CreateVector(es);
        flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>> iv;
        if (!ids.empty())
            iv = fbb.CreateVectorOfStrings(ids);
        bs.push_back(fbsvtx::CreateBucket(fbb, iv, ev));
    }
    fbb.Finish(noData ? fbsvtx::CreateFrame(fbb) : fbsvtx::CreateFrame(fbb, fbb.CreateVector(bs)));
    return fbb.Release();
}

} // namespace

class TestFrameEntities : public QObject {
    Q_OBJECT
private slots:
    void handBuilt()
    {
        // Bucket 0: two entities with ids; 1: empty; 2: three entities, one id; 3: one entity
        // without an ids list; 4: empty again (the range must end cleanly after it).
        const auto buf = buildFrame({{2, {"a", "b"}}, {0, {}}, {3, {"c"}}, {1, {}}, {0, {}}});
        const FrameView frame(flatbuffers::GetRoot<fbsvtx::Frame>(buf.data()));
        const Seen all = fromRange(frame.entities());
        QCOMPARE(all.size(), size_t(6));
        QCOMPARE(all, fromLoop(frame, false));
        QCOMPARE(std::get<0>(all[2]), 2u);
        QCOMPARE(std::get<1>(all[2]), size_t(0));
        QCOMPARE(std::get<3>(all[2]), std::string("c"));
        QCOMPARE(std::get<3>(all[3]), std::string()); // past the ids list: empty
        QCOMPARE(std::get<0>(all[5]), 3u);
        // typeId i was given to the i-th entity built: stored order, bucket by bucket.
        int i = 0;
        for (const FrameEntity e : frame.entities())
            QCOMPARE(e.entity.typeId(), i++);

        const Seen withIds = fromRange(frame.entitiesWithIds());
        QCOMPARE(withIds.size(), size_t(3));
        QCOMPARE(withIds, fromLoop(frame, true));
    }

    void empty()
    {
        QVERIFY(fromRange(FrameView().entities()).empty());
        QVERIFY(fromRange(FrameView().entitiesWithIds()).empty());
        const auto none = buildFrame({}, true);
        QVERIFY(fromRange(FrameView(flatbuffers::GetRoot<fbsvtx::Frame>(none.data())).entities()).empty());
        const auto emptyBuckets = buildFrame({{0, {}}, {0, {}}});
        QVERIFY(fromRange(FrameView(flatbuffers::GetRoot<fbsvtx::Frame>(emptyBuckets.data())).entities()).empty());
        const auto noIds = buildFrame({{2, {}}});
        QVERIFY(fromRange(FrameView(flatbuffers::GetRoot<fbsvtx::Frame>(noIds.data())).entitiesWithIds()).empty());
    }

    void samples_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"allkinds_fbs.vtx", "allkinds_proto.vtx", "sdk_cs_fbs.vtx", "sdk_cs_proto.vtx"})
            QTest::newRow(f) << f;
    }
    void samples()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(QString, file);
        auto f = ReplayFile::open(vtxtest::samplePath(file.toStdString()));
        VTX_VERIFY_OK(f);
        size_t frames = 0, entities = 0;
        for (int32_t i = 0; i < (*f)->frameCount(); ++i) {
            auto h = (*f)->frame(i);
            VTX_VERIFY_OK(h);
            const FrameView v = h->view();
            const Seen all = fromRange(v.entities());
            QCOMPARE(all, fromLoop(v, false));
            QCOMPARE(fromRange(v.entitiesWithIds()), fromLoop(v, true));
            ++frames;
            entities += all.size();
        }
        QVERIFY(frames > 0 && entities > 0);
    }
};

QTEST_GUILESS_MAIN(TestFrameEntities)
#include "tst_frameentities.moc"
