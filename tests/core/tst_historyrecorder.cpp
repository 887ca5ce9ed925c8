// HistoryRecorder on its own, with a real SQLite file in a temporary folder and the settings in a
// temporary QSettings file: the queue behind another process's lock, its retries and backoff, its
// bound, the retention settings (entries and the file's size), a full disk, and the two modes.
// tests/gui/tst_historyview.cpp drives the same recorder through the app's windows.
#include "app/core/history/recorder.h"
#include "app/core/history/retention.h"

#include "tests/support/historytestutil.h"
#include "tests/support/testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace glosa;
using glosa::test::makeTranslation;
using glosa::test::WriteLock;

namespace {

QStringList inputsNewestFirst(const HistoryStore &store)
{
    QStringList inputs;
    for (const HistorySummary &s : store.recent({}, 0, 1000).items)
        inputs << s.inputPreview;
    return inputs;
}

// A translation with a 250 × 400 float16 alignment: about 200 KB in the file.
HistoryEntry bigTranslation(int i)
{
    HistoryEntry e =
        makeTranslation(QStringLiteral("entry %1").arg(i), {QStringLiteral("entrada %1").arg(i)});
    HistoryAlignment &a = e.outputs[0].alignment;
    a.rows = 250;
    a.cols = 400;
    for (int k = 0; k < a.rows * a.cols; ++k)
        a.weights << float((k * 7919 + i) % 1000) / 1000.0f;
    return e;
}

} // namespace

