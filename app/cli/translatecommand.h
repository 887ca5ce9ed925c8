// `glosa-cli translate` and `glosa-cli models`.
//
//   glosa-cli translate [--model ID_OR_DIR | --from LANG --to LANG] [--compute-type TYPE]
//       [every decoding setting of engine/decoding/decodingfields.cpp: --strategy, --beam-size,
//        --no-repeat-ngram-size, --top-p, ... (app/cli/modeloptions.h)]
//       [--json [--attention cross|all]] [--save-history]
//   glosa-cli models [--all] [--json]
//
// Without --model, translate uses the default model (ModelCatalog::defaultModel) from --from to
// --to, or for the system language (ModelCatalog::defaultTranslationModel).
// translate reads one text per line on stdin and writes one translation per line on stdout, in
// order, flushed after each line. Settings not given come from the model's model.json
// "decoding" object, then from DecodingOptions' defaults. A line may hold several sentences: it
// is split (ICU, the model's source language) and every sentence translated; an empty line gives
// an empty line. A line that is not valid UTF-8 gives an empty line (a JSON object with "error"
// under --json) and a message on stderr naming the line and byte; the other lines are still
// translated and the exit code is 1. Bad arguments or a model that cannot load: a one-line
// message on stderr and exit code 2 (arguments) or 1 (model).
//
// A sentence whose best hypothesis stopped at the maximum length instead of ending with EOS is
// reported on stderr (the translation is still written).
//
// --json writes one object per line: "source", "translation", "hypotheses" (best first; each
// "text", "tokens" (pieces), "token_ids", "token_logprobs", "score", "complete": false when a
// sentence stopped at the maximum length), "source_tokens" (pieces,
// "</s>" included: the alignment's columns), "alignment" (one row per target token of the best
// hypothesis, one column per source token; block-diagonal when the line held several sentences;
// null for a model without attention, e.g. the RNN with attention "none"),
// "segments" (each sentence's "source" and "target" UTF-16 ranges and the index of its first
// source and target token), "strategy" (every setting in effect), "model", "elapsed_ms",
// "missing_spans" (numbers, URLs, code... of the source that a model without placeholders, an
// imported MarianMT one, left out of the best translation; stderr also says so).
// --attention all (with --json; the default, cross, gives only "alignment") adds "attention": one
// object per segment (as in "segments"), with a key for each kind the model has
// (engine/layers/attentioninspector.h) holding [layer][head][row][column] weights of the best
// hypothesis, rounded to 1e-4:
//   "cross"         rows: the segment's target tokens; columns: its source tokens
//   "encoder_self"  rows and columns: its source tokens
//   "decoder_self"  rows: its target tokens; column 0 the start token, column j > 0 target token
//                   j - 1; zero above the diagonal (masked), rows sum to 1 over j ≤ row
// A Transformer has all three, the RNN only "cross" (one layer, one head); a model that shows no
// more than the alignment gives {}. The maps come from running the model again on each sentence.
// For a line with several sentences, hypothesis k joins the k-th hypothesis of each sentence
// (the last one where a sentence has fewer) and its score is the sum of theirs.
//
// --save-history also records every non-empty line in the history (glosa-cli's global
// --history PATH, else the default database): all hypotheses with their scores, the best one's
// alignment with source and target token labels, and every setting.
#pragma once

#include "app/cli/help.h"

#include <QString>
#include <QStringList>

class QTextStream;

namespace glosa::cli {

CommandHelp translateCommandHelp();
CommandHelp modelsCommandHelp();
// Both return the process exit code; args start after the command name.
int runTranslateCommand(const QStringList &args, const QString &historyPath, QTextStream &out,
                        QTextStream &err);
int runModelsCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace glosa::cli
