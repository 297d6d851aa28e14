// SPDX-License-Identifier: MIT
#include "vtx/file/backend/ProtoChunkReader.hpp"

#include "vtx/base/AppendArray.hpp"
#include "vtx/base/Utf8.hpp"
#include "vtx/file/backend/FlatBufferWriter.hpp"
#include "vtx/file/backend/ProtoWire.hpp"

#include "vtx_generated.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <memory>
#include <vector>

namespace vtx {
namespace {

using wire::Cursor;
using wire::WireType;
using Ref = FlatBufferWriter::Ref;
using StringRef = Ref;
using ContainerRef = Ref;
using MapRef = Ref;
using PC = fbsvtx::PropertyContainer;

/// Thrown inside the reader only: the walk is deep and every read can fail, and unwinding to
/// flattenProtoChunk (which turns it into an Error) keeps each step one line.
struct ReadFailure {
    const uint8_t* at;
    std::string why;
};

/// Field values of one Flat*Array message: concatenated data plus the start offsets.
template <class T> struct FlatScratch {
    AppendArray<T> data;
    AppendArray<uint32_t> offsets;
    void clear()
    {
        data.clear();
        offsets.clear();
    }
};

/// What one PropertyContainer (or MapContainer) collects before its table is written. One per
/// nesting depth, reused for every container at that depth: no allocation per container.
struct ContainerScratch {
    AppendArray<uint8_t> bools;
    AppendArray<int32_t> int32s;
    AppendArray<int64_t> int64s;
    AppendArray<float> floats;
    AppendArray<double> doubles;
    AppendArray<StringRef> strings;
    AppendArray<fbsvtx::Transform> transforms;
    AppendArray<fbsvtx::Vector> vectors;
    AppendArray<fbsvtx::Quat> quats;
    AppendArray<fbsvtx::FloatRange> ranges;
    FlatScratch<uint8_t> byteArrays;
    FlatScratch<int32_t> int32Arrays;
    FlatScratch<int64_t> int64Arrays;
    FlatScratch<float> floatArrays;
    FlatScratch<double> doubleArrays;
    FlatScratch<fbsvtx::Vector> vectorArrays;
    FlatScratch<fbsvtx::Quat> quatArrays;
    FlatScratch<fbsvtx::Transform> transformArrays;
    FlatScratch<fbsvtx::FloatRange> rangeArrays;
    FlatScratch<uint8_t> boolArrays;
    FlatScratch<StringRef> stringArrays;
    AppendArray<ContainerRef> structs;
    FlatScratch<ContainerRef> structArrays;
    AppendArray<MapRef> maps;
    FlatScratch<MapRef> mapArrays;
    // A MapContainer at this depth.
    AppendArray<StringRef> mapKeys;
    AppendArray<ContainerRef> mapValues;
    /// Bit n - 2 set when field n (2..26) occurred in the container being read: only those are
    /// written and cleared (a container holds a few of the 25; visiting all 25 twice per
    /// container was a quarter of an RL-like chunk's flattening). Every other field is empty.
    uint32_t touched = 0;
};

// Depths as the FlatBuffers verifier counts tables: Chunk 1, Frame 2, Bucket 3, entity 4.
constexpr size_t kEntityDepth = 4;

class ChunkReader {
public:
    ChunkReader(FlatBufferWriter& out, const DecodeLimits& limits) : m_out(out), m_limits(limits) { }

    /// A Chunk holding one frame: the `frames` field at [p, end) of a FrameChunk (a jump's frame,
    /// handed out while the rest of its chunk still decodes).
    Ref singleFrameChunk(const uint8_t* p, const uint8_t* end, int32_t chunkIndex, size_t local)
    {
        AppendArray<Ref> frames;
        m_frame = local;
        frames.push_back(frame(p, end));
        m_frame = kNone;
        const Ref fv = refs(frames, p);
        FlatBufferWriter::Table t(m_out, false);
        t.addOffset(fbsvtx::Chunk::VT_FRAMES, fv);
        if (chunkIndex != 0)
            t.add32(fbsvtx::Chunk::VT_CHUNK_INDEX, uint32_t(chunkIndex));
        return t.end();
    }

    Ref chunk(const uint8_t* p, const uint8_t* end)
    {
        int32_t chunkIndex = 0;
        bool isCompressed = false;
        AppendArray<Ref> frames;
        Cursor c(p, end);
        while (!c.atEnd()) {
            const uint8_t* at = c.pos();
            uint32_t field;
            WireType type;
            tag(c, field, type);
            if (field == 1 && type == WireType::Varint) {
                chunkIndex = int32_t(uint32_t(varint(c)));
            } else if (field == 2 && type == WireType::Varint) {
                isCompressed = varint(c) != 0;
            } else if (field == 4 && type == WireType::Len) {
                // compressed_data (3) and compressed_frames (5) are never written (spec §1.3): skipped.
                auto [fp, fe] = message(c);
                m_frame = frames.size();
                frames.push_back(frame(fp, fe));
                m_frame = kNone;
            } else {
                skip(c, type, at);
            }
        }
        const Ref fv = refs(frames, p);
        FlatBufferWriter::Table t(m_out, false, 1); // the one table with a 1-byte field
        t.addOffset(fbsvtx::Chunk::VT_FRAMES, fv);
        if (chunkIndex != 0)
            t.add32(fbsvtx::Chunk::VT_CHUNK_INDEX, uint32_t(chunkIndex));
        if (isCompressed)
            t.add8(fbsvtx::Chunk::VT_IS_COMPRESSED, 1);
        return t.end();
    }

