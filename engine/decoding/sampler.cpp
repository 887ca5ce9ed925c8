#include "engine/decoding/sampler.h"

#include "engine/decoding/decodingfields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace glosa::engine {

namespace {

std::uint64_t splitMix64(std::uint64_t &state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

bool better(const TokenProbability &a, const TokenProbability &b)
{
    return a.probability > b.probability || (a.probability == b.probability && a.token < b.token);
}

void renormalize(std::vector<TokenProbability> &distribution)
{
    double sum = 0.0;
    for (const TokenProbability &entry : distribution)
        sum += entry.probability;
    if (sum > 0)
        for (TokenProbability &entry : distribution)
            entry.probability /= sum;
}

} // namespace

std::uint64_t Rng::derive(std::uint64_t seed, std::uint64_t sentence, std::uint64_t sample)
{
    std::uint64_t state = seed;
    std::uint64_t mixed = splitMix64(state);
    state = mixed ^ (sentence * 0xd1b54a32d192ed03ULL);
    mixed = splitMix64(state);
    state = mixed ^ (sample * 0x8cb92ba72f3d8dd7ULL);
    return splitMix64(state);
}

std::vector<TokenProbability> keepTopK(std::vector<TokenProbability> distribution, int k)
{
    if (k < 0)
        throw std::invalid_argument("top-k: k = " + std::to_string(k) + " must be >= 0");
    std::sort(distribution.begin(), distribution.end(), better);
    if (k > 0 && static_cast<std::size_t>(k) < distribution.size())
        distribution.resize(k);
    renormalize(distribution);
    return distribution;
}

std::vector<TokenProbability> keepTopP(std::vector<TokenProbability> distribution, double p)
{
    if (!(p > 0 && p <= 1))
        throw std::invalid_argument("top-p: p = " + std::to_string(p) + " must be in (0, 1]");
    std::sort(distribution.begin(), distribution.end(), better);
    if (p < 1) {
        // The smallest prefix whose mass reaches p: the token that crosses p is kept. A relative
        // tolerance keeps a prefix summing to p up to rounding (0.1 + 0.2 vs 0.3) from taking
        // one token more.
        double mass = 0.0;
        std::size_t keep = distribution.size();
        for (std::size_t i = 0; i < distribution.size(); ++i) {
            mass += distribution[i].probability;
            if (mass >= p * (1 - 1e-9)) {
                keep = i + 1;
                break;
            }
        }
        distribution.resize(keep);
    }
    renormalize(distribution);
    return distribution;
}

std::vector<TokenProbability> keepMinP(std::vector<TokenProbability> distribution, double minP)
{
    if (!(minP >= 0 && minP <= 1))
        throw std::invalid_argument("min-p: " + std::to_string(minP) + " must be in [0, 1]");
    double best = 0.0;
    for (const TokenProbability &entry : distribution)
        best = std::max(best, entry.probability);
    // The ratio to the best is the same before and after renormalising, so min-p does not care
    // which truncations ran before it.
    const double threshold = minP * best;
    std::erase_if(distribution,
                  [&](const TokenProbability &entry) { return entry.probability < threshold; });
    renormalize(distribution);
    return distribution;
}

namespace {

// Softmax of logProbs / temperature over the finite entries, normalised, in token order.
std::vector<TokenProbability> unsortedSoftmax(std::span<const float> logProbs, double temperature)
{
    if (!(temperature > 0) || !std::isfinite(temperature))
        throw std::invalid_argument("temperature " + std::to_string(temperature) +
                                    " must be finite and > 0");
    double maximum = -std::numeric_limits<double>::infinity();
    for (float value : logProbs)
        maximum = std::max(maximum, static_cast<double>(value));
    std::vector<TokenProbability> distribution;
    if (!std::isfinite(maximum))
        return distribution;
    distribution.reserve(logProbs.size());
    for (std::size_t i = 0; i < logProbs.size(); ++i) {
        if (!std::isfinite(logProbs[i]))
            continue;
        distribution.push_back(
            {static_cast<std::int32_t>(i), std::exp((logProbs[i] - maximum) / temperature)});
    }
    renormalize(distribution);
    return distribution;
}

} // namespace

std::vector<TokenProbability> temperatureSoftmax(std::span<const float> logProbs,
                                                 double temperature)
{
    std::vector<TokenProbability> distribution = unsortedSoftmax(logProbs, temperature);
    std::sort(distribution.begin(), distribution.end(), better);
    return distribution;
}

std::int32_t BestSampler::sample(std::span<const float> logProbs)
{
    // Two passes that vectorise — the maximum, then its first position — instead of one loop with
    // a data-dependent branch, which took 4% of a greedy step at 32 rows × 8,000 tokens. NaN
    // never wins (the comparison is false), as in the one-pass loop.
    const float *p = logProbs.data();
    const std::size_t n = logProbs.size();
    float bestValue = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : bestValue)
    for (std::size_t i = 0; i < n; ++i)
        bestValue = p[i] > bestValue ? p[i] : bestValue;
    if (!(bestValue > -std::numeric_limits<float>::infinity()))
        return -1; // every token is masked
    return static_cast<std::int32_t>(std::find(p, p + n, bestValue) - p);
}

