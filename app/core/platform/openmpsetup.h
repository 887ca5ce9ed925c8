// OpenMP settings for the apps (glosa, glosa-cli); some must be in place before the OpenMP
// runtime starts.
#pragma once

#include <string>

namespace glosa {

// Call first thing in main(). Two things:
//
// 1. How idle OpenMP threads wait. libgomp reads its settings once, when it is loaded (before
//    main). Its default lets an idle worker spin for about 300,000 pauses (milliseconds) before it
//    sleeps; in a desktop process that shares the cores with the GUI thread, other workers and
//    other programs, spinning threads steal the cores the busy ones need (measured: MobileNetV2
//    866 ms per image with 2 spinning threads on a loaded 2-core machine, ~9 ms without). Never
//    spinning (OMP_WAIT_POLICY=passive) is no better for a decoding step, which is tens of small
//    parallel regions: each must wake a sleeping partner, and two such threads decode 1.7x
//    slower than one. So when the user has chosen neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT,
//    the process re-executes itself once with a GOMP_SPINCOUNT worth about 40 us of pauses on
//    this CPU (spinCountFor): long enough to bridge the gaps between a step's regions (18 us
//    already did, 5 us did not), short enough that a thread whose core another program wants
//    soon sleeps. Returns only if no re-exec happened (settings already chosen, or exec failed).
//
// 2. Inference threads: $GLOSA_THREADS if set; else, with bounded spinning, the cores that other
//    programs leave idle when each batch or image starts (engine::runtime::setAutoThreads); else
//    (OMP_WAIT_POLICY=passive, or a failed re-exec) one. Measured on a 2-core machine
//    (docs/benchmarks.md, "Threads"): OPUS-MT int8 greedy at batch 1, two threads 1.65x one
//    thread's speed when the other core is idle, 0.36x when another program keeps it busy
//    (which the probe sees, and then uses one). Each loaded model has its own worker thread.
void setUpOpenMp(char *argv[]);

// What setUpOpenMp chose, for `glosa-cli --version`: e.g. "inference threads: the cores other
// programs leave idle (2 of 2 now); OpenMP threads spin 2272 pauses before they sleep".
std::string openMpDescription();

// How many pause-instruction iterations of libgomp's spin loop last about `microseconds` here.
long spinCountFor(double microseconds);

} // namespace glosa
