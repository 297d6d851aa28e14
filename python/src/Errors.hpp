// SPDX-License-Identifier: MIT
#pragma once
// Errors the module raises: a code and the context the call knows (path, frame, chunk, offset),
// turned into a vtxscope.Error subclass (python/vtxscope/_errors.py) by a pybind11 translator.

#include "Core.hpp"

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

namespace vtxpy {

/// Codes: the core's Errc ("failed", "superseded", "out_of_range") and the module's own
/// ("unknown_name", "bad_expression", "bad_argument").
struct ErrorContext {
    std::string path;
    std::optional<int64_t> frame;
    std::optional<int64_t> chunk;
    std::optional<uint64_t> offset;
    std::optional<int64_t> column; ///< bad_expression: 0-based column
    std::string suggestion; ///< bad_expression / unknown_name: "did you mean"
};

class BindError : public std::exception {
public:
    BindError(std::string code, std::string message, ErrorContext context = {})
        : m_code(std::move(code)), m_message(std::move(message)), m_context(std::move(context))
    {
    }
    const char* what() const noexcept override { return m_message.c_str(); }
    const std::string& code() const { return m_code; }
    const std::string& message() const { return m_message; }
    const ErrorContext& context() const { return m_context; }

private:
    std::string m_code;
    std::string m_message;
    ErrorContext m_context;
};

const char* errcName(vtx::Errc c);

/// A core error as a BindError, with what the caller knows about where it happened.
[[noreturn]] void throwCore(const vtx::Error& e, ErrorContext context);

/// The context of chunk `chunk` of `file`: path, chunk index, its record's offset and first frame.
ErrorContext chunkContext(const vtx::ReplayFile& file, size_t chunk);

/// "out of range (0..N-1)" for a file of `frameCount` frames; "out of range: the file has no
/// frames" for none (not "(0..-1)", which reads as a range).
std::string outOfRangeText(int64_t frameCount);

/// Installs the translator (call once from the module's init).
void registerErrorTranslator();

} // namespace vtxpy