namespace {

// The m best finite entries of `logProbs`, best first (ties: smaller token), in one pass with a
// min-heap whose top is the current m-th best: most entries cost one comparison.
std::vector<std::pair<float, std::int32_t>> bestLogProbs(std::span<const float> logProbs,
                                                         std::size_t m)
{
    using Entry = std::pair<float, std::int32_t>;
    auto before = [](const Entry &a, const Entry &b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    std::vector<Entry> heap;
    heap.reserve(std::min(m, logProbs.size()));
    float threshold = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < logProbs.size(); ++i) {
        const float value = logProbs[i];
        if (value < threshold || !std::isfinite(value))
            continue;
        const Entry entry{value, static_cast<std::int32_t>(i)};
        if (heap.size() < m) {
            heap.push_back(entry);
            std::push_heap(heap.begin(), heap.end(), before);
        } else if (before(entry, heap.front())) {
            std::pop_heap(heap.begin(), heap.end(), before);
            heap.back() = entry;
            std::push_heap(heap.begin(), heap.end(), before);
        } else {
            continue;
        }
        if (heap.size() == m)
            threshold = heap.front().first;
    }
    std::sort(heap.begin(), heap.end(), before);
    return heap;
}

} // namespace

namespace {

using Candidates = std::vector<TokenProbability>;

const SamplingStage kChain[] = {
    {"temperature", true,
     [](const DecodingOptions &o, std::span<const float> row, Candidates) {
         return temperatureSoftmax(row, o.temperature);
     }},
    {"top_k", true,
     [](const DecodingOptions &o, std::span<const float>, Candidates candidates) {
         return o.topK > 0 ? keepTopK(std::move(candidates), o.topK) : candidates;
     }},
    {"top_p", true,
     [](const DecodingOptions &o, std::span<const float>, Candidates candidates) {
         return o.topP < 1 ? keepTopP(std::move(candidates), o.topP) : candidates;
     }},
    {"min_p", false,
     [](const DecodingOptions &o, std::span<const float>, Candidates candidates) {
         return o.minP > 0 ? keepMinP(std::move(candidates), o.minP) : candidates;
     }},
};

// RandomSampler::truncated() runs temperature, top-k and top-p in one pass.
constexpr std::size_t kFusedStages = 3;

// The stage's row: looked up once for the chain's own stages (traces ask for every row of every
// step), by name for any other.
const DecodingField &fieldOf(const SamplingStage &stage)
{
    const auto find = [](const SamplingStage &s) {
        const DecodingField *field = findDecodingField(s.field);
        if (!field) // a typo in kChain, caught by the first test that samples
            throw std::logic_error(std::string("sampling stage without a decoding field: ") +
                                   s.field);
        return field;
    };
    static const auto rows = [&] {
        std::vector<const DecodingField *> found;
        for (const SamplingStage &s : kChain)
            found.push_back(find(s));
        return found;
    }();
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (&stage == &kChain[i])
            return *rows[i];
    return *find(stage);
}

} // namespace

std::string SamplingStage::name() const
{
    return fieldOf(*this).optionName();
}

