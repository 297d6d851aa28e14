#pragma once
// What the entity filter box means. Plain text matches a unique id or type name (substring,
// any case). `PATH OP VALUE` (OP one of = == != < <= > >=) is a condition on one property:
// the whole path must name it (`Kills=1` never matches `RoundStats[round_1].Kills`), numbers
// compare as numbers (`Health=10` does not match 100; a float32 compares as the shortest
// decimal that reads back as it, the text the inspector shows), strings compare exactly
// (`Name=Alpha` or `Name="Alpha"`).

#include "vtx/FrameView.hpp"
#include "vtx/Schema.hpp"
#include "vtx/diff/FrameScan.hpp"

#include <QString>
#include <optional>

namespace vtxw {

class EntityFilter {
public:
    EntityFilter() = default;
    /// Parses the filter box's text; empty text accepts everything.
    static EntityFilter parse(const QString& text);

    bool isEmpty() const { return m_text.isEmpty() && !m_condition; }
    bool isCondition() const { return m_condition.has_value(); }
    /// Why a condition-looking text is not a usable condition (shown to the user), else empty.
    const QString& error() const { return m_error; }

    /// True when the entity (id, type name, container in the shown frame) passes the filter.
    bool accepts(const QString& uniqueId, const QString& typeName, vtx::ContainerView c, const vtx::Schema* schema) const;

private:
    QString m_text;
    std::optional<vtx::Condition> m_condition;
    QString m_error;
};

} // namespace vtxw
