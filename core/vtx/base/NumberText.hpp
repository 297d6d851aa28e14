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
/// `text` (a value's display text: "(885.5625, -272.16346, 12)", "T(…) R(…) S(…)") with every
/// decimal number in it rounded to at most `decimals` decimals, trailing zeros dropped, for a
/// cell too narrow for the whole text: a shorter number instead of a cut one. A number is
/// rewritten only when that makes it shorter, and keeps two significant digits (0.70710677 is
/// 0.71 at 0 decimals, 0.004123 is 0.0041: a 1 or a 0 would read as another value). Integers,
/// scientific forms and digits inside words ("player_765", "v1.2.3") are left as they are.
/// Meant for texts that are not quoted strings.
std::string withDecimalsAtMost(std::string_view text, int decimals);
/// 16 lower-case hex digits, as content hashes are printed.
std::string hex64(uint64_t v);

} // namespace vtx
