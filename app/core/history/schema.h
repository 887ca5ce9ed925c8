// The history's tables (internal to app/core/history): the versioned schema with its migrations,
// and how one HistoryEntry maps onto the rows of `entries`, `outputs` and the full-text index,
// for every schema version a file may have been written with. The queries over many entries
// live in store.cpp.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/sqlite.h"
#include "app/core/history/store.h"

namespace glosa::history {

// The schema version migrate() brings a file to (PRAGMA user_version). Files of an older version
// are migrated when opened read-write, and read as they are when salvaged (readEntry).
inline constexpr int kSchemaVersion = HistoryStore::kSchemaVersion;

// Brings the open database to kSchemaVersion in one write transaction. Returns the version it
// had, or -1 when it was current. Throws HistoryError::NewerVersion for a newer file.
int migrate(Connection &db);

// Inserts the entry, its outputs and its full-text row (inside the caller's transaction); returns
// the new id. Does not validate the alignments (HistoryAlignment::validate).
qint64 insertEntry(Connection &db, const HistoryEntry &entry);

// The whole entry `id`; *found = false (and an empty entry) when there is none. `schemaVersion`:
// that of the file read, which for a damaged file moved aside may be older than kSchemaVersion
// (it is read as it is, never migrated): columns added later read as empty. A malformed blob
// throws HistoryError::Corrupt and leaves the needs-check marker.
HistoryEntry readEntry(Connection &db, qint64 id, bool *found, int schemaVersion = kSchemaVersion);

} // namespace glosa::history
