#include "app/core/history/recovery.h"

#include "app/core/history/schema.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace glosa::history {

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

// Copies every entry that can still be read from the damaged file into `to`.
Salvage salvageInto(Connection &to, const QString &damaged)
{
    Salvage result;
    try {
        Connection from;
        from.openImmutable(damaged);
        int version = kSchemaVersion;
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

HistoryOpenResult openOrRecover(Connection &db, const QString &path,
                                const ConnectionSettings &settings, bool checkIntegrity)
{
    db.close();
    HistoryOpenResult result;
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        throw HistoryError(HistoryError::Code::CannotOpen,
                           QStringLiteral("Cannot create the folder %1 for the history.")
                               .arg(info.absolutePath()));
    }
    const bool existed = info.exists() && info.size() > 0;
    try {
        db.open(path, settings);
        result.migratedFrom = migrate(db);
        const bool suspect = QFileInfo::exists(needsCheckMarker(path));
        if (existed && (checkIntegrity || suspect)) {
            const QStringList problems = db.quickCheck();
            if (!problems.isEmpty())
                throw damagedError(path, problems.mid(0, 5).join(QStringLiteral("; ")));
        }
        if (suspect)
            QFile::remove(needsCheckMarker(path)); // checked and found fine
        result.status =
            existed ? HistoryOpenResult::Status::Opened : HistoryOpenResult::Status::Created;
        return result;
    } catch (const HistoryError &e) {
        // Closing the last connection would checkpoint the -wal into the damaged file (or delete
        // it): keep both exactly as found for the backup.
        if (e.code() == HistoryError::Code::Corrupt)
            db.keepWalOnClose();
        db.close();
        if (e.code() != HistoryError::Code::Corrupt)
            throw;
        result.backupPath = moveAside(path);
        qWarning("glosa: %s (%s); moved to %s", qPrintable(e.message()), qPrintable(e.details()),
                 qPrintable(result.backupPath));
    }
    QFile::remove(needsCheckMarker(path));
    db.open(path, settings);
    migrate(db);
    // Damage confined to some pages or rows costs those entries, not the whole history.
    const Salvage salvage = salvageInto(db, result.backupPath);
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

} // namespace glosa::history
