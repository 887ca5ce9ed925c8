// Search: greedy, beam search and sampling over any StepDecoder (stepdecoder.h), with logits
// processors (logitsprocessor.h) and samplers (sampler.h) kept apart from it, as in CTranslate2's
// decoding.cc. Length and coverage penalties are applied when a hypothesis finishes (GNMT).
//
// Basic usage:
//     DecodingOptions options;
//     options.strategy = SearchStrategy::Beam;
//     options.beamSize = 5;
//     options.lengthPenalty = 0.6f;
//     std::vector<DecodingResult> results = decode(decoder, {{12, 7, 2}, {5, 2}}, options);
//     const Hypothesis &best = results[0].hypotheses[0];   // tokens, log-probs, attention
//
// The search itself starts from an encoded DecoderState (as CTranslate2's decode(decoder, state,
// ...)): it reads each row's source length and sampling key from the state, never the source, so
// that text and images share it. decode(decoder, sources, ...) is the text convenience: it
// encodes with the TextStepDecoder, then searches.
//     std::vector<DecodingResult> captions = decode(decoder, imageEncoder.encode(images), options);
//
// Cancellation: DecodingControl::cancelled is checked before every step; when it returns true
// the search throws DecodingCancelled and the decoder state is dropped.
#pragma once

#include "engine/decoding/decodingoptions.h"
#include "engine/decoding/trace.h"
#include "engine/tensor.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace glosa::engine {

class DecoderState;
class StepDecoder;
class TextStepDecoder;

struct Hypothesis
{
    // Generated tokens, without the start token and without the final EOS.
    std::vector<std::int32_t> tokens;
    // [tokens]: log-probability of each token as the search scored it (after the logits
    // processors, renormalised; temperature and truncation do not change it).
    std::vector<float> tokenLogProbs;
    bool endedWithEos = false; // false: stopped at the maximum length
    float eosLogProb = 0.0f;   // log-probability of the final EOS (0 when endedWithEos is false)
    float logProb = 0.0f;      // Σ tokenLogProbs + eosLogProb
    float score = 0.0f;        // the ranking score: logProb with length and coverage penalties
    // [tokens, source length]: the attention that predicted each token, rows sum to 1 (as the
    // model returned them). Empty when the model gives no attention or there are no tokens.
    Tensor attention;
    std::int32_t traceNode = -1; // the hypothesis's last node in DecodingResult::trace
};

struct DecodingResult
{
    std::vector<Hypothesis> hypotheses; // best first; nBest of them (fewer if fewer exist)
    DecodingTrace trace;                // empty unless DecodingOptions::trace
};

struct DecodingControl
{
    // Checked before each step; true cancels (DecodingCancelled is thrown).
    std::function<bool()> cancelled;
    // Called after each step with the step index and the largest maximum length of the batch.
    std::function<void(int step, int maxSteps)> progress;
    // Called by Translator::translate after each batch: the segments (sentences, or chunks of an
    // overlong one) translated so far, of `total` in the text. A long text's progress.
    std::function<void(std::size_t done, std::size_t total)> segmentsDone;
};

class DecodingCancelled : public std::runtime_error
{
public:
    DecodingCancelled() : std::runtime_error("decoding cancelled") {}
};

// Score of a finished hypothesis (exposed for tests and the traces):
//   logProb / lp(length) + β Σ_j log(min(coverage_j, 1))
// where lp is LengthNormalization's, `length` counts the generated tokens including EOS, and
// coverage_j is the attention source position j received summed over the target steps. A
// coverage of 0 is clamped to 1e-6 so that the penalty stays finite.
float finalScore(const DecodingOptions &options, float logProb, int length,
                 const float *coverage = nullptr, std::int64_t sourceLength = 0);
// lp(length) of the chosen normalisation (1 for None).
double lengthNormalizer(const DecodingOptions &options, int length);

// Greedy search (BestSampler) and sampling (RandomSampler, nBest samples per sentence): one row
// per hypothesis, no beam. `encoded` as for decode() below.
class GreedySearch
{
public:
    std::vector<DecodingResult> operator()(StepDecoder &decoder,
                                           std::unique_ptr<DecoderState> encoded,
                                           const DecodingOptions &options,
                                           const DecodingControl &control = {}) const;
};

// Beam search: each step keeps, per sentence, the beamSize best unfinished hypotheses among the
// 2×beamSize best candidates (an EOS among the first beamSize finishes a hypothesis; one below is
// pruned), until EarlyStopping says so.
class BeamSearch
{
public:
    std::vector<DecodingResult> operator()(StepDecoder &decoder,
                                           std::unique_ptr<DecoderState> encoded,
                                           const DecodingOptions &options,
                                           const DecodingControl &control = {}) const;
};

// Validates the options against the decoder and runs the strategy they ask for from `encoded`:
// the state an encoder returned for a batch, one row per input, before any step or reorder.
// Returns one result per input, in row order. Throws std::invalid_argument for a null state.
std::vector<DecodingResult> decode(StepDecoder &decoder, std::unique_ptr<DecoderState> encoded,
                                   const DecodingOptions &options,
                                   const DecodingControl &control = {});

// Text: validates the options and the sources (none empty), encodes them with the decoder
// (TextStepDecoder::encode) and decodes that. Returns one result per source, in order.
std::vector<DecodingResult> decode(TextStepDecoder &decoder,
                                   const std::vector<std::vector<std::int32_t>> &sources,
                                   const DecodingOptions &options,
                                   const DecodingControl &control = {});

} // namespace glosa::engine
