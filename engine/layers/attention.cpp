#include "engine/layers/attention.h"

#include <immintrin.h> // SSE2 (the x86-64 baseline) below; AVX-512 only in functions marked so

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace glosa::engine::layers {

// Why the loops below are written out in SSE: the attention loops of a decoder step at batch 32
// (8 heads × ~20 positions × 64 dims per row and layer) were ~6% of greedy decoding on the
// OPUS-MT shape, and the plain loops they replace ran one dot product at a time on a single
// dependent chain of additions (four cycles an add), and reloaded and stored the weighted sum's
// output for every position. The replacements compute the same floats in the same order:
//
// dotScores: every score is summed as GCC compiled the plain `omp simd reduction` loop for the
// x86-64 baseline (SSE2, four lanes, no FMA): lane l adds q[i] · k[i] for i ≡ l (mod 4) below
// dim rounded down to 4, in increasing i; the last dim % 4 products are added to lane 0 in order;
// then dot = (((lane0 + 0) + lane1) + lane2) + lane3, and dot · scale. Here four or eight keys
// run side by side, each in its own register (independent chains), and one transpose brings
// their lanes together for the final sums: the same additions, in the same order, for each key.
// tst_layers attentionKeepsItsOrder checks every path bit for bit against that order written
// as scalar code.
//
// softmaxWeightedSum: the max and the sum of the exponentials stay scalar and in order; the
// weighted sum out[i] = Σ_j p_j · v_j[i] is element-wise (each out[i] adds its terms in j order,
// a rounded product then a rounded sum, as before), so it may keep a block of outputs in
// registers across all positions instead of loading and storing them for each.

namespace {

// Keys whose scores are computed side by side in the widest loop.
constexpr int kKeysAtOnce = 8;

// Adds q[i] · k[i] for i in [from, dim) to lane 0 of `acc`, in order (the scalar tail).
inline __m128 addTail(__m128 acc, const float *q, const float *k, std::int64_t from,
                      std::int64_t dim)
{
    if (from == dim)
        return acc;
    float lane0 = _mm_cvtss_f32(acc);
    for (std::int64_t i = from; i < dim; ++i)
        lane0 += q[i] * k[i];
    return _mm_move_ss(acc, _mm_set_ss(lane0));
}

// The four lanes of a, b, c, d (one key each) summed in the documented order, times scale:
// the four keys' scores.
inline __m128 finishFour(__m128 a, __m128 b, __m128 c, __m128 d, __m128 scale)
{
    _MM_TRANSPOSE4_PS(a, b, c, d); // a: every key's lane 0, b: lane 1, ...
    const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(a, _mm_setzero_ps()), b), c), d);
    return _mm_mul_ps(sum, scale);
}

void scoresOfEight(const float *q, const float *k, std::int64_t kStride, std::int64_t dim,
                   __m128 scale, float *scores)
{
    const std::int64_t vectorDim = dim & ~std::int64_t(3);
    const float *key[kKeysAtOnce];
    for (int g = 0; g < kKeysAtOnce; ++g)
        key[g] = k + g * kStride;
    __m128 acc[kKeysAtOnce];
    for (__m128 &a : acc)
        a = _mm_setzero_ps();
    for (std::int64_t i = 0; i < vectorDim; i += 4) {
        const __m128 qv = _mm_loadu_ps(q + i);
        for (int g = 0; g < kKeysAtOnce; ++g)
            acc[g] = _mm_add_ps(acc[g], _mm_mul_ps(qv, _mm_loadu_ps(key[g] + i)));
    }
    for (int g = 0; g < kKeysAtOnce; ++g)
        acc[g] = addTail(acc[g], q, key[g], vectorDim, dim);
    _mm_storeu_ps(scores, finishFour(acc[0], acc[1], acc[2], acc[3], scale));
    _mm_storeu_ps(scores + 4, finishFour(acc[4], acc[5], acc[6], acc[7], scale));
}

void scoresOfFour(const float *q, const float *k, std::int64_t kStride, std::int64_t dim,
                  __m128 scale, float *scores)
{
    const std::int64_t vectorDim = dim & ~std::int64_t(3);
    const float *k0 = k, *k1 = k + kStride, *k2 = k + 2 * kStride, *k3 = k + 3 * kStride;
    __m128 a = _mm_setzero_ps(), b = a, c = a, d = a;
    for (std::int64_t i = 0; i < vectorDim; i += 4) {
        const __m128 qv = _mm_loadu_ps(q + i);
        a = _mm_add_ps(a, _mm_mul_ps(qv, _mm_loadu_ps(k0 + i)));
        b = _mm_add_ps(b, _mm_mul_ps(qv, _mm_loadu_ps(k1 + i)));
        c = _mm_add_ps(c, _mm_mul_ps(qv, _mm_loadu_ps(k2 + i)));
        d = _mm_add_ps(d, _mm_mul_ps(qv, _mm_loadu_ps(k3 + i)));
    }
    a = addTail(a, q, k0, vectorDim, dim);
    b = addTail(b, q, k1, vectorDim, dim);
    c = addTail(c, q, k2, vectorDim, dim);
    d = addTail(d, q, k3, vectorDim, dim);
    _mm_storeu_ps(scores, finishFour(a, b, c, d, scale));
}

