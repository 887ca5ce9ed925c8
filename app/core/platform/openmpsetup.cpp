#include "app/core/platform/openmpsetup.h"

#include "engine/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <strings.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace glosa {

namespace {

// libgomp's spin loop pauses once an iteration; a pause lasts from ~4 ns to ~40 ns across x86
// generations (17.6 ns on the Xeon of docs/benchmarks.md), so a fixed count would spin 10x longer
// on one CPU than another.
void pauses(long n)
{
    for (long i = 0; i < n; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#else
        asm volatile("" ::: "memory"); // a loop the compiler keeps
#endif
    }
}

enum class ThreadChoice { Fixed, Auto, Passive, NoRestart };
ThreadChoice g_choice = ThreadChoice::NoRestart;

} // namespace

long spinCountFor(double microseconds)
{
    constexpr long kSample = 20000;
    pauses(kSample / 10); // the core out of its idle state first
    double best = 1e30;
    for (int round = 0; round < 3; ++round) {
        const auto start = std::chrono::steady_clock::now();
        pauses(kSample);
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count();
        best = std::min(best, us);
    }
    const double perPause = std::max(best / kSample, 1e-4);
    return std::clamp(static_cast<long>(microseconds / perPause), 100L, 1'000'000L);
}

void setUpOpenMp(char *argv[])
{
    bool boundedSpin = std::getenv("GOMP_SPINCOUNT") != nullptr;
    const char *policy = std::getenv("OMP_WAIT_POLICY");
    if (!policy && !boundedSpin) {
        ::setenv("GOMP_SPINCOUNT", std::to_string(spinCountFor(40.0)).c_str(), 1);
        ::execv("/proc/self/exe", argv);
        // exec failed: libgomp runs with its default spinning, which a second thread would only
        // make worse on a busy machine.
        boundedSpin = false;
    }
    const char *threads = std::getenv("GLOSA_THREADS");
    const int n = threads ? std::atoi(threads) : 0;
    const bool passive = policy && ::strcasecmp(policy, "passive") == 0;
    if (n > 0) {
        engine::runtime::setNumThreads(n);
        g_choice = ThreadChoice::Fixed;
    } else if (boundedSpin && !passive) {
        engine::runtime::setAutoThreads();
        g_choice = ThreadChoice::Auto;
    } else {
        engine::runtime::setNumThreads(1);
        g_choice = passive ? ThreadChoice::Passive : ThreadChoice::NoRestart;
    }
}

std::string openMpDescription()
{
    const char *spin = std::getenv("GOMP_SPINCOUNT");
    const std::string spinning = spin ? std::string("; OpenMP threads spin ") + spin +
                                            " pauses before they sleep (GOMP_SPINCOUNT)"
                                      : std::string();
    switch (g_choice) {
    case ThreadChoice::Fixed:
        return "inference threads: " + std::to_string(engine::runtime::numThreads()) +
               " (GLOSA_THREADS)" + spinning;
    case ThreadChoice::Auto:
        return "inference threads: the cores other programs leave idle (" +
               std::to_string(engine::runtime::coresLeftIdle()) + " of " +
               std::to_string(engine::runtime::cores()) + " now)" + spinning;
    case ThreadChoice::Passive:
        return "inference threads: 1 (OMP_WAIT_POLICY=passive: a second thread would wait for "
               "its partner to wake at every step)";
    case ThreadChoice::NoRestart:
        break;
    }
    return "inference threads: 1" + spinning;
}

} // namespace glosa
