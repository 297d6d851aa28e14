// SPDX-License-Identifier: MIT
#include "vtx/plot/ExpressionSeries.hpp"

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

} // namespace vtx
