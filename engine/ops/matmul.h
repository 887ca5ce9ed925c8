// BatchedMatMul: C[b] = alpha · A[b] · B[b] (or B[b]ᵀ) for attention: QKᵀ (transposeB = true,
// alpha = 1/sqrt(d)) and AV (transposeB = false). One oneDNN matmul per shape, cached.
//
// Basic usage:
//     ops::BatchedMatMul scores(true, 1.0f / std::sqrt(float(d)));
//     scores(q, k, s);        // q [batch, tq, d], k [batch, tk, d] -> s [batch, tq, tk]
//     ops::BatchedMatMul()(p, v, ctx);   // p [batch, tq, tk], v [batch, tk, d] -> [batch, tq, d]
//
// B's batch may be 1 (broadcast over A's batch), e.g. one encoder memory for all beams.
#pragma once

#include "engine/tensor.h"

namespace glosa::engine::ops {

class BatchedMatMul
{
public:
    // transposeB: B is given as [batch, N, K] (row-major) and used transposed.
    // alpha: scale applied to the product; 1 turns it off.
    explicit BatchedMatMul(bool transposeB = false, float alpha = 1.0f)
        : m_transposeB(transposeB), m_alpha(alpha)
    {
    }
    // a [batch, M, K], b [batch | 1, K, N] ([batch | 1, N, K] if transposeB) -> c [batch, M, N]
    void operator()(const Tensor &a, const Tensor &b, Tensor &c) const;
    bool transposeB() const { return m_transposeB; }
    float alpha() const { return m_alpha; }

private:
    bool m_transposeB;
    float m_alpha;
};

} // namespace glosa::engine::ops
