// SPDX-License-Identifier: MIT
#include "timeline/AxisTicks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace vtxw {

namespace {

constexpr int64_t kMsPerDay = 86'400'000;
constexpr double kScientific = 1e7; ///< plain numbers this large read better as 1.5e7
constexpr size_t kMaxTicks = 2000; ///< a step giving more ticks than this is never a candidate

std::vector<double> oneTwoFive(int fromExp, int toExp, double scale = 1)
{
    std::vector<double> out;
    for (int e = fromExp; e <= toExp; ++e)
        for (double m : {1.0, 2.0, 5.0})
            out.push_back(m * std::pow(10.0, e) * scale);
    return out;
}

/// Decimals that show a multiple of `step` exactly (step is 1, 2 or 5 × 10ⁿ).
int decimalsOf(double step)
{
    if (!(step > 0) || step >= 1)
        return 0;
    return std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 12);
}

std::string printf1(const char* format, int decimals, double value)
{
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), format, decimals, value);
    return buf.data();
}

/// |value| in units of 10^-decimals, rounded to nearest (half away from zero).
int64_t scaled(double value, int decimals)
{
    return int64_t(std::llround(std::abs(value) * std::pow(10.0, decimals)));
}

/// `v` (not negative) with leading zeros to `digits`.
std::string padded(int64_t v, int digits)
{
    std::string s = std::to_string(v);
    if (int(s.size()) < digits)
        s.insert(0, size_t(digits) - s.size(), '0');
    return s;
}

std::string twoDigits(int64_t v)
{
    return padded(v, 2);
}

/// ".25" for the fraction `frac` (already in units of 10^-decimals).
std::string fraction(int64_t frac, int decimals)
{
    return decimals <= 0 ? std::string() : "." + padded(frac, decimals);
}

std::string numberLabel(double value, int decimals, double span)
{
    if (span >= kScientific) {
        // Large values in scientific form with as many mantissa digits as the step needs.
        std::string s = printf1("%.*e", decimals, value);
        // "1.50e+07" → "1.50e7": shorter, and still what a reader expects.
        const auto e = s.find('e');
        if (e != std::string::npos) {
            std::string mant = s.substr(0, e), ex = s.substr(e + 1);
            const bool neg = !ex.empty() && ex[0] == '-';
            ex.erase(0, ex.find_first_not_of("+-0"));
            s = mant + "e" + (neg ? "-" : "") + (ex.empty() ? "0" : ex);
        }
        return s;
    }
    if (scaled(value, decimals) == 0)
        value = 0; // no "-0.0"
    return printf1("%.*f", decimals, value);
}

std::string secondsLabel(double value, int decimals, double span)
{
    const std::string sign = value < 0 && scaled(value, decimals) != 0 ? "-" : "";
    if (span < 60)
        return sign + printf1("%.*f", decimals, std::abs(value)) + " s";
    const int64_t unit = int64_t(std::llround(std::pow(10.0, decimals)));
    const int64_t total = scaled(value, decimals);
    const int64_t whole = total / unit, frac = total % unit;
    const int64_t s = whole % 60, m = (whole / 60) % 60, h = whole / 3600;
    if (span < 3600)
        return sign + std::to_string(whole / 60) + ":" + twoDigits(s) + fraction(frac, decimals);
    return sign + std::to_string(h) + ":" + twoDigits(m) + ":" + twoDigits(s) + fraction(frac, decimals);
}

/// The civil date of a day count since 1970-01-01 (H. Hinnant's days → y/m/d).
std::string dateOf(int64_t days)
{
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const int64_t doe = days - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = yoe + era * 400 + (m <= 2);
    return padded(y, 4) + "-" + padded(m, 2) + "-" + padded(d, 2);
}

/// UTC labels: the form follows the step (`decimals` -1: "HH:mm", -2: the date, -3: the day
/// and "HH:mm" for an axis longer than a day, where times of day repeat).
std::string clockLabel(double ms, int decimals)
{
    if (decimals == -2)
        return dateOf(int64_t(std::floor(ms / double(kMsPerDay))));
    if (decimals == -3)
        return dateOf(int64_t(std::floor(ms / double(kMsPerDay)))).substr(5) + " " + clockLabel(ms, -1);
    const int shown = std::max(0, decimals);
    const int64_t unitMs = int64_t(std::llround(std::pow(10.0, 3 - shown))); // 1000 ms for whole seconds
    int64_t units = int64_t(std::llround(ms / double(unitMs)));
    const int64_t perDay = kMsPerDay / unitMs;
    units = ((units % perDay) + perDay) % perDay; // time of day (UTC)
    const int64_t perSecond = 1000 / unitMs;
    const int64_t frac = units % perSecond, secs = units / perSecond;
    std::string hm = twoDigits(secs / 3600) + ":" + twoDigits((secs / 60) % 60);
    if (decimals == -1)
        return hm;
    return hm + ":" + twoDigits(secs % 60) + fraction(frac, shown);
}

