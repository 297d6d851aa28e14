// SPDX-License-Identifier: MIT
#pragma once
// Pairing two replays: which frame of B is compared with which frame of A (by frame index, by
// game time, shifted by a user offset), and how their schemas relate when struct types and
// properties are matched by name (files recorded with different schemas compare what they share).

#include "vtx/file/FrameTimes.hpp" // holdsGameTimes
#include "vtx/file/ReplayFile.hpp"
#include "vtx/model/Schema.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vtx {

enum class Alignment : uint8_t {
    Frame, ///< A's frame i with B's frame i + offset
    Time, ///< A's frame i with B's last frame whose game time is at or before A's time + offset (ticks)
};
const char* alignmentName(Alignment a);

struct FramePair {
    int32_t frameA = 0;
    int32_t frameB = 0;
    friend bool operator==(const FramePair&, const FramePair&) = default;
};

/// Per frame of A, the frame of B it is compared with; A's frames without a partner (before B's
/// first time, past B's end) are left out. `gameTimeTicksA/B(frame)` give each file's own times:
/// the files may have different frame rates and gaps. Pairs are in A's order and B's frames never
/// go backwards when each file's times are non-decreasing.
/// `offset`: frames of B (Alignment::Frame) or game-time ticks added to A's time (Alignment::Time).
template <class TicksA, class TicksB>
std::vector<FramePair> pairFrames(int32_t framesA, int32_t framesB, Alignment alignment, int64_t offset, TicksA&& gameTimeTicksA,
                                  TicksB&& gameTimeTicksB)
{
    std::vector<FramePair> pairs;
    if (alignment == Alignment::Frame) {
        for (int32_t a = 0; a < framesA; ++a) {
            const int64_t b = int64_t(a) + offset;
            if (b >= 0 && b < framesB)
                pairs.push_back({a, int32_t(b)});
        }
        return pairs;
    }
    int32_t b = -1; // B's last frame at or before the current time: a merge walk, both files' times rise
    for (int32_t a = 0; a < framesA; ++a) {
        const int64_t t = gameTimeTicksA(a) + offset;
        while (b + 1 < framesB && gameTimeTicksB(b + 1) <= t)
            ++b;
        while (b >= 0 && gameTimeTicksB(b) > t) // A's time went back (a new segment): search again
            --b;
        if (b >= 0)
            pairs.push_back({a, b});
    }
    return pairs;
}
/// Pairs none when `alignment` cannot pair these files (checkAlignment).
std::vector<FramePair> pairFrames(const ReplayFile& a, const ReplayFile& b, Alignment alignment, int64_t offset);

/// Alignment::Time needs both files' game times; pairing by the 0s of a recovered file would
/// pair every frame of A with B's frame 0 and report them diverged. The error names the file.
Status checkAlignment(const ReplayFile& a, const ReplayFile& b, Alignment alignment);

struct SchemaDifference {
    enum class Kind : uint8_t { TypeAdded, TypeRemoved, PropertyAdded, PropertyRemoved, PropertyRetyped };
    Kind kind = Kind::PropertyAdded;
    std::string type; ///< struct type name
    std::string property; ///< empty for TypeAdded / TypeRemoved
    std::string typeA; ///< PropertyRetyped: the property's type in A ("Float", "array<Int32>", "Weapon")
    std::string typeB;
    friend bool operator==(const SchemaDifference&, const SchemaDifference&) = default;
};
const char* schemaDifferenceKindName(SchemaDifference::Kind k);
/// "Float", "array<Int32>", "map<Weapon>": a field's type as the schema difference shows it.
std::string fieldTypeText(const FieldDef& f);

/// Added / removed: present only in B / only in A. Types in schema order of A, then B's new ones.
std::vector<SchemaDifference> compareSchemas(const Schema& a, const Schema& b);
/// Same types with the same ids and the same fields at the same slots: B's frames can be read
/// through A's schema, and the fast same-schema frame diff applies.
bool sameLayout(const Schema& a, const Schema& b);

} // namespace vtx
