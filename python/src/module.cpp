// SPDX-License-Identifier: MIT
// _vtxscope: the compiled half of the `vtxscope` package. It returns plain data (dicts, lists,
// numpy arrays, JSON text of the core's own JSON builders); python/vtxscope/ wraps it in the
// documented API. Every call that reads the file runs with the GIL released.

#include "Core.hpp"
#include "Errors.hpp"
#include "PropertyWalk.hpp" // bench/: the full read the benchmarks measure
#include "Table.hpp"
#include "vtx/file/FrameTimes.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;
using namespace vtxpy;

namespace {

constexpr int kMaxDepth = 64; // as JsonExport: deeper nesting is hostile, not data
constexpr unsigned kMaxTableThreads = 64; // a thread count beyond any host here is a mistake, not a wish

/// How often a call took the GIL to look for Ctrl+C (test hook: `_signal_checks()`).
std::atomic<uint64_t> g_signalChecks{0};

/// Whether the calling thread is Python's main thread, the only one that runs signal handlers.
/// Called with the GIL held.
bool onMainThread()
{
    const py::module_ threading = py::module_::import("threading");
    return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

py::str text(std::string_view s)
{
    // FlatBuffers strings may hold any bytes: invalid UTF-8 becomes U+FFFD, as in the JSON.
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "replace");
    if (!o)
        throw py::error_already_set();
    return py::reinterpret_steal<py::str>(o);
}

/// Property values as Python objects (the classes live in vtxscope._frame).
struct ToPython {
    const vtx::Schema& schema;
    const py::module_& types;
    int depth = 0;

    py::object vec(const vtx::Vec3& v) const { return types.attr("Vec3")(v.x, v.y, v.z); }
    py::object quat(const vtx::Quat& q) const { return types.attr("Quat")(double(q.x), double(q.y), double(q.z), double(q.w)); }

    py::object operator()(vtx::Absent) const { return py::none(); }
    py::object operator()(bool v) const { return py::bool_(v); }
    py::object operator()(int32_t v) const { return py::int_(v); }
    py::object operator()(int64_t v) const { return py::int_(v); }
    py::object operator()(float v) const { return py::float_(double(v)); }
    py::object operator()(double v) const { return py::float_(v); }
    py::object operator()(std::string_view v) const { return text(v); }
    py::object operator()(const vtx::Vec3& v) const { return vec(v); }
    py::object operator()(const vtx::Quat& v) const { return quat(v); }
    py::object operator()(const vtx::Transform& t) const { return types.attr("Transform")(vec(t.translation), quat(t.rotation), vec(t.scale)); }
    py::object operator()(const vtx::FloatRange& r) const { return types.attr("Range")(double(r.min), double(r.max), double(r.valueNormalized)); }
    py::object operator()(vtx::ByteSpan b) const { return py::bytes(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size()); }
    py::object operator()(vtx::ContainerView c) const { return structObject(c, depth + 1); }
    py::object operator()(vtx::BoolSpan s) const
    {
        py::list l(s.values.size());
        for (size_t i = 0; i < s.values.size(); ++i)
            l[i] = py::bool_(s.values[i] != 0);
        return l;
    }
    template <class T> py::object operator()(std::span<const T> s) const
    {
        py::list l(s.size());
        for (size_t i = 0; i < s.size(); ++i)
            l[i] = (*this)(s[i]);
        return l;
    }
    template <class L> py::object operator()(const vtx::ListSlice<L>& s) const
    {
        py::list l(s.size());
        for (size_t i = 0; i < s.size(); ++i)
            l[i] = (*this)(s[i]);
        return l;
    }
    py::object operator()(vtx::MapView m) const
    {
        py::dict d;
        const vtx::StringList keys = m.keys();
        const vtx::ContainerList values = m.values();
        for (size_t i = 0; i < m.size(); ++i)
            d[text(keys[i])] = structObject(values[i], depth + 1);
        return d;
    }

