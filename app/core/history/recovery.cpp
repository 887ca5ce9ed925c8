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
                            QStringLiteral("The damaged history file %1 could not be moved aside "
                                           "to %2.")
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

namespace {

// A new file at `path` holding every entry that can be read from `backup` (the old file, moved
// aside): the result says why (`what`, a sentence), where the old file went and how many entries
// came over.
HistoryOpenResult rebuildFrom(Connection &db, const QString &path, const QString &backup,
                              const ConnectionSettings &settings, const QString &what)
{
    QFile::remove(needsCheckMarker(path));
    db.open(path, settings);
    migrate(db);
    const Salvage salvage = salvageInto(db, backup);
    HistoryOpenResult result;
    result.status = HistoryOpenResult::Status::Recovered;
    result.backupPath = backup;
    result.recoveredEntries = salvage.recovered;
    result.lostEntries = salvage.lost;
    const QString shown = QDir::toNativeSeparators(backup);
    if (salvage.recovered == 0 && salvage.lost == 0)
        result.message = QStringLiteral("%1 It was kept as %2 and a new, empty history was "
                                        "started.")
                             .arg(what, shown);
    else
        result.message = QStringLiteral("%1 The old file is kept as %2; the %3 entries that could "
                                        "be read were carried over into a new one, %4 damaged "
                                        "ones could not be.")
                             .arg(what, shown)
                             .arg(salvage.recovered)
                             .arg(salvage.lost);
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
    QString backup;
    try {
        db.open(path, settings);
        result.migratedFrom = migrate(db);
        result.status =
            existed ? HistoryOpenResult::Status::Opened : HistoryOpenResult::Status::Created;
        const bool suspect = QFileInfo::exists(needsCheckMarker(path));
        if (suspect && !existed) {
            QFile::remove(needsCheckMarker(path)); // left by a file that is gone
        } else if (existed && (checkIntegrity || suspect)) {
            const QStringList problems = db.quickCheck();
            if (problems.isEmpty()) {
                QFile::remove(needsCheckMarker(path)); // checked and found fine
            } else {
                // Damage inside the file, below a schema that reads: it stays where it is (every
                // other entry is readable there, and writes go on where SQLite allows them), and
                // the marker stays so that every open says so until it is repaired.
                markNeedsCheck(path);
                result.status = HistoryOpenResult::Status::Damaged;
                result.message =
                    QStringLiteral("The history file %1 is damaged in places: the entries "
                                   "stored there cannot be read and are listed as damaged; the "
                                   "others can be used as before. `glosa-cli history repair` "
                                   "rebuilds the file from what can be read and keeps this one "
                                   "as a backup.")
                        .arg(QDir::toNativeSeparators(path));
                qWarning("glosa: %s (%s)", qPrintable(result.message),
                         qPrintable(problems.mid(0, 5).join(QStringLiteral("; "))));
            }
        }
        return result;
    } catch (const HistoryError &e) {
        // Closing the last connection would checkpoint the -wal into the damaged file (or delete
        // it): keep both exactly as found for the backup.
        if (e.code() == HistoryError::Code::Corrupt)
            db.keepWalOnClose();
        db.close();
        if (e.code() != HistoryError::Code::Corrupt)
            throw;
        // Not a database, or a schema that cannot be read: nothing can be used in place.
        backup = moveAside(path);
        qWarning("glosa: %s (%s); moved to %s", qPrintable(e.message()), qPrintable(e.details()),
                 qPrintable(backup));
    }
    return rebuildFrom(db, path, backup, settings,
                       QStringLiteral("The history file could not be opened: it is damaged."));
}

HistoryOpenResult repair(Connection &db, const ConnectionSettings &settings)
{
    const QString path = db.path();
    // A normal close checkpoints the -wal into the file, so that the backup is one whole file
    // and the salvage (which reads it immutable, without a -wal) sees the latest entries too.
    db.close();
    const QString backup = moveAside(path);
    qWarning("glosa: history repaired; the old file was moved to %s", qPrintable(backup));
    return rebuildFrom(db, path, backup, settings, QStringLiteral("The history file was rebuilt."));
}

} // namespace glosa::history