    static constexpr size_t kNone = size_t(-1);
    size_t m_frame = kNone, m_bucket = kNone, m_entity = kNone;

private:
    // ---- primitives ---------------------------------------------------------------------------

    // Failures are rare: out of line and cold, so the hot loops keep their registers.
    [[noreturn, gnu::noinline, gnu::cold]] static void fail(const uint8_t* at, const char* why) { throw ReadFailure{at, why}; }
    [[noreturn, gnu::noinline, gnu::cold]] static void failCount(const uint8_t* at, const char* before, size_t n, const char* after)
    {
        throw ReadFailure{at, before + std::to_string(n) + after};
    }
    [[noreturn, gnu::noinline, gnu::cold]] static void badTag(const Cursor& c)
    {
        Cursor probe(c.pos(), c.end());
        uint64_t wide = 0;
        if (!probe.varint(wide))
            fail(c.pos(), "truncated field tag");
        const uint32_t t = uint32_t(wide);
        if (probe.pos() - c.pos() > 5)
            fail(c.pos(), "field tag longer than five bytes");
        if ((t & 7) == 3 || (t & 7) == 4)
            failCount(c.pos(), "group field (wire type ", t & 7, "), which this format does not use");
        if ((t >> 3) == 0)
            fail(c.pos(), "field number 0");
        failCount(c.pos(), "invalid wire type ", t & 7, "");
    }

    [[gnu::always_inline]] static uint64_t varint(Cursor& c)
    {
        uint64_t v;
        if (!c.varint(v)) [[unlikely]]
            fail(c.pos(), "truncated or overlong varint");
        return v;
    }

    [[gnu::always_inline]] static void tag(Cursor& c, uint32_t& field, WireType& type)
    {
        if (!c.tag(field, type)) [[unlikely]]
            badTag(c);
    }

    [[gnu::always_inline]] static std::pair<const uint8_t*, const uint8_t*> message(Cursor& c)
    {
        const uint8_t* p;
        size_t n;
        if (!c.bytes(p, n)) [[unlikely]]
            fail(c.pos(), "length-delimited field runs past the end of its message");
        return {p, p + n};
    }

    static void skip(Cursor& c, WireType type, const uint8_t* at)
    {
        if (!c.skip(type))
            fail(at, "truncated field");
    }

    void depthCheck(size_t depth, const uint8_t* at) const
    {
        if (depth > m_limits.maxTableDepth) [[unlikely]]
            failCount(at, "nesting deeper than ", m_limits.maxTableDepth, " levels (maxTableDepth)");
    }

    /// The flattened form can be several times larger than the wire (1-byte varints become
    /// 4- or 8-byte values): keep it under FlatBuffers' 2 GiB before every large write.
    void room(size_t bytes, const uint8_t* at) const
    {
        if (bytes > kMaxFlattened || m_out.size() > kMaxFlattened - bytes) [[unlikely]]
            fail(at, "flattened chunk would exceed 2 GiB");
    }
    static constexpr size_t kMaxFlattened = size_t(FLATBUFFERS_MAX_BUFFER_SIZE) - (size_t(64) << 20);

    [[noreturn, gnu::noinline, gnu::cold]] void stringTooLong(const uint8_t* at, size_t n) const
    {
        throw ReadFailure{at,
                          "a string of " + std::to_string(n) + " bytes, more than the limit of " + std::to_string(m_limits.maxStringBytes) +
                              " bytes (maxStringBytes)"};
    }

    StringRef string(Cursor& c)
    {
        const uint8_t* at = c.pos();
        auto [p, e] = message(c);
        const size_t n = size_t(e - p);
        if (n > m_limits.maxStringBytes) [[unlikely]]
            stringTooLong(at, n);
        if (!validUtf8(p, n)) [[unlikely]]
            fail(at, "a string field is not valid UTF-8");
        room(n + 8, at);
        return m_out.string(p, n);
    }

    /// A repeated varint field, packed (one length-delimited run) or one element per tag.
    /// False when the wire type fits neither (the field is then skipped, as Protobuf does).
    template <class T, class Conv> static bool repeatedVarint(Cursor& c, WireType type, AppendArray<T>& out, Conv conv)
    {
        if (type == WireType::Varint) {
            out.push_back(conv(varint(c)));
            return true;
        }
        if (type != WireType::Len)
            return false;
        auto [p, e] = message(c);
        const size_t count = wire::packedVarintCount(p, size_t(e - p));
        if (count == 0 && p != e)
            fail(p, "packed varints end inside a value");
        T* dst = out.grow(count);
        Cursor in(p, e);
        for (size_t i = 0; i < count; ++i) {
            uint64_t v;
            if (!in.varint(v)) // more than ten bytes in one value
                fail(in.pos(), "overlong varint in a packed field");
            dst[i] = conv(v);
        }
        if (!in.atEnd())
            fail(in.pos(), "packed varints end inside a value");
        return true;
    }

