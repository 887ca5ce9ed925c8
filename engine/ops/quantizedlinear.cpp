#include "engine/ops/quantizedlinear.h"

#include "engine/ops/dnnlutil.h"
#include "engine/ops/elementwise.h"
#include "engine/ops/int8gemv.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <vector>

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct QuantizedPrimitive
{
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward prim;
    dnnl::memory weights; // int8 in pd's layout, oneDNN's s8s8 compensation included
};

// The per-call loops around the int8 primitive (each input row's scale and codes, then the
// rescale and bias of each output) run over every activation of every call: at batch 32 they were
// 16% of greedy decoding's time (perf, transformer-en-es), compiled for the x86-64 baseline
// (SSE2, 4 lanes) like the rest of the engine. Cloned for AVX2 and AVX-512 too, the variant picked
// once at load by the CPU (GCC's target_clones, an ifunc). The clones compute the same bits: the
// loops are element-wise (and a max), and the rescale's clones do not enable FMA contraction
// ("avx2" does not imply "fma"). With AVX-512F the rescale is int8gemv.h's rescaleRowAvx512,
// which fuses the bias's multiply-add (as GCC's AVX-512 clone of the loop did), so that oneDNN's
// path and the int8 kernel's store round alike.
// Not under ThreadSanitizer: the dynamic loader runs an ifunc's resolver while it relocates the
// library, before TSan's runtime is up, and TSan instruments the resolver too (every test of
// scripts/test-tsan crashed in __tsan_func_entry before main).
#if defined(__SANITIZE_THREAD__)
#define GLOSA_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GLOSA_TSAN_BUILD 1
#endif
#endif
#ifdef GLOSA_TSAN_BUILD
#define GLOSA_VECTOR_CLONES
#define GLOSA_RESCALE_CLONES
#else
#define GLOSA_VECTOR_CLONES __attribute__((target_clones("default", "avx2", "avx512f")))
#define GLOSA_RESCALE_CLONES __attribute__((target_clones("default", "avx2")))
#endif

// Symmetric int8: scale = max|v| / 127 (1 for an all-zero row, whose codes are all zero anyway).
GLOSA_VECTOR_CLONES float rowScale(const float *v, std::int64_t n)
{
    float amax = 0.0f;
#pragma omp simd reduction(max : amax)
    for (std::int64_t i = 0; i < n; ++i)
        amax = std::max(amax, std::fabs(v[i]));
    return amax > 0.0f ? amax / 127.0f : 1.0f;
}

GLOSA_VECTOR_CLONES void quantizeRow(const float *v, std::int64_t n, float scale, std::int8_t *out)
{
    const float inverse = 1.0f / scale;
    // |v| <= max|v| = 127 · scale, so no clamp is needed; rounding half away from zero.
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i) {
        const float q = v[i] * inverse;
        out[i] = static_cast<std::int8_t>(static_cast<int>(q + (q >= 0.0f ? 0.5f : -0.5f)));
    }
}

// row = row · s (+ bias) without AVX-512F: a multiply, then an add.
GLOSA_RESCALE_CLONES void rescaleRowUnfused(float *row, std::int64_t n, float s, const float *bias)
{
    if (!bias) {
#pragma omp simd
        for (std::int64_t i = 0; i < n; ++i)
            row[i] *= s;
        return;
    }
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i)
        row[i] = row[i] * s + bias[i];
}

// row = row · s (+ bias): the input row's scale (the primitive applied the weights').
void rescaleRow(float *row, std::int64_t n, float s, const float *bias)
{
    static const bool avx512 = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") != 0;
    }();
    if (avx512)
        detail::rescaleRowAvx512(row, n, s, bias);
    else
        rescaleRowUnfused(row, n, s, bias);
}

// Rows rescaled as rescaleRow does, each row's normaliser computed on the way: the row a block
// of kNormBlock floats at a time (16 KB, in L1 while its max is taken), the last block holding
// the rest (kNormBlock to 2 · kNormBlock - 1 floats, or the whole of a shorter row), then the sum
// of exponentials while the row is in L2. Bit for bit the separate passes: rescaleRow is
// element-wise, and each variant splits a call into whole vectors from its start, then a tail of
// fewer than 16 floats; blocks that are multiples of 16 long (the last one at least 16) put every
// float in the same kind of instruction as one call over the row does (rescaleRowAvx512 fuses
// the multiply and the bias add but for 8 outputs of the tail, so the kind matters). The max of
// the blocks' maxima is the row's (rowsoftmax.h).
constexpr std::int64_t kNormBlock = 4096;
static_assert(kNormBlock % 16 == 0);

