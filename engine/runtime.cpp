#include "engine/runtime.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <string>

namespace glosa::engine::runtime {

namespace {

constexpr int kAuto = -1;
std::atomic<int> g_requestedThreads{0};      // 0 = all cores, kAuto = WorkThreads decide
std::atomic<unsigned> g_threadGeneration{1}; // bumped by setNumThreads and setAutoThreads
thread_local int t_adaptedThreads = 1;       // this thread's count in auto mode
std::atomic<int> g_threadsTaken{0};          // by the live WorkThreads of this process

int resolvedThreads(int requested)
{
    if (requested == kAuto)
        return t_adaptedThreads;
    return requested > 0 ? requested : omp_get_num_procs();
}

// This process's threads in state R (running or runnable), the caller included (0 where /proc
// cannot be read: coresLeftIdle counts the caller then).
int ownRunnableThreads()
{
    int runnable = 0;
    std::error_code error;
    for (const auto &task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        std::ifstream stat(task.path() / "stat");
        std::string line;
        if (!std::getline(stat, line))
            continue;
        // "tid (name) S ...": the name may hold spaces and parentheses; the state follows the
        // last ')'.
        const std::size_t close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'R')
            ++runnable;
    }
    return runnable;
}

struct FreeDeleter
{
    void operator()(void *p) const { std::free(p); }
};

} // namespace

dnnl::engine &engine()
{
    static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    return cpu;
}

dnnl::stream &stream()
{
    thread_local unsigned appliedGeneration = 0;
    const unsigned generation = g_threadGeneration.load(std::memory_order_acquire);
    if (appliedGeneration != generation) {
        omp_set_num_threads(resolvedThreads(g_requestedThreads.load()));
        appliedGeneration = generation;
    }
    thread_local dnnl::stream threadStream(engine());
    return threadStream;
}

void setNumThreads(int n)
{
    g_requestedThreads.store(n > 0 ? n : 0);
    g_threadGeneration.fetch_add(1, std::memory_order_acq_rel);
    // Apply at once in the caller too, so that numThreads() and OpenMP agree immediately.
    stream();
}

int numThreads()
{
    return resolvedThreads(g_requestedThreads.load());
}

void setAutoThreads()
{
    g_requestedThreads.store(kAuto);
    g_threadGeneration.fetch_add(1, std::memory_order_acq_rel);
    stream();
}

WorkThreads::WorkThreads()
{
    if (g_requestedThreads.load() != kAuto)
        return;
    const int free = coresLeftIdle() - g_threadsTaken.load();
    m_taken = std::clamp(free, 1, cores());
    g_threadsTaken.fetch_add(m_taken);
    t_adaptedThreads = m_taken;
    omp_set_num_threads(m_taken);
}

WorkThreads::~WorkThreads()
{
    g_threadsTaken.fetch_sub(m_taken);
}

int cores()
{
    return omp_get_num_procs();
}

int coresLeftIdle()
{
    const int procs = cores();
    std::ifstream file("/proc/loadavg");
    std::string line;
    if (!std::getline(file, line))
        return 1;
    return coresLeftIdle(line.c_str(), ownRunnableThreads(), procs);
}

int coresLeftIdle(const char *loadavg, int ownRunnable, int procs)
{
    double one = 0, five = 0, fifteen = 0;
    int runnable = 0, total = 0;
    if (std::sscanf(loadavg, "%lf %lf %lf %d/%d", &one, &five, &fifteen, &runnable, &total) != 5 ||
        procs < 1)
        return 1;
    const int others = std::max(0, runnable - std::max(ownRunnable, 1));
    return std::clamp(procs - others, 1, procs);
}

void *threadScratchpad(std::size_t bytes)
{
    thread_local std::unique_ptr<void, FreeDeleter> buffer;
    thread_local std::size_t capacity = 0;
    if (bytes > capacity) {
        const std::size_t rounded = (bytes + 4095) / 4096 * 4096;
        void *p = std::aligned_alloc(64, rounded);
        if (!p)
            throw std::bad_alloc();
        buffer.reset(p);
        capacity = rounded;
    }
    return buffer.get();
}

} // namespace glosa::engine::runtime
