// LayerNorm over the last axis: y = (x - mean) / sqrt(var + eps) * gamma + beta
// (Ba et al. 2016, arXiv:1607.06450; biased variance, as PyTorch's nn.LayerNorm).
//
// Basic usage:
//     ops::LayerNorm norm(gamma, beta, 1e-5f);  // gamma, beta [d]
//     norm(x, y);                               // x [..., d] -> y [..., d]
#pragma once

#include "engine/tensor.h"

#include <memory>

namespace glosa::engine::ops {

class LayerNorm
{
public:
    LayerNorm() = default; // empty; calling it throws
    // gamma [d] and beta [d] (either may be an empty Tensor: scale 1 / shift 0), any storage
    // dtype; copied to fp32.
    LayerNorm(const Tensor &gamma, const Tensor &beta, float eps = 1e-5f);
    // x [..., d] (F32) -> y [..., d]; y may alias x.
    void operator()(const Tensor &x, Tensor &y) const;
    std::int64_t size() const { return m_size; }
    float eps() const { return m_eps; }

private:
    Tensor m_gamma; // [d]
    Tensor m_beta;  // [d]
    std::int64_t m_size = 0;
    float m_eps = 1e-5f;
};

} // namespace glosa::engine::ops
