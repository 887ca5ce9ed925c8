#include "app/core/openmpsetup.h"

#include <cstdlib>
#include <unistd.h>

namespace glosa {

void ensurePassiveOpenMpWait(char *argv[])
{
    if (std::getenv("OMP_WAIT_POLICY"))
        return;
    ::setenv("OMP_WAIT_POLICY", "passive", 1);
    ::execv("/proc/self/exe", argv);
    // exec failed: carry on with OpenMP's default policy; only speed on loaded machines suffers.
}

} // namespace glosa
