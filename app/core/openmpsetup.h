// OpenMP settings that must be in place before the OpenMP runtime starts.
#pragma once

namespace glosa {

// libgomp reads OMP_WAIT_POLICY once, when it is loaded (before main). Its default lets idle
// worker threads spin; in a desktop process that shares the cores with the GUI thread, other
// worker threads and other programs, spinning workers steal the cores the busy ones need
// (measured: MobileNetV2 866 ms per image with 2 spinning threads on a loaded 2-core machine,
// ~9 ms with passive waiting). So when the user has not chosen a policy, the process re-executes
// itself once with OMP_WAIT_POLICY=passive. Call first thing in main(); returns only if no
// re-exec happened (policy already set, or exec failed — then we run with the default).
void ensurePassiveOpenMpWait(char *argv[]);

} // namespace glosa
