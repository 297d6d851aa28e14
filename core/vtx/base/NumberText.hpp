// SPDX-License-Identifier: MIT
#pragma once
// Numbers as text, the one place every front end formats them from (the inspector, CSV, JSON,
// diff reports): floats as the shortest decimal that reads back bit-exactly at the value's own
// width, -0 as -0, NaN and ±infinity as "nan", "inf", "-inf".

#include <cstdint>
#include <string>
#include <string_view>

namespace vtx {

/// Shortest round-trip text of a float32 / float64 value.
std::string formatFloat(float v);
std::string formatDouble(double v);
/// For reading, not round-tripping: a float64 to at most 9 significant digits (float32's
/// precision, what positions written from float data carry: 29.227074000000002 -> 29.227074),
/// its shortest text when that is shorter; the exact value is formatDouble's.
std::string readableDouble(double v);
/// Decimal integer text ("-1234567") with its digits grouped by three (narrow no-break
/// spaces) from 10,000 up to 15 digits; any other text (and 16 digits or more: identifiers such as
/// Steam IDs, raw clock ticks) unchanged.
std::string groupDigits(std::string_view integerText);
/// 16 lower-case hex digits, as content hashes are printed.
std::string hex64(uint64_t v);

} // namespace vtx
