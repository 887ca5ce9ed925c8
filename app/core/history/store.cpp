#include "app/core/history/store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStorageInfo>
#include <QThread>
#include <QTimeZone>
#include <QUrl>

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <sys/resource.h>

namespace glosa {

HistoryError::HistoryError(Code code, const QString &message, const QString &details,
                           int sqliteCode)
    : std::runtime_error(message.toStdString()), m_code(code), m_message(message),
      m_details(details), m_sqliteCode(sqliteCode)
{
}

namespace {

// Schema migrations: kMigrations[v] takes a database from user_version v to v + 1. Never edit a
// released step; append a new one and bump HistoryStore::kSchemaVersion.
const char *const kMigrations[] = {
    // 0 -> 1
    R"sql(
CREATE TABLE entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: a deleted id is never handed out again
    kind TEXT NOT NULL CHECK (kind IN ('translation', 'caption', 'comparison')),
    created_ms INTEGER NOT NULL,           -- UTC, milliseconds since the epoch
    model_id TEXT NOT NULL DEFAULT '',
    model_version TEXT NOT NULL DEFAULT '',
    source_language TEXT NOT NULL DEFAULT '',
    target_language TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL DEFAULT '{}',   -- JSON object
    input_text TEXT NOT NULL DEFAULT '',
    image_path TEXT NOT NULL DEFAULT '',
    image_hash TEXT NOT NULL DEFAULT '',   -- hex SHA-256 of the image file
    thumbnail BLOB,                        -- PNG
    elapsed_ms REAL NOT NULL DEFAULT 0,
    starred INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX entries_by_time ON entries (created_ms, id);
CREATE INDEX entries_by_kind ON entries (kind, created_ms);
CREATE INDEX entries_by_model ON entries (model_id, created_ms);
CREATE INDEX entries_starred ON entries (created_ms) WHERE starred;

CREATE TABLE outputs (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    column_index INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    score REAL,
    align_rows INTEGER NOT NULL DEFAULT 0,
    align_cols INTEGER NOT NULL DEFAULT 0,
    align_weights BLOB,                    -- [rows, cols] little-endian float16
    align_source_tokens TEXT,              -- JSON array or NULL
    align_target_tokens TEXT,
    UNIQUE (entry_id, column_index, rank)
);

-- Keeps its own copy of the text (not contentless) because snippet() needs it.
CREATE VIRTUAL TABLE entries_fts USING fts5 (
    input, outputs, tokenize = 'unicode61 remove_diacritics 2');

-- entry_count makes the retention check O(1) on every insert.
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('entry_count', 0);

CREATE TRIGGER entries_after_insert AFTER INSERT ON entries BEGIN
    UPDATE meta SET value = value + 1 WHERE key = 'entry_count';
END;
CREATE TRIGGER entries_after_delete AFTER DELETE ON entries BEGIN
    UPDATE meta SET value = value - 1 WHERE key = 'entry_count';
    DELETE FROM entries_fts WHERE rowid = old.id;
END;
)sql",
    // 1 -> 2: sparse alignments (HistoryAlignment::rowStarts / rowLengths). NULL: align_weights
    // is the dense [rows, cols]; else rows × (int32 first column, int32 count), little-endian,
    // and align_weights holds those spans one after another.
    // And the user's own version of a translation (HistoryEntry::editedText).
    R"sql(
ALTER TABLE outputs ADD COLUMN align_row_spans BLOB;
ALTER TABLE entries ADD COLUMN edited_text TEXT NOT NULL DEFAULT '';
)sql",
};
static_assert(std::size(kMigrations) == HistoryStore::kSchemaVersion);

constexpr int kWriteAttempts = 4;

QString fromUtf8(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

// SQLite reports a failed write(2) as SQLITE_IOERR_WRITE, and sqlite3_system_errno() reads the
// global errno only after the rollback has run, so ENOSPC/EFBIG is often lost by then (measured:
// 0 under RLIMIT_FSIZE). Hence the file system is asked directly as well.
bool looksLikeDiskFull(const QString &path, int sysErrno)
{
    if (sysErrno == ENOSPC || sysErrno == EFBIG || sysErrno == EDQUOT)
        return true;
    const QFileInfo info(path);
    const QStorageInfo storage(info.absolutePath());
    if (storage.isValid() && storage.bytesAvailable() >= 0 &&
        storage.bytesAvailable() < 4 * 1024 * 1024)
        return true;
    // A file-size limit (ulimit -f) behaves like a full disk for the file that reached it.
    rlimit limit{};
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        const qint64 margin = 64 * 1024; // a transaction writes whole pages and WAL frames
        for (const QString &file : {path, path + QStringLiteral("-wal")}) {
            if (QFileInfo(file).size() + margin >= qint64(limit.rlim_cur))
                return true;
        }
    }
    return false;
}