/// The decimals of every label of an axis of `step` whose largest absolute value is `span`
/// and which shows `range` (hi − lo); negative: a form without seconds (clockLabel).
int decimalsFor(AxisUnit unit, double step, double span, double range)
{
    switch (unit) {
    case AxisUnit::Frame: return 0;
    case AxisUnit::Number:
        if (span >= kScientific) // mantissa digits down to the step's
            return std::clamp(int(std::floor(std::log10(span))) - int(std::floor(std::log10(step) + 1e-9)), 0, 15);
        return decimalsOf(step);
    case AxisUnit::Seconds: return decimalsOf(step);
    case AxisUnit::ClockMs:
        if (step >= double(kMsPerDay))
            return -2;
        if (step >= 60'000)
            return range >= double(kMsPerDay) ? -3 : -1;
        return decimalsOf(step / 1000);
    }
    return 0;
}

std::vector<AxisTick> ticksAt(double lo, double hi, double step)
{
    std::vector<AxisTick> out;
    const double kFirst = std::ceil(lo / step), kLast = std::floor(hi / step);
    if (!(kLast - kFirst < double(kMaxTicks)))
        return out;
    for (double k = kFirst; k <= kLast; ++k) {
        const double v = k * step;
        if (v >= lo && v <= hi && (out.empty() || v > out.back().value))
            out.push_back({v, {}});
    }
    return out;
}

} // namespace

const std::vector<double>& axisSteps(AxisUnit unit)
{
    static const std::vector<double> numbers = oneTwoFive(-9, 15);
    static const std::vector<double> frames = oneTwoFive(0, 15);
    static const std::vector<double> seconds = [] {
        std::vector<double> s = oneTwoFive(-6, -1);
        for (double v : {1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0, 10800.0, 21600.0, 43200.0})
            s.push_back(v);
        for (double d : oneTwoFive(0, 6, 86400.0))
            s.push_back(d);
        return s;
    }();
    static const std::vector<double> clock = [] {
        std::vector<double> s = oneTwoFive(0, 2); // 1 ms … 500 ms
        for (double v : {1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0, 10800.0, 21600.0, 43200.0})
            s.push_back(v * 1000);
        for (double d : oneTwoFive(0, 6, double(kMsPerDay)))
            s.push_back(d);
        return s;
    }();
    switch (unit) {
    case AxisUnit::Number: return numbers;
    case AxisUnit::Frame: return frames;
    case AxisUnit::Seconds: return seconds;
    case AxisUnit::ClockMs: return clock;
    }
    return numbers;
}

std::string axisLabel(AxisUnit unit, double value, int decimals, double span)
{
    switch (unit) {
    case AxisUnit::Frame: return numberLabel(std::round(value), 0, 0);
    case AxisUnit::Number: return numberLabel(value, decimals, span);
    case AxisUnit::Seconds: return secondsLabel(value, decimals, span);
    case AxisUnit::ClockMs: return clockLabel(value, decimals);
    }
    return {};
}

AxisTickSet axisTicks(AxisUnit unit, double lo, double hi, double pixels, const TextWidth& width, double gapPx)
{
    AxisTickSet out;
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return out;
    if (lo > hi)
        std::swap(lo, hi);
    const double span = std::max(std::abs(lo), std::abs(hi));
    auto measure = [&](const std::string& s) { return width ? width(s) : 7.0 * double(s.size()); };
    auto label = [&](AxisTickSet& set) {
        double widest = 0;
        for (AxisTick& t : set.ticks) {
            t.label = axisLabel(unit, t.value, set.decimals, span);
            widest = std::max(widest, measure(t.label));
        }
        return widest;
    };
    const std::vector<double>& steps = axisSteps(unit);
    if (!(hi > lo)) {
        // One value: the coarsest step it is a multiple of (at most 6 digits below its own)
        // sets the decimals, so 5.25 reads "5.25", not "5".
        const double finest = lo == 0 ? 1 : std::pow(10.0, std::floor(std::log10(std::abs(lo))) - 6);
        double step = steps.front();
        for (double s : steps)
            if (s >= finest && s <= std::max(1.0, std::abs(lo)) && std::abs(lo / s - std::round(lo / s)) < 1e-9 * std::max(1.0, std::abs(lo / s)))
                step = s;
        out.decimals = decimalsFor(unit, std::max(step, finest), span, 0);
        out.ticks = {{lo, {}}};
        label(out);
        return out;
    }
    const double pxPerUnit = std::max(1e-300, pixels) / (hi - lo);
    for (size_t i = 0; i < steps.size(); ++i) {
        const double s = steps[i];
        const bool lastChance = i + 1 == steps.size();
        if (s * pxPerUnit < gapPx && !lastChance)
            continue; // not even the gap fits: no label can
        AxisTickSet set;
        set.step = s;
        set.decimals = decimalsFor(unit, s, span, hi - lo);
        set.ticks = ticksAt(lo, hi, s);
        if (set.ticks.empty() && (hi - lo) / s > double(kMaxTicks))
            continue;
        const double widest = label(set);
        if (widest + gapPx <= s * pxPerUnit || set.ticks.size() <= 1 || lastChance)
            return set;
    }
    return out;
}

} // namespace vtxw
