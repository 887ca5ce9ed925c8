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
int numThreads();

// A 64-byte aligned buffer of at least `bytes`, owned by the calling thread and reused across
// calls. Primitives are created with scratchpad_mode::user and get their scratchpad from here,
// which keeps one primitive safe to execute from several threads at once (oneDNN's library
// scratchpad is per primitive and this build has no concurrent-execution support).
void *threadScratchpad(std::size_t bytes);

} // namespace glosa::engine::runtime
