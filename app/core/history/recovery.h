// Opening the history file, and recovering from a damaged one (internal to app/core/history;
// the guarantees are described in store.h).
#pragma once

#include "app/core/history/sqlite.h"
#include "app/core/history/store.h"

namespace glosa::history {

// Opens (or creates) `path` in `db` and migrates it. A file found damaged (not a database, a
// damaged schema, or a failed quick_check: always after a query left the needs-check marker,
// on every open with `checkIntegrity`) is moved aside with its -wal to
// "<path>.corrupt-<UTC timestamp>", and every entry that can still be read from it, at whatever
// schema version it was written, is carried over into a fresh file (Status::Recovered). Nothing
// is deleted. Throws HistoryError (NewerVersion, CannotOpen, Busy, Io) otherwise.
HistoryOpenResult openOrRecover(Connection &db, const QString &path,
                                const ConnectionSettings &settings, bool checkIntegrity);

} // namespace glosa::history