// One place that turns SQLite's result codes into what a user can act on.
HistoryError makeError(sqlite3 *db, int rc, const QString &path, const char *what)
{
    const QString details = QStringLiteral("%1: %2 [sqlite %3]")
                                .arg(QLatin1String(what), db ? fromUtf8(sqlite3_errmsg(db))
                                                             : fromUtf8(sqlite3_errstr(rc)))
                                .arg(rc);
    const int sysErrno = db ? sqlite3_system_errno(db) : 0;
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return HistoryError(HistoryError::Code::Busy,
                            QStringLiteral("The history is being written by another Glosa "
                                           "window or process; please try again in a moment."),
                            details, rc);
    case SQLITE_FULL:
        return HistoryError(
            HistoryError::Code::DiskFull,
            QStringLiteral("Not enough disk space to save to the history (%1).").arg(path), details,
            rc);
    case SQLITE_IOERR:
        if (looksLikeDiskFull(path, sysErrno)) {
            return HistoryError(
                HistoryError::Code::DiskFull,
                QStringLiteral("Not enough disk space to save to the history (%1).").arg(path),
                details, rc);
        }
        return HistoryError(HistoryError::Code::Io,
                            QStringLiteral("Could not read or write the history file %1%2.")
                                .arg(path, sysErrno
                                               ? QStringLiteral(": ") +
                                                     QString::fromLocal8Bit(std::strerror(sysErrno))
                                               : QString()),
                            details, rc);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return HistoryError(HistoryError::Code::Corrupt,
                            QStringLiteral("The history file %1 is damaged.").arg(path), details,
                            rc);
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_AUTH:
        return HistoryError(
            HistoryError::Code::CannotOpen,
            QStringLiteral("Cannot open the history file %1 for writing.").arg(path), details, rc);
    default:
        return HistoryError(HistoryError::Code::Internal,
                            QStringLiteral("The history failed unexpectedly."), details, rc);
    }
}

QString jsonArrayText(const QStringList &list)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

QStringList stringListFromJson(const QString &text)
{
    QStringList out;
    if (text.isEmpty())
        return out;
    const QJsonArray array = QJsonDocument::fromJson(text.toUtf8()).array();
    for (const QJsonValue &v : array)
        out.append(v.toString());
    return out;
}

// Turns what the user typed into an FTS5 query that cannot be a syntax error: every word becomes
// a quoted phrase, so quotes, AND/OR/NOT, '-', '*', ':' and parentheses are literal; the
// tokenizer inside the quotes splits "día," into the token día. Only the last word may be a
// prefix ("buen"*), and only from 3 word characters on: measured on 100,000 entries, "to"* took
// 37 ms and "t"* 79 ms against well under 1 ms for a whole word.
QString ftsQuery(const QString &text)
{
    QStringList terms;
    qsizetype lastLength = 0;
    const QStringList words =
        text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        qsizetype wordChars = 0;
        for (QChar c : word)
            wordChars += c.isLetterOrNumber() ? 1 : 0;
        if (wordChars == 0)
            continue;
        QString quoted = word;
        quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        terms.append(QLatin1Char('"') + quoted + QLatin1Char('"'));
        lastLength = wordChars;
    }
    if (lastLength >= 3)
        terms.last() += QLatin1Char('*');
    return terms.join(QLatin1Char(' '));
}

QString needsCheckMarker(const QString &path)
{
    return path + QStringLiteral(".needs-check");
}

