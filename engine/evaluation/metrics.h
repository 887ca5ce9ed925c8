// Corpus BLEU and chrF as sacrebleu 2.x computes them by default, for the Evaluate view and
// `glosa-cli evaluate` (a C++ port of tools/glosa/eval/metrics.py, which the training scripts use;
// tests/engine/tst_metrics.cpp checks both against the same hand-computed and published cases).
//
// BLEU (sacrebleu `BLEU()`): tokenizer 13a, n-grams 1..4, case-sensitive, counts clipped by the
//   maximum count over a segment's references, brevity penalty against the reference length
//   closest to the hypothesis length (ties: the shorter), corpus-level statistics, 'exp'
//   smoothing, 0 when nothing matches.
// chrF2 (sacrebleu `CHRF()`): character n-grams 1..6 over the text with white space removed,
//   beta 2; with several references a segment counts the statistics of its best reference;
//   precision and recall averaged over the orders present in both.
//
// Statistics add up, so a corpus score and the scores of any subset (length buckets) come from
// per-segment statistics computed once:
//     BleuStatistics all;
//     for (...) all += bleuStatistics(hypothesis, references);
//     double score = bleu(all).score;
// Text is UTF-8; invalid bytes count as characters of their own.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine::metrics {

inline constexpr int kBleuOrder = 4;
inline constexpr int kChrfOrder = 6;
inline constexpr double kChrfBeta = 2.0;

// mteval-v13a tokenization (sacrebleu's Tokenizer13a): ASCII punctuation split off, periods and
// commas split unless between digits, a dash after a digit split, runs of white space (Python's
// str.split: Unicode white space) collapsed.
std::string tokenize13a(std::string_view line);

struct BleuStatistics
{
    std::int64_t hypothesisLength = 0;
    std::int64_t referenceLength = 0;
    std::array<std::int64_t, kBleuOrder> correct{};
    std::array<std::int64_t, kBleuOrder> total{};
    BleuStatistics &operator+=(const BleuStatistics &other);
};

struct BleuScore
{
    double score = 0.0; // 0..100
    double brevityPenalty = 0.0;
    std::array<double, kBleuOrder> precisions{}; // percent, smoothed
    std::int64_t hypothesisLength = 0;
    std::int64_t referenceLength = 0;
};

// One segment; empty references are ignored, and at least one must remain
// (std::invalid_argument).
BleuStatistics bleuStatistics(std::string_view hypothesis,
                              const std::vector<std::string> &references);
BleuScore bleu(const BleuStatistics &statistics);

struct ChrfStatistics
{
    // Per order n = 1..6: hypothesis n-grams, reference n-grams, matches.
    std::array<std::int64_t, 3 * kChrfOrder> counts{};
    ChrfStatistics &operator+=(const ChrfStatistics &other);
};

// One segment: the statistics against its best reference (by sentence chrF); empty references
// are ignored, and at least one must remain (std::invalid_argument).
ChrfStatistics chrfStatistics(std::string_view hypothesis,
                              const std::vector<std::string> &references);
double chrf(const ChrfStatistics &statistics); // 0..100

// Whole corpora: hypotheses[i] against references[i] (std::invalid_argument on a size mismatch
// or a segment without reference).
BleuScore corpusBleu(const std::vector<std::string> &hypotheses,
                     const std::vector<std::vector<std::string>> &references);
double corpusChrf(const std::vector<std::string> &hypotheses,
                  const std::vector<std::vector<std::string>> &references);

} // namespace glosa::engine::metrics
