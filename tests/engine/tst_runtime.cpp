// runtime's thread counts: a fixed count, and the auto mode that gives each piece of work the
// cores other programs leave idle (runtime.h, WorkThreads), measured against real busy processes.
#include "engine/runtime.h"

#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace glosa::engine;

namespace {

// `n` child processes that spin until killed: load from another program, as the probe sees it.
class BusyPrograms
{
public:
    explicit BusyPrograms(int n)
    {
        for (int i = 0; i < n; ++i) {
            const pid_t pid = ::fork();
            if (pid == 0)
                for (;;)
                    asm volatile("" ::: "memory"); // a loop the compiler keeps
            if (pid > 0)
                m_children.push_back(pid);
        }
        // Until each is on a CPU's run queue.
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ~BusyPrograms()
    {
        for (const pid_t pid : m_children) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }
    int started() const { return static_cast<int>(m_children.size()); }

private:
    std::vector<pid_t> m_children;
};

} // namespace

class TestRuntime : public QObject
{
    Q_OBJECT
private slots:
    void cleanup() { runtime::setNumThreads(0); }

    void idleCoresFromTheRunQueue()
    {
        const char *quiet = "0.52 0.58 0.59 1/467 12345";
        QCOMPARE(runtime::coresLeftIdle(quiet, 1, 2), 2);
        QCOMPARE(runtime::coresLeftIdle(quiet, 1, 8), 8);
        // Two other programs runnable: none of two cores is left, but work gets one.
        QCOMPARE(runtime::coresLeftIdle("1.00 0.50 0.20 3/467 12345", 1, 2), 1);
        QCOMPARE(runtime::coresLeftIdle("1.00 0.50 0.20 3/467 12345", 1, 8), 6);
        // The process's own threads (say, OpenMP threads still spinning after the last batch) are
        // not load.
        QCOMPARE(runtime::coresLeftIdle("1.00 0.50 0.20 3/467 12345", 3, 2), 2);
        QCOMPARE(runtime::coresLeftIdle("9.00 9.00 9.00 40/467 12345", 1, 4), 1);
        // Unreadable: one.
        QCOMPARE(runtime::coresLeftIdle("", 1, 4), 1);
        QCOMPARE(runtime::coresLeftIdle("0.52 0.58 0.59", 1, 4), 1);
    }

    void busyProgramsLeaveOneCore()
    {
        const BusyPrograms busy(runtime::cores());
        QCOMPARE(busy.started(), runtime::cores());
        QCOMPARE(runtime::coresLeftIdle(), 1);
        runtime::setAutoThreads();
        const runtime::WorkThreads work;
        QCOMPARE(runtime::numThreads(), 1);
    }

    void workTakesCoresAndGivesThemBack()
    {
        if (runtime::cores() < 2)
            QSKIP("one processor: nothing to share");
        runtime::setAutoThreads();
        const runtime::WorkThreads first;
        const int outer = runtime::numThreads();
        QVERIFY(outer >= 1 && outer <= runtime::cores());
        // Work started beside it in this process (another model's worker) counts the cores the
        // first holds; this thread's OpenMP count is its own.
        int beside = 0;
        std::thread([&beside] {
            const runtime::WorkThreads second;
            beside = runtime::numThreads();
        }).join();
        QVERIFY2(
            beside >= 1 && beside <= std::max(1, runtime::cores() - outer),
            qPrintable(
                QStringLiteral("%1 beside %2 of %3").arg(beside).arg(outer).arg(runtime::cores())));
        QCOMPARE(runtime::numThreads(), outer);
    }

    void aFixedCountIsLeftAlone()
    {
        runtime::setNumThreads(3);
        const runtime::WorkThreads work;
        QCOMPARE(runtime::numThreads(), 3);
    }
};

QTEST_GUILESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