// Remembers that a query met a damaged page, so the next open() checks the whole file.
void markNeedsCheck(const QString &path)
{
    QFile marker(needsCheckMarker(path));
    if (marker.open(QIODevice::WriteOnly))
        marker.write(QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toUtf8() + '\n');
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Impl: the connection, a cache of prepared statements and the statement helpers.

struct HistoryStore::Impl
{
    sqlite3 *db = nullptr;
    QString path;
    std::map<std::string, sqlite3_stmt *> statements;

    ~Impl() { closeDb(); }

    void closeDb()
    {
        for (auto &[sql, stmt] : statements)
            sqlite3_finalize(stmt);
        statements.clear();
        if (db) {
            // close_v2 checkpoints and removes the -wal when this was the last connection.
            sqlite3_close_v2(db);
            db = nullptr;
        }
    }

    [[noreturn]] void fail(int rc, const char *what) const
    {
        HistoryError error = makeError(db, rc, path, what);
        if (error.code() == HistoryError::Code::Corrupt)
            markNeedsCheck(path);
        throw error;
    }

    void exec(const char *sql)
    {
        char *message = nullptr;
        const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
        sqlite3_free(message); // sqlite3_errmsg still has it
        if (rc != SQLITE_OK)
            fail(rc, sql);
    }

    // A cached statement that is reset (and its bindings cleared) when it goes out of scope.
    class Statement
    {
    public:
        Statement(Impl *impl, sqlite3_stmt *stmt) : m_impl(impl), m_stmt(stmt) {}
        Statement(const Statement &) = delete;
        ~Statement()
        {
            sqlite3_reset(m_stmt);
            sqlite3_clear_bindings(m_stmt);
        }

        void bind(int i, qint64 v) { check(sqlite3_bind_int64(m_stmt, i, v)); }
        void bind(int i, int v) { check(sqlite3_bind_int64(m_stmt, i, v)); }
        void bind(int i, double v) { check(sqlite3_bind_double(m_stmt, i, v)); }
        void bind(int i, const QString &v)
        {
            const QByteArray u = v.toUtf8();
            check(sqlite3_bind_text(m_stmt, i, u.constData(), int(u.size()), SQLITE_TRANSIENT));
        }
        void bindBlob(int i, const QByteArray &v)
        {
            if (v.isNull())
                check(sqlite3_bind_null(m_stmt, i));
            else
                check(sqlite3_bind_blob(m_stmt, i, v.constData(), int(v.size()), SQLITE_TRANSIENT));
        }
        void bindNull(int i) { check(sqlite3_bind_null(m_stmt, i)); }

        // true while there is a row.
        bool step()
        {
            const int rc = sqlite3_step(m_stmt);
            if (rc == SQLITE_ROW)
                return true;
            if (rc == SQLITE_DONE)
                return false;
            m_impl->fail(rc, sqlite3_sql(m_stmt));
        }
        void run()
        {
            while (step()) {
            }
        }

        qint64 int64(int c) const { return sqlite3_column_int64(m_stmt, c); }
        double real(int c) const { return sqlite3_column_double(m_stmt, c); }
        bool isNull(int c) const { return sqlite3_column_type(m_stmt, c) == SQLITE_NULL; }
        QString text(int c) const
        {
            const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, c));
            return QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, c));
        }
        QByteArray blob(int c) const
        {
            const void *p = sqlite3_column_blob(m_stmt, c);
            const int n = sqlite3_column_bytes(m_stmt, c);
            return p ? QByteArray(static_cast<const char *>(p), n) : QByteArray();
        }

    private:
        void check(int rc)
        {
            if (rc != SQLITE_OK)
                m_impl->fail(rc, sqlite3_sql(m_stmt));
        }
        Impl *m_impl;
        sqlite3_stmt *m_stmt;
    };

    Statement prepare(const std::string &sql)
    {
        auto it = statements.find(sql);
        if (it == statements.end()) {
            sqlite3_stmt *stmt = nullptr;
            const int rc = sqlite3_prepare_v3(db, sql.c_str(), int(sql.size()) + 1,
                                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
            if (rc != SQLITE_OK)
                fail(rc, sql.c_str());
            it = statements.emplace(sql, stmt).first;
        }
        return Statement(this, it->second);
    }

    void rollbackQuietly()
    {
        if (db && !sqlite3_get_autocommit(db))
            sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    }

    // Runs `body` in a BEGIN IMMEDIATE transaction. IMMEDIATE takes the write lock up front, so
    // the busy handler (sqlite3_busy_timeout) covers the wait; a deferred transaction that reads
    // first could fail with SQLITE_BUSY_SNAPSHOT without waiting at all. Busy outcomes that
    // survive the timeout are retried a few times after a short random pause.
    template <typename Body> auto writeTransaction(Body &&body)
    {
        for (int attempt = 1;; ++attempt) {
            try {
                exec("BEGIN IMMEDIATE");
                if constexpr (std::is_void_v<decltype(body())>) {
                    body();
                    exec("COMMIT");
                    return;
                } else {
                    auto result = body();
                    exec("COMMIT");
                    return result;
                }
            } catch (const HistoryError &e) {
                rollbackQuietly();
                if (e.code() != HistoryError::Code::Busy || attempt >= kWriteAttempts)
                    throw;
                QThread::msleep(10 + QRandomGenerator::global()->bounded(40));
            } catch (...) {
                rollbackQuietly();
                throw;
            }
        }
    }

    // A read transaction: one snapshot for several statements.
    template <typename Body> void readTransaction(Body &&body)
    {
        exec("BEGIN");
        try {
            body();
        } catch (...) {
            rollbackQuietly();
            throw;
        }
        exec("COMMIT");
    }

    int userVersion()
    {
        Statement s = prepare("PRAGMA user_version");
        return s.step() ? int(s.int64(0)) : 0;
    }

    // A damaged file moved aside, read as it is: immutable (nothing written, no -wal replayed).
    void openDamaged(const QString &file)
    {
        path = file;
        const QByteArray uri = "file:" + QUrl::toPercentEncoding(file, "/") + "?immutable=1";
        const int rc =
            sqlite3_open_v2(uri.constData(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK) {
            const HistoryError error = makeError(db, rc, path, "open");
            closeDb();
            throw error;
        }
        sqlite3_extended_result_codes(db, 1);
    }

    // Connection settings; the first statements that read the file, so a file that is not a
    // database fails here with SQLITE_NOTADB.
    void openConnection(const QString &file, const Options &options)
    {
        path = file;
        const int rc = sqlite3_open_v2(
            QFile::encodeName(file).constData(), &db,
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK) {
            const HistoryError error = makeError(db, rc, path, "open");
            closeDb();
            throw error;
        }
        sqlite3_extended_result_codes(db, 1);
        sqlite3_busy_timeout(db, options.busyTimeoutMs);
        {
            Statement s = prepare("PRAGMA journal_mode = WAL");
            s.step(); // a file system without shared memory keeps "delete"; still correct
        }
        exec(options.syncEveryCommit ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
        exec("PRAGMA foreign_keys = ON");
        if (options.maxDatabaseBytes > 0) {
            Statement s = prepare("PRAGMA page_size");
            const qint64 pageSize = s.step() ? s.int64(0) : 4096;
            const qint64 pages = std::max<qint64>(1, options.maxDatabaseBytes / pageSize);
            exec(("PRAGMA max_page_count = " + std::to_string(pages)).c_str());
        }
        // Reads the schema: fails with SQLITE_CORRUPT when the header is fine but the schema is
        // not.
        exec("SELECT count(*) FROM sqlite_schema");
    }

    // Returns the version before migrating, or -1 when the schema was current.
    int migrate()
    {
        return writeTransaction([&] {
            // Read inside the write transaction: two processes opening a new file at once must
            // not both run step 0.
            const int version = userVersion();
            if (version > kSchemaVersion) {
                throw HistoryError(
                    HistoryError::Code::NewerVersion,
                    QStringLiteral("The history file %1 was written by a newer version of Glosa "
                                   "(schema %2; this version knows up to %3).")
                        .arg(path)
                        .arg(version)
                        .arg(kSchemaVersion));
            }
            if (version == kSchemaVersion)
                return -1;
            for (int v = version; v < kSchemaVersion; ++v)
                exec(kMigrations[v]);
            exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
            return version;
        });
    }

    QStringList quickCheck()
    {
        QStringList problems;
        Statement s = prepare("PRAGMA quick_check");
        while (s.step()) {
            const QString line = s.text(0);
            if (line != QLatin1String("ok"))
                problems.append(line);
        }
        return problems;
    }
};

// ---------------------------------------------------------------------------------------------

namespace {

// Moves a damaged database and its -wal/-shm next to it under a timestamped name. Returns the new
// path of the main file; throws when it cannot (we never delete the user's data).
QString moveAside(const QString &path)
{
    const QString stamp =
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    QString backup = path + QStringLiteral(".corrupt-") + stamp;
    for (int i = 1; QFileInfo::exists(backup); ++i)
        backup = path + QStringLiteral(".corrupt-") + stamp + QLatin1Char('-') + QString::number(i);
    const auto cannotMove = [&] {
        return HistoryError(HistoryError::Code::CannotOpen,
                            QStringLiteral("The history file %1 is damaged and could not be moved "
                                           "aside to %2.")
                                .arg(path, backup));
    };
    // The -wal goes first: it belongs to the damaged file, and left next to a new, empty file it
    // would be replayed into it. If we stop half-way, the damaged file is still where it was and
    // the next start tries again.
    const QString wal = path + QStringLiteral("-wal");
    const bool hadWal = QFileInfo::exists(wal);
    if (hadWal && !QFile::rename(wal, backup + QStringLiteral("-wal")))
        throw cannotMove();
    if (!QFile::rename(path, backup)) {
        if (hadWal)
            QFile::rename(backup + QStringLiteral("-wal"), wal);
        throw cannotMove();
    }
    QFile::remove(path + QStringLiteral("-shm")); // only an index of the -wal, rebuilt on open
    return backup;
}

struct Salvage
{
    int recovered = 0;
    int lost = 0;
};
// Copies every entry that can still be read from the damaged file into `to` (defined below).
Salvage salvageInto(HistoryStore::Impl &to, const QString &damaged);

// WHERE clause for a filter over `entries e`; binds start at `firstBind`.
struct FilterSql
{
    std::string where; // " AND ..." pieces
    QList<std::function<void(HistoryStore::Impl::Statement &, int)>> binds;
};

} // namespace

static FilterSql filterSql(const HistoryFilter &f)
{
    FilterSql out;
    if (f.kind) {
        out.where += " AND e.kind = ?";
        const QString k = historyKindName(*f.kind);
        out.binds.append([k](HistoryStore::Impl::Statement &s, int i) { s.bind(i, k); });
    }
    if (!f.modelId.isEmpty()) {
        out.where += " AND e.model_id = ?";
        const QString m = f.modelId;
        out.binds.append([m](HistoryStore::Impl::Statement &s, int i) { s.bind(i, m); });
    }
    if (f.from.isValid()) {
        out.where += " AND e.created_ms >= ?";
        const qint64 t = f.from.toMSecsSinceEpoch();
        out.binds.append([t](HistoryStore::Impl::Statement &s, int i) { s.bind(i, t); });
    }
    if (f.to.isValid()) {
        out.where += " AND e.created_ms < ?";
        const qint64 t = f.to.toMSecsSinceEpoch();
        out.binds.append([t](HistoryStore::Impl::Statement &s, int i) { s.bind(i, t); });
    }
    if (f.starredOnly)
        out.where += " AND e.starred";
    return out;
}

// ---------------------------------------------------------------------------------------------

HistoryStore::HistoryStore() : HistoryStore(Options()) {}

HistoryStore::HistoryStore(const Options &options) : m_options(options), d(std::make_unique<Impl>())
{
}

HistoryStore::~HistoryStore() = default;

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/history.sqlite");
}

HistoryOpenResult HistoryStore::open(const QString &path)
{
    std::lock_guard lock(m_mutex);
    d->closeDb();
    HistoryOpenResult result;
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        throw HistoryError(HistoryError::Code::CannotOpen,
                           QStringLiteral("Cannot create the folder %1 for the history.")
                               .arg(info.absolutePath()));
    }
    const bool existed = info.exists() && info.size() > 0;
    try {
        d->openConnection(path, m_options);
        result.migratedFrom = d->migrate();
        const bool suspect = QFileInfo::exists(needsCheckMarker(path));
        if (existed && (m_options.checkIntegrityOnOpen || suspect)) {
            const QStringList problems = d->quickCheck();
            if (!problems.isEmpty()) {
                throw HistoryError(HistoryError::Code::Corrupt,
                                   QStringLiteral("The history file %1 is damaged.").arg(path),
                                   problems.mid(0, 5).join(QStringLiteral("; ")), SQLITE_CORRUPT);
            }
        }
        if (suspect)
            QFile::remove(needsCheckMarker(path)); // checked and found fine
        result.status =
            existed ? HistoryOpenResult::Status::Opened : HistoryOpenResult::Status::Created;
        return result;
    } catch (const HistoryError &e) {
        // Closing the last connection would checkpoint the -wal into the damaged file (or delete
        // it): keep both exactly as found for the backup.
        if (d->db && e.code() == HistoryError::Code::Corrupt)
            sqlite3_db_config(d->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        d->closeDb();
        if (e.code() != HistoryError::Code::Corrupt)
            throw;
        result.backupPath = moveAside(path);
        qWarning("glosa: %s (%s); moved to %s", qPrintable(e.message()), qPrintable(e.details()),
                 qPrintable(result.backupPath));
    }
    QFile::remove(needsCheckMarker(path));
    d->openConnection(path, m_options);
    d->migrate();
    // Damage confined to some pages or rows costs those entries, not the whole history.
    const Salvage salvage = salvageInto(*d, result.backupPath);
    result.status = HistoryOpenResult::Status::Recovered;
    result.migratedFrom = -1;
    result.recoveredEntries = salvage.recovered;
    result.lostEntries = salvage.lost;
    const QString backup = QDir::toNativeSeparators(result.backupPath);
    if (salvage.recovered == 0)
        result.message = QStringLiteral("The history file was damaged and could not be read. It "
                                        "was kept as %1 and a new, empty history was started.")
                             .arg(backup);
    else
        result.message = QStringLiteral("The history file was damaged. It was kept as %1; the "
                                        "%2 entries that could be read were carried over into a "
                                        "new history, %3 damaged ones could not be.")
                             .arg(backup)
                             .arg(salvage.recovered)
                             .arg(salvage.lost);
    return result;
}

void HistoryStore::close()
{
    std::lock_guard lock(m_mutex);
    d->closeDb();
}

bool HistoryStore::isOpen() const
{
    std::lock_guard lock(m_mutex);
    return d->db != nullptr;
}

QString HistoryStore::path() const
{
    std::lock_guard lock(m_mutex);
    return d->path;
}

void HistoryStore::setRetention(const HistoryRetention &retention)
{
    std::lock_guard lock(m_mutex);
    m_options.retention = retention;
}

namespace {

void requireOpen(const HistoryStore::Impl &d)
{
    if (!d.db) {
        throw HistoryError(HistoryError::Code::NotOpen, QStringLiteral("The history is not open."));
    }
}

qint64 insertEntry(HistoryStore::Impl &d, const HistoryEntry &e)
{
    qint64 id = 0;
    {
        auto s = d.prepare(
            "INSERT INTO entries (kind, created_ms, model_id, model_version, source_language, "
            "target_language, settings, input_text, image_path, image_hash, thumbnail, "
            "elapsed_ms, starred, edited_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        s.bind(1, historyKindName(e.kind));
        s.bind(2,
               (e.time.isValid() ? e.time : QDateTime::currentDateTimeUtc()).toMSecsSinceEpoch());
        s.bind(3, e.modelId);
        s.bind(4, e.modelVersion);
        s.bind(5, e.sourceLanguage);
        s.bind(6, e.targetLanguage);
        s.bind(7, QString::fromUtf8(QJsonDocument(e.settings).toJson(QJsonDocument::Compact)));
        s.bind(8, e.inputText);
        s.bind(9, e.imagePath);
        s.bind(10, e.imageHash);
        s.bindBlob(11, e.thumbnailPng);
        s.bind(12, e.elapsedMs);
        s.bind(13, e.starred ? 1 : 0);
        s.bind(14, e.editedText);
        s.run();
        id = sqlite3_last_insert_rowid(d.db);
    }
    QStringList texts;
    for (const HistoryOutput &o : e.outputs) {
        auto s = d.prepare(
            "INSERT INTO outputs (entry_id, column_index, rank, label, text, score, align_rows, "
            "align_cols, align_weights, align_source_tokens, align_target_tokens, "
            "align_row_spans) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        s.bind(1, id);
        s.bind(2, o.column);
        s.bind(3, o.rank);
        s.bind(4, o.label);
        s.bind(5, o.text);
        if (o.score)
            s.bind(6, *o.score);
        else
            s.bindNull(6);
        if (o.alignment.isSparse())
            s.bindBlob(12, o.alignment.rowSpansBlob());
        else
            s.bindNull(12);
        if (o.alignment.isEmpty()) {
            s.bind(7, 0);
            s.bind(8, 0);
            s.bindNull(9);
            s.bindNull(10);
            s.bindNull(11);
        } else {
            s.bind(7, o.alignment.rows);
            s.bind(8, o.alignment.cols);
            s.bindBlob(9, o.alignment.toHalfBlob());
            if (o.alignment.sourceTokens.isEmpty())
                s.bindNull(10);
            else
                s.bind(10, jsonArrayText(o.alignment.sourceTokens));
            if (o.alignment.targetTokens.isEmpty())
                s.bindNull(11);
            else
                s.bind(11, jsonArrayText(o.alignment.targetTokens));
        }
        s.run();
        if (!texts.contains(o.text))
            texts.append(o.text);
    }
    if (!e.editedText.isEmpty() && !texts.contains(e.editedText))
        texts.append(e.editedText); // found by the user's words too
    QString input = e.inputText;
    if (!e.imagePath.isEmpty()) // captions are found by their file name too
        input += QLatin1Char('\n') + QFileInfo(e.imagePath).fileName();
    auto s = d.prepare("INSERT INTO entries_fts (rowid, input, outputs) VALUES (?, ?, ?)");
    s.bind(1, id);
    s.bind(2, input);
    s.bind(3, texts.join(QLatin1Char('\n')));
    s.run();
    return id;
}

void validateEntry(const HistoryEntry &e)
{
    for (const HistoryOutput &o : e.outputs)
        o.alignment.validate();
}

qint64 applyRetentionLocked(HistoryStore::Impl &d, const HistoryRetention &r)
{
    qint64 removed = 0;
    if (r.maxAgeDays > 0) {
        auto s = d.prepare("DELETE FROM entries WHERE NOT starred AND created_ms < ?");
        s.bind(1, QDateTime::currentDateTimeUtc().addDays(-r.maxAgeDays).toMSecsSinceEpoch());
        s.run();
        removed += sqlite3_changes64(d.db);
    }
    if (r.maxEntries > 0) {
        qint64 total = 0;
        {
            auto s = d.prepare("SELECT value FROM meta WHERE key = 'entry_count'");
            total = s.step() ? s.int64(0) : 0;
        }
        const qint64 excess = total - r.maxEntries;
        if (excess > 0) {
            auto s = d.prepare("DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE NOT "
                               "starred ORDER BY created_ms, id LIMIT ?)");
            s.bind(1, excess);
            s.run();
            removed += sqlite3_changes64(d.db);
        }
    }
    if (r.maxBytes > 0) {
        // Pages in use (the freed ones are reused before the file grows), oldest entry first.
        auto used = [&] {
            qint64 v[3] = {0, 0, 0};
            const char *pragmas[] = {"PRAGMA page_count", "PRAGMA freelist_count",
                                     "PRAGMA page_size"};
            for (int i = 0; i < 3; ++i) {
                auto s = d.prepare(pragmas[i]);
                v[i] = s.step() ? s.int64(0) : 0;
            }
            return (v[0] - v[1]) * v[2];
        };
        while (used() > r.maxBytes) {
            auto s = d.prepare("DELETE FROM entries WHERE id = (SELECT id FROM entries WHERE NOT "
                               "starred ORDER BY created_ms, id LIMIT 1)");
            s.run();
            if (sqlite3_changes64(d.db) == 0)
                break; // only starred entries are left
            ++removed;
        }
    }
    return removed;
}

// Columns 0..9 of a summary; `e` is entries.
const char *const kSummaryColumns =
    "e.id, e.kind, e.created_ms, e.model_id, e.model_version, substr(e.input_text, 1, 200), "
    "(SELECT substr(o.text, 1, 200) FROM outputs o WHERE o.entry_id = e.id AND o.column_index = 0 "
    "ORDER BY o.rank LIMIT 1), e.starred, e.image_path <> '', e.elapsed_ms";

HistorySummary readSummary(const HistoryStore::Impl::Statement &s)
{
    HistorySummary h;
    h.id = s.int64(0);
    h.kind = historyKindFromName(s.text(1)).value_or(HistoryKind::Translation);
    h.time = QDateTime::fromMSecsSinceEpoch(s.int64(2), Qt::UTC);
    h.modelId = s.text(3);
    h.modelVersion = s.text(4);
    h.inputPreview = s.text(5);
    h.outputPreview = s.text(6);
    h.starred = s.int64(7) != 0;
    h.hasImage = s.int64(8) != 0;
    h.elapsedMs = s.real(9);
    return h;
}

// `schemaVersion`: that of the file read, which for a damaged file moved aside may be older than
// kSchemaVersion (it is read as it is, never migrated): columns added later read as empty.
HistoryEntry readEntry(HistoryStore::Impl &d, qint64 id, bool *found,
                       int schemaVersion = HistoryStore::kSchemaVersion)
{
    HistoryEntry e;
    *found = false;
    const bool v2 = schemaVersion >= 2; // edited_text, align_row_spans
    {
        auto s = d.prepare(std::string("SELECT kind, created_ms, model_id, model_version, "
                                       "source_language, target_language, settings, input_text, "
                                       "image_path, image_hash, thumbnail, elapsed_ms, starred, ") +
                           (v2 ? "edited_text" : "''") + " FROM entries WHERE id = ?");
        s.bind(1, id);
        if (!s.step())
            return e;
        *found = true;
        e.id = id;
        e.kind = historyKindFromName(s.text(0)).value_or(HistoryKind::Translation);
        e.time = QDateTime::fromMSecsSinceEpoch(s.int64(1), Qt::UTC);
        e.modelId = s.text(2);
        e.modelVersion = s.text(3);
        e.sourceLanguage = s.text(4);
        e.targetLanguage = s.text(5);
        e.settings = QJsonDocument::fromJson(s.text(6).toUtf8()).object();
        e.inputText = s.text(7);
        e.imagePath = s.text(8);
        e.imageHash = s.text(9);
        e.thumbnailPng = s.blob(10);
        e.elapsedMs = s.real(11);
        e.starred = s.int64(12) != 0;
        e.editedText = s.text(13);
    }
    auto s = d.prepare(std::string("SELECT column_index, rank, label, text, score, align_rows, "
                                   "align_cols, align_weights, align_source_tokens, "
                                   "align_target_tokens, ") +
                       (v2 ? "align_row_spans" : "NULL") +
                       " FROM outputs WHERE entry_id = ? ORDER BY column_index, rank");
    s.bind(1, id);
    while (s.step()) {
        HistoryOutput o;
        o.column = int(s.int64(0));
        o.rank = int(s.int64(1));
        o.label = s.text(2);
        o.text = s.text(3);
        if (!s.isNull(4))
            o.score = s.real(4);
        if (!s.isNull(7)) {
            o.alignment.rows = int(s.int64(5));
            o.alignment.cols = int(s.int64(6));
            try {
                if (s.isNull(10)) {
                    o.alignment.weights = HistoryAlignment::weightsFromHalfBlob(
                        o.alignment.rows, o.alignment.cols, s.blob(7));
                } else {
                    o.alignment.setRowSpansFromBlob(s.blob(10));
                    qsizetype count = 0;
                    for (int length : std::as_const(o.alignment.rowLengths))
                        count += length;
                    o.alignment.weights = HistoryAlignment::floatsFromHalfBlob(count, s.blob(7));
                    o.alignment.validate();
                }
            } catch (const std::invalid_argument &error) {
                markNeedsCheck(d.path);
                throw HistoryError(HistoryError::Code::Corrupt,
                                   QStringLiteral("The history file %1 is damaged.").arg(d.path),
                                   QString::fromUtf8(error.what()), SQLITE_CORRUPT);
            }
            o.alignment.sourceTokens = stringListFromJson(s.text(8));
            o.alignment.targetTokens = stringListFromJson(s.text(9));
        }
        e.outputs.append(o);
    }
    return e;
}

Salvage salvageInto(HistoryStore::Impl &to, const QString &damaged)
{
    Salvage result;
    try {
        HistoryStore::Impl from;
        from.openDamaged(damaged);
        int version = HistoryStore::kSchemaVersion;
        try {
            version = from.userVersion();
        } catch (const HistoryError &) {
        }
        // The ids in order, as far as the table can be walked; past a damaged page, every id up
        // to the largest one recorded is tried on its own (a lookup may avoid the bad page).
        QList<qint64> ids;
        bool walked = true;
        try {
            auto s = from.prepare("SELECT id FROM entries ORDER BY id");
            while (s.step())
                ids.append(s.int64(0));
        } catch (const HistoryError &) {
            walked = false;
        }
        if (!walked) {
            qint64 largest = ids.isEmpty() ? 0 : ids.last();
            for (const char *sql : {"SELECT max(id) FROM entries",
                                    "SELECT seq FROM sqlite_sequence WHERE name = 'entries'"}) {
                try {
                    auto s = from.prepare(sql);
                    if (s.step())
                        largest = std::max(largest, s.int64(0));
                } catch (const HistoryError &) {
                }
            }
            for (qint64 id = ids.isEmpty() ? 1 : ids.last() + 1; id <= largest; ++id)
                ids.append(id);
        }
        to.writeTransaction([&] {
            for (const qint64 id : ids) {
                try {
                    bool found = false;
                    const HistoryEntry entry = readEntry(from, id, &found, version);
                    if (found) {
                        insertEntry(to, entry);
                        ++result.recovered;
                    }
                } catch (const HistoryError &) {
                    ++result.lost;
                }
            }
            return 0;
        });
    } catch (const HistoryError &) {
        // Not readable at all (not a database, the schema damaged): nothing to carry over.
    }
    QFile::remove(needsCheckMarker(damaged)); // left by the reads that met the damage
    return result;
}

} // namespace

qint64 HistoryStore::addEntry(const HistoryEntry &entry)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    validateEntry(entry);
    return d->writeTransaction([&] {
        const qint64 id = insertEntry(*d, entry);
        if (m_options.retention.isActive())
            applyRetentionLocked(*d, m_options.retention);
        return id;
    });
}

QList<qint64> HistoryStore::addEntries(const QList<HistoryEntry> &entries)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    for (const HistoryEntry &e : entries)
        validateEntry(e);
    return d->writeTransaction([&] {
        QList<qint64> ids;
        ids.reserve(entries.size());
        for (const HistoryEntry &e : entries)
            ids.append(insertEntry(*d, e));
        if (m_options.retention.isActive())
            applyRetentionLocked(*d, m_options.retention);
        return ids;
    });
}

std::optional<HistoryEntry> HistoryStore::entry(qint64 id) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    HistoryEntry e;
    bool found = false;
    d->readTransaction([&] { e = readEntry(*d, id, &found); });
    if (!found)
        return std::nullopt;
    return e;
}