    /// properties, unnamed ({member: {slot: value}}) and blobs ({field: bytes}) of a container.
    void fill(vtx::ContainerView c, int d, py::dict& props, py::dict& unnamed, py::dict& blobs) const
    {
        if (d > kMaxDepth)
            return;
        ToPython inner{schema, types, d};
        if (const vtx::StructDef* def = schema.structById(c.typeId()))
            for (const vtx::FieldDef& f : def->fields)
                if (!f.name.empty() && f.key.valid() && !f.shadowed)
                    props[text(f.name)] = vtx::visitProperty(c, f.key, inner);
        std::vector<vtx::UnnamedSlot> slots;
        vtx::unnamedSlots(c, schema, slots);
        for (const vtx::UnnamedSlot& u : slots) {
            py::object v = vtx::visitProperty(c, u.key, inner);
            const py::str member(vtx::containerMemberName(u.key.member));
            if (!unnamed.contains(member))
                unnamed[member] = py::dict();
            unnamed[member].cast<py::dict>()[py::int_(u.key.slot)] = v;
            if (u.blobOf)
                blobs[text(u.blobOf->name)] = v;
        }
    }

    py::object structObject(vtx::ContainerView c, int d) const
    {
        if (d > kMaxDepth)
            return py::none();
        py::dict props, unnamed, blobs;
        fill(c, d, props, unnamed, blobs);
        const vtx::StructDef* def = schema.structById(c.typeId());
        return types.attr("Struct")(def ? py::object(text(def->name)) : py::object(py::none()), props, unnamed, blobs);
    }
};

template <class T> py::array_t<T> toArray(std::vector<T>&& v)
{
    auto* heap = new std::vector<T>(std::move(v));
    py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>(py::ssize_t(heap->size()), heap->data(), owner);
}

py::array boolArray(std::vector<uint8_t>&& v)
{
    auto* heap = new std::vector<uint8_t>(std::move(v));
    py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<uint8_t>*>(p); });
    return py::array(py::dtype("bool"), {py::ssize_t(heap->size())}, {py::ssize_t(1)}, heap->data(), owner);
}

py::object jsonObject(const vtx::Json& j)
{
    // The core's JSON text (shortest round-trip numbers) read back by Python's json module.
    return py::module_::import("json").attr("loads")(vtx::jsonText(j));
}

/// An open replay: the file, and a chunk cache (one worker) for frame(n) under the budget.
class Replay {
public:
    Replay(const std::string& path, std::optional<double> budgetMb)
    {
        if (budgetMb && !(*budgetMb > 0))
            throw BindError("bad_argument", "budget_mb must be positive", ErrorContext{path, {}, {}, {}, {}, {}});
        m_budget = budgetMb ? size_t(*budgetMb * 1024 * 1024) : vtx::defaultCacheBudget();
        vtx::Result<std::shared_ptr<vtx::ReplayFile>> f = vtx::Error{};
        {
            py::gil_scoped_release release;
            f = vtx::ReplayFile::open(path);
        }
        if (!f)
            throwCore(f.error(), ErrorContext{path, {}, {}, {}, {}, {}});
        m_file = *f;
        vtx::CacheOptions co;
        co.budgetBytes = m_budget;
        co.workers = 1;
        m_cache = std::make_unique<vtx::ChunkCache>(m_file, co);
    }

    const vtx::ReplayFile& file() const
    {
        if (!m_file)
            throw BindError("bad_argument", "the replay is closed", ErrorContext{m_path, {}, {}, {}, {}, {}});
        return *m_file;
    }
    std::shared_ptr<vtx::ReplayFile> shared() const
    {
        file();
        return m_file;
    }

    void close()
    {
        py::gil_scoped_release release;
        m_cache.reset();
        if (m_file)
            m_path = m_file->path();
        m_file.reset();
    }

    size_t budget() const { return m_budget; }

    py::object info()
    {
        const vtx::ReplayFile& f = file();
        vtx::Json j;
        {
            py::gil_scoped_release release;
            f.gatherHashEvidence(); // as `vtxscope-cli info`: first, middle and last chunk
            j = vtx::infoJson(f);
        }
        return jsonObject(j);
    }

