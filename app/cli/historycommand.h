// `glosa-cli history ...` and the global `--history PATH` option.
//
//   glosa-cli [--history PATH] history list [--limit N] [--offset N] [filters]
//   glosa-cli [--history PATH] history search QUERY... [--relevance] [filters]
//   glosa-cli [--history PATH] history show ID                 (the whole entry as JSON)
//   glosa-cli [--history PATH] history export --format jsonl|csv|tmx [-o FILE] [filters]
//   glosa-cli [--history PATH] history star|unstar|delete ID
//   glosa-cli [--history PATH] history clear --yes
//   glosa-cli [--history PATH] history repair          (rebuild a damaged file, keep the old)
//   filters: --kind translation|caption|comparison|document|evaluation, --model ID,
//            --since DATE, --until DATE (ISO 8601, UTC; a bare date means its midnight), --starred
//
// Commands that record (translate, caption, evaluate with --save-history) call saveToHistory().
#pragma once

#include "app/cli/help.h"
#include "app/core/history/entry.h"

#include <QString>
#include <QStringList>

#include <optional>

class QTextStream;

namespace glosa::cli {

// Removes "--history PATH" / "--history=PATH" (anywhere in `args`) and returns PATH, or
// HistoryStore::defaultPath() when absent. Prints a message on `err` and returns nullopt when the
// option has no value.
std::optional<QString> takeHistoryOption(QStringList &args, QTextStream &err);


// Opens the history at `historyPath`, tells `err` if the file had to be recovered, and adds
// `entry`. Returns the new id, or 0 after a one-line message on `err`; the caller's own result
// (the translation) stands either way.
qint64 saveToHistory(const HistoryEntry &entry, const QString &historyPath, QTextStream &err);

} // namespace glosa::cli
