// SPDX-License-Identifier: MIT
// Axis ticks (issue 26 item 5) and which y axis a plot series reads against (item 4): the tick
// choice for every unit over many ranges and widths (round, strictly increasing, inside the
// range, one precision per axis, distinct labels that fit between their ticks), exact labels
// (rounded, never cut), a file's frames read in game time and UTC (ticks at the frames where
// the round values fall; frame numbers and a note for a file without times), and the lane and
// axis arrangement of series of different ranges.

#include "TestSupport.hpp"
#include "plot/PlotArrangement.hpp"
#include "timeline/AxisTicks.hpp"
#include "timeline/TimeFormat.hpp"
#include "vtx/file/ReplayFile.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace vtxw;

Q_DECLARE_METATYPE(vtxw::AxisUnit)

namespace {

/// What every label of one axis must share: how many ':' it has, whether it ends in " s" or
/// is a date, and the digits after its '.' (or that it has none).
QString formOf(const QString& label)
{
    const qsizetype dot = label.indexOf('.');
    int decimals = -1;
    if (dot >= 0 && !label.contains('e')) {
        decimals = 0;
        while (dot + 1 + decimals < label.size() && label[dot + 1 + decimals].isDigit())
            ++decimals;
    }
    return QStringLiteral("%1 colons, %2 decimals, %3, %4")
        .arg(label.count(':'))
        .arg(decimals)
        .arg(label.endsWith(" s") ? "seconds" : "bare")
        .arg(label.count('-') >= 2 ? "date" : "no date");
}

double charWidth(std::string_view s)
{
    return 7.0 * double(s.size());
}

constexpr double kGap = 16;

/// A copy of `from` without its footer (and the frame times in it): it opens in recovery mode.
bool writeWithoutFooter(const QString& from, const QString& to)
{
    auto file = vtx::ReplayFile::open(from.toStdString());
    if (!file)
        return false;
    QFile in(from), out(to);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
        return false;
    return out.write(in.read(qint64((*file)->footerBlob().offset))) > 0;
}

} // namespace

