// HistoryStore: the user's translation, caption and comparison history in one SQLite file.
//
// Basic usage:
//     glosa::HistoryStore store;
//     const glosa::HistoryOpenResult opened = store.open(glosa::HistoryStore::defaultPath());
//     if (opened.status == glosa::HistoryOpenResult::Status::Recovered)
//         showWarning(opened.message);               // the damaged file was kept as a backup
//     const qint64 id = store.addEntry(entry);       // one transaction; throws glosa::HistoryError
//     glosa::HistoryPage page = store.recent({}, 0, 50);
//     glosa::HistoryPage hits = store.search("buenos dias");   // snippet "[Buenos] [días]."
//     std::optional<glosa::HistoryEntry> full = store.entry(id);
//
// Why the sqlite3 C API and not Qt Sql's QSQLITE driver (both link the same system libsqlite3
// 3.40, which is built with FTS5): the guarantees this store makes depend on details QSqlError
// flattens into strings. We need the extended result code and the OS errno to tell a full disk
// (SQLITE_FULL, or SQLITE_IOERR_WRITE at a full volume or a file-size limit) from a corrupt
// file (SQLITE_CORRUPT, SQLITE_NOTADB) from a lock held by another process (SQLITE_BUSY); we
// need BEGIN IMMEDIATE, sqlite3_busy_timeout and SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on a
// connection we own; and QSqlDatabase's per-thread named connections would add nothing but
// rules. The C API keeps all of that explicit in sqlite.cpp.
//
// Files: sqlite.h (the connection, statements, transactions, SQLite's errors as HistoryError),
// schema.h (tables, migrations, one entry's rows), recovery.h (open, move aside, salvage), and
// store.cpp (the queries and the retention).
//
// Guarantees (tested in tests/core/tst_historystore.cpp and tests/core/tst_historyrobustness.cpp):
//   - Crash safety: every addEntry is one transaction in a WAL-mode database, so a process killed
//     at any moment leaves either the whole entry (entry row, all outputs, the full-text row) or
//     none of it. By default (synchronous=NORMAL) that holds for a crash of the process or the
//     app; a power cut may roll back the last commits (never corrupt the file). Set
//     Options::syncEveryCommit for power-cut durability at one fsync per entry.
//   - Corruption: open() finds a file that is not a database or has a damaged schema, moves it
//     (with its -wal) aside to "<path>.corrupt-<UTC timestamp>", creates a fresh store with every
//     entry it can still read from it and says so in HistoryOpenResult. Nothing is deleted.
//     Damage deeper inside the file (some pages) costs the entries stored there, not the file:
//     recent() and search() read past it entry by entry and list those entries, with SQLite's
//     error, in HistoryPage::damaged; entry() throws HistoryError::Corrupt for them; writes go
//     on where SQLite can make them. A query that meets damage leaves a "<path>.needs-check"
//     marker; the next open() runs PRAGMA quick_check and says Status::Damaged while it fails.
//     repair() rebuilds such a file (the old one kept as above) when the user asks.
//   - Concurrency: writes use BEGIN IMMEDIATE with a busy timeout and are retried, so two Glosa
//     processes writing at once wait for each other; a caller only sees HistoryError::Busy (with a
//     friendly message) if another process holds the lock for longer than Options::busyTimeoutMs
//     on every retry.
//   - Disk full: HistoryError::DiskFull; the transaction is rolled back, the file stays intact
//     and the store stays usable.
//
// Threads: every public method locks an internal mutex, so one store may be shared, but a callback
// passed to forEachEntry must not call back into the store from another thread.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/error.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace glosa {

namespace history {
class Connection;
}

struct HistoryOpenResult
{
    enum class Status {
        Opened,  // an existing history
        Created, // a new, empty history
        // The old file could not be opened (or repair() rebuilt it): it was moved to
        // backupPath, and a new one holds every entry that could still be read from it.
        Recovered,
        // The file opened, but some of its pages are damaged (PRAGMA quick_check): it is used in
        // place. Reads list the entries stored there in HistoryPage::damaged (entry() throws
        // HistoryError::Corrupt for them); the others read and write as before. repair() rebuilds.
        Damaged,
    };
    Status status = Status::Opened;
    QString backupPath;    // Recovered only
    QString message;       // Recovered and Damaged: sentences for the user (the GUI shows them)
    int recoveredEntries = 0; // Recovered only: entries carried over into the new file
    int lostEntries = 0;      // Recovered only: entries found damaged (not carried over)
    int migratedFrom = -1; // schema version before open() migrated it; -1 when nothing changed
};

struct HistorySearchOptions
{
    enum class Order {
        Newest, // most recently added first (fast at any size: follows the index order)
        // Best BM25 match first, among the kRelevanceWindow most recent matches: ranking every
        // match of a word found in half of 100,000 entries alone takes ~60 ms, and in a history
        // the recent matches are the ones people look for.
        Relevance,
    };
    static constexpr int kRelevanceWindow = 5000;
    Order order = Order::Newest;
    QString highlightBegin = QStringLiteral("["); // wrapped around every hit in the snippet
    QString highlightEnd = QStringLiteral("]");
    int snippetTokens = 16; // length of the snippet in tokens (FTS5 allows 1..64)
};

