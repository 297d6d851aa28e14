// SPDX-License-Identifier: MIT
#include "vtx/plot/ExpressionSeries.hpp"

#include <algorithm>

namespace vtx {

namespace {
class ExpressionSampler final : public SeriesSampler {
public:
    explicit ExpressionSampler(query::Expression e) : m_expression(std::move(e)) { }
    SeriesSample sample(const FrameView& frame, const DecodedChunk&) override
    {
        m_expression.setFrame(frame);
        if (!m_expression.perEntity())
            return {m_expression.matchesFrame() ? 1.0 : 0.0, false};
        size_t count = 0;
        m_expression.forEachMatch([&](uint32_t, size_t) { ++count; });
        return {double(count), false};
    }

private:
    query::Expression m_expression; ///< one per scan: evaluation keeps per-frame state
};
} // namespace

Result<std::unique_ptr<SeriesSampler>> expressionSampler(const Schema& schema, const std::string& text)
{
    query::ExpressionError error;
    auto e = query::Expression::compile(text, schema, &error);
    if (!e)
        return Error{"expression " + error.text()};
    if (e->usesPrevious())
        return Error{"expression: changed() cannot be plotted (a series is read chunk by chunk); use Go ▸ Find all frames where… for it"};
    return std::unique_ptr<SeriesSampler>(std::make_unique<ExpressionSampler>(std::move(*e)));
}

std::optional<TypedPropertyPath> typedPropertyPath(const Schema& schema, std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    const size_t dot = text.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 >= text.size())
        return std::nullopt;
    const StructDef* def = schema.structByName(text.substr(0, dot));
    if (!def)
        return std::nullopt;
    const std::string_view path = text.substr(dot + 1);
    const std::string_view first = path.substr(0, path.find_first_of(".["));
    const bool isField = std::any_of(def->fields.begin(), def->fields.end(), [&](const FieldDef& f) { return !f.shadowed && f.name == first; });
    if (!isField || !PropertyPath::parse(std::string(path)))
        return std::nullopt;
    return TypedPropertyPath{def->name, std::string(path)};
}

} // namespace vtx
