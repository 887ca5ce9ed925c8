// Converts what the inference worker produces (TranslationResult, CaptionResult) into history
// entries and back, so that the GUI can record a view and later restore it as it was.
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
#include "app/core/inferenceresult.h"
#include "app/core/modelcatalog.h"

#include <QJsonObject>
#include <QList>

namespace glosa {

QJsonObject decodingSettingsJson(const engine::DecodingOptions &options);
// Unknown keys are ignored (an entry written by another version still opens); settings the engine
// rejects give the default options.
engine::DecodingOptions decodingOptionsFromSettings(const QJsonObject &settings);

HistoryEntry translationHistoryEntry(const TranslationResult &result, const ModelInfo &model);
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

// The decoding options of each column of a comparison entry (one for other kinds).
QList<engine::DecodingOptions> historyColumnOptions(const HistoryEntry &entry);
// The hypotheses of one column as the Translate or Compare view shows them.
TranslationResult translationResultFromHistory(const HistoryEntry &entry, int column = 0);
// Without pixels when the image file is gone (the caller may show the thumbnail instead).
CaptionResult captionResultFromHistory(const HistoryEntry &entry);

// Token spans of `pieces` ("▁" marks a preceding space) in `text`, found left to right, as the
// worker made them: a piece that stands only for white space gets an empty span where the next
// word begins, one that is not in the text ("</s>", byte-fallback pieces, text the tokenizer
// normalised) an empty span where the previous token ended.
QList<TokenSpan> spansFromPieces(const QString &text, const QStringList &pieces);

} // namespace glosa
