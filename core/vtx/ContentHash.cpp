#include "vtx/ContentHash.hpp"

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

namespace vtx {
namespace {

// Gives owned data the same accessor shape as ContainerView, so one hash routine serves both.
struct DataAccess {
    const PropertyContainerData& d;

    template <class T>
    static FlatArrayView<T> flat(const FlatArray<T>& a) { return {a.data, a.offsets}; }
    template <class T>
    struct OwnedFlat {
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

DataAccess access(const PropertyContainerData& d) { return {d}; }
ContainerView access(ContainerView c) { return c; }

class Hasher {
public:
    Hasher() { XXH3_64bits_reset(&m_state); }
    void bytes(const void* p, size_t n)
    {
        if (n)
            XXH3_64bits_update(&m_state, p, n);
    }
    template <class T>
    void span(std::span<const T> s) { bytes(s.data(), s.size_bytes()); }
    template <class T>
    void value(const T& v) { bytes(&v, sizeof v); }
    uint64_t digest() { return XXH3_64bits_digest(&m_state); }

private:
    XXH3_state_t m_state;
};

template <class C>
uint64_t hashOf(const C& c);

template <class Strings>
void hashStrings(Hasher& h, const Strings& s)
{
    for (size_t i = 0; i < s.size(); ++i) {
        std::string_view v = s[i];
        h.bytes(v.data(), v.size());
    }
}

template <class T>
void hashFlat(Hasher& h, const FlatArrayView<T>& a)
{
    if (a.data.empty())
        return;
    h.span(a.data);
    h.span(a.offsets);
}

template <class Map>
void hashMap(Hasher& h, const Map& m)
{
    hashStrings(h, m.keys());
    const auto& values = m.values();
    for (size_t i = 0; i < values.size(); ++i)
        h.value(hashOf(access(values[i])));
}

struct MapDataAccess {
    const MapData& m;
    const std::vector<std::string>& keys() const { return m.keys; }
    const std::vector<PropertyContainerData>& values() const { return m.values; }
};
MapDataAccess mapAccess(const MapData& m) { return {m}; }
MapView mapAccess(MapView m) { return m; }

template <class C>
uint64_t hashOf(const C& c)
{
    Hasher h;
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
        h.value(hashOf(access(structs[i])));
    const auto sa = c.structArrays();
    if (sa.data.size() > 0) {
        for (size_t i = 0; i < sa.data.size(); ++i)
            h.value(hashOf(access(sa.data[i])));
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

uint64_t computeContentHash(ContainerView c) { return hashOf(c); }
uint64_t computeContentHash(const PropertyContainerData& c) { return hashOf(access(c)); }

void fillContentHashes(PropertyContainerData& c)
{
    for (auto& s : c.structs)
        fillContentHashes(s);
    for (auto& s : c.structArrays.data)
        fillContentHashes(s);
    for (auto& m : c.maps)
        for (auto& v : m.values)
            fillContentHashes(v);
    for (auto& m : c.mapArrays.data)
        for (auto& v : m.values)
            fillContentHashes(v);
    c.contentHash = computeContentHash(c);
}

} // namespace vtx
