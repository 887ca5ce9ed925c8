// Exports the history as JSON Lines (everything), CSV (one row per entry and comparison column)
// or TMX 1.4 (translations only, for translation-memory tools).
//
// Basic usage:
//     QFile file("history.tmx");
//     file.open(QIODevice::WriteOnly);
//     const glosa::HistoryExport done = glosa::exportHistory(store, glosa::HistoryExportFormat::Tmx, file);
//     // done.records were written; done.damaged lists the entries a damaged file kept back
//
// Entries come oldest first from one read snapshot of the store (HistoryStore::forEachEntry). In a
// file with damaged pages every readable entry is exported and the unreadable ones are listed.
#pragma once

#include "app/core/history/entry.h"

#include <optional>

class QIODevice;

namespace glosa {

class HistoryStore;

enum class HistoryExportFormat {
    JsonLines, // one HistoryEntry::toJson() object per line
    Csv,       // RFC 4180, UTF-8, header row; best output of each column
    Tmx,       // TMX 1.4: one <tu> per translation (input and best output)
};

// "jsonl", "csv", "tmx".
std::optional<HistoryExportFormat> historyExportFormatFromName(const QString &name);

struct HistoryExport
{
    qint64 records = 0;             // lines, rows without the header, or <tu> elements
    qint64 entries = 0;             // history entries in the file
    QList<HistoryDamage> damaged;   // entries that could not be read (a damaged file), by id
};

// Why `path` must not receive an export of `store` (empty when it may): it is the database
// itself or one of SQLite's files beside it (-wal, -shm, -journal), compared by inode, so that
// "./h.sqlite" or a symlink to it is refused too. Overwriting them loses the whole history.
QString historyExportTargetProblem(const HistoryStore &store, const QString &path);

// Writes the entries matching `filter` to `device` (already open for writing); with a `search`
// (HistoryStore::search's words), only those it finds among them: what the History list shows.
// Throws HistoryError (Io when the device refuses the data, or whatever the store throws).
HistoryExport exportHistory(const HistoryStore &store, HistoryExportFormat format, QIODevice &device,
                     const HistoryFilter &filter = {}, const QString &search = QString());

} // namespace glosa