    py::dict schema() const
    {
        const vtx::Schema& s = file().schema();
        py::dict out;
        out["version"] = text(s.version());
        py::list buckets;
        for (const std::string& b : s.bucketNames())
            buckets.append(text(b));
        out["buckets"] = buckets;
        py::dict types;
        for (const vtx::StructDef& d : s.structs()) {
            py::dict fields;
            for (const vtx::FieldDef& f : d.fields) {
                if (f.name.empty() || f.shadowed)
                    continue;
                py::dict fd;
                fd["type"] = vtx::fieldTypeName(f.key.type);
                // "scalar" where the schema token (containerKindName) is "None".
                fd["container"] = f.key.container == vtx::ContainerKind::Scalar ? "scalar" : vtx::containerKindName(f.key.container);
                fd["struct_type"] = f.structType.empty() ? py::object(py::none()) : py::object(text(f.structType));
                fd["display_name"] = text(f.displayName);
                fd["category"] = text(f.category);
                fields[text(f.name)] = fd;
            }
            py::dict td;
            td["type_id"] = d.typeId;
            td["fields"] = fields;
            const vtx::FieldDef* name = displayNameField(d);
            td["display_name_field"] = name ? py::object(text(name->name)) : py::object(py::none());
            types[text(d.name)] = td;
        }
        out["types"] = types;
        return out;
    }

    py::tuple times() const
    {
        const vtx::ReplayTimes& t = file().footer().times;
        std::vector<int64_t> game = t.gameTime, utc = t.createdUtc;
        return py::make_tuple(toArray(std::move(game)), toArray(std::move(utc)));
    }

    py::object frame(int64_t n)
    {
        const vtx::ReplayFile& f = file();
        if (n < 0 || n >= f.frameCount())
            throw BindError("out_of_range", f.path() + ": frame " + std::to_string(n) + " is " + outOfRangeText(f.frameCount()),
                            ErrorContext{f.path(), n, {}, {}, {}, {}});
        vtx::Result<vtx::FrameHandle> h = vtx::Error{};
        vtx::FrameIntegrity integrity;
        {
            py::gil_scoped_release release;
            h = m_cache->get(int32_t(n));
            // A Protobuf frame can be handed out before the rest of its chunk is decoded; asked
            // again it comes once the chunk's fate is known, marked if the chunk is damaged
            // (integrity["chunk_damage"], as vtxscope-cli frame says it).
            if (h && h->chunk()->index() == vtx::ReplayFile::kPartialChunk && !h->chunk()->damage())
                h = m_cache->get(int32_t(n));
            if (h && !h->view().isNull())
                integrity = vtx::checkFrameIntegrity(h->view(), f.schema(), f.hashTrust().get());
        }
        if (!h) {
            ErrorContext c;
            c.path = f.path();
            if (auto ci = f.chunkForFrame(int32_t(n)))
                c = chunkContext(f, *ci);
            c.frame = n;
            throwCore(h.error(), c);
        }
        const vtx::FrameView& view = h->view();
        const vtx::Schema& schema = f.schema();
        py::module_ types = py::module_::import("vtxscope._frame");
        ToPython conv{schema, types, 0};
        py::list buckets;
        for (size_t b = 0; b < view.bucketCount(); ++b) {
            const vtx::BucketView bucket = view.bucket(b);
            py::list entities;
            for (size_t e = 0; e < bucket.entityCount(); ++e) {
                const vtx::ContainerView c = bucket.entity(e);
                const vtx::StructDef* def = schema.structById(c.typeId());
                py::dict props, unnamed, blobs;
                conv.fill(c, 0, props, unnamed, blobs);
                py::list damaged;
                for (const vtx::DamagedContainer* x : integrity.damageOf(uint32_t(b), uint32_t(e))) {
                    py::dict d;
                    d["path"] = text(x->path);
                    d["stored_hash"] = py::int_(x->stored);
                    d["reason"] = text(vtx::damageText(*x, schema));
                    damaged.append(d);
                }
                const std::string_view id = bucket.uniqueId(e);
                std::string_view name = id;
                if (def)
                    if (const vtx::FieldDef* nf = displayNameField(*def))
                        if (auto s = c.get<std::string_view>(nf->key); s && !s->empty())
                            name = *s;
                entities.append(types.attr("Entity")(def ? py::object(text(def->name)) : py::object(py::none()), props, unnamed, blobs, py::int_(b),
                                                     py::int_(e), text(id), py::int_(c.typeId()), py::int_(c.contentHash()), damaged, text(name)));
            }
            buckets.append(types.attr("Bucket")(py::int_(b), text(schema.bucketName(b)), entities));
        }
        py::dict integ;
        integ["checked"] = integrity.checked;
        integ["partly_covered"] = integrity.partlyCovered;
        integ["unchecked"] = integrity.unchecked;
        integ["damaged"] = integrity.damaged.size();
        integ["chunk_damage"] = py::none();
        if (const auto damage = h->chunk()->damage()) {
            py::dict d;
            d["chunk"] = damage->chunk;
            const bool frameLost = damage->chunk < f.chunks().size() && damage->firstFrame <= f.chunks()[damage->chunk].endFrame;
            d["first_unreadable_frame"] = frameLost ? py::object(py::int_(damage->firstFrame)) : py::object(py::none());
            d["later_frames_lost"] = damage->laterFramesLost;
            d["reason"] = text(damage->reason);
            integ["chunk_damage"] = d;
        }
        // A time the file does not hold (a recovered file lost them with its footer) is None, as
        // null in the CLI's JSON, not gameTimeTicks()'s 0.
        auto ticks = [](std::optional<int64_t> t) { return t ? py::object(py::int_(*t)) : py::object(py::none()); };
        return types.attr("Frame")(py::int_(n), ticks(vtx::heldGameTimeTicks(f, int32_t(n))), ticks(vtx::heldCreatedUtcTicks(f, int32_t(n))), integ,
                                   buckets);
    }

