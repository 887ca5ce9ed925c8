#include "engine/layers/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace glosa::engine::layers {

void dotScores(const float *q, const float *k, std::int64_t kStride, std::int64_t n,
               std::int64_t dim, float scale, float *scores)
{
    for (std::int64_t j = 0; j < n; ++j) {
        const float *kj = k + j * kStride;
        float dot = 0.0f;
        // A float reduction is only vectorised when we allow reassociation.
#pragma omp simd reduction(+ : dot)
        for (std::int64_t i = 0; i < dim; ++i)
            dot += q[i] * kj[i];
        scores[j] = dot * scale; // after the sum, as PyTorch scales (q · k) / sqrt(dh)
    }
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
    float sum = 0.0f;
    for (std::int64_t j = 0; j < n; ++j) {
        scores[j] = std::exp(scores[j] - maximum);
        sum += scores[j];
    }
    const float inverse = 1.0f / sum;
    std::fill(out, out + width, 0.0f);
    for (std::int64_t j = 0; j < n; ++j) {
        scores[j] *= inverse;
        const float p = scores[j];
        const float *vj = values + j * valueStride;
#pragma omp simd
        for (std::int64_t i = 0; i < width; ++i)
            out[i] += p * vj[i];
    }
}

} // namespace glosa::engine::layers
