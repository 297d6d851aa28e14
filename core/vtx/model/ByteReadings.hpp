// SPDX-License-Identifier: MIT
#pragma once
// What the bytes at an offset of a byte array read as (little-endian, as every VTX writer
// stores numbers): the inspector's hex view shows these beside the dump, like the SDK's own
// inspector, so a payload no schema describes can still be read.

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

namespace vtx {

struct ByteReadings {
    std::optional<int8_t> i8;
    std::optional<uint8_t> u8;
    std::optional<int16_t> i16;
    std::optional<uint16_t> u16;
    std::optional<int32_t> i32;
    std::optional<uint32_t> u32;
    std::optional<int64_t> i64;
    std::optional<uint64_t> u64;
    std::optional<float> f32;
    std::optional<double> f64;
};

namespace detail {
template <class T> std::optional<T> readLittleEndian(std::span<const uint8_t> bytes, size_t offset)
{
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
        return std::nullopt;
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    static_assert(std::endian::native == std::endian::little, "VTX numbers are little-endian; a big-endian host would swap here");
    return v;
}
} // namespace detail

/// Every reading that fits at `offset` (the ones that run past the end are empty).
inline ByteReadings readBytesAt(std::span<const uint8_t> bytes, size_t offset)
{
    using detail::readLittleEndian;
    ByteReadings r;
    r.i8 = readLittleEndian<int8_t>(bytes, offset);
    r.u8 = readLittleEndian<uint8_t>(bytes, offset);
    r.i16 = readLittleEndian<int16_t>(bytes, offset);
    r.u16 = readLittleEndian<uint16_t>(bytes, offset);
    r.i32 = readLittleEndian<int32_t>(bytes, offset);
    r.u32 = readLittleEndian<uint32_t>(bytes, offset);
    r.i64 = readLittleEndian<int64_t>(bytes, offset);
    r.u64 = readLittleEndian<uint64_t>(bytes, offset);
    r.f32 = readLittleEndian<float>(bytes, offset);
    r.f64 = readLittleEndian<double>(bytes, offset);
    return r;
}

} // namespace vtx
