// Linear: y = x · Wᵀ + b, optionally followed by a fused activation (our own AVX-512 fp32 kernel
// or one oneDNN matmul).
//
// Basic usage:
//     ops::Linear proj(weight, bias);            // weight [out, in], bias [out] (or empty)
//     Tensor y;
//     proj(x, y);                                // x [..., in] -> y [..., out]
//
// The weights are reordered once, at construction, into the layout the kernel prefers
// (format_tag::any). Primitives are created lazily and cached per M (the number of rows). We
// measured the alternative, one primitive with a run-time M (DNNL_RUNTIME_DIM_VAL): oneDNN 2.6
// then falls back from the brgemm kernel to gemm:jit, which cannot use the prepacked layout and
// was 15–65% slower at M = 1..5 (8.5 vs 9.9–11.1 µs at M = 1, 14.2 vs 16.6–23.6 µs at M = 5,
// 512×512, one thread), while a cached primitive per M costs one creation (~0.1–1 ms, then
// oneDNN's own cache) per new M.
//
// Which primitive (Linear::Kernel): oneDNN 2.6's matmul prepacks weights only on AVX-512 and up
// (brgemm); on AVX2 it runs gemm:jit, which repacks the plain weights on every call. There the
// same product as a 1×1 convolution — the M rows as the width of one NWC image, so x and y keep
// their row-major layout — runs the jit_1x1 kernel on weights blocked once, at construction:
// 1.3–2.3× faster than the matmul on the models' layers at M = 32 and level on the 8000-wide
// output projection (docs/benchmarks.md, "Which primitive"). Kernel::Auto picks the matmul where
// it prepacks, the convolution where it would not.
//
// fp16 weights: packages store weights as fp16. When the weight given to the constructor has F16
// storage (ModelPackage::linearWeight hands it over unconverted) and the CPU has AVX2, FMA and
// F16C, Linear also keeps it as fp16 (2 bytes a weight, on top of the 4 of the packed fp32 copy
// that larger M still use: +50% memory for the layer), and calls of up to halfWeightsMaxRows()
// rows (4) — a decoder step at batch 1, greedy or beam 4 — run our own kernel on it (halfgemv.h): half the
// bytes read per token, the same products (fp16 → fp32 is exact), only the summation order
// differs. 1.4–2.2× oneDNN on the Transformer's decoder layers at M = 1; greedy decoding at batch
// 1 1.5–1.9× faster, beam 4 1.3× (docs/benchmarks.md, "fp16 weights at small M").
//
// Our own fp32 kernel (floatgemm.h): where the CPU has AVX-512F and oneDNN may use it, Kernel::Auto
// packs the fp32 weights (F32, or F16/BF16 converted) once into the kernel's panels instead of
// oneDNN's layout, and every call runs it (the fp16 kernel above keeps its calls of up to 4 rows):
// oneDNN 2.6's brgemm does not prefetch weights that come from L3 or memory, as a decoder step's
// do, and reached about half of the core's fp32 peak there; the kernel keeps a panel in L2 while
// every tile of rows passes over it and brings the next one in meanwhile: 1.2–1.5× oneDNN on the
// OPUS-MT decoder's shapes at 32 rows, level or better from 1 to 513 rows (docs/benchmarks.md,
// "Fifth round: an own fp32 kernel"). The layer keeps that one fp32 copy; a call that takes oneDNN
// instead (detail::limitFloatGemmRows, tests and benchmarks) packs oneDNN's from the panels.
// implementation() names the kernel a call runs.
//
// Without AVX-512 (or with ONEDNN_MAX_CPU_ISA below it), F32 weights keep a plain fp32 copy beside
// oneDNN's packed one, read by halfgemv.h's kernel (floatGemv) at up to halfWeightsMaxRows() rows
// (an OPUS-MT model imported with --float32 at batch 1: oneDNN 2.6 streamed the weights slower
// than ONNX Runtime's MLAS; docs/benchmarks.md, "Imported models at small M"). With AVX-512 the
// panels serve those rows too: floatGemm read them 1.0–1.4× faster than floatGemv.
//
// Thread-safe: one Linear may be called from several threads at once. Copies share the packed
// weights.
#pragma once

#include "engine/ops/activation.h"
#include "engine/tensor.h"

#include <functional>
#include <memory>
#include <string>

namespace glosa::engine::ops {

class QuantizedLinear;
struct RowNormalizer;

class Linear
{
public:
    enum class Kernel { Auto, Matmul, Convolution };

    Linear() = default; // empty; calling it throws
    // weight [out, in] and bias [out] (or an empty Tensor for none), F32/F16/BF16 storage; the
    // weights are packed (copied), so the arguments need not outlive the op. `kernel` is for
    // tests and benchmarks; everything else leaves it to Auto.
    explicit Linear(const Tensor &weight, const Tensor &bias = Tensor(),
                    Activation activation = Activation::None, Kernel kernel = Kernel::Auto);
    // The same layer in int8 (QuantizedLinear, quantizedlinear.h) when `int8`, else as above:
    // what a plugin builds for ModelPackage::computeType().
    static Linear withPrecision(bool int8, const Tensor &weight, const Tensor &bias = Tensor(),
                                Activation activation = Activation::None);
    bool int8() const;

    // x [..., in] (F32) -> y [..., out]; y is resized (its storage reused when large enough).
    void operator()(const Tensor &x, Tensor &y) const;
    // The same, and rowNormalizer() (rowsoftmax.h) of each row of y in normalizers [rows]: a
    // decoder's output layer. int8 layers take each row's max as they rescale it
    // (quantizedlinear.h); fp32 ones read y once it is written.
    // rowDone(r), when given, is called as soon as row r and its normaliser are written (from
    // OpenMP threads, several rows at once).
    void operator()(const Tensor &x, Tensor &y, RowNormalizer *normalizers,
                    const std::function<void(std::int64_t)> *rowDone = nullptr) const;

    bool empty() const { return m_impl == nullptr && m_int8 == nullptr; }
    std::int64_t inFeatures() const;
    std::int64_t outFeatures() const;
    Activation activation() const;
    Kernel kernel() const; // Matmul or Convolution (Auto resolved at construction)

    // Calls of up to halfWeightsMaxRows() rows (0 where the CPU lacks AVX2/FMA/F16C) read the
    // weights as fp16 when halfWeights(): they came as F16 (see "fp16 weights" above).
    static std::int64_t halfWeightsMaxRows();
    bool halfWeights() const;
    // The same for weights that came as F32 where floatGemm does not run (no AVX-512): a plain
    // fp32 copy read by the same kernel (halfgemv.h, floatGemv) at up to halfWeightsMaxRows()
    // rows; +100% memory for the layer.
    bool plainWeights() const;
    // Which kernel a call of `rows` rows runs here: "floatgemm:avx512" (floatgemm.h),
    // "halfgemv:…" / "floatgemv:…" (halfgemv.h), or oneDNN's implementation (e.g.
    // "brg:avx512_core"); int8 layers answer as QuantizedLinear::implementation.
    std::string implementation(std::int64_t rows) const;

private:
    struct Impl;
    std::shared_ptr<const Impl> m_impl;
    std::shared_ptr<const QuantizedLinear> m_int8; // set instead of m_impl for int8 layers
};

} // namespace glosa::engine::ops