void rescaleRowsWithNormalizers(float *y, std::int64_t m, std::int64_t n, const float *rowScales,
                                const float *bias, RowNormalizer *normalizers,
                                const std::function<void(std::int64_t)> *rowDone)
{
#pragma omp parallel for schedule(static) if (m > 1 && m * n > (1 << 15))
    for (std::int64_t r = 0; r < m; ++r) {
        float *row = y + r * n;
        float max = -std::numeric_limits<float>::infinity();
        for (std::int64_t begin = 0; begin < n;) {
            const std::int64_t end = n - begin < 2 * kNormBlock ? n : begin + kNormBlock;
            rescaleRow(row + begin, end - begin, rowScales[r], bias ? bias + begin : nullptr);
            max = std::max(max, rowMax(row + begin, end - begin));
            begin = end;
        }
        normalizers[r] = rowNormalizer(row, n, max);
        if (rowDone)
            (*rowDone)(r);
    }
}

// Each row's normaliser from its max taken as the kernel wrote it (int8gemv.h): the exponential
// sum is the one pass over the row left. A max of zero may be the other zero than rowMax's (the
// only way two orders of a max differ): such a row is read again as rowMax reads it.
void normalizersFromMaxima(const float *y, std::int64_t m, std::int64_t n, const float *maxima,
                           RowNormalizer *normalizers,
                           const std::function<void(std::int64_t)> *rowDone)
{
#pragma omp parallel for schedule(static) if (m > 1 && m * n > (1 << 15))
    for (std::int64_t r = 0; r < m; ++r) {
        const float *row = y + r * n;
        normalizers[r] = rowNormalizer(row, n, maxima[r] == 0.0f ? rowMax(row, n) : maxima[r]);
        if (rowDone)
            (*rowDone)(r);
    }
}

// ReLU in the rescale pass's wake; the others (swish, GELU, ...) by oneDNN's eltwise over all of
// y at once: vectorised, and the same kernel as the fp32 Linear's fused post-op. (Applied row by
// row with activationReference's double exp, swish was ~6% of the int8 OPUS-MT shape's decoding
// at batch 32; docs/benchmarks.md.)
void applyActivation(Activation activation, Tensor &y)
{
    if (activation == Activation::None)
        return;
    if (activation == Activation::Relu) {
        float *v = y.data<float>();
        const std::int64_t n = y.numel();
#pragma omp simd
        for (std::int64_t i = 0; i < n; ++i)
            v[i] = v[i] > 0.0f ? v[i] : 0.0f;
        return;
    }
    Elementwise{activation}(y, y);
}

// oneDNN 2.6's int8 1×1 convolution for AVX-512 without VNNI (jit_int8_1x1:avx512_core) returns
// wrong sums, off by orders of magnitude, for an image of width 5 once K reaches 512; widths 1-4
// and 6-300 are right (tst_ops_quantizedlinear rowCountsMatchReference, run under
// ONEDNN_MAX_CPU_ISA=AVX512_CORE on a VNNI machine). Where that kernel runs, five rows run as
// four and one.
bool widthFiveBroken()
{
    static const bool broken = [] {
        const auto allowed = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
        const auto avx512 = static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
        const auto vnni = static_cast<unsigned>(dnnl::cpu_isa::avx512_core_vnni);
        return __builtin_cpu_supports("avx512f") && (allowed & avx512) == avx512 &&
               (allowed & vnni) != vnni;
    }();
    return broken;
}

} // namespace

struct QuantizedLinear::Impl
{
    std::int64_t in = 0;
    std::int64_t out = 0;
    Activation activation = Activation::None;
    std::vector<float> bias;         // [out] or empty
    std::vector<float> weightScales; // [out]
    // The int8 codes [out, in] row-major: the brgemm kernels (AVX-512) pick a blocking that
    // depends on M, and a blocked copy with compensation cannot be reordered into another, so
    // each layout is packed from these (one byte a weight, a quarter of the fp32 weights).
    std::vector<std::int8_t> codes;
    PackedWeights packed; // from the codes, as oiw
    ShapeCache<QuantizedPrimitive> primitives;
    // The codes packed for int8Gemv (calls of at most int8GemvMaxRows() rows: all of them with
    // AVX-512 VNNI), packed at load instead of oneDNN's layout where the kernel runs, so that a
    // layer keeps one packed copy beside its codes.
    mutable std::once_flag gemvPacked;
    mutable detail::Int8GemvWeights gemv;

