// DecodingOptions: every knob of the search, the logits processors and the samplers, as one plain
// struct with defaults (CTranslate2's TranslationOptions, llama.cpp's *_default_params()). Each
// field says what it does, which value turns it off and where it comes from.
//
// Basic usage:
//     DecodingOptions options;                 // greedy, no penalties
//     options.strategy = SearchStrategy::Beam;
//     options.beamSize = 5;
//     options.lengthPenalty = 0.6f;            // GNMT α
//     options.noRepeatNgramSize = 3;
//     options.validate();                      // throws std::invalid_argument naming the field
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace glosa::engine {

enum class SearchStrategy : std::uint8_t {
    Greedy, // the most probable token at each step
    Beam,   // beam search
    Sample, // random sampling (temperature, top-k, top-p); nBest independent samples
};

enum class LengthNormalization : std::uint8_t {
    None,    // score = log P(Y)
    Gnmt,    // score = log P(Y) / lp(Y), lp(Y) = ((5 + |Y|) / 6)^α (Wu et al. 2016, eq. 14)
    Average, // score = log P(Y) / |Y| (mean token log-probability)
    // score = log P(Y) / |Y|^α: Hugging Face's length_penalty (generate(), beam search), what
    // MarianMT packages imported from Hugging Face use; α = 1 equals Average. |Y| counts EOS.
    Power,
};

// When a beam-search sentence stops (each rule also stops when no hypothesis is alive, and every
// hypothesis stops at the maximum length).
enum class EarlyStopping : std::uint8_t {
    // Stop once nBest hypotheses are finished and the best alive one, scored as if it finished
    // now, is no better than the worst of the nBest finished ones (Hugging Face's default). Exact
    // without length normalisation, a good heuristic with it.
    Heuristic,
    // Stop once nBest hypotheses are finished and no alive one can still beat the worst of them:
    // alive log-probabilities can only fall, so the bound is log P / lp(maxLength) with a
    // coverage penalty of 0 (its maximum). Exact for every setting; may run longer.
    Bounded,
    // Stop as soon as nBest hypotheses are finished, even if an alive one might have won.
    Eager,
    // Stop as soon as beamSize hypotheses are finished, and return the best nBest of them:
    // Hugging Face's early_stopping=True (its beam search keeps num_beams finished hypotheses).
    Beam,
};

const char *searchStrategyName(SearchStrategy strategy); // "greedy", "beam", "sample"
const char *lengthNormalizationName(LengthNormalization normalization); // "none", "gnmt", "average"
const char *earlyStoppingName(EarlyStopping stopping);                  // "heuristic", ...
// Inverse of the names above; throw std::invalid_argument listing the accepted names.
SearchStrategy searchStrategyFromName(const std::string &name);
LengthNormalization lengthNormalizationFromName(const std::string &name);
EarlyStopping earlyStoppingFromName(const std::string &name);

struct DecodingOptions
{
    // --- Search ---------------------------------------------------------------------------
    SearchStrategy strategy = SearchStrategy::Greedy;
    // Hypotheses kept per step by beam search (1 behaves like greedy search).
    int beamSize = 4;
    // Hypotheses returned per sentence, best first: at most beamSize for beam search; the number
    // of independent samples for sampling; must be 1 for greedy search.
    int nBest = 1;
    // How a finished hypothesis is scored for ranking (beam search and n-best samples).
    LengthNormalization lengthNormalization = LengthNormalization::Gnmt;
    // GNMT length-penalty exponent α (Wu et al. 2016, eq. 14; they used 0.6-0.7), or the
    // exponent of Power. 0 disables it; ignored unless lengthNormalization is Gnmt or Power.
    float lengthPenalty = 0.0f;
    // GNMT coverage penalty β (Wu et al. 2016, eq. 14): β · Σ_source log(min(Σ_target attention,
    // 1)), added to finished hypotheses so that ones leaving source words unattended lose
    // (they used 0.2). 0 disables it. Ignored for models that return no attention.
    float coveragePenalty = 0.0f;
    EarlyStopping earlyStopping = EarlyStopping::Heuristic;
    // Maximum number of generated tokens, EOS included. Must be ≥ 1.
    int maxLength = 256;
    // Also cap the length at ceil(maxLengthRatio × source length) (Marian's max-length-factor).
    // 0 disables it.
    float maxLengthRatio = 0.0f;
    // EOS is forbidden until this many tokens (EOS excluded) have been generated. 0 disables it.
    int minLength = 0;

    // --- Logits processors (applied in this order, to log-probabilities; see logitsprocessor.h)
    // Tokens that may never be generated (e.g. <unk>). Empty disables it.
    std::vector<std::int32_t> suppressTokens;
    // Tokens forced at the first steps, e.g. a target-language tag or a user's prefix. Empty
    // disables it. Forcing wins over every other processor: a forced token that the n-gram rule
    // blocks, that suppressTokens lists, or an EOS before minLength is still produced (the
    // prefix is the caller's explicit choice). A forced EOS ends the hypothesis there.
    std::vector<std::int32_t> targetPrefix;
    // The sentence targetPrefix is forced in, counted from 0 as the Translator splits the input
    // (its segments: the GUI's one search tree per sentence); the other sentences are decoded
    // without it. -1 forces it in every sentence (the search itself always forces every row).
    int targetPrefixSentence = -1;
    // A do-not-translate list: each occurrence of a term (as a whole word, case-sensitive) is a
    // protected span (text/protectedspans.h), copied into the translation as it is, e.g. a
    // product name the model would translate ("Apple" → "Manzana"). Only models with placeholders
    // protect spans; the others report the terms they lost as missing spans. Empty: none.
    std::vector<std::string> keepTerms;
    // Truecasing (Moses' truecaser; Lita et al. 2003): a sentence's first word is read
    // lower-cased where the model's truecase table (TranslationModel::truecaser()) says that is
    // its usual form ("Hello!" as "hello!", "Madrid" as it is), and the translation's first letter
    // is capitalised again. The user's text and every range into it are unchanged. No effect for a
    // model without a table; false disables it.
    bool truecase = true;
    // No n-gram of this size may occur twice in a hypothesis (Paulus et al. 2017, "A Deep
    // Reinforced Model for Abstractive Summarization"; CTranslate2's no_repeat_ngram_size).
    // 0 disables it.
    int noRepeatNgramSize = 0;
    // Repetition penalty θ (Keskar et al. 2019, CTRL, eq. 3): the score of every token already
    // generated is divided by θ when positive and multiplied by θ when negative. Our scores are
    // log-probabilities (≤ 0), so this multiplies them by θ: p → p^θ before renormalisation.
    // 1 disables it; θ > 1 discourages repetition.
    float repetitionPenalty = 1.0f;
    // Soft n-gram penalty λ: instead of blocking, subtract λ from a token's log-probability once
    // for every earlier occurrence of the n-gram (of size ngramPenaltySize) it would complete.
    // 0 disables it.
    float ngramPenalty = 0.0f;
    int ngramPenaltySize = 1; // n-gram size for ngramPenalty (1: penalise repeated tokens)

    // --- Sampling (strategy Sample; see sampler.h) -----------------------------------------
    // Softmax temperature T: p ∝ exp(log p / T) (Ackley et al. 1985; Hinton et al. 2015). 1
    // disables it; must be > 0.
    float temperature = 1.0f;
    // Keep only the k most probable tokens (Fan et al. 2018). 0 disables it.
    int topK = 0;
    // Nucleus sampling: keep the smallest set of most probable tokens whose probability reaches
    // p (Holtzman et al. 2019). 1 disables it; must be in (0, 1].
    float topP = 1.0f;
    // Min-p sampling: keep only the tokens whose probability is at least minP times the most
    // probable one's, so the cut follows the model's confidence (Nguyen et al. 2024, "Turning Up
    // the Heat: Min-p Sampling for Creative and Coherent LLM Outputs"; llama.cpp's min_p).
    // Applied after top-p. 0 disables it; at most 1.
    float minP = 0.0f;
    // Seed of the request's random generator (std::mt19937_64 with our own uniform draw, so the
    // same seed gives the same samples with every compiler and standard library). Each sample
    // of each sentence gets its own generator, derived from the seed, the sentence's source
    // tokens and the sample index: a sentence samples the same whatever else is in the batch.
    std::uint64_t seed = 0;

    // --- Traces (trace.h) ------------------------------------------------------------------
    bool trace = false; // record the search tree and per-step candidates
    int traceTopN = 10; // candidates recorded per step and stage

    // Throws std::invalid_argument naming the first bad field and its value. vocabularySize > 0
    // also checks token ids (suppressTokens, targetPrefix) against it.
    void validate(std::int64_t vocabularySize = 0) const;
    // Effective maximum length for a source of `sourceLength` tokens (maxLength and
    // maxLengthRatio combined; never below minLength + 1 so that EOS can be produced).
    int maxLengthFor(std::int64_t sourceLength) const;
};

} // namespace glosa::engine
