// SPDX-License-Identifier: MIT
#pragma once
// Reads every named property of every entity of a frame (recursing into structs, arrays and
// maps) and folds the values into a checksum, so the compiler cannot skip any read.

#include "vtx/model/PropertyVisit.hpp"
#include "vtx/model/Schema.hpp"

#include <bit>
#include <cstring>

namespace vtxbench {

struct WalkTotals {
    uint64_t values = 0;
    uint64_t checksum = 0;
};

class PropertyWalk {
public:
    explicit PropertyWalk(const vtx::Schema& schema) : m_schema(schema) { }

    void frame(const vtx::FrameView& f, WalkTotals& t) const
    {
        for (const vtx::FrameEntity e : f.entities())
            container(e.entity, t, 0);
    }

    void container(vtx::ContainerView c, WalkTotals& t, int depth) const
    {
        const vtx::StructDef* def = m_schema.structById(c.typeId());
        if (!def || depth > 32)
            return;
        Visitor v{*this, t, depth};
        for (const vtx::FieldDef& f : def->fields)
            if (f.key.valid())
                vtx::visitProperty(c, f.key, v);
    }

private:
    struct Visitor {
        const PropertyWalk& walk;
        WalkTotals& t;
        int depth;
        void mix(uint64_t bits)
        {
            t.checksum = (t.checksum ^ bits) * 0x100000001b3ull;
            ++t.values;
        }
        void operator()(vtx::Absent) { }
        void operator()(bool v) { mix(v); }
        void operator()(int32_t v) { mix(uint64_t(v)); }
        void operator()(int64_t v) { mix(uint64_t(v)); }
        void operator()(float v) { mix(std::bit_cast<uint32_t>(v)); }
        void operator()(double v) { mix(std::bit_cast<uint64_t>(v)); }
        void operator()(std::string_view v) { mix(v.size()); }
        void operator()(const vtx::Vec3& v) { (*this)(v.x), (*this)(v.y), (*this)(v.z); }
        void operator()(const vtx::Quat& q) { (*this)(q.x), (*this)(q.y), (*this)(q.z), (*this)(q.w); }
        void operator()(const vtx::Transform& x) { (*this)(x.translation), (*this)(x.rotation), (*this)(x.scale); }
        void operator()(vtx::ContainerView c) { walk.container(c, t, depth + 1); }
        // Only unnamed keys reach these; the walk visits named fields.
        void operator()(const vtx::FloatRange& r) { (*this)(r.min), (*this)(r.max), (*this)(r.valueNormalized); }
        void operator()(vtx::ByteSpan b) { mix(b.bytes.size()); }
        void operator()(vtx::BoolSpan s)
        {
            for (uint8_t b : s.values)
                mix(b);
        }
        template <class T> void operator()(std::span<const T> s)
        {
            for (const T& x : s)
                (*this)(x);
        }
        template <class L> void operator()(const vtx::ListSlice<L>& s)
        {
            for (size_t i = 0; i < s.size(); ++i)
                (*this)(s[i]);
        }
        void operator()(vtx::MapView m)
        {
            vtx::ContainerList values = m.values();
            vtx::StringList keys = m.keys();
            for (size_t i = 0; i < m.size(); ++i) {
                (*this)(keys[i]);
                (*this)(values[i]);
            }
        }
    };
    const vtx::Schema& m_schema;
};

} // namespace vtxbench
