// SPDX-License-Identifier: MIT
#pragma once
// Errors are values in the core: every fallible call returns a Status or a Result<T> whose
// message already names the file, offset, chunk or frame involved.

#include <cassert>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace vtx {

/// What kind of failure, for callers that react differently to them: they test the code,
/// never the message text. Most errors are Failed; the message says what and where.
enum class Errc : uint8_t {
    Failed, ///< anything else (bad bytes, I/O, limits): see the message
    Superseded, ///< a newer request on the same latest-wins channel replaced this one
    OutOfRange, ///< the frame (or chunk) does not exist in this file
};

struct Error {
    std::string message;
    Errc code = Errc::Failed;
};

class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error e) : m_error(std::move(e.message)), m_code(e.code), m_failed(true) { }
    static Status ok() { return {}; }
    bool isOk() const { return !m_failed; }
    explicit operator bool() const { return isOk(); }
    const std::string& message() const { return m_error; }
    Errc code() const { return m_code; }

private:
    std::string m_error;
    Errc m_code = Errc::Failed;
    bool m_failed = false;
};

template <class T> class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) { }
    Result(Error e) : m_v(std::in_place_index<1>, std::move(e)) { }
    Result(const Status& s) : m_v(std::in_place_index<1>, Error{s.message(), s.code()}) { assert(!s.isOk()); }

    bool isOk() const { return m_v.index() == 0; }
    explicit operator bool() const { return isOk(); }
    T& value() & { return std::get<0>(m_v); }
    const T& value() const& { return std::get<0>(m_v); }
    T&& value() && { return std::get<0>(std::move(m_v)); }
    T* operator->() { return &std::get<0>(m_v); }
    const T* operator->() const { return &std::get<0>(m_v); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    const std::string& message() const { return std::get<1>(m_v).message; }
    Errc code() const { return std::get<1>(m_v).code; }
    Error error() const { return std::get<1>(m_v); }
    Status status() const { return isOk() ? Status{} : Status{std::get<1>(m_v)}; }

private:
    std::variant<T, Error> m_v;
};

/// A recoverable problem found while reading (a strict-mode check, a bad chunk). The read goes
/// on; the GUI shows these in a problems list.
struct Problem {
    enum class Severity { Info, Warning, Error };
    Severity severity = Severity::Warning;
    std::string message;
};

} // namespace vtx
