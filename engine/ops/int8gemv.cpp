#include "engine/ops/int8gemv.h"

#include <immintrin.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace glosa::engine::ops::detail {

namespace {

constexpr std::int64_t kLanes = 16; // output channels per block (int32 lanes of a zmm)
constexpr std::int64_t kGroup = 4;  // input channels per lane (vpdpbusd)
constexpr std::int64_t kBlockBytes = kLanes * kGroup;

#define GLOSA_VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))

// B blocks of 16 output channels (from `block`) against the M rows of xu (x + 128 as u8,
// [M][k4 * 4]): each 64 weight bytes are loaded once for all the rows; M·B ≤ 16 accumulators,
// B weight vectors and one broadcast within the 32 registers.
template <int M, int B>
GLOSA_VNNI_TARGET void blocks(const std::uint8_t *xu, std::int64_t k4, const Int8GemvWeights &w,
                              const float *scales, std::int64_t block, float *y)
{
    __m512i acc[M][B];
#pragma GCC unroll 16
    for (int i = 0; i < M; ++i)
#pragma GCC unroll 16
        for (int b = 0; b < B; ++b)
            acc[i][b] = _mm512_setzero_si512();
    const std::int8_t *base = w.packed.data() + block * k4 * kBlockBytes;
    for (std::int64_t g = 0; g < k4; ++g) {
        __m512i wv[B];
#pragma GCC unroll 16
        for (int b = 0; b < B; ++b)
            wv[b] = _mm512_loadu_si512(base + (b * k4 + g) * kBlockBytes);
#pragma GCC unroll 16
        for (int i = 0; i < M; ++i) {
            std::int32_t four;
            std::memcpy(&four, xu + (i * k4 + g) * kGroup, sizeof four);
            const __m512i xv = _mm512_set1_epi32(four);
#pragma GCC unroll 16
            for (int b = 0; b < B; ++b)
                acc[i][b] = _mm512_dpbusd_epi32(acc[i][b], xv, wv[b]);
        }
    }
#pragma GCC unroll 16
    for (int b = 0; b < B; ++b) {
        const std::int64_t first = (block + b) * kLanes;
        const std::int64_t valid = std::min<std::int64_t>(kLanes, w.n - first);
        const auto mask = static_cast<__mmask16>(valid >= kLanes ? 0xffff : (1u << valid) - 1);
        const __m512i compensation = _mm512_loadu_si512(w.compensation.data() + first);
        const __m512 scale = _mm512_maskz_loadu_ps(mask, scales + first);
#pragma GCC unroll 16
        for (int i = 0; i < M; ++i) {
            // float(exact sum) · scale: what oneDNN's int8 kernels store.
            // maskz: GCC 12's unmasked form warns of its undefined pass-through (PR 105593).
            const __m512 sum =
                _mm512_maskz_cvtepi32_ps(0xffff, _mm512_sub_epi32(acc[i][b], compensation));
            _mm512_mask_storeu_ps(y + i * w.n + first, mask, _mm512_mul_ps(sum, scale));
        }
    }
}

template <int M>
void run(const std::uint8_t *xu, std::int64_t k4, const Int8GemvWeights &w, const float *scales,
         float *y)
{
    constexpr int B = M <= 2 ? 8 : 4;
    const std::int64_t nBlocks = (w.n + kLanes - 1) / kLanes;
    const std::int64_t groups = (nBlocks + B - 1) / B;
    // Worth waking the OpenMP threads from 64 KB of weights on.
    const bool parallel = w.n * w.k >= (std::int64_t(1) << 16) && groups > 1;
#pragma omp parallel for schedule(static) if (parallel)
    for (std::int64_t group = 0; group < groups; ++group) {
        const std::int64_t first = group * B;
        if (first + B <= nBlocks) {
            blocks<M, B>(xu, k4, w, scales, first, y);
            continue;
        }
        for (std::int64_t block = first; block < nBlocks; ++block)
            blocks<M, 1>(xu, k4, w, scales, block, y);
    }
}

std::atomic<std::int64_t> rowLimit{-1};

std::int64_t cpuMaxRows()
{
    static const std::int64_t rows = [] {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
            !__builtin_cpu_supports("avx512vnni"))
            return std::int64_t(0);
        // ONEDNN_MAX_CPU_ISA below VNNI: oneDNN's int8 kernels then compute otherwise (7-bit
        // weights without VNNI), and this kernel stands aside so that results stay oneDNN's.
        const auto allowed = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
        const auto vnni = static_cast<unsigned>(dnnl::cpu_isa::avx512_core_vnni);
        return (allowed & vnni) == vnni ? std::int64_t(4) : std::int64_t(0);
    }();
    return rows;
}

} // namespace

std::int64_t int8GemvMaxRows()
{
    const std::int64_t limit = rowLimit.load(std::memory_order_relaxed);
    return limit < 0 ? cpuMaxRows() : std::min(limit, cpuMaxRows());
}

void limitInt8GemvRows(std::int64_t rows)
{
    rowLimit.store(rows, std::memory_order_relaxed);
}

Int8GemvWeights packInt8Gemv(const std::int8_t *codes, std::int64_t n, std::int64_t k)
{
    Int8GemvWeights w;
    w.n = n;
    w.k = k;
    const std::int64_t nBlocks = (n + kLanes - 1) / kLanes, k4 = (k + kGroup - 1) / kGroup;
    w.packed.assign(static_cast<std::size_t>(nBlocks * k4 * kBlockBytes), 0);
    w.compensation.assign(static_cast<std::size_t>(nBlocks * kLanes), 0);
    for (std::int64_t j = 0; j < n; ++j) {
        const std::int8_t *row = codes + j * k;
        std::int8_t *out =
            w.packed.data() + (j / kLanes) * k4 * kBlockBytes + (j % kLanes) * kGroup;
        std::int32_t sum = 0;
        for (std::int64_t c = 0; c < k; ++c) {
            out[(c / kGroup) * kBlockBytes + c % kGroup] = row[c];
            sum += row[c];
        }
        w.compensation[j] = 128 * sum;
    }
    return w;
}

void int8Gemv(const std::int8_t *x, std::int64_t m, const Int8GemvWeights &w, const float *scales,
              float *y)
{
    const std::int64_t k4 = (w.k + kGroup - 1) / kGroup;
    for (std::int64_t r = 0; r < m; r += 4) {
        const std::int64_t rows = std::min<std::int64_t>(4, m - r);
        // x + 128 as unsigned bytes (the sign bit flipped); the padding past k reads 128 (x = 0)
        // against zero weights.
        thread_local std::vector<std::uint8_t> xu;
        xu.assign(static_cast<std::size_t>(rows * k4 * kGroup), 0x80);
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t c = 0; c < w.k; ++c)
                xu[i * k4 * kGroup + c] =
                    static_cast<std::uint8_t>(x[(r + i) * w.k + c]) ^ std::uint8_t(0x80);
        float *out = y + r * w.n;
        switch (rows) {
        case 1:
            run<1>(xu.data(), k4, w, scales, out);
            break;
        case 2:
            run<2>(xu.data(), k4, w, scales, out);
            break;
        case 3:
            run<3>(xu.data(), k4, w, scales, out);
            break;
        default:
            run<4>(xu.data(), k4, w, scales, out);
            break;
        }
    }
}

} // namespace glosa::engine::ops::detail
