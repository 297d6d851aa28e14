// SPDX-License-Identifier: MIT
#include "vtx/model/ReplayData.hpp"

namespace vtx {

bool MapData::operator==(const MapData&) const = default;
bool PropertyContainerData::operator==(const PropertyContainerData&) const = default;

namespace {

template <class T> std::vector<T> vec(std::span<const T> s)
{
    return {s.begin(), s.end()};
}

std::vector<std::string> vec(StringList s)
{
    std::vector<std::string> out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i)
        out.emplace_back(s[i]);
    return out;
}

template <class T> FlatArray<T> flat(const FlatArrayView<T>& v)
{
    return {vec(v.data), vec(v.offsets)};
}

MapData toMap(MapView m)
{
    MapData out;
    out.keys = vec(m.keys());
    ContainerList values = m.values();
    for (size_t i = 0; i < values.size(); ++i)
        out.values.push_back(toData(values[i]));
    return out;
}

} // namespace

PropertyContainerData toData(ContainerView c)
{
    PropertyContainerData d;
    d.typeId = c.typeId();
    d.contentHash = c.contentHash();
    d.bools = vec(c.bools());
    d.int32s = vec(c.int32s());
    d.int64s = vec(c.int64s());
    d.floats = vec(c.floats());
    d.doubles = vec(c.doubles());
    d.strings = vec(c.strings());
    d.transforms = vec(c.transforms());
    d.vectors = vec(c.vectors());
    d.quats = vec(c.quats());
    d.ranges = vec(c.ranges());
    d.byteArrays = flat(c.byteArrays());
    d.int32Arrays = flat(c.int32Arrays());
    d.int64Arrays = flat(c.int64Arrays());
    d.floatArrays = flat(c.floatArrays());
    d.doubleArrays = flat(c.doubleArrays());
    d.vectorArrays = flat(c.vectorArrays());
    d.quatArrays = flat(c.quatArrays());
    d.transformArrays = flat(c.transformArrays());
    d.rangeArrays = flat(c.rangeArrays());
    d.boolArrays = flat(c.boolArrays());
    auto sa = c.stringArrays();
    d.stringArrays = {vec(sa.data), vec(sa.offsets)};
    ContainerList structs = c.structs();
    for (size_t i = 0; i < structs.size(); ++i)
        d.structs.push_back(toData(structs[i]));
    auto ca = c.structArrays();
    for (size_t i = 0; i < ca.data.size(); ++i)
        d.structArrays.data.push_back(toData(ca.data[i]));
    d.structArrays.offsets = vec(ca.offsets);
    MapList maps = c.maps();
    for (size_t i = 0; i < maps.size(); ++i)
        d.maps.push_back(toMap(maps[i]));
    auto ma = c.mapArrays();
    for (size_t i = 0; i < ma.data.size(); ++i)
        d.mapArrays.data.push_back(toMap(ma.data[i]));
    d.mapArrays.offsets = vec(ma.offsets);
    return d;
}

BucketData toData(BucketView b)
{
    BucketData out;
    out.uniqueIds = vec(b.uniqueIds());
    ContainerList e = b.entities();
    out.entities.reserve(e.size());
    for (size_t i = 0; i < e.size(); ++i)
        out.entities.push_back(toData(e[i]));
    out.typeRanges = vec(b.typeRanges());
    return out;
}

FrameData toData(FrameView f)
{
    FrameData out;
    for (size_t i = 0; i < f.bucketCount(); ++i)
        out.buckets.push_back(toData(f.bucket(i)));
    return out;
}

} // namespace vtx
