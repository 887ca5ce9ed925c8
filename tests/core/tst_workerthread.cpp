// WorkerThread (app/core/platform/workerthread.h), the thread-and-queue under InferenceWorker,
// DocumentWorker and EvaluationWorker: its two queue policies, the cancel flag of each job, the
// order of reports and when it is busy. A job that must still be running when the test acts
// spins until its flag is set, so no assertion depends on how fast the machine is.
#include "app/core/platform/workerthread.h"

#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include <atomic>
#include <memory>
#include <thread>

using namespace glosa;

namespace {

// A job that reports its name and whether it was cancelled, spinning until cancelled when
// `untilCancelled`; `started` counts the jobs that ran at all (read only after a join).
WorkerThread::Job job(WorkerThread &thread, QStringList &log, const QString &name,
                      bool untilCancelled = false, std::atomic<int> *started = nullptr)
{
    return [&thread, &log, name, untilCancelled, started](const std::atomic<bool> &cancelled) {
        if (started)
            ++*started;
        while (untilCancelled && !cancelled)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const QString entry = name + (cancelled ? QStringLiteral(" cancelled") : QString());
        thread.report([&log, entry] { log << entry; });
    };
}

} // namespace

class TestWorkerThread : public QObject
{
    Q_OBJECT
private slots:
    // Documents and evaluation: nothing is superseded; cancel() reaches the running job and the
    // queued ones, which still run and report; a job posted after it is not cancelled.
    void inOrderRunsEveryJobAndCancelReachesWhatWasPosted()
    {
        WorkerThread thread(QStringLiteral("test"), WorkerThread::Policy::InOrder, nullptr);
        QSignalSpy busy(&thread, &WorkerThread::busyChanged);
        QStringList log;
        thread.post(job(thread, log, QStringLiteral("a"), true));
        thread.post(job(thread, log, QStringLiteral("b")));
        thread.post(job(thread, log, QStringLiteral("c")));
        QVERIFY(thread.isBusy());
        thread.cancel();
        QVERIFY(thread.isBusy()); // the jobs have not ended yet
        thread.post(job(thread, log, QStringLiteral("d")));
        QTRY_COMPARE(log, QStringList({QStringLiteral("a cancelled"), QStringLiteral("b cancelled"),
                                       QStringLiteral("c cancelled"), QStringLiteral("d")}));
        QTRY_VERIFY(!thread.isBusy());
        QCOMPARE(busy.count(), 2); // busy once, idle once
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    // Interactive requests: a job drops the queued ones and cancels the running one, except a
    // kept job (a model load), which only a newer kept job drops or cancels.
    void latestWinsDropsWhatWaitsButKeepsAKeptJob()
    {
        WorkerThread thread(QStringLiteral("test"), WorkerThread::Policy::LatestWins, nullptr);
        QStringList log;
        std::atomic<int> started = 0;
        thread.post(job(thread, log, QStringLiteral("running"), true, &started));
        QTRY_COMPARE(started.load(), 1); // a queued one would be dropped, not cancelled
        thread.post(job(thread, log, QStringLiteral("old load")), true);
        thread.post(job(thread, log, QStringLiteral("load")), true);
        thread.post(job(thread, log, QStringLiteral("dropped")));
        thread.post(job(thread, log, QStringLiteral("latest")));
        QTRY_COMPARE(log, QStringList({QStringLiteral("running cancelled"), QStringLiteral("load"),
                                       QStringLiteral("latest")}));
        QTRY_VERIFY(!thread.isBusy());

        // A kept job that runs is not cancelled by a job that is not kept, nor by cancel().
        log.clear();
        started = 0;
        thread.post(job(thread, log, QStringLiteral("kept"), true, &started), true);
        QTRY_COMPARE(started.load(), 1);
        thread.post(job(thread, log, QStringLiteral("next")));
        thread.cancel();
        QVERIFY(!thread.isBusy());
        thread.post(job(thread, log, QStringLiteral("newer kept")), true); // this one cancels it
        QTRY_COMPARE(log,
                     QStringList({QStringLiteral("kept cancelled"), QStringLiteral("newer kept")}));
    }

    // cancel() under LatestWins: not busy at once (nothing the caller waits for is left), while
    // the cancelled job still ends and reports.
    void latestWinsIsIdleAtOnceAfterCancel()
    {
        WorkerThread thread(QStringLiteral("test"), WorkerThread::Policy::LatestWins, nullptr);
        QStringList log;
        std::atomic<int> started = 0;
        thread.post(job(thread, log, QStringLiteral("running"), true, &started));
        QTRY_COMPARE(started.load(), 1);
        QVERIFY(thread.isBusy());
        thread.cancel();
        QVERIFY(!thread.isBusy());
        QTRY_COMPARE(log, QStringList({QStringLiteral("running cancelled")}));
        // Its end does not make the worker busy again, nor idle twice.
        QSignalSpy busy(&thread, &WorkerThread::busyChanged);
        thread.post(job(thread, log, QStringLiteral("next")));
        QTRY_COMPARE(log.size(), 2);
        QTRY_VERIFY(!thread.isBusy());
        QCOMPARE(busy.count(), 2);
    }

    // Destroying it stops the running job, drops the queued ones and joins; their reports are
    // dropped with it.
    void destructionCancelsDropsAndJoins_data()
    {
        QTest::addColumn<bool>("latestWins");
        QTest::newRow("in order") << false;
        QTest::newRow("latest wins") << true;
    }
    void destructionCancelsDropsAndJoins()
    {
        QFETCH(bool, latestWins);
        QStringList log;
        std::atomic<int> started = 0;
        auto thread = std::make_unique<WorkerThread>(
            QStringLiteral("test"),
            latestWins ? WorkerThread::Policy::LatestWins : WorkerThread::Policy::InOrder, nullptr);
        thread->post(job(*thread, log, QStringLiteral("running"), true, &started), latestWins);
        QTRY_COMPARE(started.load(), 1);
        // Under LatestWins "running" is kept: the job after it neither drops nor cancels it.
        thread->post(job(*thread, log, QStringLiteral("queued"), false, &started));
        thread.reset(); // returns only once "running" has seen its flag
        QCOMPARE(started.load(), 1);
        QCoreApplication::processEvents();
        QVERIFY(log.isEmpty());
    }

    // A job's last report may end it: the owner hears the end with the worker idle already (the
    // Evaluate dialog shows a stored evaluation only while no run is under way), and the job is
    // not ended a second time after it returns.
    void reportEndFindsTheWorkerIdle()
    {
        WorkerThread thread(QStringLiteral("test"), WorkerThread::Policy::InOrder, nullptr);
        QSignalSpy busy(&thread, &WorkerThread::busyChanged);
        int ends = 0;
        bool busyAtEnd = true;
        thread.post([&](const std::atomic<bool> &) {
            thread.reportEnd([&] {
                busyAtEnd = thread.isBusy();
                ++ends;
            });
        });
        QTRY_COMPARE(ends, 1);
        QVERIFY(!busyAtEnd);
        QStringList log;
        thread.post(job(thread, log, QStringLiteral("next")));
        QTRY_COMPARE(log.size(), 1);
        QTRY_VERIFY(!thread.isBusy()); // ended twice, the first job would leave it busy for good
        QCOMPARE(busy.count(), 4);
    }

    // The state object lives on the worker thread and is deleted there.
    void stateLivesAndDiesOnTheWorkerThread()
    {
        auto *state = new QObject;
        QSignalSpy destroyed(state, &QObject::destroyed);
        std::atomic<QThread *> livesOn = nullptr, diesOn = nullptr, ranOn = nullptr;
        connect(
            state, &QObject::destroyed, state, [&diesOn] { diesOn = QThread::currentThread(); },
            Qt::DirectConnection);
        {
            WorkerThread thread(QStringLiteral("test"), WorkerThread::Policy::InOrder, state);
            livesOn = state->thread();
            thread.post([&ranOn](const std::atomic<bool> &) { ranOn = QThread::currentThread(); });
            QTRY_VERIFY(!thread.isBusy());
        }
        QCOMPARE(destroyed.count(), 1);
        QVERIFY(livesOn.load() != QThread::currentThread());
        QCOMPARE(diesOn.load(), ranOn.load());
        QCOMPARE(livesOn.load(), ranOn.load());
    }
};

QTEST_GUILESS_MAIN(TestWorkerThread)
#include "tst_workerthread.moc"
