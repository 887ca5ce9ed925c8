#include "engine/runtime.h"

#include <omp.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>

namespace glosa::engine::runtime {

namespace {

std::atomic<int> g_requestedThreads{0};      // 0 = all cores
std::atomic<unsigned> g_threadGeneration{1}; // bumped by setNumThreads

int resolvedThreads(int requested)
{
    return requested > 0 ? requested : omp_get_num_procs();
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
