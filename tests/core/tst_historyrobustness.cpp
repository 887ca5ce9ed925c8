// The history's promises across processes, with real child processes (glosa-historywriter):
// killed with SIGKILL while writing, writing at the same time, and writing into a file-size limit.
#include "app/core/history/store.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <csignal>

using namespace glosa;

namespace {

QString writerPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/glosa-historywriter");
}

// The ids a writer reported as committed, in order.
QList<qint64> committedIds(const QByteArray &stdoutBytes)
{
    QList<qint64> ids;
    for (const QByteArray &line : stdoutBytes.split('\n')) {
        if (line.startsWith("committed "))
            ids.append(line.mid(10).toLongLong());
    }
    return ids;
}

QList<qint64> allIds(const QString &path)
{
    sqlite3 *db = nullptr;
    QList<qint64> ids;
    sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT id FROM entries ORDER BY id", -1, &stmt, nullptr) ==
        SQLITE_OK) {
        while (sqlite3_step(stmt) == SQLITE_ROW)
            ids.append(sqlite3_column_int64(stmt, 0));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return ids;
}

// Every entry the writer makes has 3 outputs with [8, 6] alignments; anything less is torn.
QString checkWhole(HistoryStore &store, qint64 id)
{
    const std::optional<HistoryEntry> e = store.entry(id);
    if (!e)
        return QStringLiteral("entry %1 missing").arg(id);
    if (e->outputs.size() != 3)
        return QStringLiteral("entry %1 has %2 outputs").arg(id).arg(e->outputs.size());
    for (const HistoryOutput &o : e->outputs) {
        if (o.alignment.rows != 8 || o.alignment.cols != 6 || o.alignment.weights.size() != 48)
            return QStringLiteral("entry %1 has a torn alignment").arg(id);
    }
    return QString();
}

} // namespace

