// SPDX-License-Identifier: MIT
#pragma once
// A vector property plotted in one action: as its x, y and z components (three series), or
// as its length (one). The components are the inspector's own paths ("Transform.translation.x"),
// so they read, export and name like any other property series.

#include "vtx/model/Value.hpp"
#include "vtx/plot/SeriesScan.hpp"

#include <QString>
#include <QStringList>

namespace vtxw {

enum class VectorPlot { Components, Length };

/// The path of the vector a value at `path` holds: `path` itself for a vector, its
/// ".translation" for a transform (where the entity is); empty for anything else.
QString vectorPathOf(const vtx::Value& value, const QString& path);
/// "path.x", "path.y", "path.z".
QStringList vectorComponentPaths(const QString& vectorPath);
/// The length series' path as the legend shows it: "|Transform.translation|".
QString vectorLengthName(const QString& vectorPath);

/// Reads |v| of the vector at a path (absent where the path holds no vector).
class VectorLengthValue final : public vtx::EntityValue {
public:
    explicit VectorLengthValue(vtx::PropertyPath path) : m_path(std::move(path)) { }
    std::optional<double> read(vtx::ContainerView entity, const vtx::Schema& schema) override;

private:
    vtx::PropertyPath m_path; ///< a copy per scan: its field cache is not thread-safe
};

/// A sampler for the length of the vector at entity.path; an error when the path does not parse.
vtx::Result<std::unique_ptr<vtx::SeriesSampler>> vectorLengthSampler(const vtx::Schema& schema, uint32_t bucket, const std::string& uniqueId,
                                                                     const std::string& vectorPath);

} // namespace vtxw
