// SPDX-License-Identifier: MIT
#include "vtx/integrity/FrameIntegrity.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/base/Utf8.hpp"
#include "vtx/integrity/ContentHash.hpp"
#include "vtx/integrity/HashTrust.hpp"

#include <algorithm>
#include <tuple>

namespace vtx {

bool FrameIntegrity::isDamaged(uint32_t bucket, uint32_t entity) const
{
    for (const DamagedContainer& d : damaged)
        if (d.bucket == bucket && d.entity == entity)
            return true;
    return false;
}

std::vector<const DamagedContainer*> FrameIntegrity::damageOf(uint32_t bucket, uint32_t entity) const
{
    std::vector<const DamagedContainer*> out;
    for (const DamagedContainer& d : damaged)
        if (d.bucket == bucket && d.entity == entity)
            out.push_back(&d);
    return out;
}

namespace {

constexpr int kMaxDepth = 64; // deeper nesting is refused by the decode limits long before

// The name of slot `slot` of `member` in a container of type `def`, as the inspector names it;
// a raw member and slot when no unshadowed field addresses it.
std::string fieldName(const StructDef* def, ContainerMember member, size_t slot)
{
    if (def)
        for (const FieldDef& f : def->fields)
            if (!f.shadowed && f.key.valid() && f.key.container != ContainerKind::Unnamed && memberOf(f.key) == member && f.key.slot == slot)
                return f.name;
    return std::string("#") + containerMemberName(member) + "[" + std::to_string(slot) + "]";
}

std::string join(const std::string& parent, const std::string& step)
{
    if (parent.empty() || step.starts_with("["))
        return parent + step;
    return parent + "." + step;
}

class IntegrityWalk {
public:
    IntegrityWalk(const Schema& schema, const HashTrust* trust, FrameIntegrity& out) : m_schema(schema), m_trust(trust), m_out(out) { }

    void entity(ContainerView c, uint32_t bucket, uint32_t entity, std::string_view uniqueId)
    {
        m_where.bucket = bucket;
        m_where.entity = entity;
        m_where.uniqueId = std::string(uniqueId);
        container(c, std::string(), 0);
    }

    // A type whose sampled hashes never matched either variant: its writer hashes differently
    // (or not at all), and a mismatch says nothing about damage.
    bool hashesUnderstood(int32_t typeId) const
    {
        if (!m_trust)
            return true;
        const HashEvidence e = m_trust->evidence(typeId);
        return e.sampled() == 0 || e.both + e.specOnly + e.sdkOnly > 0;
    }
    /// Containers without a stored hash: damage when the writer stores hashes (a container of
    /// this frame or of a sampled one matched a variant), else unchecked.
    /// Containers without a hash wait for finish(), and neither this walk nor the file's
    /// evidence can tell yet whether the writer stores hashes.
    bool undecidedWithoutFrame() const { return !m_zeroHash.empty() && m_out.checked == 0 && !hashesWritten(); }
    void setWriterStoresHashes(bool yes) { m_writerStoresHashes = yes; }

    void finish()
    {
        const bool written = m_writerStoresHashes || m_out.checked > 0 || hashesWritten();
        for (DamagedContainer& d : m_zeroHash) {
            if (written)
                m_out.damaged.push_back(std::move(d));
            else
                ++m_out.unchecked;
        }
        m_zeroHash.clear();
        std::stable_sort(m_out.damaged.begin(), m_out.damaged.end(), [](const DamagedContainer& a, const DamagedContainer& b) {
            return std::tie(a.bucket, a.entity) < std::tie(b.bucket, b.entity) ||
                (std::tie(a.bucket, a.entity) == std::tie(b.bucket, b.entity) && a.path.size() < b.path.size());
        });
    }

private:
    // Whether this file's writer stores hashes: some container of some type matched a variant.
    // Per file, not per type, because damage that wipes a table also wipes its type id.
    bool hashesWritten() const
    {
        if (m_hashesWritten < 0) {
            m_hashesWritten = 0;
            for (size_t t = 0; m_trust && t < m_trust->typeCount() && !m_hashesWritten; ++t) {
                const HashEvidence e = m_trust->evidence(int32_t(t));
                m_hashesWritten = e.both + e.specOnly + e.sdkOnly > 0;
            }
        }
        return m_hashesWritten > 0;
    }
    bool prefersSdk(int32_t typeId) const
    {
        if (!m_trust)
            return false;
        const HashEvidence e = m_trust->evidence(typeId);
        return e.sdkOnly > e.specOnly;
    }