class TestHistoryRobustness : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString dbPath() const { return m_dir.filePath(QStringLiteral("history.sqlite")); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(writerPath()), qPrintable(writerPath()));
    }

    void cleanup()
    {
        const QStringList files = QDir(m_dir.path()).entryList(QDir::Files);
        for (const QString &f : files)
            QFile::remove(m_dir.filePath(f));
    }

    // Done-when #1: 50 SIGKILLs at random moments; afterwards the file is intact and holds exactly
    // the entries reported committed, plus at most the one that was in flight.
    void survivesSigkillWhileWriting()
    {
        QRandomGenerator rng(20261122);
        QList<qint64> expected; // every id any writer reported
        int killedWhileWriting = 0;
        QElapsedTimer total;
        total.start();
        for (int run = 0; run < 50; ++run) {
            QProcess writer;
            writer.setProcessChannelMode(QProcess::SeparateChannels);
            writer.start(writerPath(), {QStringLiteral("insert"), dbPath(),
                                        QStringLiteral("run%1z").arg(run), QStringLiteral("0")});
            QVERIFY2(writer.waitForStarted(5000), qPrintable(writer.errorString()));
            // Random moments: every fifth run counts from the start of the process, so the kill
            // may land while the store opens (and creates the schema, on the first run); the
            // others count from "ready" (store open), so that on a loaded machine, where starting
            // a process takes long, the kill still lands in the middle of a stream of commits.
            if (run % 5 != 0) {
                while (!writer.canReadLine() && writer.waitForReadyRead(10000)) {
                }
            }
            QThread::msleep(rng.bounded(run % 5 == 0 ? 0 : 1, run % 5 == 0 ? 80 : 40));
            QCOMPARE(::kill(pid_t(writer.processId()), SIGKILL), 0);
            QVERIFY(writer.waitForFinished(5000));
            QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
            const QByteArray out = writer.readAllStandardOutput();
            const QByteArray err = writer.readAllStandardError();
            QVERIFY2(!out.contains("error"), out.constData());
            QVERIFY2(err.isEmpty(), err.constData());
            const QList<qint64> reported = committedIds(out);
            if (!reported.isEmpty())
                ++killedWhileWriting;

            // What the app does at the next start: open (recovering the WAL), check, read.
            HistoryStore store;
            const HistoryOpenResult opened = store.open(dbPath());
            QVERIFY2(opened.status != HistoryOpenResult::Status::Recovered,
                     qPrintable(opened.message));
            QCOMPARE(store.integrityCheck(), QStringList());

            const qint64 previousMax = expected.isEmpty() ? 0 : expected.last();
            expected += reported;
            QList<qint64> present = allIds(dbPath());
            QList<qint64> fresh;
            for (qint64 id : present) {
                if (id > previousMax)
                    fresh.append(id);
            }
            // Reported ones are all there, in order; at most one more (the one in flight), and
            // it is the newest.
            QVERIFY2(fresh.size() == reported.size() || fresh.size() == reported.size() + 1,
                     qPrintable(QStringLiteral("run %1: %2 reported, %3 new in the file")
                                    .arg(run)
                                    .arg(reported.size())
                                    .arg(fresh.size())));
            QCOMPARE(fresh.mid(0, reported.size()), reported);
            if (fresh.size() > reported.size()) {
                QVERIFY(reported.isEmpty() || fresh.last() > reported.last());
                expected.append(fresh.last()); // committed just before the kill
                QVERIFY(checkWhole(store, fresh.last()).isEmpty());
            }
            // Earlier runs' entries are untouched.
            QCOMPARE(present, expected);
            // Every entry reported is whole, and the index knows it.
            for (qint64 id : reported) {
                const QString problem = checkWhole(store, id);
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
            if (!reported.isEmpty()) {
                const HistoryPage hits =
                    store.search(QStringLiteral("run%1z").arg(run), {}, 0, 100000);
                QCOMPARE(hits.items.size(), fresh.size());
            }
        }
        qInfo("%d of 50 kills hit a writer that had committed entries; %lld entries in %lld ms",
              killedWhileWriting, qint64(expected.size()), total.elapsed());
        QVERIFY2(killedWhileWriting >= 25, "too few kills landed while writing: test is too weak");
        QVERIFY(expected.size() >= 100);
    }

    // Done-when #3: writers in several processes at once never see "database is locked".
    void concurrentWritersNeverSeeLocked_data()
    {
        QTest::addColumn<bool>("freshFile");
        QTest::newRow("existing database") << false;
        // Every process races to create the file, switch it to WAL and run the migrations.
        QTest::newRow("no file yet") << true;
    }

    void concurrentWritersNeverSeeLocked()
    {
        QFETCH(bool, freshFile);
        if (!freshFile) {
            HistoryStore store;
            store.open(dbPath());
        }
        const int perWriter = 1000; // long enough for the processes to overlap
        QList<QProcess *> writers;
        for (int w = 0; w < 3; ++w) {
            auto *p = new QProcess(this);
            p->start(writerPath(), {QStringLiteral("insert"), dbPath(),
                                    QStringLiteral("writer%1").arg(w), QString::number(perWriter)});
            QVERIFY(p->waitForStarted(5000));
            writers.append(p);
        }
        // This process writes too, while the children run.
        HistoryStore store;
        const HistoryOpenResult opened = store.open(dbPath());
        QVERIFY(opened.status != HistoryOpenResult::Status::Recovered);
        int mine = 0;
        qint64 myFirst = -1, myLast = -1;
        const auto running = [&] {
            for (QProcess *p : writers) {
                if (p->state() != QProcess::NotRunning)
                    return true;
            }
            return false;
        };
        while (running() && mine < 100000) {
            HistoryEntry e;
            e.inputText = QStringLiteral("parent entry %1").arg(mine);
            const qint64 id = store.addEntry(e); // throws (and fails the test) on Busy
            myFirst = myFirst < 0 ? id : myFirst;
            myLast = id;
            ++mine;
            QCoreApplication::processEvents();
        }
        QList<std::pair<qint64, qint64>> spans; // first and last id of each child
        for (int w = 0; w < 3; ++w) {
            QProcess *p = writers[w];
            // waitForFinished() is false for a process that has already finished.
            QVERIFY(p->state() == QProcess::NotRunning || p->waitForFinished(60000));
            const QByteArray out = p->readAllStandardOutput();
            QVERIFY2(p->exitCode() == 0, out.right(300).constData());
            QVERIFY(!out.contains("locked"));
            const QList<qint64> ids = committedIds(out);
            QCOMPARE(ids.size(), perWriter);
            spans.append({ids.first(), ids.last()});
            QCOMPARE(store.search(QStringLiteral("writer%1").arg(w), {}, 0, 100000).items.size(),
                     perWriter);
        }
        // The test only means something if the writers really ran at the same time: their ids
        // interleave. This process counts as a writer too: on a loaded machine the children may
        // be scheduled one after another, while this process keeps writing until the last one ends.
        if (myFirst >= 0)
            spans.append({myFirst, myLast});
        int overlapping = 0;
        for (int a = 0; a < spans.size(); ++a) {
            for (int b = a + 1; b < spans.size(); ++b) {
                if (spans[a].first < spans[b].second && spans[b].first < spans[a].second)
                    ++overlapping;
            }
        }
        QVERIFY2(overlapping > 0, "the writers ran one after another");
        qDeleteAll(writers);
        QVERIFY(mine > 0);
        QCOMPARE(store.count(), qint64(3 * perWriter + mine));
        QCOMPARE(store.integrityCheck(), QStringList());
    }

    // A writer that finds the lock held waits for it instead of failing.
    void writerWaitsForAHeldLock()
    {
        {
            HistoryStore store;
            store.open(dbPath());
        }
        sqlite3 *holder = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(dbPath()).constData(), &holder), SQLITE_OK);
        QCOMPARE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        QProcess writer;
        writer.start(writerPath(), {QStringLiteral("insert"), dbPath(), QStringLiteral("late"),
                                    QStringLiteral("5")});
        QVERIFY(writer.waitForStarted(5000));
        // The handshake: the writer says when a write has found the lock held and waits for it
        // (HistoryStore::Options::onLockWait), not a sleep that hopes it got there.
        QByteArray out;
        while (!out.contains("waiting\n") && writer.waitForReadyRead(30000))
            out += writer.readAllStandardOutput();
        QVERIFY2(out.contains("waiting\n"), out.constData());
        QCOMPARE(committedIds(out).size(), 0); // waiting, not failed and not through
        QCOMPARE(writer.state(), QProcess::Running);
        QCOMPARE(sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(holder);
        QVERIFY(writer.waitForFinished(30000));
        out += writer.readAllStandardOutput();
        QCOMPARE(writer.exitCode(), 0);
        QCOMPARE(committedIds(out).size(), 5);
        QCOMPARE(allIds(dbPath()).size(), 5);
    }

    // Done-when #4: a full disk (here a file-size limit on the child) is a clear error, nothing is
    // corrupted and the store keeps working.
    void diskFullIsACleanError()
    {
        {
            HistoryStore store;
            store.open(dbPath());
        }
        QProcess writer;
        writer.start(writerPath(),
                     {QStringLiteral("fill"), dbPath(), QString::number(1024 * 1024)});
        QVERIFY(writer.waitForStarted(5000));
        QVERIFY(writer.waitForFinished(60000));
        const QByteArray out = writer.readAllStandardOutput();
        QVERIFY2(writer.exitStatus() == QProcess::NormalExit && writer.exitCode() == 0,
                 out.right(600).constData());
        QVERIFY2(out.contains("\nfull DiskFull Not enough disk space"), out.right(600).constData());
        QVERIFY(out.contains("\nintegrity-ok\n"));
        QVERIFY(out.contains("\nstore-usable\n"));
        const QList<qint64> reported = committedIds(out);
        QVERIFY(reported.size() > 10);

        // Without the limit: intact, exactly the committed entries, and writable.
        HistoryStore store;
        const HistoryOpenResult opened = store.open(dbPath());
        QVERIFY(opened.status == HistoryOpenResult::Status::Opened);
        QCOMPARE(store.integrityCheck(), QStringList());
        QCOMPARE(allIds(dbPath()), reported);
        HistoryEntry e;
        e.inputText = QStringLiteral("after the disk was full");
        QVERIFY(store.addEntry(e) > reported.last());
    }
};

QTEST_GUILESS_MAIN(TestHistoryRobustness)
#include "tst_historyrobustness.moc"
