// SPDX-License-Identifier: MIT
// The timeline's frame <-> pixel mapping, zoom around an anchor, pan limits and label steps.

#include "timeline/TimelineAxis.hpp"

#include <QtTest>

using vtxw::TimelineAxis;

class TestTimelineAxis : public QObject {
    Q_OBJECT
private slots:
    void mapping_data()
    {
        QTest::addColumn<double>("frame");
        QTest::addColumn<double>("x");
        QTest::newRow("first") << 0.0 << 100.0;
        QTest::newRow("middle") << 500.0 << 600.0;
        QTest::newRow("last") << 1000.0 << 1100.0;
    }
    void mapping()
    {
        QFETCH(double, frame);
        QFETCH(double, x);
        TimelineAxis a{0, 1000, 100, 1100, 1001};
        QCOMPARE(a.x(frame), x);
        QCOMPARE(a.frameAt(x), frame);
        QCOMPARE(a.frameIndexAt(x), int(frame));
    }
    void zoomKeepsTheAnchor()
    {
        TimelineAxis a{0, 100000, 0, 1000, 100001};
        a.zoom(4, 30000);
        QCOMPARE(a.span(), 25000.0);
        QVERIFY(std::abs(a.frameAt(300) - 30000) < 1e-6);
        a.zoom(1e9, 30000);
        QCOMPARE(a.span(), 20.0); // never closer than 20 frames
        a.zoom(1e-9, 30000);
        QCOMPARE(a.first, 0.0);
        QCOMPARE(a.last, 100000.0);
    }
    void panStaysInTheFile()
    {
        TimelineAxis a{0, 1000, 0, 500, 10001};
        a.pan(-50);
        QCOMPARE(a.first, 0.0);
        a.pan(1e6);
        QCOMPARE(a.last, 10000.0);
        QCOMPARE(a.span(), 1000.0);
    }
    void labelSteps_data()
    {
        QTest::addColumn<double>("span");
        QTest::addColumn<double>("step");
        QTest::newRow("100k frames on 1000 px") << 100000.0 << 10000.0;
        QTest::newRow("1000 frames") << 1000.0 << 100.0;
        QTest::newRow("300 frames") << 300.0 << 50.0;
        QTest::newRow("30 frames") << 30.0 << 5.0;
    }
    void labelSteps()
    {
        QFETCH(double, span);
        QFETCH(double, step);
        TimelineAxis a{0, span, 0, 1000, span + 1};
        QCOMPARE(a.labelStep(90), step);
    }
};

QTEST_APPLESS_MAIN(TestTimelineAxis)
#include "tst_timelineaxis.moc"