HistoryPage HistoryStore::recent(const HistoryFilter &filter, int offset, int limit) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const FilterSql f = filterSql(filter);
    const std::string sql = std::string("SELECT ") + kSummaryColumns + " FROM entries e WHERE 1" +
                            f.where + " ORDER BY e.created_ms DESC, e.id DESC LIMIT ? OFFSET ?";
    HistoryPage page;
    auto s = d->prepare(sql);
    int i = 1;
    for (const auto &bind : f.binds)
        bind(s, i++);
    s.bind(i++, qint64(std::max(0, limit)) + 1);
    s.bind(i++, qint64(std::max(0, offset)));
    while (s.step()) {
        if (page.items.size() == std::max(0, limit)) {
            page.hasMore = true;
            break;
        }
        page.items.append(readSummary(s));
    }
    return page;
}

HistoryPage HistoryStore::search(const QString &text, const HistoryFilter &filter, int offset,
                                 int limit, const HistorySearchOptions &options) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const QString query = ftsQuery(text);
    if (query.isEmpty())
        return recent(filter, offset, limit);
    const FilterSql f = filterSql(filter);
    const bool byRelevance = options.order == HistorySearchOptions::Order::Relevance;
    // FTS5 drives the loop; ordering by its rowid (= entries.id) or by its rank lets it deliver
    // rows already sorted, so LIMIT stops early and snippet() runs only for the rows returned.
    const std::string from = " FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid"
                             " WHERE entries_fts MATCH ?" +
                             f.where;
    const std::string sql = std::string("SELECT ") + kSummaryColumns +
                            ", snippet(entries_fts, -1, ?1, ?2, '…', ?3)"
                            ", snippet(entries_fts, 0, ?1, ?2, '…', ?3)"
                            ", snippet(entries_fts, 1, ?1, ?2, '…', ?3)" +
                            from +
                            (byRelevance ? " AND entries_fts.rowid >= ? ORDER BY entries_fts.rank"
                                         : " ORDER BY entries_fts.rowid DESC") +
                            " LIMIT ? OFFSET ?";
    HistoryPage page;
    d->readTransaction([&] { // one snapshot for both statements
        qint64 floorId = 0;
        if (byRelevance) {
            // The oldest id among the newest kRelevanceWindow matches (see Order::Relevance).
            auto w = d->prepare("SELECT entries_fts.rowid" + from +
                                " ORDER BY entries_fts.rowid DESC LIMIT 1 OFFSET ?");
            w.bind(1, query);
            int i = 2;
            for (const auto &bind : f.binds)
                bind(w, i++);
            w.bind(i, HistorySearchOptions::kRelevanceWindow - 1);
            if (w.step())
                floorId = w.int64(0);
        }
        auto s = d->prepare(sql);
        s.bind(1, options.highlightBegin);
        s.bind(2, options.highlightEnd);
        s.bind(3, std::clamp(options.snippetTokens, 1, 64));
        s.bind(4, query);
        int i = 5;
        for (const auto &bind : f.binds)
            bind(s, i++);
        if (byRelevance)
            s.bind(i++, floorId);
        s.bind(i++, qint64(std::max(0, limit)) + 1);
        s.bind(i++, qint64(std::max(0, offset)));
        while (s.step()) {
            if (page.items.size() == std::max(0, limit)) {
                page.hasMore = true;
                break;
            }
            HistorySummary h = readSummary(s);
            h.snippet = s.text(10);
            const QString inInput = s.text(11), inOutputs = s.text(12);
            if (inInput.contains(options.highlightBegin))
                h.inputSnippet = inInput;
            if (inOutputs.contains(options.highlightBegin))
                h.outputSnippet = inOutputs;
            page.items.append(h);
        }
    });
    return page;
}

