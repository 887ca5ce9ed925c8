// Conv2d (including depthwise: groups = channels) and AvgPool2d on oneDNN, with explicit
// asymmetric padding — TFLite's SAME padding puts the odd extra pixel at the bottom/right, and
// symmetric padding changes MobileNetV2's logits by up to 4.5.
//
// Basic usage:
//     ops::Conv2dParams p;
//     p.strideH = p.strideW = 2;
//     p.padBottom = p.padRight = 1;            // SAME for a 3×3 stride-2 conv on an even input
//     p.activation = ops::Activation::Relu6;   // fused post-op
//     ops::Conv2d conv(weight, bias, p);       // weight [out, in/groups, kh, kw], bias [out]
//     conv(x, y);                              // x [N, C, H, W] -> y [N, out, H', W']
//
// Layout::NHWC takes and returns [N, H, W, C] instead; oneDNN's direct and depthwise kernels
// run on it without reorders, so a whole network can stay in NHWC and convert only at its
// boundary. Weights are reordered into the kernel's preferred blocked layout the first time an
// input shape is seen (the layout can depend on it) and kept; primitives are cached per input
// shape. Thread-safe.
#pragma once

#include "engine/ops/activation.h"
#include "engine/tensor.h"

#include <memory>

namespace glosa::engine::ops {

enum class Layout {
    NCHW, // [N, C, H, W], PyTorch's
    NHWC, // [N, H, W, C], TFLite's; rows of C channels, as attention wants them
};

struct Conv2dParams
{
    std::int64_t strideH = 1;
    std::int64_t strideW = 1;
    // PyTorch's convention: 1 means no dilation.
    std::int64_t dilationH = 1;
    std::int64_t dilationW = 1;
    // Zero padding added before the convolution on each side.
    std::int64_t padTop = 0;
    std::int64_t padLeft = 0;
    std::int64_t padBottom = 0;
    std::int64_t padRight = 0;
    // Channel groups; in_channels for a depthwise convolution, 1 for a dense one.
    std::int64_t groups = 1;
    // Fused after the bias; None turns it off.
    Activation activation = Activation::None;
    Layout layout = Layout::NCHW;
};

class Conv2d
{
public:
    Conv2d() = default; // empty; calling it throws
    // weight [out, in/groups, kh, kw] (OIHW, any storage dtype), bias [out] or empty.
    Conv2d(const Tensor &weight, const Tensor &bias, const Conv2dParams &params);
    // x [N, C, H, W] (or NHWC, see params.layout) -> y [N, out, H', W'] (or NHWC).
    void operator()(const Tensor &x, Tensor &y) const;
    // Output shape for an input shape in params().layout; throws when they do not fit.
    Shape outputShape(const Shape &input) const;
    const Conv2dParams &params() const;
    std::int64_t inChannels() const;
    std::int64_t outChannels() const;

private:
    struct Impl;
    std::shared_ptr<const Impl> m_impl;
};

struct Pool2dParams
{
    std::int64_t kernelH = 1;
    std::int64_t kernelW = 1;
    std::int64_t strideH = 1;
    std::int64_t strideW = 1;
    std::int64_t padTop = 0;
    std::int64_t padLeft = 0;
    std::int64_t padBottom = 0;
    std::int64_t padRight = 0;
    // Whether padded zeros count in the average's denominator (PyTorch's count_include_pad);
    // false divides by the number of real pixels under the window (TFLite's behaviour).
    bool countIncludePad = false;
    Layout layout = Layout::NCHW;
};

class AvgPool2d
{
public:
    explicit AvgPool2d(const Pool2dParams &params);
    // x [N, C, H, W] (or NHWC) -> y [N, C, H', W'] (or NHWC)
    void operator()(const Tensor &x, Tensor &y) const;
    Shape outputShape(const Shape &input) const;
    const Pool2dParams &params() const { return m_params; }

private:
    Pool2dParams m_params;
};

// NCHW <-> NHWC copies for the boundaries of an NHWC network.
Tensor nchwToNhwc(const Tensor &x); // [N, C, H, W] -> [N, H, W, C]
Tensor nhwcToNchw(const Tensor &x); // [N, H, W, C] -> [N, C, H, W]

} // namespace glosa::engine::ops
