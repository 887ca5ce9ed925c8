#include "engine/ops/rowsoftmax.h"

#include "engine/ops/halfgemv.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

// glibc's vector expf (libmvec), by its vector-ABI names: 16 lanes (AVX-512) and 8 (AVX2). Each
// declared for the ISA it takes its arguments in, as the functions that call it are: clang
// refuses a vector argument whose ABI the file's own target does not have.
extern "C" __attribute__((target("avx512f"))) __m512 _ZGVeN16v_expf(__m512);
extern "C" __attribute__((target("avx2,fma"))) __m256 _ZGVdN8v_expf(__m256);

namespace glosa::engine::ops {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// max_j x[j] as the compiler vectorises it for the x86-64 baseline (SSE2: one four-lane
// accumulator, a vector max every four cycles).
float maxInOrder(const float *x, std::int64_t n)
{
    float best = kNegInf;
#pragma omp simd reduction(max : best)
    for (std::int64_t j = 0; j < n; ++j)
        best = x[j] > best ? x[j] : best;
    return best;
}

// The same maximum with four 16-lane accumulators. maxps(x, best) keeps `best` when x is NaN,
// as `x[j] > best ? x[j] : best` does.
__attribute__((target("avx512f"))) float maxOf512(const float *x, std::int64_t n)
{
    const __m512 none = _mm512_set1_ps(kNegInf);
    constexpr __mmask16 kAll = 0xffff; // maskz: GCC 12 warns on the plain form's undefined source
    __m512 a = none, b = none, c = none, d = none;
    std::int64_t j = 0;
    for (; j + 64 <= n; j += 64) {
        a = _mm512_maskz_max_ps(kAll, _mm512_loadu_ps(x + j), a);
        b = _mm512_maskz_max_ps(kAll, _mm512_loadu_ps(x + j + 16), b);
        c = _mm512_maskz_max_ps(kAll, _mm512_loadu_ps(x + j + 32), c);
        d = _mm512_maskz_max_ps(kAll, _mm512_loadu_ps(x + j + 48), d);
    }
    for (; j < n; j += 16) { // the tail, padded with -inf
        const auto mask = static_cast<__mmask16>(n - j >= 16 ? 0xffff : (1u << (n - j)) - 1);
        a = _mm512_maskz_max_ps(kAll, _mm512_mask_loadu_ps(none, mask, x + j), a);
    }
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, _mm512_maskz_max_ps(kAll, _mm512_maskz_max_ps(kAll, a, b),
                                               _mm512_maskz_max_ps(kAll, c, d)));
    float best = kNegInf;
    for (float lane : lanes)
        best = lane > best ? lane : best;
    return best;
}

__attribute__((target("avx2"))) float maxOf256(const float *x, std::int64_t n)
{
    const __m256 none = _mm256_set1_ps(kNegInf);
    __m256 a = none, b = none, c = none, d = none;
    std::int64_t j = 0;
    for (; j + 32 <= n; j += 32) {
        a = _mm256_max_ps(_mm256_loadu_ps(x + j), a);
        b = _mm256_max_ps(_mm256_loadu_ps(x + j + 8), b);
        c = _mm256_max_ps(_mm256_loadu_ps(x + j + 16), c);
        d = _mm256_max_ps(_mm256_loadu_ps(x + j + 24), d);
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, _mm256_max_ps(_mm256_max_ps(a, b), _mm256_max_ps(c, d)));
    float best = kNegInf;
    for (float lane : lanes)
        best = lane > best ? lane : best;
    for (; j < n; ++j)
        best = x[j] > best ? x[j] : best;
    return best;
}

