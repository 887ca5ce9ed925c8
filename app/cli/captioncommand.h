// `glosa-cli caption`.
//
//   glosa-cli caption --model ID_OR_DIR [the decoding options of translate] [--json]
//                     [--save-history] IMAGE...
//
// Writes one caption per image per line on stdout, in order, flushed after each image. Images are
// read with loadRgbImage (app/core/imageloader.h: jpg, png, webp, bmp, first frame of a gif, EXIF
// orientation, alpha over white). An image that cannot be read gives an empty line (a JSON object
// with "image" and "error" under --json) and a message on stderr; the other images are still
// captioned and the exit code is 1. Bad arguments: exit code 2; a model that cannot load: 1.
//
// --json writes one object per image: "image", "caption", "hypotheses" (best first; each "text",
// "tokens" (pieces), "token_ids", "token_logprobs", "score", "complete"), "tokens" (the best
// hypothesis's pieces), "attention" (one row per token of the best hypothesis, one column per
// grid cell in row-major order; each row sums to 1), "grid" ([rows, cols]), "strategy" (every
// setting in effect), "model", "elapsed_ms".
//
// --save-history records each caption as the app does (image path, SHA-256 and thumbnail, the
// best caption with its attention, the settings) in the database `historyPath` (see
// historycommand.h); nothing is recorded without it.
#pragma once

#include "app/cli/help.h"

#include <QString>
#include <QStringList>

class QTextStream;

namespace glosa::cli {

CommandHelp captionCommandHelp();
// Returns the process exit code; args start after the command name.
int runCaptionCommand(const QStringList &args, const QString &historyPath, QTextStream &out,
                      QTextStream &err);

} // namespace glosa::cli