    template <class T> static bool repeatedFixed(Cursor& c, WireType type, AppendArray<T>& out)
    {
        constexpr WireType single = sizeof(T) == 4 ? WireType::Fixed32 : WireType::Fixed64;
        if (type == single) {
            T v;
            if (!c.fixed(v))
                fail(c.pos(), "truncated fixed-width value");
            out.push_back(v);
            return true;
        }
        if (type != WireType::Len)
            return false;
        auto [p, e] = message(c);
        const size_t n = size_t(e - p);
        if (n % sizeof(T)) [[unlikely]]
            failCount(p, "packed fixed-width field of ", n, " bytes");
        if (n) // an empty packed run: nothing to copy (and out may have no storage yet)
            std::memcpy(static_cast<void*>(out.grow(n / sizeof(T))), p, n);
        return true;
    }

    static uint8_t toBoolByte(uint64_t v) { return uint8_t(v != 0); }
    static int32_t toSint32(uint64_t v) { return wire::zigzag32(v); }
    static int64_t toSint64(uint64_t v) { return wire::zigzag64(v); }
    static uint32_t toUint32(uint64_t v) { return uint32_t(v); }

    // ---- math messages: absent fields read as zero (proto3), repeated occurrences merge ---------

    /// Fields 1..N of one fixed-width type; the common encoding (one-byte tags, in order) takes the
    /// first branch.
    template <class T, size_t N> static void fixedFields(const uint8_t* p, const uint8_t* e, T (&out)[N])
    {
        constexpr unsigned wt = sizeof(T) == 8 ? 1 : 5;
        while (p < e) {
            const unsigned t = *p;
            const unsigned index = (t >> 3) - 1; // wraps for field 0 and multi-byte tags: > N
            if ((t & 7) == wt && index < N && size_t(e - p) > sizeof(T)) [[likely]] {
                std::memcpy(&out[index], p + 1, sizeof(T));
                p += 1 + sizeof(T);
                continue;
            }
            p = fixedFieldSlow(p, e, out);
        }
    }
    /// Any other encoding of one field (long tags, unknown fields): one field, the general way.
    template <class T, size_t N> [[gnu::noinline]] static const uint8_t* fixedFieldSlow(const uint8_t* p, const uint8_t* e, T (&out)[N])
    {
        constexpr unsigned wt = sizeof(T) == 8 ? 1 : 5;
        Cursor c(p, e);
        uint32_t field;
        WireType type;
        tag(c, field, type);
        if (field >= 1 && field <= N && unsigned(type) == wt) {
            if (!c.fixed(out[field - 1]))
                fail(p, "truncated fixed-width value");
        } else {
            skip(c, type, p);
        }
        return c.pos();
    }

    static fbsvtx::Vector vector(const uint8_t* p, const uint8_t* e, double (&xyz)[3])
    {
        fixedFields(p, e, xyz);
        return {xyz[0], xyz[1], xyz[2]};
    }
    // What libprotobuf writes when every field is non-zero: one-byte tags in field order. Most
    // positions, rotations and bone transforms look like this; they skip the field loop.
    static constexpr size_t kFullVector = 27, kFullQuat = 20, kFullTransform = 2 + kFullVector + 2 + kFullQuat + 2 + kFullVector;
    static bool fullVector(const uint8_t* p) { return p[0] == 0x09 && p[9] == 0x11 && p[18] == 0x19; }
    static bool fullQuat(const uint8_t* p) { return p[0] == 0x0D && p[5] == 0x15 && p[10] == 0x1D && p[15] == 0x25; }
    static fbsvtx::Vector loadFullVector(const uint8_t* p)
    {
        double v[3];
        std::memcpy(&v[0], p + 1, 8);
        std::memcpy(&v[1], p + 10, 8);
        std::memcpy(&v[2], p + 19, 8);
        return {v[0], v[1], v[2]};
    }
    static fbsvtx::Quat loadFullQuat(const uint8_t* p)
    {
        float v[4];
        std::memcpy(&v[0], p + 1, 4);
        std::memcpy(&v[1], p + 6, 4);
        std::memcpy(&v[2], p + 11, 4);
        std::memcpy(&v[3], p + 16, 4);
        return {v[0], v[1], v[2], v[3]};
    }