class HistoryStore
{
public:
    struct Options
    {
        // How long one attempt waits for another process's write lock (milliseconds). A write is
        // tried up to 4 times, so the worst case before HistoryError::Busy is about 4× this.
        int busyTimeoutMs = 5000;
        // true = synchronous=FULL: a committed entry also survives a power cut, at one fsync per
        // commit (6.2 ms median per addEntry at 100,000 entries on the dev machine, 0.08 ms
        // without; see docs/benchmarks.md). false = synchronous=NORMAL, SQLite's recommendation for
        // WAL: safe against crashes of the process, and never corrupt, but a power cut may lose the
        // last commits.
        bool syncEveryCommit = false;
        // Applied inside every addEntry transaction when active (see HistoryRetention).
        HistoryRetention retention;
        // A size quota in bytes (PRAGMA max_page_count); 0 = none. Reaching it is DiskFull.
        qint64 maxDatabaseBytes = 0;
        // Run PRAGMA quick_check on every open(), not only after a HistoryError::Corrupt left the
        // "needs-check" marker. Off by default: it reads the whole file (625 ms for 100,000
        // entries here), which every start of the app would pay.
        bool checkIntegrityOnOpen = false;
        // Called on the writing thread when a write finds another process holding the write
        // lock and starts waiting for it (up to busyTimeoutMs): what a caller that must not
        // block can report, and how a test knows the wait has begun.
        std::function<void()> onLockWait;
    };

    // The schema version open() migrates to (PRAGMA user_version).
    static constexpr int kSchemaVersion = 4;

    HistoryStore();
    explicit HistoryStore(const Options &options);
    ~HistoryStore();
    HistoryStore(const HistoryStore &) = delete;
    HistoryStore &operator=(const HistoryStore &) = delete;

    // QStandardPaths::AppDataLocation/history.sqlite (the folder is created by open()).
    static QString defaultPath();

    // Opens or creates the database, migrates its schema, and recovers from a damaged file (see
    // the header comment). Throws HistoryError (NewerVersion, CannotOpen, Busy, Io) otherwise.
    HistoryOpenResult open(const QString &path);
    // For a caller that only reads (history list, search, show, export): the same as open()
    // where the file can be written or does not exist yet; an existing file that cannot be
    // written (a read-only folder or mount, a 0444 file) is read in place, and nothing is written
    // beside it. Writes then throw HistoryError::CannotOpen; no recovery, migration or integrity
    // check is made (an older schema is CannotOpen, saying why).
    HistoryOpenResult openForReading(const QString &path);
    void close();
    bool isOpen() const;
    QString path() const;
    const Options &options() const { return m_options; }
    // Takes effect on the next addEntry.
    void setRetention(const HistoryRetention &retention);

    // Adds one entry in one transaction and returns its id (ids are never reused). An invalid
    // entry.time means now. Throws std::invalid_argument for a malformed alignment.
    qint64 addEntry(const HistoryEntry &entry);
    // Adds many entries in a single transaction (imports, benchmarks): all or none.
    QList<qint64> addEntries(const QList<HistoryEntry> &entries);

    std::optional<HistoryEntry> entry(qint64 id) const;
    // Newest first (time, then id); `limit` rows from `offset`.
    HistoryPage recent(const HistoryFilter &filter = {}, int offset = 0, int limit = 50) const;
    // Full-text search over inputs and all outputs (and a caption's image file name). Every
    // whitespace-separated word of `text` must occur, ignoring case and accents; the last word
    // also matches as a prefix when it has 3 or more characters (search as you type: "buenos
    // dí" finds "buenos días"; shorter prefixes would match most of the index). FTS5 operators
    // in `text` are taken literally. An empty `text` (no letters or digits) is the same as
    // recent().
    HistoryPage search(const QString &text, const HistoryFilter &filter = {}, int offset = 0,
                       int limit = 50, const HistorySearchOptions &options = {}) const;
    qint64 count(const HistoryFilter &filter = {}) const;

    // Return false when no entry has that id.
    bool setStarred(qint64 id, bool starred);
    bool removeEntry(qint64 id);
    // The user's own version of a translation entry (HistoryEntry::editedText; "" forgets it).
    bool setEditedText(qint64 id, const QString &text);
    // Removes every entry, starred ones included (the GUI asks first). Returns how many.
    qint64 clear();
    // Removes what `retention` allows to remove; returns how many entries went.
    qint64 applyRetention(const HistoryRetention &retention);

    // Calls `visit` for every entry matching `filter`, oldest first, inside one read transaction
    // (a consistent snapshot even while other processes write). Stop early by returning false.
    // In a file with damaged pages every readable entry is still visited; the ones that cannot be
    // read are returned, in id order (empty for a sound file).
    [[nodiscard]] QList<HistoryDamage> forEachEntry(const HistoryFilter &filter,
                      const std::function<bool(const HistoryEntry &)> &visit) const;

    // PRAGMA integrity_check plus the FTS5 index check: what they find (SQLITE_CORRUPT on a page
    // the check cannot get past is a finding too); empty when everything is fine.
    QStringList integrityCheck() const;

    // Rebuilds a damaged file (HistoryOpenResult::Status::Damaged): the old file is moved aside
    // to "<path>.corrupt-<UTC timestamp>" and kept, every entry that can be read is carried over
    // into a new file at the same path, which the store then uses. Returns Status::Recovered
    // with the backup's path, the counts and a message. Run it with no other Glosa process
    // using the file (one that is would go on writing into the backup).
    HistoryOpenResult repair();

private:
    Options m_options;
    std::unique_ptr<history::Connection> d;
    // The file has damaged pages (open() found them, or a query met one): recent() and search()
    // then read entry by entry. Always, not only for the queries that fail: SQL's OFFSET counts
    // the damaged rows it skips and the entry-by-entry reading cannot, so mixing the two would
    // list entries twice or not at all as a list is paged.
    mutable bool m_damaged = false;
    mutable std::recursive_mutex m_mutex;
};

} // namespace glosa