// The largest entry, NaN skipped. Why several accumulators: with the baseline's one, the max of
// a 65,001-wide output row and the search's blocks of it were ~6% of int8 greedy decoding at
// batch 32 (docs/benchmarks.md, "Fourth round"). A max does not round, so any order gives the
// same value, and the same bits but for a maximum of 0, which may be +0 or -0 depending on which
// zero a lane meets first: such a row is read again in the baseline's order (rare; a logit of
// exactly zero).
float maxOf(const float *x, std::int64_t n)
{
    float best;
    switch (detail::halfGemvIsa()) {
    case detail::HalfGemvIsa::Avx512:
        best = maxOf512(x, n);
        break;
    case detail::HalfGemvIsa::Avx2:
        best = maxOf256(x, n);
        break;
    case detail::HalfGemvIsa::None:
    default:
        best = maxInOrder(x, n);
        break;
    }
    if (best == 0.0f)
        best = maxInOrder(x, n);
    // An OpenMP max reduction may start its lanes at the lowest finite float instead of -inf
    // (clang's does): a row that is -inf throughout came back as -FLT_MAX. Such a row is read
    // again, one entry at a time.
    if (best <= std::numeric_limits<float>::lowest()) {
        best = kNegInf;
        for (std::int64_t j = 0; j < n; ++j)
            best = std::max(best, x[j]);
    }
    return best;
}

// How far ahead sumExp512 asks for the row: the int8 output layer's rows come from L3 (the
// kernel wrote them across the whole call; quantizedlinear.h), and the loop's two calls of the
// vector expf leave too few loads in flight to hide that (4 KB ahead: the 32 × 65,001 call
// 1.05-1.09× faster, 1 row, already in L2, unchanged; docs/benchmarks.md, "Fifth round").
constexpr std::int64_t kSumAhead = 1024; // floats

__attribute__((target("avx512f"))) float sumExp512(const float *x, std::int64_t n, float max)
{
    const __m512 m = _mm512_set1_ps(max);
    __m512 a = _mm512_setzero_ps(), b = _mm512_setzero_ps();
    std::int64_t j = 0;
    for (; j + 32 <= n; j += 32) {
        // Prefetches do not fault: past the row's end they only cost their issue.
        _mm_prefetch(reinterpret_cast<const char *>(x + j + kSumAhead), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char *>(x + j + kSumAhead + 16), _MM_HINT_T0);
        a = _mm512_add_ps(a, _ZGVeN16v_expf(_mm512_sub_ps(_mm512_loadu_ps(x + j), m)));
        b = _mm512_add_ps(b, _ZGVeN16v_expf(_mm512_sub_ps(_mm512_loadu_ps(x + j + 16), m)));
    }
    for (; j < n; j += 16) { // the tail, padded with -inf (exp: 0)
        const auto mask = static_cast<__mmask16>(n - j >= 16 ? 0xffff : (1u << (n - j)) - 1);
        const __m512 v = _mm512_mask_loadu_ps(_mm512_set1_ps(kNegInf), mask, x + j);
        a = _mm512_add_ps(a, _ZGVeN16v_expf(_mm512_sub_ps(v, m)));
    }
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, _mm512_add_ps(a, b));
    float sum = 0.0f;
    for (float lane : lanes)
        sum += lane;
    return sum;
}

__attribute__((target("avx2,fma"))) float sumExp256(const float *x, std::int64_t n, float max)
{
    const __m256 m = _mm256_set1_ps(max);
    __m256 a = _mm256_setzero_ps(), b = _mm256_setzero_ps();
    std::int64_t j = 0;
    for (; j + 16 <= n; j += 16) {
        a = _mm256_add_ps(a, _ZGVdN8v_expf(_mm256_sub_ps(_mm256_loadu_ps(x + j), m)));
        b = _mm256_add_ps(b, _ZGVdN8v_expf(_mm256_sub_ps(_mm256_loadu_ps(x + j + 8), m)));
    }
    for (; j < n; j += 8) { // the tail, padded with -inf (exp: 0)
        alignas(32) float tail[8];
        std::fill(tail, tail + 8, kNegInf);
        std::copy(x + j, x + std::min(n, j + 8), tail);
        a = _mm256_add_ps(a, _ZGVdN8v_expf(_mm256_sub_ps(_mm256_load_ps(tail), m)));
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, _mm256_add_ps(a, b));
    float sum = 0.0f;
    for (float lane : lanes)
        sum += lane;
    return sum;
}

float sumExp(const float *x, std::int64_t n, float max)
{
    switch (detail::halfGemvIsa()) {
    case detail::HalfGemvIsa::Avx512:
        return sumExp512(x, n, max);
    case detail::HalfGemvIsa::Avx2:
        return sumExp256(x, n, max);
    case detail::HalfGemvIsa::None:
        break;
    }
    float sum = 0.0f;
    for (std::int64_t j = 0; j < n; ++j)
        sum += std::exp(x[j] - max);
    return sum;
}

} // namespace

