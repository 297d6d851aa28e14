// SPDX-License-Identifier: MIT
#pragma once
// The query language: one expression, parsed once and bound to a Schema, evaluated on frame
// views without allocating. The entity filter, Find frame where…, Find all, the diff filter and
// `vtxscope-cli query` all compile their text here.
//
//   expr    := and ('||' and)*
//   and     := not ('&&' not)*
//   not     := '!' not | '(' expr ')' | cmp
//   cmp     := value (OP value | 'contains' value)?      OP: == != < <= > >=
//   value   := PATH | NUMBER | '-' NUMBER | STRING | true | false | type | id
//            | any '(' expr ')' | all '(' expr ')' | changed '(' PATH ')'
//
// PATH is written as the inspector writes it (Health, Pose.translation.z, Trail[2].x,
// RoundStats[round_1].Kills); `Player.Health` is type-qualified when `Player` is a type of the
// schema (true only for Player entities). `type` is the entity's type name (`type == Player`),
// `id` its unique id. A bare value is a condition only when it is a bool property or a bool
// literal. Unknown properties and types are errors at compile time, with a suggestion.
//
// Semantics (README "Query language"): an expression is evaluated per entity; comparisons with
// an absent property are false whatever the operator; numbers compare as IEEE doubles (NaN is
// unequal to everything, itself included, so `x != x` finds NaN; -0 == +0), int64 pairs
// exactly, a float32 property against a literal with the literal rounded to float32; strings
// compare bytewise (UTF-8); `any(e)` / `all(e)` evaluate e on every entity of the frame;
// `changed(p)` compares p with the same entity (bucket and unique id) in the previous frame.

#include "vtx/model/FrameView.hpp"
#include "vtx/model/PropertyPath.hpp"
#include "vtx/model/Schema.hpp"
#include "vtx/model/Value.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vtx::query {

/// A compile error: where (0-based column in code points) and what was expected or is wrong.
struct ExpressionError {
    size_t column = 0;
    std::string message; ///< "expected a value after '<', found the end", "unknown property 'Helth'"
    std::string suggestion; ///< from the schema ("Health"); empty when nothing is close
    /// "column 7: unknown property 'Helth' (did you mean 'Health'?)"
    std::string text() const;
};

class Expression {
public:
    /// Parses and binds `text` to `schema`; nullopt with `*error` filled on failure.
    static std::optional<Expression> compile(std::string_view text, const Schema& schema, ExpressionError* error);

    const std::string& text() const { return m_text; }
    /// Whether the expression names the entity (a path, type, id or changed() outside any/all).
    /// If not, it is about the frame: the frame matches when it is true and no entity is listed.
    bool perEntity() const { return m_perEntity; }
    /// Whether changed() appears: callers then pass the previous frame.
    bool usesPrevious() const { return m_usesPrevious; }

    /// The frame later calls evaluate on, and the frame before it (null: unknown, so changed()
    /// is false). Clears the per-frame any()/all() results. Views must outlive the evaluation.
    void setFrame(FrameView frame, FrameView previous = {});
    /// Whether entity `index` of `bucket` in the frame given to setFrame matches.
    bool matchesEntity(uint32_t bucket, size_t index);
    /// Per-entity expression: whether any entity matches; otherwise the expression's value.
    bool matchesFrame();
    /// Calls f(bucket, index) for each matching entity of the current frame (none when !perEntity()).
    template <class F> void forEachMatch(F&& f)
    {
        if (!m_perEntity)
            return;
        if (m_root < 0)
            return;
        for (const FrameEntity e : m_frame.entities()) // the entity at hand: no second lookup by index
            if (test(m_root, Ctx{e.entity, e.bucket, e.index}))
                f(e.bucket, e.index);
    }

    // The compiled form, public for the compiler in Compiler.cpp; callers use the API above.
    enum class Op : uint8_t { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, Contains };
    enum class NodeKind : uint8_t {
        Or,
        And,
        Not,
        Compare,
        Truthy,
        Const,
        TypeIs,
        Any,
        All,
        Changed, // conditions
        Literal,
        Path,
        TypeName,
        Id, // values
    };
    struct Node {
        NodeKind kind = NodeKind::Const;
        Op op = Op::Equal;
        int32_t a = -1, b = -1; ///< children (Or/And/Not/Compare/Truthy/Any/All)
        int32_t index = -1; ///< Path/Changed: into m_paths; TypeIs: type id; Any/All: cache slot
        bool flag = false; ///< Const: the value; TypeIs: negated
        bool numberLiteral = false; ///< Literal from a number token (rounded to float32 against float properties)
        Value literal; ///< Literal (a string literal's text lives in `str`)
        std::string str;
    };
    /// A path bound per entity type: byType[t] evaluates it on entities of type t (none: the
    /// property does not exist there, the value is absent).
    struct BoundPath {
        std::string text;
        std::vector<std::optional<PropertyPath>> byType;
        /// Per type, the field's key when the path is one plain field there
        /// (PropertyPath::scalarKey): read directly instead of walking the path.
        std::vector<PropertyKey> scalarByType;
    };
    std::string m_text;
    std::vector<Node> m_nodes;
    std::vector<BoundPath> m_paths;
    std::vector<std::string> m_typeNames;
    std::shared_ptr<const Schema> m_schema; ///< a copy: the expression may outlive the file it was compiled for
    int32_t m_root = -1;
    int32_t m_cacheSlots = 0;
    bool m_perEntity = false;
    bool m_usesPrevious = false;

private:
    struct Ctx {
        ContainerView entity;
        uint32_t bucket = 0;
        size_t index = 0;
    };
    bool test(int32_t n, const Ctx& c);
    Value value(int32_t n, const Ctx& c);
    Value pathValue(int32_t pathIndex, ContainerView entity);
    bool compare(Op op, const Value& a, const Value& b, bool aLiteralNumber, bool bLiteralNumber) const;

    FrameView m_frame, m_previous;
    std::vector<int8_t> m_cache; ///< per any()/all(): -1 not computed in this frame, else 0/1
};

/// Edit distance (case-insensitive) suggestion: the candidate closest to `name`, or empty when
/// none is close enough to be a likely typo.
std::string closestName(std::string_view name, const std::vector<std::string_view>& candidates);

} // namespace vtx::query
