// Evaluation of translation models on a test set: read the set, translate its sources with each
// model, score (metrics.h), and break the score down by source length as Bahdanau et al. (2015,
// Fig. 2) do to show the fixed-context bottleneck. Used by `glosa-cli evaluate` and the Evaluate
// view.
//
// Basic usage:
//     TestSet set = parseTsv(fileBytes, "sample.tsv");           // "source<TAB>reference" lines
//     ModelEvaluation e = evaluate(translator, set, options);    // hypotheses and scores
//     std::cout << e.bleu.score << " " << e.chrf;
//     for (const LengthBucket &b : bleuByLength(set, {&e}, 10)) ...
#pragma once

#include "engine/decoding/decodingoptions.h"
#include "engine/decoding/search.h"
#include "engine/evaluation/metrics.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine {

class Translator;

// Bounds on what a test set may hold: far above any public test set (newstest has 3,000
// sentences) and far below what would exhaust memory.
inline constexpr std::size_t kMaxEvaluationSentences = 100000;
inline constexpr std::size_t kMaxEvaluationLineBytes = 32768;

struct TestSet
{
    std::string name;
    // Distinct sources, in order of first appearance; references[i] are every translation of
    // sources[i] in the set (several for Tatoeba, whose sentences have more than one).
    std::vector<std::string> sources;
    std::vector<std::vector<std::string>> references;
    std::size_t size() const { return sources.size(); }
};

// "source<TAB>reference" lines, UTF-8. Lines that start with '#' are comments; a comment
// "# columns: en es" names the languages of the two columns (tsvColumnLanguages()). Empty lines
// are skipped. `sourceColumn` (0 or 1) says which column is the source. Throws
// std::invalid_argument naming `name` and the line for ill-formed UTF-8, a line that is not two
// non-empty columns, a line over kMaxEvaluationLineBytes, more than kMaxEvaluationSentences
// sources, or a set with none.
TestSet parseTsv(std::string_view text, const std::string &name, int sourceColumn = 0);
// Two line-aligned texts (a source file and its reference file), one sentence a line; the same
// checks, and the line counts must agree.
TestSet parseAligned(std::string_view sources, std::string_view references,
                     const std::string &name);
// The languages a "# columns: X Y" comment names, else an empty list.
std::vector<std::string> tsvColumnLanguages(std::string_view text);

struct SegmentScore
{
    metrics::BleuStatistics bleu;
    metrics::ChrfStatistics chrf;
};

struct ModelEvaluation
{
    std::vector<std::string> hypotheses; // one per TestSet source
    std::vector<SegmentScore> segments;  // likewise
    metrics::BleuScore bleu;
    double chrf = 0.0;
    double seconds = 0.0; // translating only
};

// Called after each batch with the sources translated so far and the total.
using EvaluationProgress = std::function<void(std::size_t done, std::size_t total)>;

// Translates every source with `translator` and `options` (several lines per call, so that the
// model decodes full batches; the result equals translating each line alone) and scores it.
// Throws what Translator::translate throws (DecodingCancelled when `control` says so).
ModelEvaluation evaluate(Translator &translator, const TestSet &set,
                         const DecodingOptions &options, const EvaluationProgress &progress = {},
                         const DecodingControl &control = {});

// Words of a source sentence (runs of non-white-space), what the length buckets count.
int sourceWords(std::string_view sentence);

struct LengthBucket
{
    int firstWords = 0;
    int lastWords = 0; // -1: open ("61 and more")
    std::size_t sentences = 0;
    std::vector<double> bleu; // one per evaluation given, in order
};

// "1-5", "6-10", ..., "26+": how the CLI and the Evaluate dialog label a bucket.
std::string lengthBucketLabel(const LengthBucket &bucket);

// Sentences grouped by source length in buckets of `width` words (1-5, 6-10, ...), the last
// one open from `width * maxBuckets - width + 1` words on, and the corpus BLEU of each bucket's
// sentences for every evaluation (all of the same set). Empty buckets are left out.
std::vector<LengthBucket> bleuByLength(const TestSet &set,
                                       const std::vector<const ModelEvaluation *> &evaluations,
                                       int width = 5, int maxBuckets = 6);

struct SentenceDifference
{
    std::size_t sentence = 0;
    double chrfA = 0.0;
    double chrfB = 0.0;
};

// Every sentence with its sentence-level chrF under `a` and `b`, ordered by chrfA - chrfB, the
// largest first (where a does best). chrF rather than sentence BLEU: BLEU of one short sentence
// is 0 whenever it lacks a 4-gram match, which would make most differences ties.
std::vector<SentenceDifference> differences(const ModelEvaluation &a, const ModelEvaluation &b);

} // namespace glosa::engine
