// SPDX-License-Identifier: MIT
#include "vtx/base/Utf8.hpp"

namespace vtx {

std::string sanitizeUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    const auto* bytes = reinterpret_cast<const uint8_t*>(s.data());
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8SequenceLength(bytes + i, s.size() - i);
        if (n == 0) {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace vtx
