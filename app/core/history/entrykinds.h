// The history's entry of each kind — translation, comparison, caption, document, evaluation —
// made from what was shown, and read back: what an entry of each kind holds (its outputs and its
// settings JSON), so that a view's result can be recorded and later restored as it was.
//
// The words: a *result* is what a model run gives (app/core/inference/inferenceresult.h's
// TranslationResult and CaptionResult; engine::TranslationResult per segment); an *entry* is what
// the history keeps (entry.h's HistoryEntry); this file turns one into the other, kind by kind.
//
// Basic usage:
//     HistoryEntry e = translationHistoryEntry(result, modelInfo);
//     store.addEntry(e);
//     ...
//     TranslationResult shown = translationResultFromHistory(*store.entry(id));
//
// What survives the round trip: the input, every hypothesis's text and score, the alignment
// matrices (at float16 precision) with their token pieces, the decoding settings and the time.
// What does not: per-token log-probabilities and search traces (the history keeps no column for
// them), token ids (-1 after restoring) and the caption image's pixels (restored from the file
// when it still exists). Token positions in the text are rebuilt from the pieces
// (spansFromPieces).
//
// Settings JSON: the decoding options under the engine's names (engine::decodingOptionsToJson,
// the same object `glosa-cli translate --json` reports as "strategy"). A comparison keeps
// {"columns": [one such object per column]}; a caption adds "grid": [rows, cols], the shape of
// the attention over the image, which the matrix alone does not give.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/inference/inferenceresult.h"
#include "app/core/models/modelcatalog.h"
#include "engine/evaluation/evaluation.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <functional>
#include <optional>

