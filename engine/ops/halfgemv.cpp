#include "engine/ops/halfgemv.h"

#include <cpuid.h>
#include <immintrin.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cmath>

namespace glosa::engine::ops::detail {

namespace {

#define GLOSA_HALF_TARGET __attribute__((target("avx2,fma,f16c")))

GLOSA_HALF_TARGET inline float horizontalSum(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

// Eight weights as fp32: converted from fp16 (exact), or loaded as they are.
GLOSA_HALF_TARGET inline __m256 load8(const std::uint16_t *w)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(w)));
}
GLOSA_HALF_TARGET inline __m256 load8(const float *w)
{
    return _mm256_loadu_ps(w);
}
GLOSA_HALF_TARGET inline float load1(const std::uint16_t *w)
{
    return _cvtsh_ss(*w);
}
GLOSA_HALF_TARGET inline float load1(const float *w)
{
    return *w;
}

// R weight rows against the M rows of x: y[i, r] = Σ_c x[i, c] · w[r, c]. Each 8 halves of a
// weight row are loaded and converted once and used for all M rows (the point: W is read once
// per call, whatever M); the R·M sums live in registers (R·M ≤ 8 accumulators, plus the R
// converted weight vectors and one x vector, within AVX2's 16). Several rows at once also give
// the FMA unit independent chains at M = 1.
template <int M, int R, typename W>
GLOSA_HALF_TARGET inline void rowBlock(const float *x, std::int64_t k, const W *w, float *y,
                                       std::int64_t n)
{
    __m256 acc[R][M];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < M; ++i)
            acc[r][i] = _mm256_setzero_ps();
    const std::int64_t k8 = k & ~std::int64_t(7);
    for (std::int64_t c = 0; c < k8; c += 8) {
        __m256 wv[R];
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r)
            wv[r] = load8(w + r * k + c);
#pragma GCC unroll 8
        for (int i = 0; i < M; ++i) {
            const __m256 xv = _mm256_loadu_ps(x + i * k + c);
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r)
                acc[r][i] = _mm256_fmadd_ps(xv, wv[r], acc[r][i]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < M; ++i) {
            float s = horizontalSum(acc[r][i]);
            for (std::int64_t c = k8; c < k; ++c) // k % 8 trailing columns
                s = std::fma(x[i * k + c], load1(w + r * k + c), s);
            y[i * n + r] = s;
        }
}

// Bias and activation on columns [begin, end) of y's m rows, while they are in cache.
void epilogue(int m, std::int64_t n, const float *bias, Activation activation, float *y,
              std::int64_t begin, std::int64_t end)
{
    for (int i = 0; i < m; ++i) {
        float *row = y + i * n;
        if (bias)
            for (std::int64_t o = begin; o < end; ++o)
                row[o] += bias[o];
        if (activation != Activation::None)
            for (std::int64_t o = begin; o < end; ++o)
                row[o] = activationReference(activation, row[o]);
    }
}

// Output columns [begin, end) of y for all M rows, then bias and activation on them (while they
// are in cache).
template <int M, typename W>
GLOSA_HALF_TARGET void columns(const float *x, std::int64_t k, const W *w, std::int64_t n, const float *bias, Activation activation, float *y,
                               std::int64_t begin, std::int64_t end)
{
    // R·M ≤ 8 accumulators (see rowBlock); at M = 1, 2 four weight rows at once.
    constexpr int R = M <= 2 ? 4 : 2;
    std::int64_t j = begin;
    for (; j + R <= end; j += R)
        rowBlock<M, R, W>(x, k, w + j * k, y + j, n);
    for (; j < end; ++j)
        rowBlock<M, 1, W>(x, k, w + j * k, y + j, n);
    epilogue(M, n, bias, activation, y, begin, end);
}

#define GLOSA_HALF_TARGET_512 __attribute__((target("avx512f,f16c,fma")))

GLOSA_HALF_TARGET_512 inline float horizontalSum512(__m512 v)
{
    // Not _mm512_reduce_add_ps: GCC 12 warns of its undefined pass-through (PR 105593).
    // (nor _mm512_castps512_ps256, which GCC 12 implements with the same).
    const __m512d d = _mm512_castps_pd(v);
    return horizontalSum(_mm256_add_ps(_mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, d, 0)),
                                       _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, d, 1))));
}

GLOSA_HALF_TARGET_512 inline __m512 load16(const std::uint16_t *w)
{
    // maskz: GCC 12's unmasked form warns of its undefined pass-through (PR 105593).
    return _mm512_maskz_cvtph_ps(0xffff,
                                 _mm256_loadu_si256(reinterpret_cast<const __m256i *>(w)));
}
GLOSA_HALF_TARGET_512 inline __m512 load16(const float *w)
{
    return _mm512_loadu_ps(w);
}

// The same with AVX-512F: 16 halves a conversion, 16 lanes an FMA. Where the CPU has AVX-512,
// oneDNN's fp32 kernels use it too, and with the model in L3 (32 MB on the development VM) the
// 256-bit kernel is then limited by its conversions and FMAs rather than by the bytes: 1.2-1.5x
// oneDNN at M = 1 and level at M = 2, against 1.7-2.2x and 1.3x with 512 bits (docs/benchmarks.md,
// "fp16 weights at small M"). R·M ≤ 16 accumulators of the 32 registers.
template <int M, int R, typename W>
GLOSA_HALF_TARGET_512 inline void rowBlock512(const float *x, std::int64_t k, const W *w, float *y,
                                              std::int64_t n)
{
    __m512 acc[R][M];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
        for (int i = 0; i < M; ++i)
            acc[r][i] = _mm512_setzero_ps();
    const std::int64_t k16 = k & ~std::int64_t(15);
    for (std::int64_t c = 0; c < k16; c += 16) {
        __m512 wv[R];
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r)
            wv[r] = load16(w + r * k + c);
#pragma GCC unroll 16
        for (int i = 0; i < M; ++i) {
            const __m512 xv = _mm512_loadu_ps(x + i * k + c);
#pragma GCC unroll 16
            for (int r = 0; r < R; ++r)
                acc[r][i] = _mm512_fmadd_ps(xv, wv[r], acc[r][i]);
        }
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
        for (int i = 0; i < M; ++i) {
            float s = horizontalSum512(acc[r][i]);
            for (std::int64_t c = k16; c < k; ++c) // k % 16 trailing columns
                s = std::fma(x[i * k + c], load1(w + r * k + c), s);
            y[i * n + r] = s;
        }
}