    const detail::Int8GemvWeights &gemvWeights() const
    {
        std::call_once(gemvPacked, [this] { gemv = detail::packInt8Gemv(codes.data(), out, in); });
        return gemv;
    }

    // int8gemv.h's kernel on the codes of m rows into y [m, out]: the same numbers as the
    // primitive and the rescale pass, faster at every M measured. Its store applies the row
    // scale, the bias and ReLU (and takes each row's max for the normalisers) as it writes y.
    void runKernel(const std::int8_t *x, std::int64_t m, const float *rowScales, Tensor &y,
                   RowNormalizer *normalizers,
                   const std::function<void(std::int64_t)> *rowDone) const
    {
        runtime::stream(); // applies runtime::setNumThreads to this thread's OpenMP
        thread_local std::vector<float> maxima;
        detail::Int8GemvEpilogue epilogue;
        epilogue.rowScales = rowScales;
        epilogue.bias = bias.empty() ? nullptr : bias.data();
        epilogue.relu = activation == Activation::Relu;
        if (normalizers && activation == Activation::None) {
            maxima.resize(static_cast<std::size_t>(m));
            epilogue.rowMax = maxima.data();
        }
        float *ys = y.data<float>();
        detail::int8Gemv(x, m, gemvWeights(), weightScales.data(), ys, epilogue);
        if (epilogue.rowMax) {
            normalizersFromMaxima(ys, m, out, epilogue.rowMax, normalizers, rowDone);
            return;
        }
        if (activation != Activation::Relu)
            applyActivation(activation, y);
        if (normalizers)
            rowNormalizers(ys, m, out, normalizers, rowDone);
    }

    // x [m, in] is one NWC image of width m with `in` channels, y [m, out] likewise.
    dnnl::convolution_forward::primitive_desc makePd(std::int64_t m) const
    {
        using conv = dnnl::convolution_forward;
        const dnnl::memory::desc src({1, in, m}, dt::s8, tag::nwc);
        const dnnl::memory::desc wei({out, in, 1}, dt::s8, tag::any);
        const dnnl::memory::desc dst({1, out, m}, dt::f32, tag::nwc);
        const dnnl::memory::dims stride{1}, padding{0};
        dnnl::primitive_attr attr = makeAttr();
        attr.set_output_scales(1 << 1, weightScales); // per output channel (dst dim 1)
        return {conv::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                           src, wei, dst, stride, padding, padding),
                attr, runtime::engine()};
    }

    std::shared_ptr<const QuantizedPrimitive> primitiveFor(std::int64_t m) const
    {
        return primitives.get({m}, [&] {
            QuantizedPrimitive p{makePd(m), {}, {}};
            p.prim = dnnl::convolution_forward(p.pd);
            p.weights = packed.get(p.pd.weights_desc());
            return p;
        });
    }
};

QuantizedLinear::QuantizedLinear(const Tensor &weight, const Tensor &bias, Activation activation)
{
    requireLinearWeights(weight, bias, "QuantizedLinear");
    auto impl = std::make_shared<Impl>();
    impl->out = weight.dim(0);
    impl->in = weight.dim(1);
    impl->activation = activation;
    if (!bias.empty()) {
        const Tensor b = floatWeights(bias);
        impl->bias.assign(b.data<float>(), b.data<float>() + impl->out);
    }
    const Tensor w = floatWeights(weight);
    std::vector<std::int8_t> &codes = impl->codes;
    codes.resize(static_cast<std::size_t>(impl->out * impl->in));
    impl->weightScales.resize(static_cast<std::size_t>(impl->out));
    for (std::int64_t n = 0; n < impl->out; ++n) {
        const float *row = w.data<float>() + n * impl->in;
        impl->weightScales[n] = rowScale(row, impl->in);
        quantizeRow(row, impl->in, impl->weightScales[n], codes.data() + n * impl->in);
    }
    // Pack now for the kernel that will run (oneDNN's for M = 1, the decoder's case); oneDNN's
    // other layouts when a call of a new M takes oneDNN.
    impl->packed.setSource(dnnl::memory({{impl->out, impl->in, 1}, dt::s8, tag::oiw},
                                        runtime::engine(), codes.data()));
    if (detail::int8GemvMaxRows() > 0)
        impl->gemvWeights();
    else
        impl->packed.get(impl->makePd(1).weights_desc());
    m_impl = std::move(impl);
}

