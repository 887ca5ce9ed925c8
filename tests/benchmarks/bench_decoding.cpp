// bench_decoding: what the search, the samplers and the logits processors cost next to the model
// step they drive (target: < 5% of step time at beam 5 with a 16k vocabulary).
//
//     build/bin/bench_decoding [--vocab 16000] [--hidden 512] [--beam 5] [--steps 64]
//                              [--repeats 5] [--threads 1]
//
// The step is a realistic stand-in for a decoder's output layer, on the engine's own ops:
// embedding of each row's last token [rows, hidden] → Linear [hidden → vocab] (prepacked oneDNN
// matmul) → LogSoftmax. Weights are uniform random, scaled so that logits have a standard
// deviation near 6 (a trained decoder's distributions are more peaked still, so the top-p case,
// whose cost grows with the nucleus, is a pessimistic one). EOS gets a -1e4 bias so every run
// decodes exactly --steps tokens. Time
// inside StepDecoder::step and DecoderState::reorder is the model's; the rest of decode() is
// the search's overhead.
#include "engine/decoding/search.h"
#include "engine/layers/stepdecoder.h"
#include "engine/ops/embedding.h"
#include "engine/ops/linear.h"
#include "engine/ops/softmax.h"
#include "engine/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace glosa::engine;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

Tensor randomTensor(const Shape &shape, float scale, std::uint64_t seed)
{
    Tensor t(shape);
    std::mt19937_64 rng(seed);
    float *p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = scale * (static_cast<float>(rng() >> 40) / static_cast<float>(1 << 24) - 0.5f);
    return t;
}

class OutputLayerDecoder final : public TextStepDecoder
{
public:
    OutputLayerDecoder(std::int64_t vocabulary, std::int64_t hidden)
        : m_vocabulary(vocabulary), m_embedding(randomTensor({vocabulary, hidden}, 2.0f, 1)),
          m_output(randomTensor({vocabulary, hidden}, 1.5f, 2), eosBias(vocabulary))
    {
    }

    std::int64_t vocabularySize() const override { return m_vocabulary; }
    std::int32_t startToken() const override { return 1; }
    std::int32_t endToken() const override { return 2; }

    std::unique_ptr<DecoderState>
    encode(const std::vector<std::vector<std::int32_t>> &sources) override
    {
        auto state = std::make_unique<State>(this);
        for (const auto &source : sources) {
            state->maxSourceLength = std::max<std::int64_t>(state->maxSourceLength, source.size());
            state->rowsData.push_back({0, tokenKey(source)});
        }
        return state;
    }

    void advance(DecoderState &base, const Tensor &lastTokens, Tensor &logProbs,
                 Tensor &attention) override
    {
        const auto start = Clock::now();
        auto &state = static_cast<State &>(base);
        m_embedding(lastTokens, m_hidden); // [rows, hidden]
        m_output(m_hidden, m_logits);      // [rows, vocab]
        m_logSoftmax(m_logits, logProbs);  // [rows, vocab]
        attention.resize({state.rows(), state.maxSourceLength});
        float *a = attention.data<float>();
        for (std::int64_t r = 0; r < state.rows(); ++r) {
            const std::int64_t focus =
                std::min<std::int64_t>(state.rowsData[r].steps++, state.maxSourceLength - 1);
            for (std::int64_t j = 0; j < state.maxSourceLength; ++j)
                a[r * state.maxSourceLength + j] = j == focus ? 1.0f : 0.0f;
        }
        modelTime += Clock::now() - start;
        ++stepCalls;
    }

    Clock::duration modelTime{};
    std::int64_t stepCalls = 0;

private:
    static Tensor eosBias(std::int64_t vocabulary)
    {
        Tensor bias({vocabulary});
        bias.data<float>()[2] = -1e4f;
        return bias;
    }

    struct State final : DecoderState
    {
        explicit State(OutputLayerDecoder *owner) : owner(owner) {}
        std::int64_t rows() const override { return static_cast<std::int64_t>(rowsData.size()); }
        // Every row attends over the longest source (the benchmark decodes one).
        std::int64_t sourceLength(std::int64_t) const override { return maxSourceLength; }
        std::uint64_t sourceKey(std::int64_t row) const override { return rowsData.at(row).key; }
        void reorder(const std::vector<std::int32_t> &origins) override
        {
            const auto start = Clock::now();
            std::vector<Row> next;
            next.reserve(origins.size());
            for (std::int32_t origin : origins)
                next.push_back(rowsData.at(origin));
            rowsData = std::move(next);
            owner->modelTime += Clock::now() - start;
        }
        struct Row
        {
            int steps;
            std::uint64_t key;
        };
        OutputLayerDecoder *owner;
        std::int64_t maxSourceLength = 0;
        std::vector<Row> rowsData;
    };