    static fbsvtx::Vector vector(const uint8_t* p, const uint8_t* e)
    {
        if (e - p == kFullVector && fullVector(p))
            return loadFullVector(p);
        double xyz[3] = {0, 0, 0};
        return vector(p, e, xyz);
    }
    static fbsvtx::Quat quat(const uint8_t* p, const uint8_t* e, float (&xyzw)[4])
    {
        fixedFields(p, e, xyzw);
        return {xyzw[0], xyzw[1], xyzw[2], xyzw[3]};
    }
    static fbsvtx::Quat quat(const uint8_t* p, const uint8_t* e)
    {
        if (e - p == kFullQuat && fullQuat(p))
            return loadFullQuat(p);
        float xyzw[4] = {0, 0, 0, 0};
        return quat(p, e, xyzw);
    }
    static fbsvtx::FloatRange range(const uint8_t* p, const uint8_t* e)
    {
        float v[3] = {0, 0, 0};
        fixedFields(p, e, v);
        return {v[0], v[1], v[2]};
    }
    static fbsvtx::Transform transform(const uint8_t* p, const uint8_t* e)
    {
        if (e - p == kFullTransform && p[0] == 0x0A && p[1] == kFullVector && fullVector(p + 2) && p[29] == 0x12 && p[30] == kFullQuat &&
            fullQuat(p + 31) && p[51] == 0x1A && p[52] == kFullVector && fullVector(p + 53))
            return {loadFullVector(p + 2), loadFullQuat(p + 31), loadFullVector(p + 53)};
        double t[3] = {0, 0, 0}, s[3] = {0, 0, 0};
        float r[4] = {0, 0, 0, 0};
        Cursor c(p, e);
        while (!c.atEnd()) {
            const uint8_t* at = c.pos();
            uint32_t field;
            WireType type;
            tag(c, field, type);
            if (type == WireType::Len && field >= 1 && field <= 3) {
                auto [mp, me] = message(c);
                if (field == 1)
                    vector(mp, me, t);
                else if (field == 2)
                    quat(mp, me, r);
                else
                    vector(mp, me, s);
            } else {
                skip(c, type, at);
            }
        }
        return {fbsvtx::Vector(t[0], t[1], t[2]), fbsvtx::Quat(r[0], r[1], r[2], r[3]), fbsvtx::Vector(s[0], s[1], s[2])};
    }

    template <class S, S (*Parse)(const uint8_t*, const uint8_t*)> static bool repeatedMessage(Cursor& c, WireType type, AppendArray<S>& out)
    {
        if (type != WireType::Len)
            return false;
        auto [p, e] = message(c);
        out.push_back(Parse(p, e));
        return true;
    }

    // ---- Flat*Array messages: field 1 data, field 2 offsets -------------------------------------

    /// Reads the message at `c` into `out`; `data` reads one occurrence of field 1.
    template <class T, class Data> void flatArray(Cursor& c, FlatScratch<T>& out, Data data)
    {
        auto [p, e] = message(c);
        Cursor in(p, e);
        while (!in.atEnd()) {
            const uint8_t* at = in.pos();
            uint32_t field;
            WireType type;
            tag(in, field, type);
            const bool read = field == 1 ? data(in, type) : field == 2 ? repeatedVarint(in, type, out.offsets, toUint32) : false;
            if (!read)
                skip(in, type, at);
        }
    }

    // ---- containers ---------------------------------------------------------------------------

    ContainerScratch& scratch(size_t depth)
    {
        while (m_scratch.size() <= depth)
            m_scratch.push_back(std::make_unique<ContainerScratch>());
        return *m_scratch[depth];
    }

    template <class T> Ref vec(const AppendArray<T>& a, const uint8_t* at)
    {
        room(a.size() * sizeof(T) + 16, at);
        return m_out.vector(a.data(), a.size());
    }
    /// A vector of offsets (Ref is a plain uint32_t, hence another name than vec).
    Ref refs(const AppendArray<Ref>& a, const uint8_t* at)
    {
        room(a.size() * 4 + 16, at);
        return m_out.offsets(a.data(), a.size());
    }
    /// An all-offsets table with two fields (MapContainer, every Flat*Array): same layout.
    Ref pairTable(Ref first, Ref second)
    {
        FlatBufferWriter::Table t(m_out, false);
        if (first)
            t.addOffset(4, first);
        if (second)
            t.addOffset(6, second);
        return t.end();
    }

    MapRef map(const uint8_t* p, const uint8_t* e, size_t depth)
    {
        depthCheck(depth, p);
        ContainerScratch& s = scratch(depth);
        s.mapKeys.clear();
        s.mapValues.clear();
        Cursor c(p, e);
        while (!c.atEnd()) {
            const uint8_t* at = c.pos();
            uint32_t field;
            WireType type;
            tag(c, field, type);
            if (field == 1 && type == WireType::Len) {
                s.mapKeys.push_back(string(c));
            } else if (field == 2 && type == WireType::Len) {
                auto [vp, ve] = message(c);
                s.mapValues.push_back(container(vp, ve, depth + 1));
            } else {
                skip(c, type, at);
            }
        }
        const Ref values = refs(s.mapValues, p);
        const Ref keys = refs(s.mapKeys, p);
        static_assert(fbsvtx::MapContainer::VT_KEYS == 4 && fbsvtx::MapContainer::VT_VALUES == 6);
        return pairTable(keys, values);
    }