bool SamplingStage::traced(const DecodingOptions &options) const
{
    return tracedWhenOff || !fieldOf(*this).isOff(options);
}

std::span<const SamplingStage> samplingChain()
{
    return kChain;
}

RandomSampler::RandomSampler(const DecodingOptions &options) : m_options(options)
{
    for (const SamplingStage &stage : kChain)
        validateDecodingField(options, fieldOf(stage));
}

std::vector<TokenProbability>
RandomSampler::distribution(std::span<const float> logProbs,
                            std::vector<std::vector<TokenProbability>> *stages) const
{
    if (stages) {
        // Traces want every stage, sorted: each by its plain definition.
        Candidates candidates;
        for (const SamplingStage &stage : kChain) {
            candidates = stage.apply(m_options, logProbs, std::move(candidates));
            if (stage.traced(m_options))
                stages->push_back(candidates);
        }
        return candidates;
    }
    // truncated() fuses the first stages; the others run as they are.
    std::vector<TokenProbability> result = truncated(logProbs);
    for (auto stage = std::begin(kChain) + kFusedStages; stage != std::end(kChain); ++stage)
        result = stage->apply(m_options, logProbs, std::move(result));
    return result;
}

std::vector<TokenProbability> RandomSampler::truncated(std::span<const float> logProbs) const
{
    const int k = m_options.topK;
    const double p = m_options.topP;
    const double temperature = m_options.temperature;
    if (k > 0) {
        // The k best log-probabilities (temperature keeps the order) in one pass, then a softmax
        // over those k only: O(vocab) comparisons and k exponentials.
        const std::vector<std::pair<float, std::int32_t>> top = bestLogProbs(logProbs, k);
        std::vector<TokenProbability> result;
        if (top.empty())
            return result;
        for (const auto &[value, token] : top)
            result.push_back({token, std::exp((value - top.front().first) / temperature)});
        renormalize(result);
        return p < 1 ? keepTopP(std::move(result), p) : result;
    }
    if (p >= 1) // nothing to truncate: token order is as deterministic as any
        return unsortedSoftmax(logProbs, temperature);
    // Nucleus: the normaliser needs one pass of exponentials; then only a growing set of the
    // best tokens is selected and sorted until it holds p of the mass.
    float maximum = -std::numeric_limits<float>::infinity();
    for (float value : logProbs)
        maximum = std::max(maximum, value);
    if (!std::isfinite(maximum))
        return {};
    const float inverse = static_cast<float>(1.0 / temperature);
    double z = 0.0;
    for (float value : logProbs)
        z += std::exp((value - maximum) * inverse); // exp(-inf) = 0
    for (std::size_t m = 64;; m *= 4) {
        const std::vector<std::pair<float, std::int32_t>> top = bestLogProbs(logProbs, m);
        std::vector<TokenProbability> result;
        double mass = 0.0;
        for (const auto &[value, token] : top) {
            const double probability = std::exp((value - maximum) * inverse) / z;
            result.push_back({token, probability});
            mass += probability;
            if (mass >= p * (1 - 1e-9))
                break;
        }
        if (mass >= p * (1 - 1e-9) || top.size() < m) {
            // The entries carry their probabilities in the whole distribution, so keepTopP cuts
            // exactly where it would cut the fully sorted list.
            return keepTopP(std::move(result), p);
        }
    }
}

std::int32_t RandomSampler::draw(const std::vector<TokenProbability> &distribution, Rng &rng)
{
    if (distribution.empty())
        return -1;
    const double u = rng.uniform();
    double cumulative = 0.0;
    for (const TokenProbability &entry : distribution) {
        cumulative += entry.probability;
        if (u < cumulative)
            return entry.token;
    }
    // u fell in the rounding gap above the last cumulative sum.
    for (auto it = distribution.rbegin(); it != distribution.rend(); ++it)
        if (it->probability > 0)
            return it->token;
    return distribution.back().token;
}

std::int32_t RandomSampler::sample(std::span<const float> logProbs, Rng &rng) const
{
    return draw(distribution(logProbs), rng);
}

} // namespace glosa::engine
