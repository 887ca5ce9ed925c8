// Linear: y = x · Wᵀ + b, optionally followed by a fused activation (one oneDNN matmul).
//
// Basic usage:
//     ops::Linear proj(weight, bias);            // weight [out, in], bias [out] (or empty)
//     Tensor y;
//     proj(x, y);                                // x [..., in] -> y [..., out]
//
// The weights are reordered once, at construction, into the layout the matmul kernel prefers
// (format_tag::any): at M = 1 that costs ~8 µs instead of ~11 µs (512×512) per call. Primitives
// are created lazily and cached per M (the number of rows). We measured the alternative, one
// primitive with a run-time M (DNNL_RUNTIME_DIM_VAL): oneDNN 2.6 then falls back from the brgemm
// kernel to gemm:jit, which cannot use the prepacked layout and was 15–65% slower at M = 1..5
// (8.5 vs 9.9–11.1 µs at M = 1, 14.2 vs 16.6–23.6 µs at M = 5, 512×512, one thread), while a
// cached primitive per M costs one creation (~0.1–1 ms, then oneDNN's own cache) per new M.
//
// Thread-safe: one Linear may be called from several threads at once. Copies share the packed
// weights.
#pragma once

#include "engine/ops/activation.h"
#include "engine/tensor.h"

#include <memory>

namespace glosa::engine::ops {

class Linear
{
public:
    Linear() = default; // empty; calling it throws
    // weight [out, in] and bias [out] (or an empty Tensor for none), F32/F16/BF16 storage; the
    // weights are packed (copied), so the arguments need not outlive the op.
    explicit Linear(const Tensor &weight, const Tensor &bias = Tensor(),
                    Activation activation = Activation::None);

    // x [..., in] (F32) -> y [..., out]; y is resized (its storage reused when large enough).
    void operator()(const Tensor &x, Tensor &y) const;

    bool empty() const { return m_impl == nullptr; }
    std::int64_t inFeatures() const;
    std::int64_t outFeatures() const;
    Activation activation() const;

private:
    struct Impl;
    std::shared_ptr<const Impl> m_impl;
};

namespace reference {
// Plain loops (double accumulation), no oneDNN: the definition Linear is tested against.
void linear(const Tensor &x, const Tensor &weight, const Tensor &bias, Activation activation,
            Tensor &y);
} // namespace reference

} // namespace glosa::engine::ops
