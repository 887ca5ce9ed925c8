// Runtime: the process-wide oneDNN CPU engine, one oneDNN stream per thread, the OpenMP thread
// count and a per-thread scratchpad for primitives.
//
// Basic usage:
//     glosa::engine::runtime::setNumThreads(2);          // 0 = all cores (the default)
//     dnnl::stream &s = glosa::engine::runtime::stream(); // this thread's stream
//     prim.execute(s, args); s.wait();
//
// Each model runs in its own worker thread, so streams are thread_local: two models never share
// a stream. OpenMP keeps the thread count per calling thread (omp_set_num_threads only affects
// the thread that calls it), so setNumThreads() records the wish and stream() applies it lazily
// in whichever thread executes primitives next.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>

namespace glosa::engine::runtime {

// The CPU engine, created on first use. Thread-safe.
dnnl::engine &engine();

// The calling thread's in-order stream, created on first use; also applies the thread count
// requested with setNumThreads() to this thread's OpenMP runtime.
dnnl::stream &stream();

// Threads used by oneDNN primitives and the engine's own OpenMP loops. n <= 0 restores the
// default: all cores (omp_get_num_procs()). Takes effect in every thread at its next stream().
void setNumThreads(int n);
// The threads the calling thread's next primitive gets.
int numThreads();

// Instead of a fixed count: each piece of work (a batch of sentences, an image: WorkThreads)
// takes the cores that other programs leave idle at that moment, at least one. A decoding step at
// batch 1 is tens of small primitives, so a second thread pays only while its core is free: on an
// idle 2-core machine two threads decode an OPUS-MT model 1.65x faster than one, but take 2.8x
// the time when another program keeps the second core busy (docs/benchmarks.md, "Threads").
// Needs OpenMP threads that
// spin a little before they sleep (the apps' GOMP_SPINCOUNT); with OMP_WAIT_POLICY=passive every
// parallel region waits for a sleeping partner to wake, and one thread is faster.
void setAutoThreads();
// In auto mode, the calling thread's work (the engine opens one where a piece of work starts:
// each batch of Translator::translate, CaptioningModel::caption) gets the cores that other
// programs leave idle now (coresLeftIdle()), less those that other work of this process holds,
// at least one, until the object is destroyed. Otherwise it does nothing.
class WorkThreads
{
public:
    WorkThreads();
    ~WorkThreads();
    WorkThreads(const WorkThreads &) = delete;
    WorkThreads &operator=(const WorkThreads &) = delete;

private:
    int m_taken = 0;
};

// The processors this process may run on (omp_get_num_procs(): the affinity mask's).
int cores();

// Cores (of cores()) that other processes leave idle now, at least 1: the processor
// count less the runnable tasks of /proc/loadavg that are not this process's (/proc/self/task),
// so that this process's own OpenMP threads, still spinning after the previous batch, do not
// count as load. 1 where /proc cannot be read.
int coresLeftIdle();
// The arithmetic of coresLeftIdle(): `loadavg` is /proc/loadavg's line ("0.52 0.58 0.59 3/467
// 12345"), `ownRunnable` this process's runnable threads, `procs` the processor count.
int coresLeftIdle(const char *loadavg, int ownRunnable, int procs);

// A 64-byte aligned buffer of at least `bytes`, owned by the calling thread and reused across
// calls. Primitives are created with scratchpad_mode::user and get their scratchpad from here,
// which keeps one primitive safe to execute from several threads at once (oneDNN's library
// scratchpad is per primitive and this build has no concurrent-execution support).
void *threadScratchpad(std::size_t bytes);

} // namespace glosa::engine::runtime