    ContainerRef container(const uint8_t* p, const uint8_t* e, size_t depth)
    {
        depthCheck(depth, p);
        ContainerScratch& s = scratch(depth); // empty: finishContainer clears what it wrote
        int32_t typeId = 0;
        uint64_t contentHash = 0;
        Cursor c(p, e);
        while (!c.atEnd()) {
            const uint8_t* at = c.pos();
            uint32_t field;
            WireType type;
            tag(c, field, type);
            bool read;
            if (field == 1) {
                if ((read = type == WireType::Varint))
                    typeId = int32_t(uint32_t(varint(c)));
            } else if (field == 27) {
                if ((read = type == WireType::Varint))
                    contentHash = varint(c);
            } else {
                read = ContainerFields::read(field, *this, c, type, s, depth, at); // fields 2..26
                if (read)
                    s.touched |= uint32_t(1) << (field - 2); // read: a number from 2 to 26
            }
            if (!read)
                skip(c, type, at);
        }
        return finishContainer(s, typeId, contentHash, p);
    }

    // ---- PropertyContainer fields 2..26: one row each in ContainerFields ----------------------
    //
    // A row names the field, the scratch member it collects into and how one element is read;
    // the reading, clearing and writing of every field follow from the rows. The dispatch on the
    // field number is a fold that GCC and clang compile to one jump table, as the switch it
    // replaced.

    // Element readers: one occurrence of a repeated field, or of a Flat*Array's data field, read
    // into `out`; false when the wire type fits neither form (the field is then skipped).
    // kRefs: the elements are offsets (strings, tables), written as a vector of offsets.
    template <auto Conv> struct Varints {
        static constexpr bool kRefs = false, kTables = false;
        template <class T> [[gnu::always_inline]] static bool read(ChunkReader&, Cursor& c, WireType t, AppendArray<T>& out, size_t)
        {
            return repeatedVarint(c, t, out, Conv);
        }
    };
    struct Fixeds {
        static constexpr bool kRefs = false, kTables = false;
        template <class T> [[gnu::always_inline]] static bool read(ChunkReader&, Cursor& c, WireType t, AppendArray<T>& out, size_t)
        {
            return repeatedFixed(c, t, out);
        }
    };
    /// A math message (Vector, Quat, Transform, FloatRange) parsed by `Parse`.
    template <class S, S (*Parse)(const uint8_t*, const uint8_t*)> struct Messages {
        static constexpr bool kRefs = false, kTables = false;
        [[gnu::always_inline]] static bool read(ChunkReader&, Cursor& c, WireType t, AppendArray<S>& out, size_t)
        {
            return repeatedMessage<S, Parse>(c, t, out);
        }
    };
    /// The SDK writes all bytes as one element; a reader must concatenate them (§3.2).
    struct Bytes {
        static constexpr bool kRefs = false, kTables = false;
        [[gnu::always_inline]] static bool read(ChunkReader&, Cursor& c, WireType t, AppendArray<uint8_t>& out, size_t)
        {
            if (t != WireType::Len)
                return false;
            auto [p, e] = message(c);
            out.append(p, size_t(e - p));
            return true;
        }
    };
    struct Strings {
        static constexpr bool kRefs = true, kTables = false;
        [[gnu::always_inline]] static bool read(ChunkReader& r, Cursor& c, WireType t, AppendArray<StringRef>& out, size_t)
        {
            if (t != WireType::Len)
                return false;
            out.push_back(r.string(c));
            return true;
        }
    };
    /// A nested container or map, read at `depth` by `Read`.
    template <Ref (ChunkReader::*Read)(const uint8_t*, const uint8_t*, size_t)> struct Tables {
        static constexpr bool kRefs = true, kTables = true;
        [[gnu::always_inline]] static bool read(ChunkReader& r, Cursor& c, WireType t, AppendArray<Ref>& out, size_t depth)
        {
            if (t != WireType::Len)
                return false;
            auto [p, e] = message(c);
            out.push_back((r.*Read)(p, e, depth));
            return true;
        }
    };

    /// A repeated field: each occurrence appends to s.*Member (nested tables one level deeper).
    template <uint32_t Number, auto Member, class Element> struct Repeated {
        static constexpr uint32_t kNumber = Number;
        static void clear(ContainerScratch& s) { (s.*Member).clear(); }
        [[gnu::always_inline]] static bool read(ChunkReader& r, Cursor& c, WireType t, ContainerScratch& s, size_t depth, const uint8_t*)
        {
            return Element::read(r, c, t, s.*Member, depth + 1);
        }
        /// As in the SDK's own files, an empty repeated field is left out.
        static Ref write(ChunkReader& r, const ContainerScratch& s, const uint8_t* at)
        {
            const auto& a = s.*Member;
            if (a.empty())
                return Ref(0);
            if constexpr (Element::kRefs)
                return r.refs(a, at);
            else
                return r.vec(a, at);
        }
    };

