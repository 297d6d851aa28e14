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

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isWordChar(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || uint8_t(c) >= 0x80;
}

/// `number` ("-272.16346") at most `decimals` decimals, or `number` when that is not shorter.
std::string roundedToken(std::string_view number, int decimals)
{
    // U+2212 read and written back as the sign it is.
    const bool unicodeMinus = number.substr(0, 3) == "\u2212";
    const std::string_view digits = unicodeMinus ? number.substr(3) : number;
    double v = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), v).ec != std::errc())
        return std::string(number);
    if (unicodeMinus)
        v = -v;
    // Two significant digits at least: a quaternion's 0.707 rounded to 1 read as a different
    // rotation, 0.004 rounded to 0 as no value.
    int places = decimals;
    if (v != 0 && std::isfinite(v))
        places = std::max(decimals, 1 - int(std::floor(std::log10(std::abs(v)))));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", std::clamp(places, 0, 30), v);
    std::string out(buf);
    if (out.find('.') != std::string::npos) {
        out.erase(out.find_last_not_of('0') + 1);
        if (out.back() == '.')
            out.pop_back();
    }
    if (out == "-0")
        out = "0";
    if (unicodeMinus && out[0] == '-')
        out.replace(0, 1, "\u2212");
    return out.size() < number.size() ? out : std::string(number);
}

} // namespace

std::string withDecimalsAtMost(std::string_view text, int decimals)
{
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        // A number starts at a digit (or a minus before one) that does not continue a word.
        const bool prevWord = i > 0 && isWordChar(text[i - 1]);
        // Its sign: '-', or U+2212 as deltas are written ("−1.0625").
        const size_t signLength = text[i] == '-' ? 1 : text.substr(i, 3) == "\u2212" ? 3 : 0;
        const size_t start = i;
        size_t j = i + signLength;
        if (prevWord || j >= text.size() || !isDigit(text[j])) {
            const size_t n = signLength ? signLength : 1; // a sign's bytes as one, not a word
            out += text.substr(i, n);
            i += n;
            continue;
        }
        while (j < text.size() && isDigit(text[j]))
            ++j;
        const bool fraction = j + 1 < text.size() && text[j] == '.' && isDigit(text[j + 1]);
        if (fraction) {
            ++j;
            while (j < text.size() && isDigit(text[j]))
                ++j;
        }
        // Followed by more of a word ("1.2.3", "1e-07", "3rd"): not a plain decimal number.
        const bool partOfWord = j < text.size() && (isWordChar(text[j]) || text[j] == '+');
        const std::string_view token = text.substr(start, j - start);
        out += fraction && !partOfWord ? roundedToken(token, decimals) : std::string(token);
        i = j;
        if (partOfWord) // the rest of the word as it is
            while (i < text.size() && (isWordChar(text[i]) || text[i] == '+' || text[i] == '-'))
                out += text[i++];
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
