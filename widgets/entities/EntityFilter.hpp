// SPDX-License-Identifier: MIT
#pragma once
// What the entity filter box means. One word (no operator) matches a unique id or type name
// (substring, any case). Anything else is a query expression (README "Query language"),
// evaluated per entity on the shown frame and re-evaluated every frame: `Health < 50`,
// `Player.Health < 20 && IsAlive`, `type == Weapon`, `any(Health < 10) && Team == 2`. An
// expression that does not compile is an error shown to the user (with its column and a
// "did you mean"), and filters nothing: every entity stays listed rather than an empty list
// that would read as "no match".

#include "vtx/model/DecodedChunk.hpp"
#include "vtx/model/Schema.hpp"
#include "vtx/query/Expression.hpp"

#include <QString>
#include <optional>

namespace vtxw {

class EntityFilter {
public:
    EntityFilter() = default;
    /// Parses the filter box's text for `schema` (null: no file, plain text only); empty text
    /// accepts everything.
    static EntityFilter parse(const QString& text, const vtx::Schema* schema);

    const QString& text() const { return m_source; }
    bool isEmpty() const { return m_text.isEmpty() && !m_expression; }
    bool isCondition() const { return m_expression.has_value(); }
    /// Why an expression-looking text is not a usable expression (shown to the user), else empty.
    const QString& error() const { return m_error; }

    /// Before accepts() on a frame: binds an expression to it. `chunk` and `frame` identify it,
    /// so calling again for the same frame keeps the per-frame any()/all() results.
    void setFrame(const vtx::FrameHandle& frame);
    /// True when entity `index` of `bucket` (id, type name, label in that frame) in the frame
    /// given to setFrame passes; one word matches the id, the type or the label.
    bool accepts(const QString& uniqueId, const QString& typeName, uint32_t bucket, size_t index, const QString& label = {});

private:
    QString m_source;
    QString m_text;
    std::optional<vtx::query::Expression> m_expression;
    QString m_error;
    const void* m_boundChunk = nullptr;
    int32_t m_boundFrame = -1;
};

} // namespace vtxw
