// Opening the history file, and recovering from a damaged one (internal to app/core/history;
// the guarantees are described in store.h).
#pragma once

#include "app/core/history/sqlite.h"
#include "app/core/history/store.h"

namespace glosa::history {

// Opens (or creates) `path` in `db` and migrates it. A file that cannot be opened (not a
// database, a damaged schema) is moved aside with its -wal to "<path>.corrupt-<UTC timestamp>",
// and every entry that can still be read from it, at whatever schema version it was written, is
// carried over into a fresh file (Status::Recovered). Damage below a readable schema (a failed
// quick_check: always after a query left the needs-check marker, on every open with
// `checkIntegrity`) leaves the file in place, open (Status::Damaged): the entries on the damaged
// pages are reported by the reads that meet them, the others stay usable, and repair() is the
// user's call. Nothing is deleted. Throws HistoryError (NewerVersion, CannotOpen, Busy, Io)
// otherwise.
HistoryOpenResult openOrRecover(Connection &db, const QString &path,
                                const ConnectionSettings &settings, bool checkIntegrity);

// Rebuilds the open file `db` as openOrRecover does one that cannot be opened: the old file is
// moved aside (after a checkpoint of its -wal), the entries that can be read are carried into a
// new one, which `db` is left open on (Status::Recovered). Other processes must have the file
// closed: one still writing would write into the backup.
HistoryOpenResult repair(Connection &db, const ConnectionSettings &settings);

} // namespace glosa::history