class TestAxisTicks : public QObject {
    Q_OBJECT
private slots:
    void ticksAreRoundAndReadable_data()
    {
        QTest::addColumn<AxisUnit>("unit");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("pixels");
        const double widths[] = {90, 240, 700, 1280, 2600};
        const struct {
            const char* name;
            AxisUnit unit;
            double lo, hi;
        } ranges[] = {
            {"frames 0-20", AxisUnit::Frame, 0, 20},
            {"frames 0-400", AxisUnit::Frame, 0, 399},
            {"frames 3.5-27.25", AxisUnit::Frame, 3.5, 27.25},
            {"frames 10k", AxisUnit::Frame, 0, 10655},
            {"frames 1234-98765", AxisUnit::Frame, 1234, 98765},
            {"frames 2M", AxisUnit::Frame, 0, 2e6},
            {"number 0-100", AxisUnit::Number, 0, 100},
            {"number 0-16000", AxisUnit::Number, -800, 16800},
            {"number tiny", AxisUnit::Number, 0.0012, 0.0019},
            {"number negative", AxisUnit::Number, -2047.5, -1012.25},
            {"number around zero", AxisUnit::Number, -0.35, 0.35},
            {"number huge", AxisUnit::Number, 1.2e9, 7.7e9},
            {"number offset", AxisUnit::Number, 1e6 + 0.1, 1e6 + 0.9},
            {"seconds 0.33", AxisUnit::Seconds, 12.0, 12.333},
            {"seconds 0-6.6", AxisUnit::Seconds, 0, 6.65625},
            {"seconds 0-59", AxisUnit::Seconds, 0, 59.9},
            {"seconds 0-178", AxisUnit::Seconds, 0, 177.59},
            {"seconds 70-80", AxisUnit::Seconds, 70.1, 79.99},
            {"seconds 78.1-78.2", AxisUnit::Seconds, 78.1, 78.2},
            {"seconds half hour", AxisUnit::Seconds, 5, 1805},
            {"seconds 3 hours", AxisUnit::Seconds, 0, 10800},
            {"seconds negative", AxisUnit::Seconds, -4.5, 12.5},
            {"utc 0.3 s", AxisUnit::ClockMs, 1795551023000 + 250, 1795551023000 + 583},
            {"utc 6.6 s", AxisUnit::ClockMs, 1795551023125, 1795551029781},
            {"utc 3 min", AxisUnit::ClockMs, 1795551023125, 1795551203125},
            {"utc 2 hours", AxisUnit::ClockMs, 1795550000000, 1795557200000},
            {"utc 20 days", AxisUnit::ClockMs, 1795550000000, 1795550000000 + 20 * 86400000.0},
        };
        for (const auto& r : ranges)
            for (double w : widths)
                QTest::addRow("%s on %g px", r.name, w) << r.unit << r.lo << r.hi << w;
    }
    void ticksAreRoundAndReadable()
    {
        QFETCH(AxisUnit, unit);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, pixels);
        const AxisTickSet set = axisTicks(unit, lo, hi, pixels, charWidth, kGap);
        QVERIFY(set.step > 0);
        const auto& steps = axisSteps(unit);
        QVERIFY2(std::find(steps.begin(), steps.end(), set.step) != steps.end(), qPrintable(QString::number(set.step)));
        if (unit == AxisUnit::Frame)
            QVERIFY(set.step >= 1);
        if (pixels >= 700)
            QVERIFY2(set.ticks.size() >= 2, qPrintable(QStringLiteral("%1 ticks, step %2").arg(set.ticks.size()).arg(set.step)));
        QSet<QString> labels;
        double widest = 0;
        const QString form = set.ticks.empty() ? QString() : formOf(QString::fromStdString(set.ticks.front().label));
        for (size_t i = 0; i < set.ticks.size(); ++i) {
            const AxisTick& t = set.ticks[i];
            const QString label = QString::fromStdString(t.label);
            QVERIFY2(t.value >= lo && t.value <= hi, qPrintable(label));
            if (i > 0)
                QVERIFY(t.value > set.ticks[i - 1].value);
            const double k = t.value / set.step;
            QVERIFY2(std::abs(k - std::round(k)) < 1e-6, qPrintable(QStringLiteral("%1 is not a multiple of %2").arg(t.value).arg(set.step)));
            QVERIFY2(!labels.contains(label), qPrintable("repeated label " + label));
            labels.insert(label);
            QCOMPARE(formOf(label), form); // one precision and one form per axis
            widest = std::max(widest, charWidth(t.label));
        }
        // Neighbours never overlap: the step leaves room for the widest label and the gap.
        if (set.ticks.size() > 1)
            QVERIFY2(set.step * pixels / (hi - lo) >= widest + kGap,
                     qPrintable(QStringLiteral("step %1 px, label %2 px").arg(set.step * pixels / (hi - lo)).arg(widest)));
    }

    // The step: the smallest round one whose labels fit (7 px a character, 16 px gap here).
    void chosenSteps_data()
    {
        QTest::addColumn<AxisUnit>("unit");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("pixels");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("firstLabel");
        QTest::newRow("frames") << AxisUnit::Frame << 0.0 << 10655.0 << 1000.0 << 1000.0 << "0";
        QTest::newRow("frames zoomed") << AxisUnit::Frame << 1203.4 << 1223.4 << 1000.0 << 1.0 << "1204";
        QTest::newRow("frames zoomed, narrow") << AxisUnit::Frame << 1203.4 << 1223.4 << 300.0 << 5.0 << "1205";
        QTest::newRow("game time minutes") << AxisUnit::Seconds << 0.0 << 300.0 << 1000.0 << 15.0 << "0:00";
        QTest::newRow("game time seconds") << AxisUnit::Seconds << 0.0 << 6.65625 << 1000.0 << 0.5 << "0.0 s";
        QTest::newRow("game time 20 frames") << AxisUnit::Seconds << 12.0 << 12.3333 << 1000.0 << 0.05 << "12.00 s";
        QTest::newRow("game time hours") << AxisUnit::Seconds << 0.0 << 10800.0 << 1000.0 << 900.0 << "0:00:00";
        QTest::newRow("utc seconds") << AxisUnit::ClockMs << 1795551023125.0 << 1795551029781.0 << 1000.0 << 1000.0 << "20:10:24";
        QTest::newRow("utc sub-second") << AxisUnit::ClockMs << 1795551023250.0 << 1795551023583.0 << 1000.0 << 50.0 << "20:10:23.25";
        QTest::newRow("utc minutes") << AxisUnit::ClockMs << 1795550000000.0 << 1795557200000.0 << 1000.0 << 600000.0 << "20:00";
        QTest::newRow("y 0-100") << AxisUnit::Number << -5.0 << 105.0 << 150.0 << 50.0 << "0";
        QTest::newRow("y 0-16000") << AxisUnit::Number << -800.0 << 16800.0 << 1000.0 << 1000.0 << "0";
        QTest::newRow("y 0-16000 in a lane") << AxisUnit::Number << -800.0 << 16800.0 << 300.0 << 5000.0 << "0";
        QTest::newRow("y hundredths") << AxisUnit::Number << 0.05 << 0.95 << 1000.0 << 0.05 << "0.05";
        QTest::newRow("y tenths") << AxisUnit::Number << 0.05 << 0.95 << 300.0 << 0.2 << "0.2";
        QTest::newRow("utc days") << AxisUnit::ClockMs << 1795550000000.0 << 1795550000000.0 + 20 * 86400000.0 << 1000.0 << 86400000.0 * 2
                                  << "2026-11-25";
        QTest::newRow("utc over days, hours") << AxisUnit::ClockMs << 1795550000000.0 << 1795550000000.0 + 2 * 86400000.0 << 2600.0 << 7200000.0
                                              << "11-24 20:00";
    }
    void chosenSteps()
    {
        QFETCH(AxisUnit, unit);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, pixels);
        QFETCH(double, step);
        QFETCH(QString, firstLabel);
        const AxisTickSet set = axisTicks(unit, lo, hi, pixels, charWidth, kGap);
        QCOMPARE(set.step, step);
        QVERIFY(!set.ticks.empty());
        QCOMPARE(QString::fromStdString(set.ticks.front().label), firstLabel);
    }

    // Labels are rounded, not cut (issue 26: "1:18.124" for 1:18.125), never "-0".
    void labels_data()
    {
        QTest::addColumn<AxisUnit>("unit");
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<double>("span");
        QTest::addColumn<QString>("label");
        QTest::newRow("m:ss.mmm") << AxisUnit::Seconds << 78.125 << 3 << 100.0 << "1:18.125";
        QTest::newRow("rounded up, not cut") << AxisUnit::Seconds << 78.1249999 << 3 << 100.0 << "1:18.125";
        QTest::newRow("rounding carries") << AxisUnit::Seconds << 119.96 << 1 << 200.0 << "2:00.0";
        QTest::newRow("seconds") << AxisUnit::Seconds << 12.5 << 1 << 30.0 << "12.5 s";
        QTest::newRow("hours") << AxisUnit::Seconds << 3725.0 << 0 << 4000.0 << "1:02:05";
        QTest::newRow("negative") << AxisUnit::Seconds << -4.5 << 1 << 12.0 << "-4.5 s";
        QTest::newRow("no minus zero s") << AxisUnit::Seconds << -0.01 << 1 << 12.0 << "0.0 s";
        QTest::newRow("utc .25") << AxisUnit::ClockMs << 1795551023250.0 << 2 << 0.0 << "20:10:23.25";
        QTest::newRow("utc rounded ms") << AxisUnit::ClockMs << 1795551023999.6 << 0 << 0.0 << "20:10:24";
        QTest::newRow("utc minutes") << AxisUnit::ClockMs << 1795551000000.0 << -1 << 0.0 << "20:10";
        QTest::newRow("utc date") << AxisUnit::ClockMs << 1795551023250.0 << -2 << 0.0 << "2026-11-24";
        QTest::newRow("number float noise") << AxisUnit::Number << 0.30000000000000004 << 1 << 1.0 << "0.3";
        QTest::newRow("number minus zero") << AxisUnit::Number << -1e-17 << 1 << 1.0 << "0.0";
        QTest::newRow("number large") << AxisUnit::Number << 1.5e9 << 1 << 7e9 << "1.5e9";
        QTest::newRow("frame") << AxisUnit::Frame << 1200.0 << 0 << 0.0 << "1200";
    }
    void labels()
    {
        QFETCH(AxisUnit, unit);
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(double, span);
        QFETCH(QString, label);
        QCOMPARE(QString::fromStdString(axisLabel(unit, value, decimals, span)), label);
    }

    // A replay's frames in game time and UTC: each tick at the frame where its round value
    // falls (the footer's times, interpolated between two frames), labelled like the axis.
    void fileTicksFallWhereTheirTimeIs_data()
    {
        QTest::addColumn<int>("unit");
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("last");
        QTest::addColumn<double>("pixels");
        for (double px : {300.0, 1200.0})
            for (auto [a, b] : {std::pair{0.0, 399.0}, {120.0, 140.0}, {33.3, 250.7}}) {
                QTest::addRow("game %g-%g on %g px", a, b, px) << int(TimeUnit::GameTime) << a << b << px;
                QTest::addRow("utc %g-%g on %g px", a, b, px) << int(TimeUnit::Utc) << a << b << px;
            }
    }
    void fileTicksFallWhereTheirTimeIs()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(int, unit);
        QFETCH(double, first);
        QFETCH(double, last);
        QFETCH(double, pixels);
        auto file = vtx::ReplayFile::open(vtxtest::samplePath("sdk_cs_fbs.vtx"));
        VTX_VERIFY_OK(file);
        const std::shared_ptr<const vtx::ReplayFile> f = std::move(*file);
        FrameClock clock;
        clock.set(f, TimeUnit(unit));
        QCOMPARE(int(clock.shownUnit()), unit);
        QVERIFY(clock.note().isEmpty());
        const auto ticks = clock.ticks(first, last, pixels, charWidth, kGap);
        QVERIFY(ticks.size() >= 2);
        const AxisTickSet set = axisTicks(clock.axisUnit(), clock.valueAt(first), clock.valueAt(last), pixels, charWidth, kGap);
        QCOMPARE(ticks.size(), set.ticks.size());
        for (size_t i = 0; i < ticks.size(); ++i) {
            QVERIFY(ticks[i].frame >= first && ticks[i].frame <= last);
            QVERIFY(i == 0 || ticks[i].frame > ticks[i - 1].frame);
            QCOMPARE(ticks[i].label, QString::fromStdString(set.ticks[i].label));
            // The clock reads the tick's round value at the tick's frame.
            const double tolerance = unit == int(TimeUnit::Utc) ? 1e-3 : 1e-9;
            QVERIFY2(
                std::abs(clock.valueAt(ticks[i].frame) - set.ticks[i].value) < tolerance,
                qPrintable(QStringLiteral("%1 at frame %2 reads %3").arg(ticks[i].label).arg(ticks[i].frame).arg(clock.valueAt(ticks[i].frame))));
        }
        // Integer frames read what the footer says.
        QCOMPARE(clock.valueAt(200), unit == int(TimeUnit::GameTime) ? double(f->gameTimeTicks(200)) / 1e7 : double(utcMsOfFrame(*f, 200)));
    }

    // A recovered file (no footer: no frame times) reads in frame numbers, with a note, never
    // "0.000 s" on every tick.
    void fileWithoutTimesReadsInFrames_data()
    {
        QTest::addColumn<int>("unit");
        QTest::newRow("game time") << int(TimeUnit::GameTime);
        QTest::newRow("utc") << int(TimeUnit::Utc);
    }
    void fileWithoutTimesReadsInFrames()
    {
        VTX_REQUIRE_SAMPLES();
        QFETCH(int, unit);
        QTemporaryDir dir;
        const QString cut = dir.path() + "/cut.vtx";
        QVERIFY(writeWithoutFooter(QString::fromStdString(vtxtest::samplePath("sdk_cs_fbs.vtx")), cut));
        auto file = vtx::ReplayFile::open(cut.toStdString());
        VTX_VERIFY_OK(file);
        const std::shared_ptr<const vtx::ReplayFile> f = std::move(*file);
        QVERIFY(f->frameCount() > 20);
        QVERIFY(!hasGameTimes(*f));
        FrameClock clock;
        clock.set(f, TimeUnit(unit));
        QCOMPARE(clock.shownUnit(), TimeUnit::Frame);
        QVERIFY2(clock.note().startsWith("no ") && clock.note().contains("times"), qPrintable(clock.note()));
        const auto ticks = clock.ticks(0, f->frameCount() - 1, 800, charWidth, kGap);
        QVERIFY(ticks.size() >= 2);
        for (const FrameClock::Tick& t : ticks) {
            QCOMPARE(t.label, QString::number(qint64(t.frame)));
            QCOMPARE(t.frame, std::round(t.frame));
        }
    }

    // Which lane and axis each series reads against: comparable ranges share, the others get
    // their own lane (stacked) or the other axis of a lane, two to a lane (overlaid).
    void arrangement_data()
    {
        QTest::addColumn<QList<double>>("ranges"); // lo, hi pairs
        QTest::addColumn<QString>("stacked"); // "lane.axis" per series
        QTest::addColumn<QString>("overlaid");
        QTest::newRow("health and money") << QList<double>{0, 100, 0, 16000} << "0.0 1.0"
                                          << "0.0 0.1";
        QTest::newRow("two healths") << QList<double>{0, 100, 20, 100} << "0.0 0.0"
                                     << "0.0 0.0";
        QTest::newRow("health, position, health") << QList<double>{0, 100, -1400, 2100, 5, 95} << "0.0 1.0 0.0"
                                                  << "0.0 0.1 0.0";
        QTest::newRow("x y z") << QList<double>{-1400, 2100, -1300, 1250, -4, 8} << "0.0 0.0 1.0"
                               << "0.0 0.0 0.1";
        QTest::newRow("offset ranges") << QList<double>{1000, 1100, 0, 100} << "0.0 1.0"
                                       << "0.0 0.1";
        QTest::newRow("constant inside") << QList<double>{0, 100, 2, 2} << "0.0 0.0"
                                         << "0.0 0.0";
        QTest::newRow("constant far away") << QList<double>{0, 100, 5000, 5000} << "0.0 1.0"
                                           << "0.0 0.1";
        QTest::newRow("no values yet") << QList<double>{1, 0, 0, 16000} << "0.0 0.0"
                                       << "0.0 0.0";
        QTest::newRow("three ranges") << QList<double>{0, 1, 0, 100, 0, 16000} << "0.0 1.0 2.0"
                                      << "0.0 0.1 1.0"; // overlaid: two axes to a lane
        QTest::newRow("four ranges (review item 6)") << QList<double>{0, 100, 0, 16000, -5, 7, 0, 100, -1400, 2100} << "0.0 1.0 2.0 0.0 3.0"
                                                     << "0.0 0.1 1.0 0.0 1.1";
    }
    void arrangement()
    {
        QFETCH(QList<double>, ranges);
        QFETCH(QString, stacked);
        QFETCH(QString, overlaid);
        std::vector<SeriesExtent> series;
        for (qsizetype i = 0; i + 1 < ranges.size(); i += 2)
            series.push_back({ranges[i], ranges[i + 1]});
        auto text = [](const PlotArrangement& a) {
            QStringList parts;
            for (const AxisSlot& s : a.placements)
                parts << QStringLiteral("%1.%2").arg(s.lane).arg(s.axis);
            return parts.join(' ');
        };
        const PlotArrangement s = arrangeSeries(series, true), o = arrangeSeries(series, false);
        QCOMPARE(text(s), stacked);
        QCOMPARE(text(o), overlaid);
        auto lanesUsed = [](const PlotArrangement& a) {
            int lanes = 1;
            for (const AxisSlot& slot : a.placements)
                lanes = std::max(lanes, slot.lane + 1);
            return lanes;
        };
        QCOMPARE(s.lanes, lanesUsed(s));
        QCOMPARE(o.lanes, lanesUsed(o));
    }
};

QTEST_APPLESS_MAIN(TestAxisTicks)
#include "tst_axisticks.moc"
