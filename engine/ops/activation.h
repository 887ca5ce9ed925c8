// Activation: the element-wise functions that ops can apply on their own (Elementwise) or fuse
// into a preceding Linear / Conv2d as a oneDNN post-op (one pass over memory instead of two).
#pragma once

#include <algorithm>
#include <cmath>

namespace glosa::engine::ops {

enum class Activation {
    None,    // identity (turns the post-op off)
    Relu,    // max(x, 0)
    Relu6,   // min(max(x, 0), 6): MobileNetV2 (Sandler et al. 2018, arXiv:1801.04381)
    Gelu,    // x * Phi(x), the exact erf form as in BERT / PyTorch's default (arXiv:1606.08415)
    Tanh,    // tanh(x)
    Sigmoid, // 1 / (1 + exp(-x))
    Swish,   // x * sigmoid(x), a.k.a. SiLU (Ramachandran et al. 2017, arXiv:1710.05941): Marian's
             // and OPUS-MT's feed-forward activation
};

const char *activationName(Activation activation);

// The scalar definition every implementation is checked against.
inline float activationReference(Activation activation, float x)
{
    switch (activation) {
    case Activation::None:
        return x;
    case Activation::Relu:
        return x > 0.0f ? x : 0.0f;
    case Activation::Relu6:
        return std::min(std::max(x, 0.0f), 6.0f);
    case Activation::Gelu:
        return static_cast<float>(0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))));
    case Activation::Tanh:
        return std::tanh(x);
    case Activation::Sigmoid:
        return static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(x))));
    case Activation::Swish:
        return static_cast<float>(x / (1.0 + std::exp(-static_cast<double>(x))));
    }
    return x;
}

} // namespace glosa::engine::ops
