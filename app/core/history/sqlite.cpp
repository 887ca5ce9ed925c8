#include "app/core/history/sqlite.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStorageInfo>
#include <QThread>
#include <QUrl>

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>

namespace glosa::history {

namespace {

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
        // The system's reason when there is one: a name over 255 bytes is "File name too long",
        // not a matter of permissions.
        return HistoryError(
            HistoryError::Code::CannotOpen,
            sysErrno ? QStringLiteral("Cannot open the history file %1: %2.")
                           .arg(path, QString::fromLocal8Bit(std::strerror(sysErrno)))
                     : QStringLiteral("Cannot open the history file %1 for writing.").arg(path),
            details, rc);
    default:
        return HistoryError(HistoryError::Code::Internal,
                            QStringLiteral("The history failed unexpectedly."), details, rc);
    }
}

} // namespace

QString needsCheckMarker(const QString &path)
{
    return path + QStringLiteral(".needs-check");
}

void markNeedsCheck(const QString &path)
{
    QFile marker(needsCheckMarker(path));
    if (marker.open(QIODevice::WriteOnly))
        marker.write(QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toUtf8() + '\n');
}

HistoryError damagedError(const QString &path, const QString &details)
{
    return HistoryError(HistoryError::Code::Corrupt,
                        QStringLiteral("The history file %1 is damaged.").arg(path), details,
                        SQLITE_CORRUPT);
}

// ---------------------------------------------------------------------------------------------
// Statement

Connection::Statement::~Statement()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

void Connection::Statement::bind(int i, qint64 v)
{
    check(sqlite3_bind_int64(m_stmt, i, v));
}

void Connection::Statement::bind(int i, double v)
{
    check(sqlite3_bind_double(m_stmt, i, v));
}

void Connection::Statement::bind(int i, const QString &v)
{
    const QByteArray u = v.toUtf8();
    check(sqlite3_bind_text(m_stmt, i, u.constData(), int(u.size()), SQLITE_TRANSIENT));
}

void Connection::Statement::bindBlob(int i, const QByteArray &v)
{
    if (v.isNull())
        check(sqlite3_bind_null(m_stmt, i));
    else
        check(sqlite3_bind_blob(m_stmt, i, v.constData(), int(v.size()), SQLITE_TRANSIENT));
}

void Connection::Statement::bindNull(int i)
{
    check(sqlite3_bind_null(m_stmt, i));
}

bool Connection::Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_connection->fail(rc, sqlite3_sql(m_stmt));
}

qint64 Connection::Statement::int64(int c) const
{
    return sqlite3_column_int64(m_stmt, c);
}

double Connection::Statement::real(int c) const
{
    return sqlite3_column_double(m_stmt, c);
}

bool Connection::Statement::isNull(int c) const
{
    return sqlite3_column_type(m_stmt, c) == SQLITE_NULL;
}

QString Connection::Statement::text(int c) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, c));
    return QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, c));
}

QByteArray Connection::Statement::blob(int c) const
{
    const void *p = sqlite3_column_blob(m_stmt, c);
    const int n = sqlite3_column_bytes(m_stmt, c);
    return p ? QByteArray(static_cast<const char *>(p), n) : QByteArray();
}

void Connection::Statement::check(int rc)
{
    if (rc != SQLITE_OK)
        m_connection->fail(rc, sqlite3_sql(m_stmt));
}

// ---------------------------------------------------------------------------------------------
// Connection

QString whyNotWritable(const QString &file)
{
    // access(2), not the permission bits: root may write a 0444 file, nobody a read-only mount.
    const QFileInfo info(file);
    const QByteArray folder = QFile::encodeName(info.absolutePath());
    if (::access(folder.constData(), W_OK) != 0)
        return QStringLiteral("its folder %1 cannot be written (%2), and SQLite keeps its "
                              "-wal and -shm files beside it")
            .arg(info.absolutePath(), QString::fromLocal8Bit(std::strerror(errno)));
    if (info.exists() && ::access(QFile::encodeName(file).constData(), W_OK) != 0)
        return QStringLiteral("the file cannot be written (%1)")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    return QString();
}

int Connection::busyWait(void *context, int count)
{
    // sqlite3_busy_timeout()'s own schedule (sqliteDefaultBusyCallback in SQLite's main.c):
    // short sleeps first, 100 ms ones once the lock has been held a while.
    static constexpr int kDelays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
    static constexpr int kCount = int(std::size(kDelays));
    const auto *busy = static_cast<const BusyWait *>(context);
    if (count == 0 && busy->onWait)
        busy->onWait();
    int delay = count < kCount ? kDelays[count] : kDelays[kCount - 1];
    int prior = 0;
    for (int i = 0; i < std::min(count, kCount); ++i)
        prior += kDelays[i];
    if (count >= kCount)
        prior += (count - kCount) * kDelays[kCount - 1];
    if (prior + delay > busy->timeoutMs) {
        delay = busy->timeoutMs - prior;
        if (delay <= 0)
            return 0; // give up: SQLITE_BUSY
    }
    sqlite3_sleep(delay);
    return 1;
}

