// SPDX-License-Identifier: MIT
#pragma once
// The fuzz targets as plain functions, so the same bodies run under libFuzzer (clang,
// scripts/fuzz) and in the ordinary corpus-replay test (any compiler, every CTest run).
// Each takes arbitrary bytes and must return without crashing, hanging or allocating without
// bound; whatever it finds wrong in the input is an error value, never a fault.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace vtxfuzz {

/// A whole file: open (header, footer, schema, seek table, recovery), then decode every chunk
/// and render every frame.
void fuzzOpen(std::span<const uint8_t> data);
/// Byte 0 picks the backend; the rest is a stored chunk blob (zstd or raw). Decode, verify and
/// walk every frame: property trees, content hashes, JSON, paths.
void fuzzChunk(std::span<const uint8_t> data);
/// Schema JSON (spec §5).
void fuzzSchema(std::span<const uint8_t> data);
/// Byte 0 picks the backend and diff options, bytes 1..4 the length of chunk A; chunk B is the
/// rest. Diffs frames of A against frames of B and exports the result.
void fuzzDiff(std::span<const uint8_t> data);

struct Target {
    std::string_view name;
    void (*run)(std::span<const uint8_t>);
};
/// Every target, by the name used for its corpus folder and binary (fuzz_<name>).
std::span<const Target> targets();

} // namespace vtxfuzz
