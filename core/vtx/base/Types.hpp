// SPDX-License-Identifier: MIT
#pragma once
// Plain math values with exactly the byte layout of the FlatBuffers structs (spec §2.1), so
// spans over FlatBuffers vectors can be handed out without copying.

#include <cstdint>

namespace vtx {

struct Vec3 {
    double x = 0, y = 0, z = 0;
    friend bool operator==(const Vec3&, const Vec3&) = default;
};
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
    friend bool operator==(const Quat&, const Quat&) = default;
};
struct Transform {
    Vec3 translation;
    Quat rotation;
    Vec3 scale{1, 1, 1};
    friend bool operator==(const Transform&, const Transform&) = default;
};
struct FloatRange {
    float min = 0, max = 0, valueNormalized = 0;
    friend bool operator==(const FloatRange&, const FloatRange&) = default;
};
struct EntityRange {
    int32_t startIndex = 0, count = 0;
    friend bool operator==(const EntityRange&, const EntityRange&) = default;
};

static_assert(sizeof(Vec3) == 24 && alignof(Vec3) == 8);
static_assert(sizeof(Quat) == 16 && alignof(Quat) == 4);
static_assert(sizeof(Transform) == 64 && alignof(Transform) == 8);
static_assert(sizeof(FloatRange) == 12);
static_assert(sizeof(EntityRange) == 8);

enum class Backend { FlatBuffers, Protobuf };

inline const char* backendName(Backend b)
{
    return b == Backend::FlatBuffers ? "flatbuffers" : "protobuf";
}
inline const char* backendMagic(Backend b)
{
    return b == Backend::FlatBuffers ? "VTXF" : "VTXP";
}

constexpr int64_t kTicksPerSecond = 10'000'000;

} // namespace vtx