qint64 HistoryStore::count(const HistoryFilter &filter) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const FilterSql f = filterSql(filter);
    if (f.binds.isEmpty() && !filter.starredOnly) {
        auto s = d->prepare("SELECT value FROM meta WHERE key = 'entry_count'");
        return s.step() ? s.int64(0) : 0;
    }
    auto s = d->prepare("SELECT count(*) FROM entries e WHERE 1" + f.where);
    int i = 1;
    for (const auto &bind : f.binds)
        bind(s, i++);
    return s.step() ? s.int64(0) : 0;
}

bool HistoryStore::setStarred(qint64 id, bool starred)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        auto s = d->prepare("UPDATE entries SET starred = ? WHERE id = ?");
        s.bind(1, starred ? 1 : 0);
        s.bind(2, id);
        s.run();
        return sqlite3_changes64(d->db) > 0;
    });
}

bool HistoryStore::setEditedText(qint64 id, const QString &text)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        auto s = d->prepare("UPDATE entries SET edited_text = ? WHERE id = ?");
        s.bind(1, text);
        s.bind(2, id);
        s.run();
        if (sqlite3_changes64(d->db) == 0)
            return false;
        // The search finds the user's words as well as the model's.
        auto f = d->prepare("UPDATE entries_fts SET outputs = (SELECT group_concat(text, char(10)) "
                            "FROM (SELECT DISTINCT text FROM outputs WHERE entry_id = ?1 "
                            "UNION SELECT edited_text FROM entries WHERE id = ?1 AND "
                            "edited_text <> '')) WHERE rowid = ?1");
        f.bind(1, id);
        f.run();
        return true;
    });
}

