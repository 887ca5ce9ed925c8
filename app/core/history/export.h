// Exports the history as JSON Lines (everything), CSV (one row per entry and comparison column)
// or TMX 1.4 (translations only, for translation-memory tools).
//
// Basic usage:
//     QFile file("history.tmx");
//     file.open(QIODevice::WriteOnly);
//     const qint64 n = glosa::exportHistory(store, glosa::HistoryExportFormat::Tmx, file);
//
// Entries come oldest first from one read snapshot of the store (HistoryStore::forEachEntry).
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

// Writes the entries matching `filter` to `device` (already open for writing) and returns how
// many records were written (lines, rows without the header, or <tu> elements). Throws
// HistoryError (Io when the device refuses the data, or whatever the store throws).
qint64 exportHistory(const HistoryStore &store, HistoryExportFormat format, QIODevice &device,
                     const HistoryFilter &filter = {});

} // namespace glosa
