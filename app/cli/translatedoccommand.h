// `glosa-cli translate-doc`: translate a whole document and keep its structure.
//
//   glosa-cli translate-doc [--model ID_OR_DIR | --from LANG --to LANG] IN -o OUT [--window N]
//   [--chunk-bytes N] [--quiet]
//       [decoding options of `glosa-cli translate`]
//
// IN is .txt, .srt, .md, .html, .odt, .docx or .pdf (see app/core/documents/formats.h for what
// each keeps); OUT has the same format, or .txt for the translated paragraphs only (.html or
// .txt for a PDF). .txt and .srt are streamed: read, translated and written --chunk-bytes at a
// time (4 MiB by default, cut at blank lines), so memory stays bounded on big files; OUT
// replaces any existing file only once complete. Progress (segments done, MB done of the total
// or segments of the total, and the time left) goes to stderr about once a second unless
// --quiet, then a summary line with segments/s. Ctrl+C stops at the next decoding step and still
// writes OUT with the finished part translated and the rest as in IN (exit code 130). A document
// that cannot be read (not UTF-8, binary, empty, malformed subtitles, corrupt or encrypted
// archive or PDF, unsupported type) or a model that cannot load: one line on stderr and exit
// code 1; bad arguments: exit code 2. The document (its first chunk when streamed) is checked
// before the model is loaded; a later chunk's error message counts lines from that chunk.
// Chunks, progress and cancellation: app/core/documents/chunkedtranslation.h, as in the GUI.
#pragma once

#include "app/cli/help.h"

#include <QStringList>

class QTextStream;

namespace glosa::cli {

CommandHelp translateDocCommandHelp();
// Returns the process exit code; args start after the command name.
int runTranslateDocCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace glosa::cli