    py::dict table(const std::string& type, const std::vector<std::string>& properties,
                   const py::array_t<int32_t, py::array::c_style | py::array::forcecast>& frames, const std::string& where, bool skipErrors,
                   unsigned threads)
    {
        const vtx::ReplayFile& f = file();
        TableRequest req;
        req.type = type;
        req.properties = properties;
        if (frames.ndim() != 1)
            throw BindError("bad_argument", "frames must be one-dimensional", ErrorContext{f.path(), {}, {}, {}, {}, {}});
        req.frames.assign(frames.data(), frames.data() + frames.shape(0));
        req.where = where;
        req.skipErrors = skipErrors;
        req.budgetBytes = m_budget;
        if (threads < 1 || threads > kMaxTableThreads)
            throw BindError("bad_argument", "threads must be within 1.." + std::to_string(kMaxTableThreads) + " (is " + std::to_string(threads) + ")",
                            ErrorContext{f.path(), {}, {}, {}, {}, {}});
        req.threads = threads;
        // Ctrl+C: between chunks, take the GIL for a moment and ask Python about signals. Only on
        // Python's main thread: signal handlers run nowhere else (PyErr_CheckSignals returns 0 on
        // other threads), and there each take waited on whatever held the GIL -- in a Dask worker,
        // its event loop serialising results and sampling stacks -- for nothing.
        bool interrupted = false;
        if (onMainThread()) {
            req.keepGoing = [&interrupted] {
                py::gil_scoped_acquire acquire;
                g_signalChecks.fetch_add(1, std::memory_order_relaxed);
                if (PyErr_CheckSignals() != 0) {
                    interrupted = true;
                    return false;
                }
                return true;
            };
        }
        TableResult r;
        try {
            py::gil_scoped_release release;
            r = buildTable(f, req);
        } catch (const BindError&) {
            if (interrupted)
                throw py::error_already_set(); // the KeyboardInterrupt PyErr_CheckSignals raised
            throw;
        }
        py::list columns;
        for (Column& c : r.columns) {
            py::dict d;
            d["name"] = text(c.name);
            switch (c.kind) {
            case Column::Kind::Bool: d["values"] = boolArray(std::move(c.bools)); break;
            case Column::Kind::Int64: d["values"] = toArray(std::move(c.ints)); break;
            case Column::Kind::Float32: d["values"] = toArray(std::move(c.floats)); break;
            case Column::Kind::Float64: d["values"] = toArray(std::move(c.doubles)); break;
            case Column::Kind::Category: {
                d["values"] = toArray(std::move(c.codes));
                py::list cats;
                for (const std::string& s : c.categories)
                    cats.append(text(s));
                d["categories"] = cats;
                break;
            }
            }
            d["valid"] = c.valid.empty() ? py::object(py::none()) : py::object(boolArray(std::move(c.valid)));
            columns.append(d);
        }
        py::list problems;
        for (const TableProblem& p : r.problems) {
            py::dict d;
            d["chunk"] = p.chunk >= 0 ? py::object(py::int_(p.chunk)) : py::object(py::none());
            d["first_frame"] = p.firstFrame;
            d["last_frame"] = p.lastFrame;
            d["message"] = text(p.message);
            problems.append(d);
        }
        py::dict out;
        out["columns"] = columns;
        out["problems"] = problems;
        out["rows"] = r.rows;
        out["chunks_decoded"] = r.chunksDecoded;
        out["decode_threads"] = r.decodeThreads;
        return out;
    }