void Connection::open(const QString &file, const ConnectionSettings &settings)
{
    close();
    m_path = file;
    // Checked before SQLite opens it: opened for writing, a read-only file is silently opened
    // read-only, and the first read in WAL mode then creates -wal and -shm files with the file's
    // own mode (0444), which that connection can neither use for writing nor remove.
    if (const QString why = whyNotWritable(file); !why.isEmpty())
        throw HistoryError(HistoryError::Code::CannotOpen,
                           QStringLiteral("Cannot write to the history file %1: %2.").arg(file, why));
    const int rc =
        sqlite3_open_v2(QFile::encodeName(file).constData(), &m_db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const HistoryError error = makeError(m_db, rc, m_path, "open");
        close();
        throw error;
    }
    sqlite3_extended_result_codes(m_db, 1);
    m_busy = {settings.busyTimeoutMs, settings.onLockWait};
    if (m_busy.onWait)
        sqlite3_busy_handler(m_db, &Connection::busyWait, &m_busy);
    else
        sqlite3_busy_timeout(m_db, settings.busyTimeoutMs);
    {
        Statement s = prepare("PRAGMA journal_mode = WAL");
        s.step(); // a file system without shared memory keeps "delete"; still correct
    }
    exec(settings.syncEveryCommit ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    exec("PRAGMA foreign_keys = ON");
    if (settings.maxDatabaseBytes > 0) {
        Statement s = prepare("PRAGMA page_size");
        const qint64 pageSize = s.step() ? s.int64(0) : 4096;
        const qint64 pages = std::max<qint64>(1, settings.maxDatabaseBytes / pageSize);
        exec("PRAGMA max_page_count = " + std::to_string(pages));
    }
    // Reads the schema: fails with SQLITE_CORRUPT when the header is fine but the schema is not.
    exec("SELECT count(*) FROM sqlite_schema");
}

void Connection::openReadOnly(const QString &file)
{
    // With a -wal beside it, another connection may be writing (or one ended without a
    // checkpoint): its -shm (an existing one, even read-only) says which pages of the -wal are
    // committed. Without a -wal the file holds every committed entry, and immutable=1 reads it
    // without creating the -shm that a read-only folder or a 0444 file cannot take (SQLite
    // would leave it behind, 0444, with an empty -wal).
    const bool hasWal = QFileInfo(file + QStringLiteral("-wal")).size() > 0;
    openUri(file, hasWal ? "mode=ro" : "immutable=1");
    exec("SELECT count(*) FROM sqlite_schema");
}

void Connection::openImmutable(const QString &file)
{
    openUri(file, "immutable=1");
}

void Connection::openUri(const QString &file, const char *query)
{
    close();
    m_path = file;
    const QByteArray uri = "file:" + QUrl::toPercentEncoding(file, "/") + '?' + query;
    const int rc =
        sqlite3_open_v2(uri.constData(), &m_db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const HistoryError error = makeError(m_db, rc, m_path, "open");
        close();
        throw error;
    }
    sqlite3_extended_result_codes(m_db, 1);
}

void Connection::close()
{
    for (auto &[sql, stmt] : m_statements)
        sqlite3_finalize(stmt);
    m_statements.clear();
    if (m_db) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

void Connection::keepWalOnClose()
{
    if (m_db)
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
}

void Connection::fail(int rc, const char *what) const
{
    HistoryError error = makeError(m_db, rc, m_path, what);
    if (error.code() == HistoryError::Code::Corrupt)
        markNeedsCheck(m_path);
    throw error;
}

void Connection::exec(const char *sql)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &message);
    sqlite3_free(message); // sqlite3_errmsg still has it
    if (rc != SQLITE_OK)
        fail(rc, sql);
}

Connection::Statement Connection::prepare(const std::string &sql)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        sqlite3_stmt *stmt = nullptr;
        const int rc = sqlite3_prepare_v3(m_db, sql.c_str(), int(sql.size()) + 1,
                                          SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
        if (rc != SQLITE_OK)
            fail(rc, sql.c_str());
        it = m_statements.emplace(sql, stmt).first;
    }
    return Statement(this, it->second);
}

qint64 Connection::changes() const
{
    return sqlite3_changes64(m_db);
}

qint64 Connection::lastInsertRowid() const
{
    return sqlite3_last_insert_rowid(m_db);
}

int Connection::userVersion()
{
    Statement s = prepare("PRAGMA user_version");
    return s.step() ? int(s.int64(0)) : 0;
}

QStringList Connection::quickCheck()
{
    QStringList problems;
    try {
        Statement s = prepare("PRAGMA quick_check");
        while (s.step()) {
            const QString line = s.text(0);
            if (line != QLatin1String("ok"))
                problems.append(line);
        }
    } catch (const HistoryError &error) {
        // A page so damaged that the check itself stops there: a finding like the others.
        if (error.code() != HistoryError::Code::Corrupt)
            throw;
        problems.append(sqliteReason(error));
    }
    return problems;
}

void Connection::rollbackQuietly()
{
    if (m_db && !sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Connection::runWriteTransaction(const std::function<void()> &body)
{
    for (int attempt = 1;; ++attempt) {
        try {
            exec("BEGIN IMMEDIATE");
            body();
            exec("COMMIT");
            return;
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

void Connection::readTransaction(const std::function<void()> &body)
{
    exec("BEGIN");
    try {
        body();
    } catch (...) {
        rollbackQuietly();
        throw;
    }
    // It wrote nothing, so ROLLBACK ends it as well as COMMIT would; and COMMIT fails with
    // SQLITE_CORRUPT once a statement in it met a damaged page, though every row read is good.
    rollbackQuietly();
}

} // namespace glosa::history

QString glosa::sqliteReason(const HistoryError &error)
{
    return QStringLiteral("%1 [sqlite %2]")
        .arg(QString::fromUtf8(sqlite3_errstr(error.sqliteCode())))
        .arg(error.sqliteCode());
}
