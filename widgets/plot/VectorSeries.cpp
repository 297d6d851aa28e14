// SPDX-License-Identifier: MIT
#include "plot/VectorSeries.hpp"

#include <cmath>

namespace vtxw {

QString vectorPathOf(const vtx::Value& value, const QString& path)
{
    switch (value.kind) {
    case vtx::Value::Kind::Vector: return path;
    case vtx::Value::Kind::Transform: return path + QStringLiteral(".translation");
    default: return {};
    }
}

QStringList vectorComponentPaths(const QString& vectorPath)
{
    return {vectorPath + QStringLiteral(".x"), vectorPath + QStringLiteral(".y"), vectorPath + QStringLiteral(".z")};
}

QString vectorLengthName(const QString& vectorPath)
{
    return QStringLiteral("|%1|").arg(vectorPath);
}

std::optional<double> VectorLengthValue::read(vtx::ContainerView entity, const vtx::Schema& schema)
{
    const vtx::Value v = m_path.evaluate(entity, schema);
    if (v.kind != vtx::Value::Kind::Vector)
        return std::nullopt;
    const vtx::Vec3& t = v.transform.translation;
    return std::sqrt(t.x * t.x + t.y * t.y + t.z * t.z);
}

vtx::Result<std::unique_ptr<vtx::SeriesSampler>> vectorLengthSampler(const vtx::Schema& schema, uint32_t bucket, const std::string& uniqueId,
                                                                     const std::string& vectorPath)
{
    auto parsed = vtx::PropertyPath::parse(vectorPath);
    if (!parsed)
        return parsed.status();
    return std::unique_ptr<vtx::SeriesSampler>(
        std::make_unique<vtx::EntitySampler>(schema, bucket, uniqueId, std::make_unique<VectorLengthValue>(std::move(*parsed))));
}

} // namespace vtxw