    py::object query(const std::string& expression, int64_t from, int64_t to, unsigned threads)
    {
        const vtx::ReplayFile& f = file();
        if (to < 0)
            to = f.frameCount() - 1;
        if (from < 0 || from >= f.frameCount() || to >= f.frameCount() || from > to)
            throw BindError("out_of_range",
                            f.path() + ": frames " + std::to_string(from) + ".." + std::to_string(to) + " are " + outOfRangeText(f.frameCount()),
                            ErrorContext{f.path(), from, {}, {}, {}, {}});
        vtx::query::ExpressionError error;
        auto expr = vtx::query::Expression::compile(expression, f.schema(), &error);
        if (!expr) {
            ErrorContext c;
            c.path = f.path();
            c.column = int64_t(error.column);
            c.suggestion = error.suggestion;
            throw BindError("bad_expression", "expression: " + error.text(), c);
        }
        vtx::query::QueryScanOptions opt;
        opt.from = int32_t(from);
        opt.to = int32_t(to);
        opt.threads = threads;
        vtx::Result<vtx::query::QueryScanResult> result = vtx::Error{};
        vtx::Json j;
        {
            py::gil_scoped_release release;
            result = vtx::query::scanQuery(f, *expr, opt);
            if (result)
                j = vtx::query::queryJson(f, *expr, opt, *result);
        }
        if (!result)
            throwCore(result.error(), ErrorContext{f.path(), from, {}, {}, {}, {}});
        return jsonObject(j);
    }

    py::object diff(int64_t a, int64_t b, double epsilon, double relative, const std::vector<std::string>& ignore, bool useHash)
    {
        const vtx::ReplayFile& f = file();
        for (int64_t n : {a, b})
            if (n < 0 || n >= f.frameCount())
                throw BindError("out_of_range", f.path() + ": frame " + std::to_string(n) + " is " + outOfRangeText(f.frameCount()),
                                ErrorContext{f.path(), n, {}, {}, {}, {}});
        if (!(epsilon >= 0) || !(relative >= 0))
            throw BindError("bad_argument", "epsilon and relative must be >= 0", ErrorContext{f.path(), {}, {}, {}, {}, {}});
        vtx::DiffOptions opt;
        opt.tolerance.absolute = epsilon;
        opt.tolerance.relative = relative;
        opt.ignore = ignore;
        opt.useContentHash = useHash;
        vtx::Json j;
        vtx::Error err;
        int64_t failedFrame = -1;
        {
            py::gil_scoped_release release;
            auto fa = m_cache->get(int32_t(a));
            auto fb = fa ? m_cache->get(int32_t(b)) : vtx::Result<vtx::FrameHandle>(vtx::Error{});
            if (!fa) {
                err = fa.error();
                failedFrame = a;
            } else if (!fb) {
                err = fb.error();
                failedFrame = b;
            } else {
                const vtx::FrameDiff d = vtx::diffFrames(*fa, *fb, f.schema(), opt);
                j = vtx::diffJson(d, f.schema(), opt);
            }
        }
        if (failedFrame >= 0)
            throwCore(err, ErrorContext{f.path(), failedFrame, {}, {}, {}, {}});
        return jsonObject(j);
    }

    py::object validate(unsigned threads)
    {
        const vtx::ReplayFile& f = file();
        vtx::Json j;
        {
            py::gil_scoped_release release;
            j = vtx::validationJson(vtx::validate(f, {}, 200, threads), f.schema()); // types by name, as the CLI prints them
        }
        return jsonObject(j);
    }

private:
    std::shared_ptr<vtx::ReplayFile> m_file;
    std::unique_ptr<vtx::ChunkCache> m_cache;
    size_t m_budget = 0;
    std::string m_path;
};

