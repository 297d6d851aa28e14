// SPDX-License-Identifier: MIT
#pragma once
// Byte access behind one small interface: a replay file, an in-memory buffer (tests, fuzzing),
// or later a growing file. Reads copy into caller memory, so nothing returned can be
// invalidated by the file changing underneath (no mmap SIGBUS).

#include "vtx/base/Status.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vtx {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Size at open time; reads beyond it fail.
    virtual uint64_t size() const = 0;
    /// Fills `out` completely from `offset` or fails. Thread-safe.
    virtual Status readAt(uint64_t offset, std::span<uint8_t> out) const = 0;
    /// Path or a descriptive name, used in error messages.
    virtual const std::string& name() const = 0;
};

Result<std::shared_ptr<const ByteSource>> openFileSource(const std::string& path);
std::shared_ptr<const ByteSource> memorySource(std::vector<uint8_t> bytes, std::string name = "<memory>");

} // namespace vtx
