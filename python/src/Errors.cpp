// SPDX-License-Identifier: MIT
#include "Errors.hpp"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace vtxpy {

const char* errcName(vtx::Errc c)
{
    switch (c) {
    case vtx::Errc::Failed: return "failed";
    case vtx::Errc::Superseded: return "superseded";
    case vtx::Errc::OutOfRange: return "out_of_range";
    }
    return "failed";
}

void throwCore(const vtx::Error& e, ErrorContext context)
{
    throw BindError(errcName(e.code), e.message, std::move(context));
}

ErrorContext chunkContext(const vtx::ReplayFile& file, size_t chunk)
{
    ErrorContext c;
    c.path = file.path();
    c.chunk = int64_t(chunk);
    if (chunk < file.chunks().size()) {
        c.offset = file.chunks()[chunk].fileOffset;
        c.frame = file.chunks()[chunk].startFrame;
    }
    return c;
}

void registerErrorTranslator()
{
    // NOLINTNEXTLINE(performance-unnecessary-value-param): pybind11 takes a void(*)(std::exception_ptr)
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const BindError& e) {
            // vtxscope._errors.make_error(code, message, **context) builds the right subclass.
            py::object make = py::module_::import("vtxscope._errors").attr("make_error");
            const ErrorContext& c = e.context();
            py::dict kw;
            kw["path"] = c.path.empty() ? py::object(py::none()) : py::object(py::str(c.path));
            auto opt = [](const auto& o) { return o ? py::object(py::int_(*o)) : py::object(py::none()); };
            kw["frame"] = opt(c.frame);
            kw["chunk"] = opt(c.chunk);
            kw["offset"] = opt(c.offset);
            if (c.column)
                kw["column"] = py::int_(*c.column);
            if (!c.suggestion.empty())
                kw["suggestion"] = py::str(c.suggestion);
            py::object err = make(e.code(), py::str(vtx::sanitizeUtf8(e.message())), **kw);
            PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
        }
    });
}

std::string outOfRangeText(int64_t frameCount)
{
    if (frameCount <= 0)
        return "out of range: the file has no frames";
    return "out of range (0.." + std::to_string(frameCount - 1) + ")";
}

} // namespace vtxpy