class TestHistoryRecorder : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    QString dbPath() const { return m_dir.filePath(QStringLiteral("history.sqlite")); }

    // Interactive, with a shorter wait for the lock than the app's, so that the tests do not
    // spend half a second on every write that meets it.
    static HistoryStore::Options quickOptions()
    {
        HistoryStore::Options options = HistoryRecorder::defaultOptions();
        options.busyTimeoutMs = 20;
        return options;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_settingsDir.isValid());
        glosa::test::isolateAppState(m_settingsDir.path(), m_dir.path(),
                                     QStringLiteral("tst_historyrecorder"));
    }

    void init()
    {
        openSettings()->clear(); // recording on, the default retention (500 MB)
        for (const QString &f : QDir(m_dir.path()).entryList(QDir::Files))
            QFile::remove(m_dir.filePath(f));
    }

    void recordsAtOnce()
    {
        HistoryRecorder recorder;
        QSignalSpy changed(&recorder, &HistoryRecorder::storeChanged);
        QVERIFY(recorder.open(dbPath()));
        QCOMPARE(changed.size(), 1);
        QVERIFY(recorder.store());
        QCOMPARE(recorder.openResult().status, HistoryOpenResult::Status::Created);
        // The GUI thread never waits the store's default 4 × 5 s for another process's lock.
        QCOMPARE(recorder.store()->options().busyTimeoutMs, 100);
        QCOMPARE(recorder.store()->options().retention.maxBytes,
                 settings::historyMaxMegabytes.defaultValue() * 1024 * 1024);

        QSignalSpy added(&recorder, &HistoryRecorder::entriesAdded);
        QSignalSpy warnings(&recorder, &HistoryRecorder::warning);
        const qint64 id = recorder.record(makeTranslation(QStringLiteral("Good morning."),
                                                          {QStringLiteral("Buenos días.")}));
        QVERIFY(id > 0);
        QCOMPARE(added.size(), 1);
        QCOMPARE(added.first().first().toBool(), true);
        QVERIFY(warnings.isEmpty());
        QCOMPARE(recorder.store()->entry(id)->bestOutput()->text, QStringLiteral("Buenos días."));
        QCOMPARE(recorder.queuedCount(), 0);
        QCOMPARE(recorder.retryDelayMs(), 0);
    }

    void recordingSwitchAppliesToTheAppOnly()
    {
        settings::historyEnabled.setValue(false);
        HistoryRecorder app;
        QVERIFY(app.open(dbPath()));
        QVERIFY(!app.isRecording());
        QCOMPARE(app.record(makeTranslation(QStringLiteral("off"), {})), 0);
        QCOMPARE(app.store()->count(), 0);

        // glosa-cli --save-history: an explicit request, and it may wait for the lock as long
        // as the store does.
        HistoryRecorder cli(HistoryRecorder::Mode::Batch);
        QVERIFY(cli.open(dbPath()));
        QVERIFY(cli.isRecording());
        QCOMPARE(cli.store()->options().busyTimeoutMs, HistoryStore::Options().busyTimeoutMs);
        QVERIFY(cli.record(makeTranslation(QStringLiteral("asked for"), {})) > 0);
        QCOMPARE(cli.store()->count(), 1);
    }

    void lockedHistoryQueuesInOrderAndBacksOff()
    {
        HistoryRecorder recorder;
        QVERIFY(recorder.open(dbPath(), quickOptions()));
        WriteLock lock(dbPath());
        QVERIFY(lock.isHeld());
        QSignalSpy warnings(&recorder, &HistoryRecorder::warning);
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(recorder.record(makeTranslation(QStringLiteral("first"), {})),
                 HistoryRecorder::kQueued);
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().first().toString().contains(QStringLiteral("another Glosa")),
                 qPrintable(warnings.first().first().toString()));
        // A later entry queues behind the first without waiting for the lock.
        clock.restart();
        QCOMPARE(recorder.record(makeTranslation(QStringLiteral("second"), {})),
                 HistoryRecorder::kQueued);
        QVERIFY2(clock.elapsed() < 50, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(recorder.queuedCount(), 2);
        QCOMPARE(recorder.retryDelayMs(), HistoryRecorder::kRetryFirstMs);

        // Every retry that meets the lock doubles the delay, up to kRetryMaxMs.
        QList<int> delays;
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(recorder.retryQueued(), 2);
            delays << recorder.retryDelayMs();
        }
        QCOMPARE(delays, (QList<int>{2000, 4000, 8000, 16000, HistoryRecorder::kRetryMaxMs,
                                     HistoryRecorder::kRetryMaxMs}));
        QCOMPARE(recorder.store()->count(), 0);

        lock.release();
        QSignalSpy added(&recorder, &HistoryRecorder::entriesAdded);
        QCOMPARE(recorder.retryQueued(), 0);
        QCOMPARE(recorder.retryDelayMs(), 0);
        QCOMPARE(added.size(), 1);
        QCOMPARE(added.first().first().toBool(), true); // the write error is over
        QCOMPARE(inputsNewestFirst(*recorder.store()),
                 (QStringList{QStringLiteral("second"), QStringLiteral("first")}));
        QVERIFY(recorder.record(makeTranslation(QStringLiteral("third"), {})) > 0);
        QCOMPARE(recorder.store()->integrityCheck(), QStringList());
    }

    void retryTimerWritesTheQueueOnceTheLockIsFree()
    {
        HistoryRecorder recorder;
        QVERIFY(recorder.open(dbPath(), quickOptions()));
        auto lock = std::make_unique<WriteLock>(dbPath());
        QVERIFY(lock->isHeld());
        QCOMPARE(recorder.record(makeTranslation(QStringLiteral("waiting"), {})),
                 HistoryRecorder::kQueued);
        QSignalSpy added(&recorder, &HistoryRecorder::entriesAdded);
        lock.reset();
        QVERIFY(added.wait(HistoryRecorder::kRetryFirstMs + 2000));
        QCOMPARE(recorder.queuedCount(), 0);
        QCOMPARE(recorder.store()->count(), 1);
    }

    void queueIsBoundedAndDropsTheOldest()
    {
        HistoryRecorder recorder;
        QVERIFY(recorder.open(dbPath(), quickOptions()));
        WriteLock lock(dbPath());
        QVERIFY(lock.isHeld());
        QSignalSpy warnings(&recorder, &HistoryRecorder::warning);
        const int extra = 5;
        for (int i = 0; i < HistoryRecorder::kMaxQueued + extra; ++i)
            QCOMPARE(recorder.record(makeTranslation(QStringLiteral("entry %1").arg(i), {})),
                     HistoryRecorder::kQueued);
        QCOMPARE(recorder.queuedCount(), HistoryRecorder::kMaxQueued);
        QCOMPARE(warnings.size(), 1 + extra); // the first "not saved yet", then one per drop
        QVERIFY2(warnings.last().first().toString().contains(QStringLiteral("dropped")),
                 qPrintable(warnings.last().first().toString()));

        lock.release();
        QCOMPARE(recorder.retryQueued(), 0);
        const QStringList inputs = inputsNewestFirst(*recorder.store());
        QCOMPARE(inputs.size(), HistoryRecorder::kMaxQueued);
        QCOMPARE(inputs.first(),
                 QStringLiteral("entry %1").arg(HistoryRecorder::kMaxQueued + extra - 1));
        QCOMPARE(inputs.last(), QStringLiteral("entry %1").arg(extra)); // the oldest went
    }

    void closingGivesTheQueueALastTry()
    {
        {
            // Still locked when the store is closed: said, and dropped.
            HistoryRecorder recorder;
            QVERIFY(recorder.open(dbPath(), quickOptions()));
            WriteLock lock(dbPath());
            for (const char *input : {"a", "b"})
                QCOMPARE(recorder.record(makeTranslation(QLatin1String(input), {})),
                         HistoryRecorder::kQueued);
            QSignalSpy messages(&recorder, &HistoryRecorder::statusMessage);
            QSignalSpy changed(&recorder, &HistoryRecorder::storeChanged);
            recorder.close();
            QCOMPARE(recorder.queuedCount(), 0);
            QVERIFY(!recorder.store());
            QCOMPARE(changed.size(), 1);
            QCOMPARE(messages.size(), 1);
            QVERIFY2(messages.first().first().toString().contains(QStringLiteral("not be saved")),
                     qPrintable(messages.first().first().toString()));
            QCOMPARE(recorder.record(makeTranslation(QStringLiteral("closed"), {})), 0);
        }
        {
            // Free by the time the recorder goes: written.
            auto recorder = std::make_unique<HistoryRecorder>();
            QVERIFY(recorder->open(dbPath(), quickOptions()));
            WriteLock lock(dbPath());
            QCOMPARE(recorder->record(makeTranslation(QStringLiteral("late"), {})),
                     HistoryRecorder::kQueued);
            lock.release();
            recorder.reset();
        }
        HistoryStore store;
        store.open(dbPath());
        QCOMPARE(inputsNewestFirst(store), QStringList{QStringLiteral("late")});
    }

    void retentionSettingsBoundEntries()
    {
        settings::historyMaxEntries.setValue(3);
        HistoryRecorder recorder;
        QVERIFY(recorder.open(dbPath()));
        const qint64 starred = recorder.record(makeTranslation(QStringLiteral("keep me"), {}));
        QVERIFY(recorder.store()->setStarred(starred, true));
        for (int i = 0; i < 5; ++i)
            QVERIFY(recorder.record(makeTranslation(QStringLiteral("entry %1").arg(i), {})) > 0);
        QCOMPARE(inputsNewestFirst(*recorder.store()),
                 (QStringList{QStringLiteral("entry 4"), QStringLiteral("entry 3"),
                              QStringLiteral("keep me")}));

        // A new limit applies at once, and to every later insert.
        settings::historyMaxEntries.setValue(2);
        QCOMPARE(recorder.applyRetentionSettings(), 1);
        QCOMPARE(recorder.store()->count(), 2);
        QVERIFY(recorder.record(makeTranslation(QStringLiteral("entry 5"), {})) > 0);
        QCOMPARE(inputsNewestFirst(*recorder.store()),
                 (QStringList{QStringLiteral("entry 5"), QStringLiteral("keep me")}));
    }

    // "Keep the history file under N MB" bounds the file itself, not only the entries in it.
    void retentionSettingsBoundTheFileSize()
    {
        const qint64 limit = 1024 * 1024;
        settings::historyMaxMegabytes.setValue(1);
        HistoryRecorder recorder;
        QVERIFY(recorder.open(dbPath()));
        for (int i = 0; i < 30; ++i) // about 6 MB in all
            QVERIFY(recorder.record(bigTranslation(i)) > 0);
        const qint64 kept = recorder.store()->count();
        QVERIFY2(kept > 1 && kept < 10, qPrintable(QString::number(kept)));
        QCOMPARE(inputsNewestFirst(*recorder.store()).first(), QStringLiteral("entry 29"));
        recorder.close(); // checkpoints the WAL into the file
        const qint64 bytes = QFileInfo(dbPath()).size();
        QVERIFY2(bytes <= limit + 300 * 1024, qPrintable(QString::number(bytes)));
    }

    void fullDiskLosesOnlyThatEntry()
    {
        HistoryRecorder recorder;
        HistoryStore::Options options = HistoryRecorder::defaultOptions();
        options.maxDatabaseBytes = 256 * 1024; // a quota stands in for a full disk
        QVERIFY(recorder.open(dbPath(), options));
        QSignalSpy warnings(&recorder, &HistoryRecorder::warning);
        const HistoryEntry big = makeTranslation(QString(30 * 1024, QLatin1Char('x')), {});
        int saved = 0;
        while (saved < 20 && recorder.record(big) > 0)
            ++saved;
        QVERIFY2(saved < 20, "the quota was never reached");
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().first().toString().contains(QStringLiteral("disk space")),
                 qPrintable(warnings.first().first().toString()));
        QCOMPARE(recorder.queuedCount(), 0); // not retried: the entry is lost, said so
        QCOMPARE(recorder.store()->count(), qint64(saved));
        QCOMPARE(recorder.store()->integrityCheck(), QStringList());
        recorder.store()->clear();
        QSignalSpy added(&recorder, &HistoryRecorder::entriesAdded);
        QVERIFY(recorder.record(makeTranslation(QStringLiteral("small"), {})) > 0);
        QCOMPARE(added.first().first().toBool(), true);
    }

    void unopenableAndDamagedFiles()
    {
        HistoryRecorder recorder;
        QSignalSpy changed(&recorder, &HistoryRecorder::storeChanged);
        QVERIFY(!recorder.open(m_dir.path())); // a folder where the file should be
        QCOMPARE(changed.size(), 1);
        QVERIFY(!recorder.store());
        QVERIFY(!recorder.openError().isEmpty());
        QCOMPARE(recorder.record(makeTranslation(QStringLiteral("nowhere"), {})), 0);

        QFile garbage(dbPath());
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(8192, '\x5a'));
        garbage.close();
        QVERIFY(recorder.open(dbPath()));
        QVERIFY(recorder.openError().isEmpty());
        QCOMPARE(recorder.openResult().status, HistoryOpenResult::Status::Recovered);
        QVERIFY(QFile::exists(recorder.openResult().backupPath));
        QVERIFY(recorder.record(makeTranslation(QStringLiteral("fresh"), {})) > 0);
    }
};

QTEST_GUILESS_MAIN(TestHistoryRecorder)
#include "tst_historyrecorder.moc"
