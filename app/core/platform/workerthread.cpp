#include "app/core/platform/workerthread.h"

#include <QThread>

namespace glosa {

WorkerThread::WorkerThread(const QString &name, Policy policy, QObject *state, QObject *parent)
    : QObject(parent), m_policy(policy), m_thread(new QThread), m_state(state ? state : new QObject)
{
    m_thread->setObjectName(name);
    m_state->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_state, &QObject::deleteLater);
    m_thread->start();
}

WorkerThread::~WorkerThread()
{
    {
        std::lock_guard lock(m_mutex);
        cancelPosted([](bool) { return true; }, true);
    }
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

template <typename Affects> void WorkerThread::cancelPosted(Affects affects, bool drop)
{
    if (m_runningCancel && affects(m_runningKept))
        *m_runningCancel = true;
    for (auto it = m_queue.begin(); it != m_queue.end();) {
        if (!affects(it->keep)) {
            ++it;
            continue;
        }
        *it->cancelled = true;
        it = drop ? m_queue.erase(it) : it + 1;
    }
}

void WorkerThread::post(Job job, bool keep)
{
    const quint64 id = ++m_next;
    {
        std::lock_guard lock(m_mutex);
        if (m_policy == Policy::LatestWins)
            cancelPosted([keep](bool kept) { return !kept || keep; }, true);
        m_queue.push_back({id, std::move(job), keep, std::make_shared<std::atomic<bool>>(false)});
    }
    m_latest = id;
    ++m_unfinished;
    setBusy(true);
    // One call per job; a call that finds the queue empty (its job was dropped) does nothing.
    postCall(m_state, [this] { runNext(); });
}

void WorkerThread::cancel()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_policy == Policy::LatestWins)
            cancelPosted([](bool kept) { return !kept; }, true);
        else
            cancelPosted([](bool) { return true; }, false);
    }
    if (m_policy == Policy::LatestWins) {
        m_latest = ++m_next; // the jobs still running end without ending anything
        setBusy(false);
    }
}

void WorkerThread::runNext()
{
    Queued job;
    {
        std::lock_guard lock(m_mutex);
        if (m_queue.empty())
            return;
        job = std::move(m_queue.front());
        m_queue.pop_front();
        m_runningCancel = job.cancelled;
        m_runningKept = job.keep;
    }
    m_runningId = job.id;
    m_endReported = false;
    job.run(*job.cancelled);
    {
        std::lock_guard lock(m_mutex);
        m_runningCancel.reset();
    }
    // After every report the job made: queued to this object, like them.
    if (!m_endReported)
        postCall(this, [this, id = job.id] { ended(id); });
}

void WorkerThread::ended(quint64 id)
{
    if (m_policy == Policy::InOrder) {
        if (--m_unfinished == 0)
            setBusy(false);
    } else if (id == m_latest) {
        setBusy(false);
    }
}

void WorkerThread::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace glosa

#include "moc_workerthread.cpp"