py::object divergeJson(const Replay& a, const Replay& b, const std::string& align, int64_t offset, double epsilon, double relative,
                       const std::vector<std::string>& ignore, unsigned threads, bool skipUnreadable)
{
    const auto fa = a.shared();
    const auto fb = b.shared();
    vtx::DivergeOptions opt;
    if (align != "frame" && align != "time")
        throw BindError("bad_argument", "align must be 'frame' or 'time' (is '" + align + "')");
    if (!(epsilon >= 0) || !(relative >= 0))
        throw BindError("bad_argument", "epsilon and relative must be >= 0");
    opt.alignment = align == "frame" ? vtx::Alignment::Frame : vtx::Alignment::Time;
    opt.offset = offset;
    opt.tolerance.absolute = epsilon;
    opt.tolerance.relative = relative;
    opt.ignore = ignore;
    opt.threads = threads;
    opt.skipUnreadable = skipUnreadable;
    vtx::Result<vtx::DivergeReport> report = vtx::Error{};
    vtx::Json j;
    {
        py::gil_scoped_release release;
        report = vtx::diverge(*fa, *fb, opt);
        if (report)
            j = vtx::divergeJson(*report, fa->path(), fb->path());
    }
    if (!report)
        throwCore(report.error(), ErrorContext{fa->path() + " | " + fb->path(), {}, {}, {}, {}, {}});
    return jsonObject(j);
}

/// The baseline of the table() bench: every chunk decoded and every named property of every
/// entity read into a checksum (bench/PropertyWalk, the full read `vtxscope-bench` measures), in
/// C++ with the GIL released. Returns (values read, checksum).
py::tuple fullRead(const Replay& r)
{
    const auto f = r.shared();
    vtxbench::WalkTotals totals;
    {
        py::gil_scoped_release release;
        const vtxbench::PropertyWalk walk(f->schema());
        vtx::walkReplay(*f, {}, [&](int32_t, const vtx::FrameView& fv, const vtx::DecodedChunk&) { walk.frame(fv, totals); });
    }
    return py::make_tuple(totals.values, totals.checksum);
}

} // namespace

PYBIND11_MODULE(_vtxscope, m)
{
    m.doc() = "Compiled core of the vtxscope package (use the `vtxscope` module, not this one).";
    registerErrorTranslator();
    py::class_<Replay>(m, "Replay")
        .def(py::init<const std::string&, std::optional<double>>(), py::arg("path"), py::arg("budget_mb") = py::none())
        .def("close", &Replay::close)
        .def_property_readonly("path", [](const Replay& r) { return r.file().path(); })
        .def_property_readonly("frame_count", [](const Replay& r) { return r.file().frameCount(); })
        .def_property_readonly("backend", [](const Replay& r) { return std::string(vtx::backendName(r.file().backend())); })
        .def_property_readonly("is_recovered", [](const Replay& r) { return r.file().isRecovered(); })
        .def_property_readonly("budget_bytes", &Replay::budget)
        .def_property_readonly("chunk_count", [](const Replay& r) { return r.file().chunks().size(); })
        .def("chunk_frames",
             [](const Replay& r) {
                 py::list l;
                 for (const vtx::ChunkEntry& c : r.file().chunks())
                     l.append(py::make_tuple(c.startFrame, c.endFrame));
                 return l;
             })
        .def("info", &Replay::info)
        .def("schema", &Replay::schema)
        .def("times", &Replay::times)
        .def("frame", &Replay::frame, py::arg("n"))
        .def("table", &Replay::table, py::arg("type"), py::arg("properties"), py::arg("frames"), py::arg("where"), py::arg("skip_errors"),
             py::arg("threads") = vtx::kScanThreads)
        .def("query", &Replay::query, py::arg("expression"), py::arg("start"), py::arg("stop"), py::arg("threads"))
        .def("diff", &Replay::diff, py::arg("a"), py::arg("b"), py::arg("epsilon"), py::arg("relative"), py::arg("ignore"), py::arg("use_hash"))
        .def("validate", &Replay::validate, py::arg("threads"));
    m.def("diverge", &divergeJson, py::arg("a"), py::arg("b"), py::arg("align"), py::arg("offset"), py::arg("epsilon"), py::arg("relative"),
          py::arg("ignore"), py::arg("threads"), py::arg("skip_unreadable"));
    m.def("_full_read", &fullRead, py::arg("replay"), "Bench baseline: decode every chunk, read every named property.");
    m.def(
        "_signal_checks", [] { return g_signalChecks.load(std::memory_order_relaxed); },
        "Test hook: how many times a call took the GIL between chunks to look for Ctrl+C.");
    m.def("default_budget_bytes", [] { return vtx::defaultCacheBudget(); });
    m.attr("SCAN_THREADS") = vtx::kScanThreads;
}
