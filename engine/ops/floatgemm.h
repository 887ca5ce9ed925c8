// floatGemm: y = act(x · Wᵀ + b) in fp32 for any number of rows, on weights packed for AVX-512F.
// Internal to ops::Linear (linear.h), which runs it instead of oneDNN's fp32 matmul wherever
// floatGemmMaxRows() allows.
//
// Why: a decoder step at batch 32 (greedy: 32 rows; beam 4: 128) on an imported OPUS-MT model
// reads 221 MB of fp32 weights, far more than the caches keep between two steps, and oneDNN
// 2.6's brgemm matmul does not prefetch the next block of weights: on the decoder's shapes with
// weights from L3 it reaches about half of the core's fp32 peak, against 72–88% on hot weights
// (docs/benchmarks.md, "Fifth round"). This kernel reads the weights from panels of 64 output
// channels, each one stream of [K][64] floats on 64-byte boundaries (a k step: four zmm of
// weights). A tile of up to 6 rows keeps its 6 × 64 sums in 24 registers for all of K, each x
// broadcast once a k step; a panel (256·K bytes: 128 KB at K = 512), or with many rows a chunk of
// panels up to 512 KB, stays in L2 while every tile passes over it, and the first tiles bring the
// next chunk into L2 meanwhile (the int8 kernel's scheme, int8gemv.h).
//
// The products are the same fp32 products; each sum runs over k in order, one FMA a term, then
// the bias is added: the result differs from oneDNN's only where its order of summation does.
//
// Only with AVX-512F that oneDNN may use too (ONEDNN_MAX_CPU_ISA): elsewhere Linear keeps
// oneDNN's kernels.
#pragma once

#include "engine/ops/activation.h"
#include "engine/ops/int8gemv.h" // CacheLineAllocator

#include <cstdint>
#include <vector>

namespace glosa::engine::ops::detail {

// Up to how many rows the kernel runs here: every call where the CPU has AVX-512F and oneDNN may
// use AVX-512, else 0 (no kernel).
std::int64_t floatGemmMaxRows();
// For tests and benchmarks: floatGemmMaxRows() reports at most `rows` from now on (0: every
// call takes oneDNN), or what the CPU allows again with -1. Process-wide; not to be changed
// while calls run.
void limitFloatGemmRows(std::int64_t rows);

// The weights as the kernel reads them: [ceil(n / 64)][k][64] floats, zeros past n.
struct FloatGemmWeights
{
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::vector<float, CacheLineAllocator<float>> packed;
};
// w [n, k] row-major.
FloatGemmWeights packFloatGemm(const float *w, std::int64_t n, std::int64_t k);
// The weights back as [n, k] row-major (for a oneDNN copy when a call takes oneDNN instead).
void unpackFloatGemm(const FloatGemmWeights &w, float *out);

// x [m, k] F32 row-major, bias [n] or nullptr, y [m, n]. `relu`: max(·, 0) after the bias (the
// other activations are left to the caller). Needs floatGemmMaxRows() > 0; any m. Runs on
// OpenMP threads (over chunks of panels) when the weights are large enough to pay for them.
void floatGemm(const float *x, std::int64_t m, const FloatGemmWeights &w, const float *bias,
               bool relu, float *y);

} // namespace glosa::engine::ops::detail
