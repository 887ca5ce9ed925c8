/* One core's fp32 FMA peak, measured: independent vector FMA chains (enough of them to cover the
 * FMA latency on both pipes), best of several trials. Used by tools/bench/translate_table.py for
 * the roofline line; it compiles this with the system C compiler into the build
 * folder. Prints one JSON line: GFLOP/s with 256-bit (AVX2) and, where the CPU has it, 512-bit
 * (AVX-512) vectors (0 where it has not); one FMA = 2 FLOP per lane. Timed in the thread's CPU
 * time, so that on a shared machine the time the thread waited for its core does not count: the
 * figure is the core's, not the moment's. */
#include <stdio.h>
#include <time.h>

#define CHAINS 12

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The same loop for two vector widths; `target` lets one binary hold both. Twelve named
 * accumulators (not an array, which GCC keeps in memory): 12 independent chains cover the
 * 4-5 cycle FMA latency on two pipes. */
#define STEP(x) x = x * a + b;
#define FMA_LOOP(NAME, BYTES, TARGET)                                                          \
    __attribute__((target(TARGET))) static double NAME(long iterations)                         \
    {                                                                                          \
        typedef float vec __attribute__((vector_size(BYTES)));                                 \
        vec a, b;                                                                              \
        for (int i = 0; i < (int)(BYTES / 4); ++i) {                                           \
            a[i] = 0.999999f;                                                                  \
            b[i] = 1e-7f;                                                                      \
        }                                                                                      \
        vec c0 = a, c1 = a + b, c2 = c1 + b, c3 = c2 + b, c4 = c3 + b, c5 = c4 + b;            \
        vec c6 = c5 + b, c7 = c6 + b, c8 = c7 + b, c9 = c8 + b, c10 = c9 + b, c11 = c10 + b;   \
        double start = now();                                                                  \
        for (long n = 0; n < iterations; ++n) {                                                \
            STEP(c0) STEP(c1) STEP(c2) STEP(c3) STEP(c4) STEP(c5)                              \
            STEP(c6) STEP(c7) STEP(c8) STEP(c9) STEP(c10) STEP(c11)                            \
        }                                                                                      \
        double seconds = now() - start;                                                        \
        vec sum = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + c10 + c11;                 \
        if (sum[0] == 12345.f)                                                                 \
            printf("#");                                                                       \
        return 2.0 * (BYTES / 4) * CHAINS * iterations / seconds / 1e9;                        \
    }

FMA_LOOP(fma256, 32, "avx2,fma")
FMA_LOOP(fma512, 64, "avx512f")

int main(void)
{
    const long iterations = 20000000;
    double best256 = 0, best512 = 0;
    int has512 = __builtin_cpu_supports("avx512f");
    for (int trial = 0; trial < 7; ++trial) {
        double g = fma256(iterations);
        if (g > best256)
            best256 = g;
        if (has512) {
            g = fma512(iterations);
            if (g > best512)
                best512 = g;
        }
    }
    printf("{\"avx2_gflops\": %.1f, \"avx512_gflops\": %.1f}\n", best256, best512);
    return 0;
}
