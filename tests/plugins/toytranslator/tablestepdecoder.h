// TableStepDecoder: a real TextStepDecoder whose next-token distribution is a hand-written function
// of (source sentence, tokens generated so far). The decoding tests drive every search with it,
// and the toy translation plugin wraps it around a probability table read from a model package,
// so the CLI test goes through the same code path as real models.
//
// The state keeps, per row, the tokens it was fed; step() checks that each row's last token is
// the one the search says it is, so a wrong reorder() in a search shows up as an exception
// instead of a silently different result.
#pragma once

#include "engine/layers/stepdecoder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace glosa::toy {

class TableStepDecoder final : public engine::TextStepDecoder
{
public:
    // Probabilities (not logs) of the next token, [vocab], given the source and the history.
    // They need not be normalised; zeros become -inf.
    using Distribution = std::function<std::vector<double>(
        const std::vector<std::int32_t> &source, const std::vector<std::int32_t> &history)>;
    // Attention weights over the source, [source length], rows normalised here. The default puts
    // 0.7 on position min(history length, source length - 1) and spreads the rest evenly.
    using Attention = std::function<std::vector<double>(const std::vector<std::int32_t> &source,
                                                        const std::vector<std::int32_t> &history)>;

    TableStepDecoder(std::int64_t vocabulary, std::int32_t startToken, std::int32_t endToken,
                     Distribution distribution, Attention attention = {})
        : m_vocabulary(vocabulary), m_start(startToken), m_end(endToken),
          m_distribution(std::move(distribution)), m_attention(std::move(attention))
    {
        if (!m_attention)
            m_attention = defaultAttention;
    }

    std::int64_t vocabularySize() const override { return m_vocabulary; }
    std::int32_t startToken() const override { return m_start; }
    std::int32_t endToken() const override { return m_end; }

    std::int64_t stepCalls() const { return m_stepCalls; }
    std::int64_t rowsStepped() const { return m_rowsStepped; }

    std::unique_ptr<engine::DecoderState>
    encode(const std::vector<std::vector<std::int32_t>> &sources) override
    {
        auto state = std::make_unique<State>();
        state->sources = sources;
        for (std::size_t b = 0; b < sources.size(); ++b) {
            if (sources[b].empty())
                throw std::invalid_argument("TableStepDecoder: empty source " + std::to_string(b));
            state->maxSourceLength =
                std::max<std::int64_t>(state->maxSourceLength, sources[b].size());
            state->rowsData.push_back({static_cast<std::int32_t>(b), false, {}});
        }
        return state;
    }

protected:
    // step() has checked lastTokens' shape and ids.
    void advance(engine::DecoderState &base, const engine::Tensor &lastTokens,
                 engine::Tensor &logProbs, engine::Tensor &attention) override
    {
        auto &state = engine::stateOf<State>(base, "TableStepDecoder");
        const auto rows = static_cast<std::int64_t>(state.rowsData.size());
        ++m_stepCalls;
        m_rowsStepped += rows;
        logProbs.resize({rows, m_vocabulary});
        attention.resize({rows, state.maxSourceLength});
        const std::int32_t *last = lastTokens.data<std::int32_t>();
        for (std::int64_t r = 0; r < rows; ++r) {
            Row &row = state.rowsData[r];
            const std::int32_t token = last[r];
            if (!row.started) {
                if (token != m_start)
                    throw std::logic_error("TableStepDecoder: first token of row " +
                                           std::to_string(r) + " is " + std::to_string(token) +
                                           ", not the start token");
                row.started = true;
            } else {
                row.history.push_back(token);
            }
            const std::vector<std::int32_t> &source = state.sources[row.sentence];
            const std::vector<double> p = m_distribution(source, row.history);
            if (static_cast<std::int64_t>(p.size()) != m_vocabulary)
                throw std::logic_error("TableStepDecoder: distribution has " +
                                       std::to_string(p.size()) + " entries");
            double sum = 0.0;
            for (double value : p)
                sum += value;
            float *out = logProbs.data<float>() + r * m_vocabulary;
            for (std::int64_t v = 0; v < m_vocabulary; ++v)
                out[v] = p[v] > 0 ? static_cast<float>(std::log(p[v] / sum))
                                  : -std::numeric_limits<float>::infinity();
            const std::vector<double> a = m_attention(source, row.history);
            double total = 0.0;
            for (double value : a)
                total += value;
            float *att = attention.data<float>() + r * state.maxSourceLength;
            for (std::int64_t j = 0; j < state.maxSourceLength; ++j)
                att[j] = j < static_cast<std::int64_t>(source.size()) && total > 0
                             ? static_cast<float>(a[j] / total)
                             : 0.0f;
        }
    }

public:
    static std::vector<double> defaultAttention(const std::vector<std::int32_t> &source,
                                                const std::vector<std::int32_t> &history)
    {
        const std::size_t n = source.size();
        if (n == 1)
            return {1.0};
        std::vector<double> weights(n, 0.3 / static_cast<double>(n - 1));
        weights[std::min(history.size(), n - 1)] = 0.7;
        return weights;
    }

private:
    struct Row
    {
        std::int32_t sentence;
        bool started;
        std::vector<std::int32_t> history;
    };
    struct State final : engine::DecoderState
    {
        std::vector<std::vector<std::int32_t>> sources;
        std::vector<Row> rowsData;
        std::int64_t maxSourceLength = 0;
        std::int64_t rows() const override { return static_cast<std::int64_t>(rowsData.size()); }
        std::int64_t sourceLength(std::int64_t row) const override
        {
            return static_cast<std::int64_t>(sources[rowsData.at(row).sentence].size());
        }
        std::uint64_t sourceKey(std::int64_t row) const override
        {
            return engine::tokenKey(sources[rowsData.at(row).sentence]);
        }
        void reorder(const std::vector<std::int32_t> &origins) override
        {
            std::vector<Row> next;
            next.reserve(origins.size());
            for (std::int32_t origin : origins) {
                if (origin < 0 || origin >= static_cast<std::int32_t>(rowsData.size()))
                    throw std::out_of_range("TableStepDecoder: origin " + std::to_string(origin) +
                                            " outside [0, " + std::to_string(rowsData.size()) +
                                            ")");
                next.push_back(rowsData[origin]);
            }
            rowsData = std::move(next);
        }
    };

    std::int64_t m_vocabulary;
    std::int32_t m_start;
    std::int32_t m_end;
    Distribution m_distribution;
    Attention m_attention;
    std::int64_t m_stepCalls = 0;
    std::int64_t m_rowsStepped = 0;
};

} // namespace glosa::toy
