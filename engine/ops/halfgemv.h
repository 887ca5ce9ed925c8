// halfGemv: y = act(x · Wᵀ + b) for a few rows of x, reading W as fp16. Internal to ops::Linear
// (linear.h), which uses it for small M when its weights came as F16.
//
// Why: at batch 1 a decoder step multiplies ONE row by every weight (the Transformer's 8000×256
// tied output projection alone is 8 MB in fp32), so the step is bound by the bytes it reads, not
// by FLOPs (docs/benchmarks.md). Reading the weights as fp16 halves those bytes. fp16 → fp32 is
// exact (every fp16 value is an fp32 value), so each product x·w is the same fp32 product the
// fp32 path computes on the converted weights; the sums are accumulated in fp32 and differ from
// oneDNN's only in their order, as between any two gemm kernels.
//
// oneDNN 2.6 has no f16-weight matmul on CPUs without avx512_fp16, hence this kernel: AVX2 + FMA +
// F16C (vcvtph2ps converts 8 halves in a register), or the same with AVX-512F (16 halves), chosen
// at run time from what the CPU has. Each weight row is read once for all the rows of x and its
// products accumulated in registers, one horizontal sum at the end. Only for a few rows: with
// more, the product turns bound by FMAs rather than bytes, the sooner the more of the weights the
// cache holds (halfGemvMaxRows). It also skips oneDNN's per-call cost (primitive lookup, memory
// objects), a microsecond or two on the 256×256 projections.
#pragma once

#include "engine/ops/activation.h"

#include <cstdint>

namespace glosa::engine::ops::detail {

// Which variant runs here: AVX-512F where the CPU has it and oneDNN may use it
// (ONEDNN_MAX_CPU_ISA), else AVX2 + FMA + F16C, else none (checked once).
enum class HalfGemvIsa { None, Avx2, Avx512 };
HalfGemvIsa halfGemvIsa();
// Up to how many rows halfGemv beats oneDNN's fp32 kernels here (0: no kernel); measured,
// docs/benchmarks.md "fp16 weights at small M".
std::int64_t halfGemvMaxRows();

// x [m, k] F32 row-major, w [n, k] fp16 bits row-major, bias [n] or nullptr, y [m, n]; needs
// halfGemvIsa() != HalfGemvIsa::None. W is read once per group of 4 rows of x: meant for small m
// (halfGemvMaxRows()). Runs on OpenMP threads when W is large enough to pay for them.
void halfGemv(const float *x, std::int64_t m, std::int64_t k, const std::uint16_t *w,
              std::int64_t n, const float *bias, Activation activation, float *y);
// The same kernel on fp32 weights, w [n, k] row-major: for fp32 packages (an OPUS-MT model
// imported with --float32), whose decoder steps at batch 1 stream fp32 weights; oneDNN 2.6's
// brgemm read them slower at one row than ONNX Runtime's MLAS (docs/benchmarks.md, "Imported
// models at small M"). Linear runs it only where floatgemm.h's kernel does not (without
// AVX-512): with AVX-512 that kernel's panels, one aligned stream each, read the same weights
// 1.0–1.4× faster at 1–4 rows ("Fifth round"), and spare this kernel's plain copy. Needs
// halfGemvIsa() != HalfGemvIsa::None (AVX2 + FMA).
void floatGemv(const float *x, std::int64_t m, std::int64_t k, const float *w, std::int64_t n,
               const float *bias, Activation activation, float *y);

} // namespace glosa::engine::ops::detail
