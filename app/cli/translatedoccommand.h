// `glosa-cli translate-doc`: translate a whole document and keep its structure.
//
//   glosa-cli translate-doc --model ID_OR_DIR IN -o OUT [--window N] [--quiet]
//       [decoding options of `glosa-cli translate`]
//
// IN is .txt, .srt, .md, .html, .odt, .docx or .pdf (see app/core/documents/formats.h for what each
// keeps); OUT has the same format, or .txt for the translated paragraphs only. Progress (segments
// done / total and the time left) goes to stderr about once a second unless --quiet, then a summary
// line with segments/s. Ctrl+C stops after the current batch and still writes OUT with the finished
// part translated (exit code 130). A document that cannot be read (not UTF-8, binary, empty,
// malformed subtitles, unsupported type) or a model that cannot load: one line on stderr and
// exit code 1; bad arguments: exit code 2. The document is checked before the model is loaded.
#pragma once

#include <QStringList>

class QTextStream;

namespace glosa::cli {

// Returns the process exit code; args start after the command name.
int runTranslateDocCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace glosa::cli
