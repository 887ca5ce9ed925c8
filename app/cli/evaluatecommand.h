// `glosa-cli evaluate`: BLEU and chrF2 of one or more translation models on a test set, BLEU by
// source length, and the sentences where two models differ most (engine/evaluation).
//
//   glosa-cli evaluate [--model ID_OR_DIR]... [--from LANG --to LANG] [--compute-type TYPE]
//       [--test-set FILE.tsv | --source FILE --reference FILE] [decoding options]
//       [--bucket-width N] [--differences N] [--json] [--save-history]
//
// Without a test set, the bundled sample of the models' language pair (app/core/evaluation). All
// models must translate the same pair. Exit code 2 for bad arguments, 1 for a model or test set
// that cannot be read, or for an evaluation --save-history could not record (the scores are
// printed all the same).
#pragma once

#include "app/cli/help.h"

#include <QStringList>
#include <QTextStream>

namespace glosa::cli {

CommandHelp evaluateCommandHelp();
// Returns the process exit code; args start after the command name.
// --save-history records the evaluation in the history at `historyPath` (evaluationHistoryEntry,
// the entry the Evaluate dialog makes).
int runEvaluateCommand(const QStringList &args, const QString &historyPath, QTextStream &out,
                       QTextStream &err);

} // namespace glosa::cli