std::int64_t QuantizedLinear::inFeatures() const
{
    return m_impl ? m_impl->in : 0;
}

std::int64_t QuantizedLinear::outFeatures() const
{
    return m_impl ? m_impl->out : 0;
}

Activation QuantizedLinear::activation() const
{
    return m_impl ? m_impl->activation : Activation::None;
}

std::string QuantizedLinear::implementation(std::int64_t rows) const
{
    if (!m_impl)
        return {};
    if (rows <= detail::int8GemvMaxRows())
        return "int8gemv:avx512_vnni";
    return m_impl->primitiveFor(rows)->pd.impl_info_str();
}

void QuantizedLinear::operator()(const Tensor &x, Tensor &y) const
{
    (*this)(x, y, nullptr);
}

void QuantizedLinear::operator()(const Tensor &x, Tensor &y, RowNormalizer *normalizers,
                                 const std::function<void(std::int64_t)> *rowDone) const
{
    if (!m_impl)
        throw std::logic_error("QuantizedLinear: called on an empty (default-constructed) op");
    requireF32(x, "QuantizedLinear", "input");
    const Impl &im = *m_impl;
    if (x.rank() < 1 || x.dim(-1) != im.in)
        throw std::invalid_argument("QuantizedLinear: input " + shapeToString(x.shape()) +
                                    " does not end in in_features " + std::to_string(im.in));
    const std::int64_t m = x.numel() / im.in;
    Shape outShape = x.shape();
    outShape.back() = im.out;
    y.resize(outShape);
    if (m == 0)
        return;
    // Per-row scales and codes; thread-local so that concurrent calls do not share them.
    thread_local std::vector<std::int8_t> codes;
    thread_local std::vector<float> rowScales;
    codes.resize(static_cast<std::size_t>(m * im.in));
    rowScales.resize(static_cast<std::size_t>(m));
    const float *xs = x.data<float>();
    for (std::int64_t r = 0; r < m; ++r) {
        rowScales[r] = rowScale(xs + r * im.in, im.in);
        quantizeRow(xs + r * im.in, im.in, rowScales[r], codes.data() + r * im.in);
    }
    if (m <= detail::int8GemvMaxRows()) {
        im.runKernel(codes.data(), m, rowScales.data(), y, normalizers, rowDone);
        return;
    }
    // Rows [first, first + rows) of x's codes into the same rows of y.
    const Tensor rowsOfY = y.reshaped({m, im.out});
    auto convolve = [&](std::int64_t first, std::int64_t rows) {
        const auto p = im.primitiveFor(rows);
        execute(p->prim, p->pd,
                {{DNNL_ARG_SRC,
                  dnnl::memory(p->pd.src_desc(), runtime::engine(), codes.data() + first * im.in)},
                 {DNNL_ARG_WEIGHTS, p->weights},
                 {DNNL_ARG_DST, wrap(p->pd.dst_desc(), rowsOfY.slice(first, first + rows))}});
    };
    if (m == 5 && widthFiveBroken()) {
        convolve(0, 4);
        convolve(4, 1);
    } else {
        convolve(0, m);
    }
    // The primitive applied s_w; the row scale, the bias and the activation remain.
    float *ys = y.data<float>();
    const float *bias = im.bias.empty() ? nullptr : im.bias.data();
    if (normalizers && im.activation == Activation::None) {
        rescaleRowsWithNormalizers(ys, m, im.out, rowScales.data(), bias, normalizers, rowDone);
        return;
    }
    for (std::int64_t r = 0; r < m; ++r)
        rescaleRow(ys + r * im.out, im.out, rowScales[r], bias);
    applyActivation(im.activation, y);
    if (normalizers)
        rowNormalizers(ys, m, im.out, normalizers, rowDone);
}

} // namespace glosa::engine::ops
