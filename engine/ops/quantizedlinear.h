// QuantizedLinear: y = x · Wᵀ + b in int8 — weights quantized once per output channel, the input
// quantized per row on every call, products accumulated in int32 by oneDNN, then rescaled to f32.
//
// Basic usage:
//     ops::QuantizedLinear proj(weight, bias);   // weight [out, in] F32/F16/BF16, bias [out]
//     Tensor y;
//     proj(x, y);                                // x [..., in] F32 -> y [..., out] F32
//
// The arithmetic (what tst_ops_quantizedlinear checks against the plain reference):
//     s_w[n] = max_k |W[n, k]| / 127           W_q[n, k] = round(W[n, k] / s_w[n])  (int8)
//     s_x[m] = max_k |x[m, k]| / 127           x_q[m, k] = round(x[m, k] / s_x[m])  (int8)
//     y[m, n] = act(s_x[m] · s_w[n] · Σ_k x_q[m, k] · W_q[n, k] + b[n])
// Per-row input scales (one per token) rather than one per call: a padded batch mixes rows of
// very different ranges, and the rescale costs the same either way.
//
// The kernel is oneDNN's int8 1×1 convolution (the rows are the width of one NWC image, as in
// Linear's convolution path): oneDNN 2.6 convolutions take no run-time output scales, so the
// primitive applies s_w (fixed per channel) and the per-call s_x, the bias and the activation
// are applied here, in one pass over y. On AVX2 without VNNI oneDNN halves the weights in its
// reorder (its s8s8 compensation) so that vpmaddubsw cannot saturate: the weights then carry
// 7 bits, which the tolerance of the tests allows for.
// Where the CPU has AVX-512 VNNI every call runs int8gemv.h's kernel instead: the same numbers
// bit for bit, faster than oneDNN 2.6's kernels at every row count measured (a decoder step at
// batch 1 to 32 and beam 4, an encoder's batch), and without oneDNN's per-call cost. Its packed
// copy of the weights is made at construction, in place of oneDNN's. The kernel's store applies
// s_x, the bias and ReLU itself (and takes each row's max for the normalisers below), with the
// fp32 operations of the pass over y it replaces, so that no second pass over y is left (other
// activations still take oneDNN's eltwise over y; docs/benchmarks.md, "Fifth round").
//
// Thread-safe: one QuantizedLinear may be called from several threads at once.
#pragma once

#include "engine/ops/activation.h"
#include "engine/ops/rowsoftmax.h"
#include "engine/tensor.h"

#include <functional>
#include <memory>

namespace glosa::engine::ops {

class QuantizedLinear
{
public:
    QuantizedLinear() = default; // empty; calling it throws
    explicit QuantizedLinear(const Tensor &weight, const Tensor &bias = Tensor(),
                             Activation activation = Activation::None);

    // x [..., in] (F32) -> y [..., out] (F32); y is resized.
    void operator()(const Tensor &x, Tensor &y) const;
    // The same, and each output row's normaliser (rowsoftmax.h), normalizers [rows]: what a
    // decoder's output layer needs for its log-softmax. With the int8 kernel the max is taken
    // as the kernel's store writes the row, and the sum of exponentials is the one pass over y
    // left; on oneDNN's path the max is taken block by block as the rescale writes the row
    // (while the block is in L1), the sum right after (while the row is in L2). Either way the
    // same numbers as rowNormalizer() of each row of y.
    // rowDone(r), when given, is called as soon as row r and its normaliser are written (from
    // OpenMP threads, several rows at once).
    void operator()(const Tensor &x, Tensor &y, RowNormalizer *normalizers,
                    const std::function<void(std::int64_t)> *rowDone = nullptr) const;

    bool empty() const { return m_impl == nullptr; }
    std::int64_t inFeatures() const;
    std::int64_t outFeatures() const;
    Activation activation() const;
    // What runs a call of `rows` rows, for benchmarks and test messages: "int8gemv:avx512_vnni"
    // (the engine's kernel, int8gemv.h) or oneDNN's implementation (e.g. "jit_uni_int8_1x1:avx2").
    std::string implementation(std::int64_t rows) const;

private:
    struct Impl;
    std::shared_ptr<const Impl> m_impl;
};

} // namespace glosa::engine::ops
