// SPDX-License-Identifier: MIT
#include "vtx/integrity/ContentHash.hpp"

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

namespace vtx {
namespace {

// Gives owned data the same accessor shape as ContainerView, so one hash routine serves both.
struct DataAccess {
    const PropertyContainerData& d;

    template <class T> static FlatArrayView<T> flat(const FlatArray<T>& a) { return {a.data, a.offsets}; }
    template <class T> struct OwnedFlat {
        const std::vector<T>& data;
        std::span<const uint32_t> offsets;
    };

    int32_t typeId() const { return d.typeId; }
    std::span<const uint8_t> bools() const { return d.bools; }
    std::span<const int32_t> int32s() const { return d.int32s; }
    std::span<const int64_t> int64s() const { return d.int64s; }
    std::span<const float> floats() const { return d.floats; }
    std::span<const double> doubles() const { return d.doubles; }
    const std::vector<std::string>& strings() const { return d.strings; }
    std::span<const Transform> transforms() const { return d.transforms; }
    std::span<const Vec3> vectors() const { return d.vectors; }
    std::span<const Quat> quats() const { return d.quats; }
    std::span<const FloatRange> ranges() const { return d.ranges; }
    FlatArrayView<uint8_t> byteArrays() const { return flat(d.byteArrays); }
    FlatArrayView<int32_t> int32Arrays() const { return flat(d.int32Arrays); }
    FlatArrayView<int64_t> int64Arrays() const { return flat(d.int64Arrays); }
    FlatArrayView<float> floatArrays() const { return flat(d.floatArrays); }
    FlatArrayView<double> doubleArrays() const { return flat(d.doubleArrays); }
    FlatArrayView<Vec3> vectorArrays() const { return flat(d.vectorArrays); }
    FlatArrayView<Quat> quatArrays() const { return flat(d.quatArrays); }
    FlatArrayView<Transform> transformArrays() const { return flat(d.transformArrays); }
    FlatArrayView<FloatRange> rangeArrays() const { return flat(d.rangeArrays); }
    FlatArrayView<uint8_t> boolArrays() const { return flat(d.boolArrays); }
    OwnedFlat<std::string> stringArrays() const { return {d.stringArrays.data, d.stringArrays.offsets}; }
    const std::vector<PropertyContainerData>& structs() const { return d.structs; }
    OwnedFlat<PropertyContainerData> structArrays() const { return {d.structArrays.data, d.structArrays.offsets}; }
    const std::vector<MapData>& maps() const { return d.maps; }
    OwnedFlat<MapData> mapArrays() const { return {d.mapArrays.data, d.mapArrays.offsets}; }
};

DataAccess access(const PropertyContainerData& d)
{
    return {d};
}
ContainerView access(ContainerView c)
{
    return c;
}

// Feeds one XXH3 state. The spec's algorithm gives every container a state of its own; the
// SDK v0.2.0 writer shares one state per thread across the recursion (spec §6.6 ⚠), so a child's
// reset discards what its parent had fed. `shared` selects the second behaviour, which makes
// a nested container's hash cover only the tail: the last child's bytes onwards.
class Hasher {
public:
    explicit Hasher(XXH3_state_t* shared) : m_state(shared ? *shared : m_own) { XXH3_64bits_reset(&m_state); }
    Hasher(const Hasher&) = delete;
    Hasher& operator=(const Hasher&) = delete;
    void bytes(const void* p, size_t n)
    {
        if (n)
            XXH3_64bits_update(&m_state, p, n);
    }
    template <class T> void span(std::span<const T> s) { bytes(s.data(), s.size_bytes()); }
    template <class T> void value(const T& v) { bytes(&v, sizeof v); }
    uint64_t digest() { return XXH3_64bits_digest(&m_state); }
    XXH3_state_t* sharedState() { return &m_state == &m_own ? nullptr : &m_state; }

private:
    XXH3_state_t m_own;
    XXH3_state_t& m_state;
};

template <class C> uint64_t hashOf(const C& c, XXH3_state_t* shared);

template <class Strings> void hashStrings(Hasher& h, const Strings& s)
{
    for (size_t i = 0; i < s.size(); ++i) {
        std::string_view v = s[i];
        h.bytes(v.data(), v.size());
    }
}

template <class T> void hashFlat(Hasher& h, const FlatArrayView<T>& a)
{
    if (a.data.empty())
        return;
    h.span(a.data);
    h.span(a.offsets);
}

template <class Map> void hashMap(Hasher& h, const Map& m)
{
    hashStrings(h, m.keys());
    const auto& values = m.values();
    for (size_t i = 0; i < values.size(); ++i)
        h.value(hashOf(access(values[i]), h.sharedState()));
}

struct MapDataAccess {
    const MapData& m;
    const std::vector<std::string>& keys() const { return m.keys; }
    const std::vector<PropertyContainerData>& values() const { return m.values; }
};
MapDataAccess mapAccess(const MapData& m)
{
    return {m};
}
MapView mapAccess(MapView m)
{
    return m;
}

template <class C> uint64_t hashOf(const C& c, XXH3_state_t* shared)
{
    Hasher h(shared);
    h.value(c.typeId());
    h.span(c.bools());
    h.span(c.int32s());
    h.span(c.int64s());
    h.span(c.floats());
    h.span(c.doubles());
    hashStrings(h, c.strings());
    h.span(c.transforms());
    h.span(c.vectors());
    h.span(c.quats());
    h.span(c.ranges());
    hashFlat(h, c.byteArrays());
    hashFlat(h, c.int32Arrays());
    hashFlat(h, c.int64Arrays());
    hashFlat(h, c.floatArrays());
    hashFlat(h, c.doubleArrays());
    const auto& structs = c.structs();
    for (size_t i = 0; i < structs.size(); ++i)
        h.value(hashOf(access(structs[i]), h.sharedState()));
    const auto sa = c.structArrays();
    if (sa.data.size() > 0) {
        for (size_t i = 0; i < sa.data.size(); ++i)
            h.value(hashOf(access(sa.data[i]), h.sharedState()));
        h.span(std::span<const uint32_t>(sa.offsets));
    }
    const auto& maps = c.maps();
    for (size_t i = 0; i < maps.size(); ++i)
        hashMap(h, mapAccess(maps[i]));
    const auto ma = c.mapArrays();
    if (ma.data.size() > 0) {
        for (size_t i = 0; i < ma.data.size(); ++i)
            hashMap(h, mapAccess(ma.data[i]));
        h.span(std::span<const uint32_t>(ma.offsets));
    }
    hashFlat(h, c.vectorArrays());
    hashFlat(h, c.quatArrays());
    hashFlat(h, c.transformArrays());
    hashFlat(h, c.rangeArrays());
    hashFlat(h, c.boolArrays());
    const auto str = c.stringArrays();
    if (str.data.size() > 0) {
        hashStrings(h, str.data);
        h.span(std::span<const uint32_t>(str.offsets));
    }
    return h.digest();
}

} // namespace

uint64_t computeContentHash(ContainerView c)
{
    return hashOf(c, nullptr);
}
uint64_t computeContentHash(const PropertyContainerData& c)
{
    return hashOf(access(c), nullptr);
}

uint64_t computeSdkContentHash(ContainerView c)
{
    XXH3_state_t shared;
    return hashOf(c, &shared);
}
uint64_t computeSdkContentHash(const PropertyContainerData& c)
{
    XXH3_state_t shared;
    return hashOf(access(c), &shared);
}

void fillContentHashes(PropertyContainerData& c, HashVariant variant)
{
    for (auto& s : c.structs)
        fillContentHashes(s, variant);
    for (auto& s : c.structArrays.data)
        fillContentHashes(s, variant);
    for (auto& m : c.maps)
        for (auto& v : m.values)
            fillContentHashes(v, variant);
    for (auto& m : c.mapArrays.data)
        for (auto& v : m.values)
            fillContentHashes(v, variant);
    c.contentHash = variant == HashVariant::SdkTail ? computeSdkContentHash(c) : computeContentHash(c);
}

} // namespace vtx