    /// A Flat*Array field (data: field 1, elements read by Element; offsets: field 2). Its table
    /// is one level deeper than the container, tables in its data two.
    template <uint32_t Number, auto Member, class Element> struct Flat {
        static constexpr uint32_t kNumber = Number;
        static void clear(ContainerScratch& s) { (s.*Member).clear(); }
        [[gnu::always_inline]] static bool read(ChunkReader& r, Cursor& c, WireType t, ContainerScratch& s, size_t depth, const uint8_t* at)
        {
            if (t != WireType::Len)
                return false;
            auto& a = s.*Member;
            if constexpr (Element::kTables)
                r.depthCheck(depth + 1, at);
            r.flatArray(c, a, [&](Cursor& in, WireType et) { return Element::read(r, in, et, a.data, depth + 2); });
            return true;
        }
        /// A Flat*Array without data is left out, as in the SDK's own files.
        static Ref write(ChunkReader& r, const ContainerScratch& s, const uint8_t* at)
        {
            const auto& a = s.*Member;
            if (a.data.empty())
                return Ref(0);
            Ref d;
            if constexpr (Element::kRefs)
                d = r.refs(a.data, at);
            else
                d = r.vec(a.data, at);
            return r.pairTable(d, r.vec(a.offsets, at));
        }
    };

    /// The rows, in field order from 2 (the FlatBuffers field ids are the Protobuf numbers - 1).
    template <class... Fields> struct FieldTable {
        static constexpr bool consecutive()
        {
            // A local array: clang 14 cannot read a static member array of the class template
            // being instantiated in a constant expression.
            constexpr uint32_t numbers[] = {Fields::kNumber...};
            for (size_t i = 0; i < sizeof...(Fields); ++i)
                if (numbers[i] != i + 2)
                    return false;
            return true;
        }
        /// Clears field `index` (its number - 2).
        [[gnu::always_inline]] static void clearOne(size_t index, ContainerScratch& s)
        {
            (void)((index == Fields::kNumber - 2 && (Fields::clear(s), true)) || ...);
        }
        /// Reads one occurrence of `field`; false when no row has it or its wire type does not fit.
        [[gnu::always_inline]] static bool read(uint32_t field, ChunkReader& r, Cursor& c, WireType t, ContainerScratch& s, size_t depth,
                                                const uint8_t* at)
        {
            bool read = false;
            (void)((field == Fields::kNumber && (read = Fields::read(r, c, t, s, depth, at), true)) || ...);
            return read;
        }
        static constexpr size_t kCount = sizeof...(Fields);
        /// Field `index`'s (its number - 2) vector or table; 0 when it is empty.
        [[gnu::always_inline]] static Ref writeOne(size_t index, ChunkReader& r, const ContainerScratch& s, const uint8_t* at)
        {
            static_assert(consecutive(), "rows in field order, from field 2, none missing");
            Ref out = 0;
            (void)((index == Fields::kNumber - 2 && (out = Fields::write(r, s, at), true)) || ...);
            return out;
        }
    };

    using S = ContainerScratch;
    using ContainerFields =
        FieldTable<Repeated<2, &S::bools, Varints<&toBoolByte>>, Repeated<3, &S::int32s, Varints<&toSint32>>,
                   Repeated<4, &S::int64s, Varints<&toSint64>>, Repeated<5, &S::floats, Fixeds>, Repeated<6, &S::doubles, Fixeds>,
                   Repeated<7, &S::strings, Strings>, Repeated<8, &S::transforms, Messages<fbsvtx::Transform, &transform>>,
                   Repeated<9, &S::vectors, Messages<fbsvtx::Vector, &vector>>, Repeated<10, &S::quats, Messages<fbsvtx::Quat, &quat>>,
                   Repeated<11, &S::ranges, Messages<fbsvtx::FloatRange, &range>>, Flat<12, &S::byteArrays, Bytes>,
                   Flat<13, &S::int32Arrays, Varints<&toSint32>>, Flat<14, &S::int64Arrays, Varints<&toSint64>>, Flat<15, &S::floatArrays, Fixeds>,
                   Flat<16, &S::doubleArrays, Fixeds>, Flat<17, &S::vectorArrays, Messages<fbsvtx::Vector, &vector>>,
                   Flat<18, &S::quatArrays, Messages<fbsvtx::Quat, &quat>>, Flat<19, &S::transformArrays, Messages<fbsvtx::Transform, &transform>>,
                   Flat<20, &S::rangeArrays, Messages<fbsvtx::FloatRange, &range>>, Flat<21, &S::boolArrays, Varints<&toBoolByte>>,
                   Flat<22, &S::stringArrays, Strings>, Repeated<23, &S::structs, Tables<&ChunkReader::container>>,
                   Flat<24, &S::structArrays, Tables<&ChunkReader::container>>, Repeated<25, &S::maps, Tables<&ChunkReader::map>>,
                   Flat<26, &S::mapArrays, Tables<&ChunkReader::map>>>;

