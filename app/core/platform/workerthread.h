// WorkerThread: the one thread-and-queue that the app's workers are built on (InferenceWorker,
// DocumentWorker, EvaluationWorker). One QThread runs the posted jobs one at a time; each job has
// a cancel flag of its own that it reads between its steps (decoding steps, chunks, the PDF
// helper's polls); what a job reports reaches the owner's thread through report(), in the order
// the job made the reports. The GUI thread posts and hears back; it never waits on a job (Qt's
// mandelbrot RenderThread, translateLocally's MarianInterface).
//
// Basic usage (GUI thread; `state` is what the jobs keep between them, touched by them only):
//     m_thread = new WorkerThread(QStringLiteral("glosa-x"), WorkerThread::Policy::InOrder,
//                                 state, this);
//     m_thread->post([this, state](const std::atomic<bool> &cancelled) { // the worker thread
//         const Result result = state->work(cancelled);
//         m_thread->report([this, result] { emit done(result); });      // the GUI thread
//     });
//
// The queue policy is the one difference between the workers:
// - LatestWins, for what the user is waiting on (InferenceWorker): a job drops the jobs that
//   have not started and cancels the running one, except kept ones (a model load). Busy until
//   the newest job ends; not busy after cancel().
// - InOrder, for work that runs for minutes (DocumentWorker, EvaluationWorker): every job runs,
//   in the order posted, and only cancel() stops them: the running one at its next step, the
//   queued ones as they start (each still runs, sees its flag and reports how it ended). Busy
//   while a posted job has not ended. A keystroke in the Translate view must not cancel a
//   document; a document's own cancel must not lose its Export.
//
// Every hand-over goes through postCall (platform/handoff.h), which the TSan build can see.
#pragma once

#include "app/core/platform/handoff.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

class QThread;

namespace glosa {

class WorkerThread : public QObject
{
    Q_OBJECT
public:
    enum class Policy { InOrder, LatestWins };
    // Runs on the worker thread; `cancelled` turns true when the job should stop.
    using Job = std::function<void(const std::atomic<bool> &cancelled)>;

    // `state` (may be null) moves to the thread, where it is deleted when the thread ends: what
    // the jobs keep between them (a loaded model, an open document) lives and dies there.
    WorkerThread(const QString &name, Policy policy, QObject *state, QObject *parent = nullptr);
    // Cancels the running job, drops the queued ones, and waits for the thread to end.
    ~WorkerThread() override;

    // Queues `job`. `keep` (LatestWins): later jobs and cancel() neither drop nor cancel it,
    // unless a later job is kept too (a model load stays ahead of the translations posted after
    // it, not of a newer load).
    void post(Job job, bool keep = false);
    // InOrder: sets the flag of every job posted so far. LatestWins: cancels the running job
    // and drops the queued ones (kept jobs aside), and stops being busy at once: nothing the
    // caller waits for is left.
    void cancel();
    bool isBusy() const { return m_busy; }

    // Runs `f` on the owner's thread (this object's), after what the job reported before; dropped
    // when the WorkerThread is gone by then. Called from a job.
    template <typename F> void report(F f) { postCall(this, std::move(f)); }
    // The job's last report, which also ends it: the job counts as ended (isBusy() may turn
    // false) just before `f` runs, in the same event, so that what `f` emits finds the worker
    // idle (the Evaluate dialog shows a stored evaluation only while no run is under way). A job
    // that does not call it ends in the event after its last report. Called from the job, once.
    template <typename F> void reportEnd(F f)
    {
        m_endReported = true;
        postCall(this, [this, id = m_runningId, f = std::move(f)]() mutable {
            ended(id);
            f();
        });
    }

signals:
    void busyChanged(bool busy);

private:
    struct Queued
    {
        quint64 id = 0;
        Job run;
        bool keep = false;
        std::shared_ptr<std::atomic<bool>> cancelled;
    };
    void runNext(); // on the worker thread
    void ended(quint64 id);
    void setBusy(bool busy);
    // Sets the flag of the running job and of each queued one for which `affects(kept)` holds,
    // and with `drop` takes those queued ones off the queue. Called with m_mutex held.
    template <typename Affects> void cancelPosted(Affects affects, bool drop);

    const Policy m_policy;
    QThread *m_thread = nullptr;
    QObject *m_state = nullptr; // lives on m_thread; the jobs' hand-overs are queued to it
    // A std::mutex, not a QMutex: ThreadSanitizer sees it (Qt's futex is invisible to it), so a
    // job's closure, written here and read there, has its happens-before edge even when the
    // thread takes it in a runNext() posted for an earlier job.
    std::mutex m_mutex;
    std::deque<Queued> m_queue;                         // guarded by m_mutex
    std::shared_ptr<std::atomic<bool>> m_runningCancel; // guarded by m_mutex
    bool m_runningKept = false;                         // guarded by m_mutex
    // The worker thread only: the job it runs, and whether that job has reported its end.
    quint64 m_runningId = 0;
    bool m_endReported = false;
    // The owner's thread only.
    quint64 m_next = 0;
    quint64 m_latest = 0; // LatestWins: the job whose end ends being busy
    int m_unfinished = 0; // InOrder: posted and not ended
    bool m_busy = false;
};

} // namespace glosa