template <int M, typename W>
GLOSA_HALF_TARGET_512 void columns512(const float *x, std::int64_t k, const W *w, std::int64_t n, const float *bias, Activation activation,
                                      float *y, std::int64_t begin, std::int64_t end)
{
    constexpr int R = M == 1 ? 8 : 4; // R·M ≤ 16 accumulators
    std::int64_t j = begin;
    for (; j + R <= end; j += R)
        rowBlock512<M, R, W>(x, k, w + j * k, y + j, n);
    for (; j < end; ++j)
        rowBlock512<M, 1, W>(x, k, w + j * k, y + j, n);
    epilogue(M, n, bias, activation, y, begin, end);
}

template <int M, typename W>
void run(const float *x, std::int64_t k, const W *w, std::int64_t n, const float *bias,
         Activation activation, float *y)
{
    const bool wide = halfGemvIsa() == HalfGemvIsa::Avx512;
    // Blocks of 64 output columns (64·k halves: 32 KB at k = 256) spread over the OpenMP threads
    // when the weights are large enough (≥ 128 KB) to pay for waking them.
    constexpr std::int64_t kBlock = 64;
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    const bool parallel = n * k >= (std::int64_t(1) << 16) && blocks > 1;
#pragma omp parallel for schedule(static) if (parallel)
    for (std::int64_t b = 0; b < blocks; ++b)
        if (wide)
            columns512<M, W>(x, k, w, n, bias, activation, y, b * kBlock,
                          std::min(n, (b + 1) * kBlock));
        else
            columns<M, W>(x, k, w, n, bias, activation, y, b * kBlock,
                       std::min(n, (b + 1) * kBlock));
}

} // namespace

HalfGemvIsa halfGemvIsa()
{
    static const HalfGemvIsa isa = [] {
        __builtin_cpu_init();
        // F16C from CPUID leaf 1 (ECX bit 29): clang 14's __builtin_cpu_supports does not know
        // "f16c". The AVX2 check covers the OS saving the YMM registers, which F16C needs too.
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
        if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || !f16c)
            return HalfGemvIsa::None;
        // ONEDNN_MAX_CPU_ISA=AVX2 (how the tests and benchmarks stand in for a machine without
        // AVX-512) keeps this kernel at 256 bits too.
        const auto allowed = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
        const auto avx512 = static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
        return __builtin_cpu_supports("avx512f") && (allowed & avx512) == avx512
                   ? HalfGemvIsa::Avx512
                   : HalfGemvIsa::Avx2;
    }();
    return isa;
}

std::int64_t halfGemvMaxRows()
{
    switch (halfGemvIsa()) {
    case HalfGemvIsa::None:
        return 0;
    // Up to M = 4 (beam 4 at batch 1) with either variant, though on one layer alone
    // (`bench_linear 1 --half`) the kernel is only 0.8-1.1x oneDNN at M = 3..4: there the layer's
    // weights sit in L3 and the product is bound by FMAs. Not so in the whole model: a step reads
    // ~19 MB of fp32 decoder weights, and other processes share the L3. Measured on it, with 3
    // here beam 4 at batch 1 was 1.1x SLOWER than without the kernel (probably its steps with
    // fewer rows, such as the first, pulling the fp16 copy into the cache beside the fp32 one),
    // with 4 (or 8) 1.3x faster; greedy at batch 1 1.9x faster either way, batch 32 unchanged
    // (docs/benchmarks.md, "fp16 weights at small M").
    case HalfGemvIsa::Avx2:
    case HalfGemvIsa::Avx512:
        return 4;
    }
    return 0;
}

namespace {

template <typename W>
void smallGemv(const float *x, std::int64_t m, std::int64_t k, const W *w, std::int64_t n,
               const float *bias, Activation activation, float *y)
{
    switch (m) {
    case 1:
        return run<1, W>(x, k, w, n, bias, activation, y);
    case 2:
        return run<2, W>(x, k, w, n, bias, activation, y);
    case 3:
        return run<3, W>(x, k, w, n, bias, activation, y);
    case 4:
        return run<4, W>(x, k, w, n, bias, activation, y);
    default:
        break;
    }
    // More rows than Linear sends (halfGemvMaxRows() <= 4): in groups of 4, so that the kernel
    // stays correct whatever m.
    for (std::int64_t r = 0; r < m; r += 4) {
        const std::int64_t rows = std::min<std::int64_t>(4, m - r);
        smallGemv(x + r * k, rows, k, w, n, bias, activation, y + r * n);
    }
}

} // namespace

void halfGemv(const float *x, std::int64_t m, std::int64_t k, const std::uint16_t *w,
              std::int64_t n, const float *bias, Activation activation, float *y)
{
    smallGemv(x, m, k, w, n, bias, activation, y);
}

void floatGemv(const float *x, std::int64_t m, std::int64_t k, const float *w, std::int64_t n,
               const float *bias, Activation activation, float *y)
{
    smallGemv(x, m, k, w, n, bias, activation, y);
}

} // namespace glosa::engine::ops::detail