    /// Writes the collected fields. As in the SDK's own files, an empty repeated field and a
    /// Flat*Array without data are left out.
    ContainerRef finishContainer(ContainerScratch& s, int32_t typeId, uint64_t contentHash, const uint8_t* at)
    {
        static_assert(PC::VT_BOOL_PROPERTIES == 6 && PC::VT_MAP_ARRAYS == 54 && PC::VT_CONTENT_HASH == 56 &&
                      ContainerFields::kCount == (PC::VT_MAP_ARRAYS - PC::VT_BOOL_PROPERTIES) / 2 + 1);
        // The fields that occurred, in field id order (as FlatBufferBuilder's users write them):
        // written children first, then the table. A field that did not occur is empty and would
        // write nothing. Each is cleared once written, for the next container at this depth.
        std::array<Ref, ContainerFields::kCount> fields; // set where `present` says
        uint32_t present = 0;
        for (uint32_t t = s.touched; t; t &= t - 1) {
            const unsigned i = unsigned(std::countr_zero(t));
            fields[i] = ContainerFields::writeOne(i, *this, s, at);
            present |= uint32_t(fields[i] != 0) << i;
        }
        for (uint32_t t = s.touched; t; t &= t - 1)
            ContainerFields::clearOne(unsigned(std::countr_zero(t)), s);
        s.touched = 0;

        room(256, at);
        FlatBufferWriter::Table t(m_out, contentHash != 0);
        if (contentHash)
            t.add64(PC::VT_CONTENT_HASH, contentHash);
        if (typeId)
            t.add32(PC::VT_TYPE_ID, uint32_t(typeId));
        for (; present; present &= present - 1) {
            const unsigned i = unsigned(std::countr_zero(present));
            t.addOffset(uint16_t(PC::VT_BOOL_PROPERTIES + 2 * i), fields[i]);
        }
        return t.end();
    }

    // ---- frames and buckets -------------------------------------------------------------------

    void entityCount(size_t n, const uint8_t* at) const
    {
        if (n > m_limits.maxEntitiesPerBucket) [[unlikely]]
            failCount(at, "more than ", m_limits.maxEntitiesPerBucket, " entities in one bucket (maxEntitiesPerBucket)");
    }

    Ref bucket(const uint8_t* p, const uint8_t* e)
    {
        m_ids.clear();
        m_entities.clear();
        m_ranges.clear();
        Cursor c(p, e);
        while (!c.atEnd()) {
            const uint8_t* at = c.pos();
            uint32_t field;
            WireType type;
            tag(c, field, type);
            if (field == 1 && type == WireType::Len) {
                entityCount(m_ids.size() + 1, at);
                m_ids.push_back(string(c));
            } else if (field == 2 && type == WireType::Len) {
                entityCount(m_entities.size() + 1, at);
                auto [ep, ee] = message(c);
                m_entity = m_entities.size();
                m_entities.push_back(container(ep, ee, kEntityDepth));
                m_entity = kNone;
            } else if (field == 3 && type == WireType::Len) {
                auto [rp, re] = message(c);
                int32_t v[2] = {0, 0};
                Cursor r(rp, re);
                while (!r.atEnd()) {
                    const uint8_t* rat = r.pos();
                    uint32_t rf;
                    WireType rt;
                    tag(r, rf, rt);
                    if ((rf == 1 || rf == 2) && rt == WireType::Varint)
                        v[rf - 1] = int32_t(uint32_t(varint(r)));
                    else
                        skip(r, rt, rat);
                }
                m_ranges.push_back(fbsvtx::EntityRange(v[0], v[1]));
            } else {
                skip(c, type, at);
            }
        }
        const Ref ids = m_ids.empty() ? 0 : refs(m_ids, p);
        const Ref ents = refs(m_entities, p);
        const Ref ranges = m_ranges.empty() ? 0 : vec(m_ranges, p);
        FlatBufferWriter::Table t(m_out, false);
        if (ids)
            t.addOffset(fbsvtx::Bucket::VT_UNIQUE_IDS, ids);
        t.addOffset(fbsvtx::Bucket::VT_ENTITIES, ents);
        if (ranges)
            t.addOffset(fbsvtx::Bucket::VT_TYPE_RANGES, ranges);
        return t.end();
    }

    Ref frame(const uint8_t* p, const uint8_t* e)
    {
        m_buckets.clear();
        Cursor c(p, e);
        while (!c.atEnd()) {
            const uint8_t* at = c.pos();
            uint32_t field;
            WireType type;
            tag(c, field, type);
            if (field == 1 && type == WireType::Len) {
                auto [bp, be] = message(c);
                m_bucket = m_buckets.size();
                m_buckets.push_back(bucket(bp, be));
                m_bucket = kNone;
            } else {
                skip(c, type, at);
            }
        }
        const Ref buckets = refs(m_buckets, p);
        FlatBufferWriter::Table t(m_out, false);
        t.addOffset(fbsvtx::Frame::VT_DATA, buckets);
        return t.end();
    }