    void container(ContainerView c, const std::string& path, int depth)
    {
        if (c.isNull() || depth > kMaxDepth)
            return;
        const uint64_t stored = c.contentHash();
        const int32_t type = c.typeId();
        if (stored == 0) {
            // FlatBuffers omit a field equal to its default, so damage that wipes a table's
            // vtable reads as "no hash" (and no values, type 0). In a file whose writer stores
            // hashes, a missing one is damage; decided at the end of the frame (finish()).
            m_zeroHash.push_back(m_where);
            DamagedContainer& d = m_zeroHash.back();
            d.path = path;
            d.typeId = type;
            d.spec = computeContentHash(c);
            d.sdk = c.hasNestedContainers() ? computeSdkContentHash(c) : d.spec;
            children(c, path, depth);
            return;
        }
        if (!hashesUnderstood(type)) {
            ++m_out.unchecked;
            children(c, path, depth);
            return;
        }
        const bool nested = c.hasNestedContainers();
        // The spec's hash recomputes every nested container, so a match clears the subtree.
        // Without nested containers both variants are the same computation.
        uint64_t spec = 0, sdk = 0;
        if (!nested || !prefersSdk(type)) {
            spec = computeContentHash(c);
            if (spec == stored) {
                ++m_out.checked;
                return;
            }
            if (!nested) {
                damage(c, path, stored, spec, spec);
                return;
            }
        }
        sdk = computeSdkContentHash(c);
        if (sdk == stored) {
            // The SDK variant covers the last nested container onwards; each nested container
            // has a stored hash of its own.
            ++m_out.checked;
            ++m_out.partlyCovered;
            children(c, path, depth);
            return;
        }
        if (spec == 0)
            spec = computeContentHash(c);
        if (spec == stored) {
            ++m_out.checked;
            return;
        }
        damage(c, path, stored, spec, sdk);
        children(c, path, depth); // say which nested containers are damaged too
    }

    void damage(ContainerView c, const std::string& path, uint64_t stored, uint64_t spec, uint64_t sdk)
    {
        DamagedContainer d = m_where;
        d.path = path;
        d.typeId = c.typeId();
        d.stored = stored;
        d.spec = spec;
        d.sdk = sdk;
        m_out.damaged.push_back(std::move(d));
    }

    void children(ContainerView c, const std::string& path, int depth)
    {
        const StructDef* def = m_schema.structById(c.typeId());
        const ContainerList s = c.structs();
        for (size_t i = 0; i < s.size(); ++i)
            container(s[i], join(path, fieldName(def, ContainerMember::Structs, i)), depth + 1);
        const auto sa = c.structArrays();
        for (size_t a = 0; a < sa.count(); ++a) {
            const auto elems = sa.at(a);
            const std::string base = join(path, fieldName(def, ContainerMember::StructArrays, a));
            for (size_t i = 0; i < elems.size(); ++i)
                container(elems[i], base + "[" + std::to_string(i) + "]", depth + 1);
        }
        const MapList maps = c.maps();
        for (size_t m = 0; m < maps.size(); ++m)
            mapValues(maps[m], join(path, fieldName(def, ContainerMember::Maps, m)), depth);
        const auto ma = c.mapArrays();
        for (size_t a = 0; a < ma.count(); ++a) {
            const auto elems = ma.at(a);
            const std::string base = join(path, fieldName(def, ContainerMember::MapArrays, a));
            for (size_t i = 0; i < elems.size(); ++i)
                mapValues(elems[i], base + "[" + std::to_string(i) + "]", depth);
        }
    }

    void mapValues(MapView m, const std::string& base, int depth)
    {
        const StringList keys = m.keys();
        const ContainerList values = m.values();
        for (size_t i = 0; i < values.size(); ++i)
            container(values[i], base + "[" + (i < keys.size() ? sanitizeUtf8(keys[i]) : std::to_string(i)) + "]", depth + 1);
    }

    const Schema& m_schema;
    const HashTrust* m_trust;
    FrameIntegrity& m_out;
    DamagedContainer m_where;
    std::vector<DamagedContainer> m_zeroHash;
    mutable int m_hashesWritten = -1;
    bool m_writerStoresHashes = false; ///< told by the caller (the frame around an entity)
};

} // namespace

FrameIntegrity checkFrameIntegrity(FrameView frame, const Schema& schema, const HashTrust* trust)
{
    FrameIntegrity out;
    if (frame.isNull())
        return out;
    IntegrityWalk walk(schema, trust, out);
    for (const FrameEntity e : frame.entities())
        walk.entity(e.entity, e.bucket, uint32_t(e.index), e.uniqueId());
    walk.finish();
    return out;
}

FrameIntegrity checkEntityIntegrity(ContainerView entity, const Schema& schema, const HashTrust* trust, FrameView frame)
{
    FrameIntegrity out;
    if (entity.isNull())
        return out;
    IntegrityWalk walk(schema, trust, out);
    walk.entity(entity, 0, 0, {});
    if (walk.undecidedWithoutFrame() && !frame.isNull()) {
        // Rare (a hash of 0 and no evidence yet): the whole frame decides, as for the frame check.
        const FrameIntegrity whole = checkFrameIntegrity(frame, schema, trust);
        walk.setWriterStoresHashes(whole.checked > 0);
    }
    walk.finish();
    return out;
}

std::string damageText(const DamagedContainer& d, const Schema& schema)
{
    const StructDef* def = schema.structById(d.typeId);
    std::string what = "stored hash of ";
    if (d.path.empty())
        what += (def ? def->name : "type " + std::to_string(d.typeId)) + " '" + sanitizeUtf8(d.uniqueId) + "'";
    else
        what += "'" + sanitizeUtf8(d.uniqueId) + "' ." + d.path;
    what +=
        " in bucket '" + schema.bucketName(d.bucket) + "' differs from its values: " + hex64(d.stored) + " stored, " + hex64(d.spec) + " recomputed";
    if (d.sdk != d.spec)
        what += " (" + hex64(d.sdk) + " by the SDK v0.2.0 variant)";
    return what;
}

} // namespace vtx
