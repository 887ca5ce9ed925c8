#include "app/core/platform/openmpsetup.h"

#include "engine/runtime.h"

#include <cstdlib>
#include <unistd.h>

namespace glosa {

void setUpOpenMp(char *argv[])
{
    if (!std::getenv("OMP_WAIT_POLICY")) {
        ::setenv("OMP_WAIT_POLICY", "passive", 1);
        ::execv("/proc/self/exe", argv);
        // exec failed: carry on with OpenMP's default policy; only speed on loaded machines
        // suffers.
    }
    const char *threads = std::getenv("GLOSA_THREADS");
    const int n = threads ? std::atoi(threads) : 0;
    engine::runtime::setNumThreads(n > 0 ? n : 1);
}

} // namespace glosa
