// SPDX-License-Identifier: MIT
#include "vtx/plot/SeriesScan.hpp"

#include "vtx/integrity/FrameIntegrity.hpp"

namespace vtx {

std::optional<double> PathEntityValue::read(ContainerView entity, const Schema& schema)
{
    const Value v = m_path.evaluate(entity, schema);
    if (!v.isNumber())
        return std::nullopt;
    return v.number;
}

EntitySampler::EntitySampler(const Schema& schema, uint32_t bucket, std::string uniqueId, std::unique_ptr<EntityValue> value, bool checkDamage)
    : m_schema(schema), m_bucket(bucket), m_id(std::move(uniqueId)), m_value(std::move(value)), m_checkDamage(checkDamage)
{
}

SeriesSample EntitySampler::sample(const FrameView& frame, const DecodedChunk& chunk)
{
    const ContainerView c = findEntity(frame, m_bucket, m_id, &m_hint);
    if (c.isNull())
        return {};
    SeriesSample s;
    s.value = m_value->read(c, m_schema);
    // Only a point that is drawn needs the (hashing) integrity check.
    if (s.value && m_checkDamage)
        s.damaged = !checkEntityIntegrity(c, m_schema, chunk.hashTrust(), frame).clean();
    return s;
}

SeriesScanResult scanSeries(const ReplayFile& file, std::span<const std::unique_ptr<SeriesSampler>> samplers, const WalkControl& control)
{
    SeriesScanResult r;
    r.series.resize(samplers.size());
    for (SeriesData& d : r.series) {
        d.frames.reserve(size_t(std::max(0, file.frameCount())));
        d.values.reserve(size_t(std::max(0, file.frameCount())));
    }
    WalkResult w = walkReplay(file, control, [&](int32_t f, const FrameView& fv, const DecodedChunk& chunk) {
        for (size_t i = 0; i < samplers.size(); ++i) {
            const SeriesSample s = samplers[i]->sample(fv, chunk);
            if (!s.value)
                continue;
            SeriesData& d = r.series[i];
            d.frames.push_back(f);
            d.values.push_back(*s.value);
            if (s.damaged)
                d.damagedFrames.push_back(f);
        }
    });
    r.failed = std::move(w.failed);
    r.cancelled = w.cancelled;
    if (r.cancelled)
        r.series.clear(); // a partial curve is never shown as if it were the series
    return r;
}

Result<std::unique_ptr<SeriesSampler>> propertySampler(const Schema& schema, uint32_t bucket, const std::string& uniqueId, const std::string& path)
{
    auto parsed = PropertyPath::parse(path);
    if (!parsed)
        return parsed.status();
    return std::unique_ptr<SeriesSampler>(
        std::make_unique<EntitySampler>(schema, bucket, uniqueId, std::make_unique<PathEntityValue>(std::move(*parsed))));
}

} // namespace vtx