    FlatBufferWriter& m_out;
    const DecodeLimits& m_limits;
    std::vector<std::unique_ptr<ContainerScratch>> m_scratch; ///< by depth
    AppendArray<StringRef> m_ids;
    AppendArray<ContainerRef> m_entities;
    AppendArray<fbsvtx::EntityRange> m_ranges;
    AppendArray<Ref> m_buckets;
};

/// What a ReadFailure says, with the frame, bucket and entity the reader was in.
std::string failureMessage(const ChunkReader& reader, const ReadFailure& f, const uint8_t* wireStart, const std::string& what)
{
    std::string where = what;
    if (reader.m_frame != ChunkReader::kNone)
        where += ": frame " + std::to_string(reader.m_frame) + " of the chunk";
    if (reader.m_bucket != ChunkReader::kNone)
        where += ", bucket " + std::to_string(reader.m_bucket);
    if (reader.m_entity != ChunkReader::kNone)
        where += ", entity " + std::to_string(reader.m_entity);
    return where + ": " + f.why + " (Protobuf FrameChunk, byte " + std::to_string(f.at - wireStart) + " of the decoded chunk)";
}

} // namespace

size_t ProtoFrameLocator::advance(std::span<const uint8_t> decoded)
{
    const size_t before = m_frames.size();
    while (!m_stopped && m_pos < decoded.size()) {
        Cursor c(decoded.data() + m_pos, decoded.data() + decoded.size());
        uint32_t field;
        WireType type;
        // A field cut by the end of the prefix is read again once more bytes are there.
        if (!c.tag(field, type))
            break;
        if (field == 4 && type == WireType::Len) {
            const uint8_t* p;
            size_t n;
            if (!c.bytes(p, n))
                break;
            m_frames.push_back({size_t(p - decoded.data()), size_t(p - decoded.data()) + n});
        } else if (field == 1 && type == WireType::Varint) {
            uint64_t v;
            if (!c.varint(v))
                break;
            m_chunkIndex = int32_t(uint32_t(v));
        } else if (type == WireType::StartGroup || type == WireType::EndGroup) {
            m_stopped = true; // malformed: the whole-chunk read names the error
            break;
        } else if (!c.skip(type)) {
            break;
        }
        m_pos = size_t(c.pos() - decoded.data());
    }
    return m_frames.size() - before;
}

Result<flatbuffers::DetachedBuffer> flattenProtoFrame(std::span<const uint8_t> wire, size_t begin, size_t end, int32_t chunkIndex, size_t local,
                                                      const DecodeLimits& limits, const std::string& what)
{
    if (begin > end || end > wire.size())
        return Error{what + ": frame " + std::to_string(local) + " of the chunk lies outside the decoded bytes"};
    FlatBufferWriter out((end - begin) * 2 + 1024);
    ChunkReader reader(out, limits);
    try {
        const Ref root = reader.singleFrameChunk(wire.data() + begin, wire.data() + end, chunkIndex, local);
        return out.finish(root);
    } catch (const ReadFailure& f) {
        return Error{failureMessage(reader, f, wire.data(), what)};
    }
}

size_t FlattenedSizeEstimate::capacityFor(size_t wireBytes) const
{
    // Never under 1.5x, the fixed ratio this replaced: giving CS-like chunks (1.26x) only what
    // they need saved no measurable time and raised a full read's peak RSS from 101 to 117 MB
    // (cs2_proto, 1 thread), as blocks of more sizes were recycled from one role into another
    // and more of each was touched. Tables and vtables of a chunk with few values outweigh its
    // wire bytes: 4 KiB of room.
    const double ratio = std::max(1.5, ratioPermille() * 1.05 / 1000.0);
    return size_t(double(wireBytes) * ratio) + 4096;
}

void FlattenedSizeEstimate::observe(size_t wireBytes, size_t flattenedBytes)
{
    if (wireBytes < 4096) // too small to say much about the next chunk
        return;
    // Clamped: one odd chunk must not make the next one reserve gigabytes.
    const double r = std::clamp(double(flattenedBytes) / double(wireBytes), 1.0, 8.0);
    m_ratioPermille.store(uint32_t(std::lround(r * 1000.0)), std::memory_order_relaxed);
}

FlattenedSizeEstimate& FlattenedSizeEstimate::shared()
{
    static FlattenedSizeEstimate estimate;
    return estimate;
}

Result<flatbuffers::DetachedBuffer> flattenProtoChunk(std::span<const uint8_t> wire, const DecodeLimits& limits, const std::string& what,
                                                      FlattenedSizeEstimate& sizing)
{
    if (wire.size() > size_t(INT32_MAX))
        return Error{what + ": Protobuf chunk larger than 2 GiB"};
    FlatBufferWriter out(sizing.capacityFor(wire.size()));
    ChunkReader reader(out, limits);
    try {
        const Ref root = reader.chunk(wire.data(), wire.data() + wire.size());
        sizing.observe(wire.size(), out.size() + 4); // + the root offset finish() adds
        return out.finish(root);
    } catch (const ReadFailure& f) {
        return Error{failureMessage(reader, f, wire.data(), what)};
    }
}

} // namespace vtx
