// Samplers: how one token is picked from a processed row of log-probabilities (CTranslate2's
// BestSampler / RandomSampler(topk, topp, temperature)). Greedy search uses BestSampler, sampling
// uses RandomSampler; both are independent of the search.
//
// Basic usage:
//     RandomSampler sampler({.temperature = 0.8f, .topK = 40, .topP = 0.9f});
//     Rng rng(Rng::derive(seed, sentence, sample));
//     std::int32_t token = sampler.sample(row, rng);   // row: [vocab] log-probabilities
//
// Truncation order (Hugging Face's and CTranslate2's): temperature, then top-k, then top-p, then
// min-p (llama.cpp's order).
// Ties are broken by the smaller token id, so the kept set never depends on sort stability.
#pragma once

#include <cstdint>
#include <random>
#include <span>
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

struct SamplerOptions
{
    float temperature = 1.0f; // see DecodingOptions::temperature; 1 disables, must be > 0
    int topK = 0;             // see DecodingOptions::topK; 0 disables
    float topP = 1.0f;        // see DecodingOptions::topP; 1 disables, must be in (0, 1]
    float minP = 0.0f;        // see DecodingOptions::minP; 0 disables, must be in [0, 1]
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

class BestSampler
{
public:
    // Argmax; the smaller id wins a tie. Returns -1 when every score is -inf.
    static std::int32_t sample(std::span<const float> logProbs);
};

class RandomSampler
{
public:
    explicit RandomSampler(SamplerOptions options = {});
    const SamplerOptions &options() const { return m_options; }

    // The distribution sample() draws from: temperature, top-k, top-p, min-p, renormalised. Best
    // first when truncated by top-k or top-p or when `stages` is given, in token order otherwise
    // (no sort needed). `stages`, when given, receives the distribution after each step (three,
    // four with min-p; for traces). Top-k costs one pass of comparisons and k exponentials; top-p
    // alone a softmax over the row and a partial sort of the nucleus.
    std::vector<TokenProbability>
    distribution(std::span<const float> logProbs,
                 std::vector<std::vector<TokenProbability>> *stages = nullptr) const;
    // Inverse-CDF draw over distribution(): one uniform per call. -1 when every score is -inf.
    std::int32_t sample(std::span<const float> logProbs, Rng &rng) const;
    static std::int32_t draw(const std::vector<TokenProbability> &distribution, Rng &rng);

private:
    // distribution() before min-p: temperature, top-k and top-p.
    std::vector<TokenProbability>
    truncated(std::span<const float> logProbs,
              std::vector<std::vector<TokenProbability>> *stages) const;

    SamplerOptions m_options;
};

} // namespace glosa::engine
