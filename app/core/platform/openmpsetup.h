// OpenMP settings for the apps (glosa, glosa-cli); some must be in place before the OpenMP
// runtime starts.
#pragma once

namespace glosa {

// Call first thing in main(). Two things:
//
// 1. libgomp reads OMP_WAIT_POLICY once, when it is loaded (before main). Its default lets idle
//    worker threads spin; in a desktop process that shares the cores with the GUI thread, other
//    worker threads and other programs, spinning workers steal the cores the busy ones need
//    (measured: MobileNetV2 866 ms per image with 2 spinning threads on a loaded 2-core machine,
//    ~9 ms with passive waiting). So when the user has not chosen a policy, the process
//    re-executes itself once with OMP_WAIT_POLICY=passive (returns only if no re-exec happened:
//    policy already set, or exec failed — then we run with the default).
//
// 2. Inference threads per worker: $GLOSA_THREADS, else 1. With passive waiting every parallel
//    region has to wake its sleeping partner, and the model steps of interactive decoding are
//    tens of small primitives. Measured on a 2-core machine (docs/benchmarks.md, "Threads"):
//    Transformer greedy at batch 1 ran 66.4 sentences/s on 1 thread against 21.3 on 2 passive
//    threads, greedy at batch 32 349.0 against 263.6, beam 4 at batch 32 143.8 against 103.1.
//    (2 spinning threads are faster until another program takes a core, then collapse.) Each loaded model has its own worker thread, so two models
//    still use two cores.
void setUpOpenMp(char *argv[]);

} // namespace glosa
