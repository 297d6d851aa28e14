// SPDX-License-Identifier: MIT
#include "vtx/base/NumberText.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace vtx {

namespace {

// The shortest decimal that reads back as `v` at its own width. Plain to_chars picks fixed
// notation when it is no longer than scientific, which for large values prints digits beyond
// the shortest ("88247524461358678016" for 8.824752446135868e+19); scientific is used then.
template <class T> std::string shortestText(T v)
{
    if (std::isnan(v))
        return "nan";
    char plain[64], sci[64];
    const auto p = std::to_chars(plain, plain + sizeof plain, v).ptr;
    const auto s = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific).ptr;
    const std::string_view mantissa(sci, size_t(std::find(sci, s, 'e') - sci));
    const size_t sciDigits = size_t(std::count_if(mantissa.begin(), mantissa.end(), [](char c) { return c >= '0' && c <= '9'; }));
    const std::string_view fixed(plain, size_t(p - plain));
    if (fixed.find('e') == std::string_view::npos && fixed.find('.') == std::string_view::npos) {
        // An integral fixed form: its trailing zeros are not significant, its other digits are.
        const size_t end = fixed.find_last_not_of('0');
        const size_t start = fixed.find_first_of("123456789");
        if (start != std::string_view::npos && end - start + 1 > sciDigits)
            return std::string(sci, s);
    }
    return std::string(fixed);
}

} // namespace

std::string formatFloat(float v)
{
    return shortestText(v);
}
std::string formatDouble(double v)
{
    return shortestText(v);
}

std::string readableDouble(double v)
{
    std::string exact = shortestText(v);
    if (!std::isfinite(v))
        return exact;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    const std::string rounded = shortestText(std::strtod(buf, nullptr));
    return rounded.size() < exact.size() ? rounded : exact;
}

std::string groupDigits(std::string_view text)
{
    const size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
    // 16 digits and more are identifiers (a Steam ID: 76561198000000000) or raw clock ticks,
    // read digit by digit and against other tools' output, not as magnitudes.
    const size_t digits = text.size() - sign;
    if (digits < 5 || digits > 15 || text.find_first_not_of("0123456789", sign) != std::string_view::npos)
        return std::string(text);
    std::string out(text.substr(0, sign));
    for (size_t i = sign; i < text.size(); ++i) {
        if (i > sign && (text.size() - i) % 3 == 0)
            out += "\u202f";
        out += text[i];
    }
    return out;
}

std::string hex64(uint64_t v)
{
    char buf[17];
    auto [p, ec] = std::to_chars(buf, buf + 16, v, 16);
    std::string s(buf, p);
    return std::string(16 - s.size(), '0') + s;
}

} // namespace vtx