    std::int64_t m_vocabulary;
    ops::Embedding m_embedding;
    ops::Linear m_output;
    ops::LogSoftmax m_logSoftmax;
    Tensor m_hidden, m_logits;
};

struct Case
{
    const char *name;
    DecodingOptions options;
};

} // namespace

int main(int argc, char **argv)
{
    std::int64_t vocabulary = 16000, hidden = 512;
    int beam = 5, steps = 64, repeats = 5, threads = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const long value = std::strtol(argv[i + 1], nullptr, 10);
        if (flag == "--vocab")
            vocabulary = value;
        else if (flag == "--hidden")
            hidden = value;
        else if (flag == "--beam")
            beam = static_cast<int>(value);
        else if (flag == "--steps")
            steps = static_cast<int>(value);
        else if (flag == "--repeats")
            repeats = static_cast<int>(value);
        else if (flag == "--threads")
            threads = static_cast<int>(value);
        else {
            std::fprintf(stderr, "bench_decoding: unknown option %s\n", flag.c_str());
            return 2;
        }
    }
    runtime::setNumThreads(threads);

    auto base = [&] {
        DecodingOptions o;
        o.maxLength = steps;
        o.beamSize = beam;
        return o;
    };
    std::vector<Case> cases;
    {
        DecodingOptions o = base();
        o.strategy = SearchStrategy::Greedy;
        cases.push_back({"greedy", o});
    }
    {
        DecodingOptions o = base();
        o.strategy = SearchStrategy::Beam;
        o.lengthPenalty = 0.6f;
        cases.push_back({"beam", o});
        o.noRepeatNgramSize = 3;
        o.repetitionPenalty = 1.2f;
        cases.push_back({"beam + no-repeat 3 + repetition 1.2", o});
        o.coveragePenalty = 0.2f;
        o.ngramPenalty = 0.1f;
        o.suppressTokens = {0};
        cases.push_back({"beam + all processors + coverage", o});
        DecodingOptions t = base();
        t.strategy = SearchStrategy::Beam;
        t.trace = true;
        cases.push_back({"beam + trace (top 10)", t});
    }
    {
        DecodingOptions o = base();
        o.strategy = SearchStrategy::Sample;
        o.topK = 40;
        o.temperature = 0.8f;
        o.nBest = beam;
        cases.push_back({"sample top-k 40, T 0.8, n 5", o});
        o.topK = 0;
        o.topP = 0.9f;
        cases.push_back({"sample top-p 0.9, n 5", o});
    }

    std::printf("bench_decoding: vocab %lld, hidden %lld, beam/samples %d, %d steps, %d threads, "
                "median of %d runs\n",
                static_cast<long long>(vocabulary), static_cast<long long>(hidden), beam, steps,
                threads, repeats);
    std::printf("| case | rows | model ms/step | search ms/step | search / model |\n");
    std::printf("|---|---|---|---|---|\n");
    OutputLayerDecoder decoder(vocabulary, hidden);
    const std::vector<std::vector<std::int32_t>> source = {{5, 6, 7, 8, 9, 10, 11, 2}};
    for (const Case &c : cases) {
        decode(decoder, source, c.options); // warm-up: primitives for each row count
        std::vector<double> model, search;
        std::int64_t rows = 0;
        for (int r = 0; r < repeats; ++r) {
            decoder.modelTime = {};
            decoder.stepCalls = 0;
            const auto start = Clock::now();
            const auto results = decode(decoder, source, c.options);
            const double total = seconds(Clock::now() - start);
            const double inModel = seconds(decoder.modelTime);
            model.push_back(inModel / decoder.stepCalls);
            search.push_back((total - inModel) / decoder.stepCalls);
            rows = c.options.strategy == SearchStrategy::Greedy ? 1 : beam;
            if (results[0].hypotheses.empty() ||
                results[0].hypotheses[0].tokens.size() != static_cast<std::size_t>(steps)) {
                std::fprintf(stderr, "bench_decoding: %s stopped early\n", c.name);
                return 1;
            }
        }
        std::sort(model.begin(), model.end());
        std::sort(search.begin(), search.end());
        const double m = model[model.size() / 2], s = search[search.size() / 2];
        std::printf("| %s | %lld | %.3f | %.4f | %.2f%% |\n", c.name, static_cast<long long>(rows),
                    m * 1e3, s * 1e3, 100.0 * s / m);
    }
    return 0;
}
