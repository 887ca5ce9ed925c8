// Coverage: how much attention each source word received over a whole translation, and the
// words that received so little that the translation probably left them out (the "coverage"
// problem of attention models: Tu et al. 2016, "Modeling Coverage for Neural Machine
// Translation", ref: https://arxiv.org/abs/1601.04811).
//
// Basic usage:
//     const TranslatedSegment &s = result.segments[0];
//     Coverage c = computeCoverage(s.alignment(), s.sourceTokens, input, CoverageOptions());
//     for (const CoveredWord &w : c.words)
//         if (w.flagged) ...   // input.substr(w.bytes.begin, w.bytes.size()) is likely omitted
//
// The attention is the one the search recorded for the hypothesis (Hypothesis::attention), so
// for the Transformer it is the layer and head set AlignmentSource chose: the head set whose
// alignment users see is also the one coverage is measured on.
#pragma once

#include "engine/tensor.h"
#include "engine/text/tokenizer.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace glosa::engine {

struct CoverageOptions
{
    // Flag a source word whose attention mass (the sum, over every target token, of the attention
    // its pieces received) is below this. One target token hands out a mass of 1 in all, so 0.1
    // means "less than a tenth of one target token's attention in the whole translation". Chosen
    // on Tatoeba dev (tools/coverage_eval.py, docs/training.md "Coverage warnings"): on the
    // Transformer it catches about half of the words a forced truncation cuts off, at 95%
    // precision, and fires on 6% of normal translations; 0.4 would fire on 40%. Set 0 to disable.
    float threshold = 0.1f;
};

// One source word: consecutive pieces with letters or digits, a new word starting at a piece
// that begins with "▁" or after white space. Pieces without a letter or a digit (punctuation,
// symbols, emoji) and EOS belong to no word: a model rightly gives "." or "</s>" little
// attention, and flagging them would only be noise.
struct CoveredWord
{
    std::size_t firstToken = 0; // the word's pieces: [firstToken, endToken) of the source tokens
    std::size_t endToken = 0;
    TextSpan bytes; // in the text the tokens point into
    // Σ of its pieces' masses. Summed, not the max: a word the model reads as three pieces is
    // covered when the target attends to any of them.
    float mass = 0.0f;
    bool flagged = false; // mass < CoverageOptions::threshold
};

struct Coverage
{
    // False when the model gives no attention (attention "none"): no masses, no warnings.
    bool available = false;
    float threshold = 0.0f; // the threshold the words were flagged against
    // [source tokens]: Σ over target tokens of each column of the attention, EOS included.
    std::vector<float> tokenMass;
    std::vector<CoveredWord> words; // in source order
    std::size_t flaggedCount() const;
};

// `attention` [target tokens, source tokens] (rows sum to 1), `sourceTokens` its columns with
// byte ranges into `text`. An empty attention gives an unavailable Coverage. Throws
// std::invalid_argument when the attention is not rank 2 F32 with one column per source token, a
// token range lies outside `text`, or the threshold is negative or not finite.
Coverage computeCoverage(const Tensor &attention, const std::vector<Token> &sourceTokens,
                         std::string_view text, const CoverageOptions &options);

} // namespace glosa::engine