bool HistoryStore::removeEntry(qint64 id)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        auto s = d->prepare("DELETE FROM entries WHERE id = ?");
        s.bind(1, id);
        s.run();
        return sqlite3_changes64(d->db) > 0;
    });
}

qint64 HistoryStore::clear()
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        // Emptying the index first makes the per-row delete trigger cheap.
        d->exec("DELETE FROM entries_fts");
        d->exec("DELETE FROM outputs");
        d->exec("DELETE FROM entries");
        return sqlite3_changes64(d->db);
    });
}

qint64 HistoryStore::applyRetention(const HistoryRetention &retention)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    if (!retention.isActive())
        return 0;
    return d->writeTransaction([&] { return applyRetentionLocked(*d, retention); });
}

void HistoryStore::forEachEntry(const HistoryFilter &filter,
                                const std::function<bool(const HistoryEntry &)> &visit) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const FilterSql f = filterSql(filter);
    const std::string sql =
        "SELECT e.id FROM entries e WHERE e.id > ?" + f.where + " ORDER BY e.id LIMIT 256";
    d->readTransaction([&] {
        qint64 last = 0;
        for (;;) {
            // Ids in batches: the entry reads below reuse other statements, so this one must be
            // reset before they run.
            QList<qint64> ids;
            {
                auto s = d->prepare(sql);
                s.bind(1, last);
                int i = 2;
                for (const auto &bind : f.binds)
                    bind(s, i++);
                while (s.step())
                    ids.append(s.int64(0));
            }
            if (ids.isEmpty())
                return;
            for (qint64 id : ids) {
                bool found = false;
                const HistoryEntry e = readEntry(*d, id, &found);
                if (found && !visit(e))
                    return;
            }
            last = ids.last();
        }
    });
}

QStringList HistoryStore::integrityCheck() const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    QStringList problems;
    {
        auto s = d->prepare("PRAGMA integrity_check");
        while (s.step()) {
            const QString line = s.text(0);
            if (line != QLatin1String("ok"))
                problems.append(line);
        }
    }
    // Checks the full-text index against its content; fails with SQLITE_CORRUPT_VTAB if not.
    try {
        d->writeTransaction(
            [&] { d->exec("INSERT INTO entries_fts (entries_fts) VALUES ('integrity-check')"); });
    } catch (const HistoryError &e) {
        if (e.code() != HistoryError::Code::Corrupt)
            throw;
        problems.append(QStringLiteral("full-text index: ") + e.details());
    }
    return problems;
}

} // namespace glosa
