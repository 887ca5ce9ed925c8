// int8Gemv: the int32 products of int8 rows with int8 weights, scaled per output channel, as
// oneDNN's int8 convolution computes them for QuantizedLinear (quantizedlinear.h): internal to
// it, which uses it for calls of at most int8GemvMaxRows() rows.
//
//     y[i, j] = float(Σ_c x[i, c] · W[j, c]) · scales[j]     (x, W int8; the sum exact in int32)
//
// Why: at batch 1 a step multiplies one row by every weight of the decoder and the 65,001-wide
// output layer (55 MB of int8 on the OPUS-MT shape), so it is bound by the bytes it reads; oneDNN's
// 1x1 convolution also pays its per-call cost (primitive lookup, memory objects) 37 times a step.
// At batch 32 (and beam 4: 128 rows) oneDNN 2.6's int8 kernels for these shapes reach a fraction
// of the core's vpdpbusd peak (docs/benchmarks.md, "Fourth round"). This kernel reads the weights
// from a copy packed for AVX-512 VNNI (vpdpbusd: 4 u8 × s8 products summed into each of 16 int32
// lanes): panels of 64 output channels, each a single stream of [K / 4][4 blocks of 16
// channels][4 input channels] bytes. A panel (64·K bytes: 32 KB at K = 512; with many rows a
// chunk of panels up to 512 KB) stays in L1 or L2 while every tile of up to 6 rows passes over
// it and the next streams in, each tile holding its 6 × 64 sums in 24 registers for all of K.
// vpdpbusd wants the activations unsigned, so they enter as x + 128 (a flip of the sign bit) and
// 128 · Σ_c W[j, c] is subtracted from each sum, as oneDNN's s8s8 compensation does: the int32 sums
// are exact either way, and the scale is applied as oneDNN applies it (one fp32 multiply after the
// conversion), so the results are oneDNN's bit for bit (tst_ops_quantizedlinear checks it for every
// row count it runs).
//
// The store can also finish QuantizedLinear's arithmetic (Int8GemvEpilogue below: the input
// row's scale, the bias, ReLU, each row's max), which was a second pass over y.
//
// Only with AVX-512 VNNI (where oneDNN's own int8 kernels use it too: without VNNI oneDNN halves
// the weights to 7 bits, which this kernel would not reproduce).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace glosa::engine::ops::detail {

// Up to how many rows the kernel runs here: every call with AVX-512 VNNI that oneDNN may use
// (ONEDNN_MAX_CPU_ISA), else 0 (no kernel).
std::int64_t int8GemvMaxRows();
// For tests and benchmarks: int8GemvMaxRows() reports at most `rows` from now on (0: every call
// takes oneDNN), or what the CPU allows again with -1. Process-wide; not to be changed while
// calls run.
void limitInt8GemvRows(std::int64_t rows);

// Storage on 64-byte boundaries: the kernel's 64-byte loads then never straddle two cache lines.
template <typename T> struct CacheLineAllocator
{
    using value_type = T;
    CacheLineAllocator() = default;
    template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}
    T *allocate(std::size_t n)
    {
        return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(64)));
    }
    void deallocate(T *p, std::size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <typename U> bool operator==(const CacheLineAllocator<U> &) const { return true; }
};

// The weights as the kernel reads them: [ceil(n / 64)][ceil(k / 4)][4][16][4] bytes (zeros past
// n and k), and per channel 128 · Σ_c W[j, c].
struct Int8GemvWeights
{
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::vector<std::int8_t, CacheLineAllocator<std::int8_t>> packed;
    std::vector<std::int32_t> compensation; // [ceil(n / 64) · 64]
};
// codes [n, k] row-major.
Int8GemvWeights packInt8Gemv(const std::int8_t *codes, std::int64_t n, std::int64_t k);

// What the store does to each output after the weight scale, as the registers leave for y: the
// rest of QuantizedLinear's arithmetic, which was a second pass over y (at 32 × 65,001, 8 MB read
// and written again from L3). With rowScales null, y is the formula above and nothing else
// applies. Otherwise, per output, in this order and with these roundings (those GCC's AVX-512
// clone of the rescale loop had, kept so that no output bit changed; rescaleRowAvx512 below
// gives oneDNN's path the same):
//     v = float(sum) · scales[j]                      (rounded, as above)
//     v = v · rowScales[i]                             without bias
//     v = fma(v, rowScales[i], bias[j])                with bias, one rounding, except
//     v = (v · rowScales[i]) + bias[j]                 (two roundings) at the 8 channels from
//                                                      n - n % 16 when n % 16 >= 8 (where the
//                                                      vectoriser had put an 8-wide step between
//                                                      its 16-wide loop and its fused scalar tail)
//     v = max(v, 0)                                    with relu (NaN and -0 become +0)
// and with rowMax, the largest v of each row (NaN skipped), taken across panels and threads.
struct Int8GemvEpilogue
{
    const float *rowScales = nullptr; // [m]: each input row's scale, or null (no epilogue)
    const float *bias = nullptr;      // [n] or null
    bool relu = false;
    // [m] or null. Only a maximum of zero may come out as the other zero than a pass over the
    // row in order would give (rowsoftmax.h's rowMax); -inf for a row of -inf and NaN.
    float *rowMax = nullptr;
};

// row[j] = row[j] · s (+ bias[j]) with the epilogue's roundings above (n = the row's length):
// QuantizedLinear's rescale of oneDNN's output on CPUs with AVX-512F, so that both paths round
// alike whichever compiler built them (left to the vectoriser, the split comes and goes).
void rescaleRowAvx512(float *row, std::int64_t n, float s, const float *bias);

// x [m, k] int8 row-major, scales [n], y [m, n] F32. Needs int8GemvMaxRows() > 0; any m. Runs on
// OpenMP threads (over panels of output channels) when the weights are large enough to pay for
// them.
void int8Gemv(const std::int8_t *x, std::int64_t m, const Int8GemvWeights &w, const float *scales,
              float *y, const Int8GemvEpilogue &epilogue = {});

} // namespace glosa::engine::ops::detail
