// SPDX-License-Identifier: MIT
#include "vtx/file/backend/ChunkLimits.hpp"

#include <algorithm>
#include <cstdint>

namespace vtx {
namespace {

using StringVector = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;

struct LimitWalk {
    const DecodeLimits& limits;
    std::string error;

    bool strings(const StringVector* v)
    {
        if (!v)
            return true;
        for (const flatbuffers::String* s : *v)
            if (s->size() > limits.maxStringBytes) {
                error = "a string of " + std::to_string(s->size()) + " bytes, more than the limit of " + std::to_string(limits.maxStringBytes) +
                    " bytes (maxStringBytes)";
                return false;
            }
        return true;
    }

    bool containers(const flatbuffers::Vector<flatbuffers::Offset<fbsvtx::PropertyContainer>>* v)
    {
        if (v)
            for (const fbsvtx::PropertyContainer* c : *v)
                if (!container(*c))
                    return false;
        return true;
    }

    bool maps(const flatbuffers::Vector<flatbuffers::Offset<fbsvtx::MapContainer>>* v)
    {
        if (v)
            for (const fbsvtx::MapContainer* m : *v)
                if (!strings(m->keys()) || !containers(m->values()))
                    return false;
        return true;
    }

    // The verifier checks a vector's length field, not that 8-byte elements are 8-byte aligned;
    // the views read doubles, int64s, vectors and transforms in place, so a hostile buffer must
    // not place them off their alignment (undefined behaviour, found by fuzz_diff).
    template <class T> bool aligned(const flatbuffers::Vector<T>* v, const char* member)
    {
        if (!v || reinterpret_cast<uintptr_t>(v->Data()) % 8 == 0)
            return true;
        error = std::string("misaligned ") + member + " (corrupt data)";
        return false;
    }

    template <class FlatArray> bool alignedData(const FlatArray* a, const char* member) { return !a || aligned(a->data(), member); }

    // Recursion is bounded by the verifier's table depth (DecodeLimits::maxTableDepth).
    bool container(const fbsvtx::PropertyContainer& c)
    {
        if (!aligned(c.int64_properties(), "int64_properties") || !aligned(c.double_properties(), "double_properties") ||
            !aligned(c.vector_properties(), "vector_properties") || !aligned(c.transform_properties(), "transform_properties") ||
            !alignedData(c.int64_arrays(), "int64_arrays") || !alignedData(c.double_arrays(), "double_arrays") ||
            !alignedData(c.vector_arrays(), "vector_arrays") || !alignedData(c.transform_arrays(), "transform_arrays"))
            return false;
        if (!strings(c.string_properties()))
            return false;
        if (auto* a = c.string_arrays(); a && !strings(a->data()))
            return false;
        if (!containers(c.any_struct_properties()) || !maps(c.map_properties()))
            return false;
        if (auto* a = c.any_struct_arrays(); a && !containers(a->data()))
            return false;
        if (auto* a = c.map_arrays(); a && !maps(a->data()))
            return false;
        return true;
    }
};

} // namespace

Status checkFrameLimits(const fbsvtx::Frame& frame, const DecodeLimits& limits, const std::string& what)
{
    const auto* buckets = frame.data();
    if (!buckets)
        return {};
    LimitWalk walk{limits, {}};
    for (flatbuffers::uoffset_t b = 0; b < buckets->size(); ++b) {
        const fbsvtx::Bucket* bucket = buckets->Get(b);
        const std::string where = what + ", bucket " + std::to_string(b);
        const size_t entities = bucket->entities() ? bucket->entities()->size() : 0;
        const size_t ids = bucket->unique_ids() ? bucket->unique_ids()->size() : 0;
        if (std::max(entities, ids) > limits.maxEntitiesPerBucket)
            return Error{where + " holds " + std::to_string(std::max(entities, ids)) + " entities, more than the limit of " +
                         std::to_string(limits.maxEntitiesPerBucket) + " (maxEntitiesPerBucket)"};
        if (!walk.strings(bucket->unique_ids()))
            return Error{where + ", unique ids: " + walk.error};
        if (auto* list = bucket->entities())
            for (flatbuffers::uoffset_t e = 0; e < list->size(); ++e)
                if (!walk.container(*list->Get(e)))
                    return Error{where + ", entity " + std::to_string(e) + ": " + walk.error};
    }
    return {};
}

Status checkChunkLimits(const fbsvtx::Chunk& chunk, const DecodeLimits& limits, const std::string& what)
{
    const auto* frames = chunk.frames();
    if (!frames)
        return {};
    for (flatbuffers::uoffset_t f = 0; f < frames->size(); ++f)
        if (Status s = checkFrameLimits(*frames->Get(f), limits, what + ": frame " + std::to_string(f) + " of the chunk"); !s)
            return s;
    return {};
}

} // namespace vtx