namespace glosa {

QJsonObject decodingSettingsJson(const engine::DecodingOptions &options);
// Unknown keys are ignored (an entry written by another version still opens); settings the engine
// rejects give the default options.
engine::DecodingOptions decodingOptionsFromSettings(const QJsonObject &settings);

// The installed model `id`, or, when it is gone, a model that is only that id (the entry still
// names it).
ModelInfo historyModelInfo(const ModelCatalog &catalog, const QString &id);

// Makes an entry with `make` and hands it to `record` on `receiver`'s (the GUI) thread: at once,
// or, when `slow`, made on the thread pool and handed back later (dropped if `receiver` is gone
// by then). Making an entry reads every alignment cell, and for a caption the image file: a
// long text's entry (5,000 words: ~40 million cells a hypothesis) or a 12-megapixel JPEG's
// takes the GUI thread hundreds of milliseconds.
void makeHistoryEntry(QObject *receiver, bool slow, std::function<HistoryEntry()> make,
                      std::function<void(const HistoryEntry &)> record);
// Whether results with this many alignment cells make their entry slowly (above).
inline bool isSlowHistoryEntry(const QList<TranslationResult> &results)
{
    constexpr qsizetype kLargeAlignmentCells = 2'000'000;
    qsizetype cells = 0;
    for (const TranslationResult &r : results)
        for (const TranslationHypothesis &h : r.hypotheses)
            cells += h.alignment.size();
    return cells >= kLargeAlignmentCells;
}

HistoryEntry translationHistoryEntry(const TranslationResult &result, const ModelInfo &model);
// The words the user forced in a translation entry (a steered translation's prefix: the
// Translate view's candidates): where they are in the best output's text (UTF-16) and what they
// say. Stored in the settings as "forced": {"begin", "end"}.
struct ForcedWords
{
    int begin = 0;
    int end = 0;
    QString text;
};
std::optional<ForcedWords> historyForcedWords(const HistoryEntry &entry);
// An output's text as the History details show it: HTML-escaped, lines broken, and in the best
// output of a translation the forced words underlined.
QString historyOutputHtml(const HistoryEntry &entry, const HistoryOutput &output);

// One entry for all columns of a Compare run (columns in order, n-best ranks within each).
HistoryEntry comparisonHistoryEntry(const QString &input, const QList<TranslationResult> &columns,
                                    const ModelInfo &model);
// Reads the image file for its hash and thumbnail (see HistoryEntry::setImageFromFile).
HistoryEntry captionHistoryEntry(const CaptionResult &result, const ModelInfo &model);

// A document translated in the Documents view: its paragraphs (`sources`), the model's
// translation of each (`translations`; an untranslated one as in the source) and the user's
// version of the whole (`edited`, the translations with the user's changes; empty when none),
// one line per paragraph. Settings: {"document": path, "quality": "fast" or "best"}. No
// alignments: they would be megabytes for a long document. Bounded by kDocumentHistoryChars
// of source: the paragraphs after that are left out of all three texts ("truncated": true).
inline constexpr qsizetype kDocumentHistoryChars = 200000;
HistoryEntry documentHistoryEntry(const QString &path, const QStringList &sources,
                                  const QStringList &translations, const QString &edited,
                                  const ModelInfo &model, bool best);

// An evaluation (the Evaluate dialog or `glosa-cli evaluate`): `evaluations[m]` of `models[m]`
// decoded with `options[m]`, all on `set`. Enough to show the result again without re-running,
// not the hypotheses themselves (520 sentences per model would make each entry ~100 KB).
//   inputText: the test set's name (found by the full-text search);
//   outputs: one per model, column m, label = model id, text "ID  BLEU 42.81  chrF2 60.65"
//     (the search finds the model ids), score = BLEU;
//   modelId / modelVersion / languages: the first model's (what the History view filters by);
//   settings: {"testSet": {"name", "sentences", "references"},
//              "models": [{"id", "version", "bleu", "chrf", "brevityPenalty", "hypothesisLength",
//                          "referenceLength", "sentences", "seconds", "decoding": {...}}],
//              "bucketWidth": N,
//              "buckets": [{"firstWords", "lastWords" (-1: open), "sentences", "bleu": [...]}],
//              "differences": [{"sentence", "source", "reference", "chrfA", "chrfB",
//                               "hypothesisA", "hypothesisB"}]}
//   "differences" (two or more models): the `differenceCount` sentences where the first model
//   does best against the second, then those where the second does best, as `differences()`
//   orders them; ties are left out.
HistoryEntry evaluationHistoryEntry(const engine::TestSet &set, const QList<ModelInfo> &models,
                                    const std::vector<engine::ModelEvaluation> &evaluations,
                                    const QList<engine::DecodingOptions> &options,
                                    int bucketWidth = 5, int differenceCount = 5);

// What an evaluation entry's settings hold, read back (missing fields read as 0 or empty).
struct StoredModelScore
{
    QString id;
    QString version;
    double bleu = 0.0;
    double chrf = 0.0;
    double brevityPenalty = 0.0;
    double seconds = 0.0;
    qint64 sentences = 0;
    engine::DecodingOptions decoding;
};
struct StoredDifference
{
    qint64 sentence = 0;
    QString source;
    QString reference;
    double chrfA = 0.0;
    double chrfB = 0.0;
    QString hypothesisA;
    QString hypothesisB;
};
struct StoredEvaluation
{
    QString testSetName;
    qint64 sentences = 0;
    QList<StoredModelScore> models;
    std::vector<engine::LengthBucket> buckets;
    QList<StoredDifference> differences;
};
StoredEvaluation evaluationFromHistory(const HistoryEntry &entry);

// The decoding options of each column of a comparison entry (one for other kinds).
QList<engine::DecodingOptions> historyColumnOptions(const HistoryEntry &entry);
// The hypotheses of one column as the Translate or Compare view shows them. The coverage
// warnings are computed again from the best hypothesis's stored alignment (the history keeps the
// attention, not the masses), against today's threshold.
TranslationResult translationResultFromHistory(const HistoryEntry &entry, int column = 0);
// Without pixels when the image file is gone (the caller may show the thumbnail instead).
CaptionResult captionResultFromHistory(const HistoryEntry &entry);

// Token spans of `pieces` ("▁" marks a preceding space) in `text`, found left to right, as the
// worker made them: a piece that stands only for white space gets an empty span where the next
// word begins, one that is not in the text ("</s>", byte-fallback pieces, text the tokenizer
// normalised) an empty span where the previous token ended. A placeholder piece (U+E000 + k,
// engine/text/protectedspans.h) takes the next protected span the rules find in `text`: the
// model read "€" or "https://…" as one placeholder, and the text holds the span itself.
QList<TokenSpan> spansFromPieces(const QString &text, const QStringList &pieces);

} // namespace glosa