float scoreOfOne(const float *q, const float *k, std::int64_t dim, float scale)
{
    const std::int64_t vectorDim = dim & ~std::int64_t(3);
    __m128 acc = _mm_setzero_ps();
    for (std::int64_t i = 0; i < vectorDim; i += 4)
        acc = _mm_add_ps(acc, _mm_mul_ps(_mm_loadu_ps(q + i), _mm_loadu_ps(k + i)));
    acc = addTail(acc, q, k, vectorDim, dim);
    alignas(16) float lane[4];
    _mm_store_ps(lane, acc);
    return ((((lane[0] + 0.0f) + lane[1]) + lane[2]) + lane[3]) * scale;
}

// out[i] = Σ_j p[j] · v_j[i] for i in [from, from + 4 · blocks), the j in order; each output
// stays in a register through all positions. `blocks` four-float blocks, at most 8.
template <int Blocks>
void weightedBlocks(const float *p, std::int64_t n, const float *values, std::int64_t valueStride,
                    std::int64_t from, float *out)
{
    __m128 acc[Blocks];
    for (__m128 &a : acc)
        a = _mm_setzero_ps();
    for (std::int64_t j = 0; j < n; ++j) {
        const __m128 pj = _mm_set1_ps(p[j]);
        const float *vj = values + j * valueStride + from;
        for (int b = 0; b < Blocks; ++b)
            acc[b] = _mm_add_ps(acc[b], _mm_mul_ps(_mm_loadu_ps(vj + 4 * b), pj));
    }
    for (int b = 0; b < Blocks; ++b)
        _mm_storeu_ps(out + from + 4 * b, acc[b]);
}

} // namespace

void dotScores(const float *q, const float *k, std::int64_t kStride, std::int64_t n,
               std::int64_t dim, float scale, float *scores)
{
    const __m128 scales = _mm_set1_ps(scale);
    std::int64_t j = 0;
    for (; j + kKeysAtOnce <= n; j += kKeysAtOnce)
        scoresOfEight(q, k + j * kStride, kStride, dim, scales, scores + j);
    for (; j + 4 <= n; j += 4)
        scoresOfFour(q, k + j * kStride, kStride, dim, scales, scores + j);
    for (; j < n; ++j)
        scores[j] = scoreOfOne(q, k + j * kStride, dim, scale);
}

void additiveScores(const float *v, const float *q, const float *k, std::int64_t kStride,
                    std::int64_t n, std::int64_t dim, float *scores)
{
    for (std::int64_t j = 0; j < n; ++j) {
        const float *kj = k + j * kStride;
        float score = 0.0f;
#pragma omp simd reduction(+ : score)
        for (std::int64_t i = 0; i < dim; ++i)
            score += v[i] * std::tanh(q[i] + kj[i]);
        scores[j] = score;
    }
}

void softmaxWeightedSum(float *scores, std::int64_t n, const float *values,
                        std::int64_t valueStride, std::int64_t width, float *out)
{
    float maximum = -std::numeric_limits<float>::infinity();
    for (std::int64_t j = 0; j < n; ++j)
        maximum = std::max(maximum, scores[j]);
    for (std::int64_t j = 0; j < n; ++j)
        scores[j] -= maximum;
    for (std::int64_t j = 0; j < n; ++j)
        scores[j] = std::exp(scores[j]);
    float sum = 0.0f;
    for (std::int64_t j = 0; j < n; ++j)
        sum += scores[j];
    const float inverse = 1.0f / sum;
    for (std::int64_t j = 0; j < n; ++j)
        scores[j] *= inverse;
    std::int64_t i = 0;
    for (; i + 32 <= width; i += 32)
        weightedBlocks<8>(scores, n, values, valueStride, i, out);
    for (; i + 4 <= width; i += 4)
        weightedBlocks<1>(scores, n, values, valueStride, i, out);
    for (; i < width; ++i) {
        float o = 0.0f;
        for (std::int64_t j = 0; j < n; ++j)
            o += scores[j] * values[j * valueStride + i];
        out[i] = o;
    }
}

} // namespace glosa::engine::layers