RowNormalizer rowNormalizer(const float *x, std::int64_t n)
{
    return rowNormalizer(x, n, maxOf(x, n));
}

float rowMax(const float *x, std::int64_t n)
{
    return maxOf(x, n);
}

RowNormalizer rowNormalizer(const float *x, std::int64_t n, float max)
{
    RowNormalizer norm;
    norm.max = max;
    // Every entry -inf: exp(-inf - -inf) would be NaN; the row has no distribution.
    norm.logSum = norm.max == kNegInf ? 0.0f : std::log(sumExp(x, n, norm.max));
    return norm;
}

void rowNormalizers(const float *y, std::int64_t rows, std::int64_t n, RowNormalizer *out,
                    const std::function<void(std::int64_t)> *rowDone)
{
#pragma omp parallel for schedule(static) if (rows > 1 && rows * n > (1 << 15))
    for (std::int64_t r = 0; r < rows; ++r) {
        out[r] = rowNormalizer(y + r * n, n);
        if (rowDone)
            (*rowDone)(r);
    }
}

void logSoftmaxRow(const float *x, std::int64_t n, RowNormalizer norm, float *out)
{
#pragma omp simd
    for (std::int64_t j = 0; j < n; ++j)
        out[j] = (x[j] - norm.max) - norm.logSum;
}

namespace {

bool isExcluded(std::span<const std::int32_t> excluded, std::int64_t j)
{
    return std::binary_search(excluded.begin(), excluded.end(), static_cast<std::int32_t>(j));
}

// The largest entry of x[begin, end) outside `excluded`; *next: the first excluded id not below
// `begin` (advanced past the block).
float blockMax(const float *x, std::int64_t begin, std::int64_t end,
               std::span<const std::int32_t> excluded, std::size_t *next)
{
    if (*next < excluded.size() && excluded[*next] < end) { // rare: the few suppressed ids
        float m = kNegInf;
        for (std::int64_t j = begin; j < end; ++j)
            if (isExcluded(excluded, j))
                *next += 1;
            else
                m = std::max(m, x[j]);
        return m;
    }
    return maxOf(x + begin, end - begin);
}

// One pass over the row: each block's largest entry outside `excluded` and its log-probability;
// the first block holding the largest of those holds the first position with it (rounding is
// monotonic, so an earlier entry a little below the largest logit that rounds to the same value
// is found too, as the written row gives BestSampler). Then that block alone is read again.
std::int32_t firstBest(const float *x, std::int64_t n, RowNormalizer norm,
                       std::span<const std::int32_t> excluded, float *logProb)
{
    constexpr std::int64_t kBlock = 256; // long enough that a block's reduction costs little
    float best = kNegInf;
    std::int64_t at = -1; // the first block holding `best`
    std::size_t next = 0;
    for (std::int64_t begin = 0; begin < n; begin += kBlock) {
        const float top = blockMax(x, begin, std::min(n, begin + kBlock), excluded, &next);
        const float value = (top - norm.max) - norm.logSum;
        if (top > kNegInf && value > best) { // NaN never wins
            best = value;
            at = begin;
        }
    }
    if (at < 0)
        return -1;
    for (std::int64_t j = at; j < std::min(n, at + kBlock); ++j)
        if (((x[j] - norm.max) - norm.logSum) == best && !isExcluded(excluded, j)) {
            *logProb = best;
            return static_cast<std::int32_t>(j);
        }
    return -1; // not reached: the block's largest entry gives `best`
}

} // namespace

std::int32_t bestOfRow(const float *x, std::int64_t n, RowNormalizer norm, float *logProb)
{
    return firstBest(x, n, norm, {}, logProb);
}

std::int32_t bestOfRow(const float *x, std::int64_t n, RowNormalizer norm, float *logProb,
                       std::span<const std::int32_t> excluded)
{
    return firstBest(x, n, norm, excluded, logProb);
}

} // namespace glosa::engine::ops
