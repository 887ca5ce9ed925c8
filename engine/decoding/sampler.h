// Samplers: how one token is picked from a processed row of log-probabilities (CTranslate2's
// BestSampler / RandomSampler(topk, topp, temperature)). Greedy search uses BestSampler, sampling
// uses RandomSampler; both are independent of the search.
//
// Basic usage:
//     DecodingOptions options;                          // the sampler reads its four fields
//     options.temperature = 0.8f; options.topK = 40; options.topP = 0.9f;
//     RandomSampler sampler(options);
//     Rng rng(Rng::derive(seed, sentence, sample));
//     std::int32_t token = sampler.sample(row, rng);   // row: [vocab] log-probabilities
//
// The sampling chain (llama.cpp's llama_sampler_chain of llama_sampler_i {name, apply}): named
// stages that each read their own DecodingOptions field and narrow what the stage before kept, in
// the order of Hugging Face and CTranslate2 — temperature, top-k, top-p — then min-p
// (llama.cpp's). A stage is named by its field's row in decodingfields.cpp, so the trace, the CLI
// and the summary spell it alike ("top-k"). They run after the logits processors
// (logitsprocessor.h), not as more of them: the search records a token's log-probability between
// the two, and sample() fuses the stages (one pass of top-k, a nucleus without a full sort).
// Ties are broken by the smaller token id, so the kept set never depends on sort stability.
#pragma once

#include "engine/decoding/decodingoptions.h"

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace glosa::engine {

// std::mt19937_64's output sequence is fixed by the C++ standard, unlike the std::*_distribution
// classes: drawing our own uniforms from it makes seeded sampling identical everywhere.
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}
    // A well-mixed seed for one (sentence, sample) pair of a request (SplitMix64 steps);
    // `sentence` is any 64-bit key of the sentence (the search hashes its source tokens).
    static std::uint64_t derive(std::uint64_t seed, std::uint64_t sentence, std::uint64_t sample);
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    std::uint64_t next() { return m_engine(); }

private:
    std::mt19937_64 m_engine;
};

struct TokenProbability
{
    std::int32_t token;
    double probability;
};

// The token sets are tested on their own (table-driven), so they are free functions.
// Input: tokens with probabilities summing to 1; output: the kept ones, best first, renormalised.
std::vector<TokenProbability> keepTopK(std::vector<TokenProbability> distribution, int k);
std::vector<TokenProbability> keepTopP(std::vector<TokenProbability> distribution, double p);
// The tokens with probability >= minP × the largest, in their order (sorted or not).
std::vector<TokenProbability> keepMinP(std::vector<TokenProbability> distribution, double minP);
// Softmax of logProbs / temperature over the finite entries, best first (ties: smaller id).
std::vector<TokenProbability> temperatureSoftmax(std::span<const float> logProbs,
                                                 double temperature);

// One stage of the sampling chain.
struct SamplingStage
{
    // Its DecodingOptions field, by the name of its row in decodingfields.cpp ("top_k").
    const char *field;
    // Traces show temperature, top-k and top-p even while off (the probability chart compares
    // them with the model's row), min-p, which came later, only while on.
    bool tracedWhenOff;
    // The candidates after the stage, best first, from `candidates`, what the stages before it
    // kept; the first stage (temperature) makes them from `row`, the processed log-probabilities.
    std::vector<TokenProbability> (*apply)(const DecodingOptions &options,
                                           std::span<const float> row,
                                           std::vector<TokenProbability> candidates);

    // The name traces give the stage: its field's option name ("top-k").
    std::string name() const;
    // Whether a trace of sampling with `options` records this stage.
    bool traced(const DecodingOptions &options) const;
};

// The stages, in the order they run.
std::span<const SamplingStage> samplingChain();

class BestSampler
{
public:
    // Argmax; the smaller id wins a tie. Returns -1 when every score is -inf.
    static std::int32_t sample(std::span<const float> logProbs);
};

class RandomSampler
{
public:
    // Reads the chain's fields of `options` (temperature, topK, topP, minP); throws
    // std::invalid_argument for a value out of its range.
    explicit RandomSampler(const DecodingOptions &options = {});
    const DecodingOptions &options() const { return m_options; }

    // The distribution sample() draws from: the chain's stages, renormalised. Best first when
    // truncated by top-k or top-p or when `stages` is given, in token order otherwise (no sort
    // needed). `stages`, when given, receives the distribution after each stage that
    // SamplingStage::traced() (for traces), each stage run by its own definition; without it the
    // stages are fused: top-k costs one pass of comparisons and k exponentials, top-p alone a
    // softmax over the row and a partial sort of the nucleus.
    std::vector<TokenProbability>
    distribution(std::span<const float> logProbs,
                 std::vector<std::vector<TokenProbability>> *stages = nullptr) const;
    // Inverse-CDF draw over distribution(): one uniform per call. -1 when every score is -inf.
    std::int32_t sample(std::span<const float> logProbs, Rng &rng) const;
    static std::int32_t draw(const std::vector<TokenProbability> &distribution, Rng &rng);

private:
    // distribution() without stages: the chain's first stages (temperature, top-k, top-p)
    // fused; the later ones (min-p) then run by their own definitions.
    std::vector<TokenProbability> truncated(std::span<const float> logProbs) const;

    DecodingOptions m_options;
};

} // namespace glosa::engine
