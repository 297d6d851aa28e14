// SPDX-License-Identifier: MIT
#pragma once
// UTF-8 text checks, the one place that decodes UTF-8: the Protobuf reader rejects invalid
// strings (proto3 requires valid UTF-8), every text output replaces invalid bytes (FlatBuffers
// strings may hold any bytes).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace vtx {

/// Length of the well-formed UTF-8 sequence at p[0] (1 to 4), or 0 when it is not one: a
/// continuation or invalid lead byte, a truncated sequence (`n` bytes are left), an overlong
/// form, a surrogate or a code point above U+10FFFF.
inline size_t utf8SequenceLength(const uint8_t* p, size_t n)
{
    const uint8_t b = p[0];
    if (b < 0x80)
        return 1;
    size_t len;
    uint32_t cp;
    if (b >= 0xC2 && b <= 0xDF) {
        len = 2;
        cp = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        len = 3;
        cp = b & 0x0F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4;
        cp = b & 0x07;
    } else {
        return 0; // continuation byte, overlong lead (C0, C1) or beyond U+10FFFF
    }
    if (n < len)
        return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((p[k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return len;
}

/// Well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF), which proto3
/// requires of `string` fields. Inline: the Protobuf reader calls it for every string.
inline bool validUtf8(const uint8_t* p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        // Eight ASCII bytes at a time: unique ids and most strings never leave this loop.
        if (n - i >= 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            if ((w & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        if (p[i] < 0x80) {
            ++i;
            continue;
        }
        const size_t len = utf8SequenceLength(p + i, n - i);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

/// `s` with every byte that does not start a well-formed sequence replaced by U+FFFD.
std::string sanitizeUtf8(std::string_view s);

} // namespace vtx
