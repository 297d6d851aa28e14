// SPDX-License-Identifier: MIT
#pragma once
// Owned, mutable replay data: what the writer serializes and what tests and the fixture
// generator build. The reader never produces these on its hot path (it hands out views);
// toData() copies a view into this form when a test or a tool needs an owned value.

#include "vtx/base/Types.hpp"
#include "vtx/model/FrameView.hpp"

#include <string>
#include <vector>

namespace vtx {

template <class T> struct FlatArray {
    std::vector<T> data;
    std::vector<uint32_t> offsets;
    size_t count() const { return offsets.size(); }
    /// Appends one sub-array.
    template <class Range> void push(const Range& items)
    {
        offsets.push_back(static_cast<uint32_t>(data.size()));
        data.insert(data.end(), std::begin(items), std::end(items));
    }
    bool operator==(const FlatArray&) const = default;
};

struct PropertyContainerData;

struct MapData {
    std::vector<std::string> keys;
    std::vector<PropertyContainerData> values;
    bool operator==(const MapData&) const;
};

struct PropertyContainerData {
    int32_t typeId = -1;
    uint64_t contentHash = 0; ///< filled by the writer (computeContentHash) when serializing

    std::vector<uint8_t> bools;
    std::vector<int32_t> int32s;
    std::vector<int64_t> int64s;
    std::vector<float> floats;
    std::vector<double> doubles;
    std::vector<std::string> strings;
    std::vector<Transform> transforms;
    std::vector<Vec3> vectors;
    std::vector<Quat> quats;
    std::vector<FloatRange> ranges;

    FlatArray<uint8_t> byteArrays;
    FlatArray<int32_t> int32Arrays;
    FlatArray<int64_t> int64Arrays;
    FlatArray<float> floatArrays;
    FlatArray<double> doubleArrays;
    FlatArray<Vec3> vectorArrays;
    FlatArray<Quat> quatArrays;
    FlatArray<Transform> transformArrays;
    FlatArray<FloatRange> rangeArrays;
    FlatArray<uint8_t> boolArrays;
    FlatArray<std::string> stringArrays;

    std::vector<PropertyContainerData> structs;
    FlatArray<PropertyContainerData> structArrays;
    std::vector<MapData> maps;
    FlatArray<MapData> mapArrays;

    bool operator==(const PropertyContainerData&) const;
};

struct BucketData {
    std::vector<std::string> uniqueIds;
    std::vector<PropertyContainerData> entities;
    std::vector<EntityRange> typeRanges;
    bool operator==(const BucketData&) const = default;
};

struct FrameData {
    std::vector<BucketData> buckets;
    bool operator==(const FrameData&) const = default;
};

struct TimelineEvent {
    float gameTimeSeconds = 0;
    std::string type;
    std::string label;
    Vec3 location;
    std::string entityUniqueId;
    bool operator==(const TimelineEvent&) const = default;
};

PropertyContainerData toData(ContainerView c);
BucketData toData(BucketView b);
FrameData toData(FrameView f);

} // namespace vtx
