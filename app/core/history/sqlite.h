// The history's thin layer over the sqlite3 C API (internal to app/core/history): one connection
// with its cache of prepared statements, the write and read transactions, and the one place that
// turns SQLite's result codes into a HistoryError. Why the C API and not Qt Sql: see store.h.
//
// Not thread-safe: HistoryStore serialises every call with its mutex.
#pragma once

#include "app/core/history/error.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>

struct sqlite3;
struct sqlite3_stmt;

namespace glosa::history {

// How a read-write connection is set up (from HistoryStore::Options).
struct ConnectionSettings
{
    int busyTimeoutMs = 5000;
    bool syncEveryCommit = false;
    qint64 maxDatabaseBytes = 0; // PRAGMA max_page_count; 0 = none
    // Called on the writing thread when a statement finds the database locked by another
    // connection and starts waiting for it (once per wait); empty: nothing is called.
    std::function<void()> onLockWait;
};

// "<path>.needs-check": left when a query met a damaged page, so that the next open() checks the
// whole file (see HistoryStore's header comment).
QString needsCheckMarker(const QString &path);
void markNeedsCheck(const QString &path);
// Why this process cannot write the history file `file` (or create it), as a clause for a
// message ("its folder /x cannot be written (Permission denied), ..."); empty when it can.
QString whyNotWritable(const QString &file);
// HistoryError::Corrupt for `path`, for damage found above SQLite (a malformed blob, a failed
// quick_check).
HistoryError damagedError(const QString &path, const QString &details);

class Connection
{
public:
    // A cached statement that is reset (and its bindings cleared) when it goes out of scope.
    class Statement
    {
    public:
        Statement(Connection *connection, sqlite3_stmt *stmt)
            : m_connection(connection), m_stmt(stmt)
        {
        }
        Statement(const Statement &) = delete;
        ~Statement();

        void bind(int i, qint64 v);
        void bind(int i, int v) { bind(i, qint64(v)); }
        void bind(int i, double v);
        void bind(int i, const QString &v);
        void bindBlob(int i, const QByteArray &v); // a null QByteArray binds NULL
        void bindNull(int i);

        // true while there is a row.
        bool step();
        void run()
        {
            while (step()) {
            }
        }

        qint64 int64(int c) const;
        double real(int c) const;
        bool isNull(int c) const;
        QString text(int c) const;
        QByteArray blob(int c) const;

    private:
        void check(int rc);
        Connection *m_connection;
        sqlite3_stmt *m_stmt;
    };

    Connection() = default;
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;
    ~Connection() { close(); }

    // Opens or creates `file` read-write with WAL and the settings; reads the schema, so a file
    // that is not a database fails here (HistoryError::Corrupt), as does a damaged schema.
    void open(const QString &file, const ConnectionSettings &settings);
    // An existing file that this process cannot write (a read-only folder or mount, a 0444
    // file), read without writing anything beside it: not even the -shm (see sqlite.cpp).
    void openReadOnly(const QString &file);
    // A damaged file moved aside, read as it is: immutable (nothing written, no -wal replayed).
    void openImmutable(const QString &file);
    // close_v2 checkpoints and removes the -wal when this was the last connection.
    void close();
    // Closing will leave the -wal as it is (no checkpoint into a damaged file).
    void keepWalOnClose();
    bool isOpen() const { return m_db != nullptr; }
    const QString &path() const { return m_path; }

    [[noreturn]] void fail(int rc, const char *what) const;
    void exec(const char *sql);
    void exec(const std::string &sql) { exec(sql.c_str()); }
    Statement prepare(const std::string &sql);
    qint64 changes() const; // rows changed by the last statement
    qint64 lastInsertRowid() const;
    int userVersion();
    QStringList quickCheck(); // PRAGMA quick_check's findings; empty when the file is fine

    // Runs `body` in a BEGIN IMMEDIATE transaction and returns what it returns. IMMEDIATE takes
    // the write lock up front, so the busy handler (the busy timeout) covers the wait; a deferred
    // transaction that reads first could fail with SQLITE_BUSY_SNAPSHOT without waiting at all.
    // Busy outcomes that survive the timeout are retried a few times after a short random pause,
    // so `body` may run more than once (each time in a fresh transaction).
    template <typename Body> auto writeTransaction(Body &&body)
    {
        using Result = decltype(body());
        if constexpr (std::is_void_v<Result>) {
            runWriteTransaction(body);
        } else {
            std::optional<Result> result;
            runWriteTransaction([&] { result = body(); });
            return std::move(*result);
        }
    }
    // A read transaction: one snapshot for several statements (`body` only reads).
    void readTransaction(const std::function<void()> &body);

private:
    // `file` read-only through a URI with `query` ("immutable=1", "mode=ro").
    void openUri(const QString &file, const char *query);
    void runWriteTransaction(const std::function<void()> &body);
    void rollbackQuietly();

    // SQLite's busy timeout, with a call when a wait starts (ConnectionSettings::onLockWait).
    struct BusyWait
    {
        int timeoutMs = 0;
        std::function<void()> onWait;
    };
    static int busyWait(void *context, int count);

    sqlite3 *m_db = nullptr;
    QString m_path;
    std::map<std::string, sqlite3_stmt *> m_statements;
    BusyWait m_busy;
};

using Statement = Connection::Statement;

} // namespace glosa::history
