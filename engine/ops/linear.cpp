#include "engine/ops/linear.h"

#include "engine/ops/dnnlutil.h"
#include "engine/ops/elementwise.h"
#include "engine/ops/floatgemm.h"
#include "engine/ops/halfgemv.h"
#include "engine/ops/quantizedlinear.h"
#include "engine/ops/rowsoftmax.h"

#include <mutex>
#include <vector>

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct LinearPrimitive
{
    dnnl::primitive_desc_base pd; // a matmul's or a convolution's
    dnnl::primitive prim;
    dnnl::memory weights; // packed in pd.weights_desc(0)
};

bool isPlain(const dnnl::memory::desc &weights, std::int64_t in, std::int64_t out)
{
    return weights == dnnl::memory::desc({in, out}, dt::f32, tag::ab) ||
           weights == dnnl::memory::desc({in, out}, dt::f32, tag::ba);
}

} // namespace

struct Linear::Impl
{
    std::int64_t in = 0;
    std::int64_t out = 0;
    Activation activation = Activation::None;
    Kernel kernel = Kernel::Matmul;
    Tensor bias; // [1, out] F32, or empty
    // The fp32 weights packed for floatGemm (floatgemm.h), where Kernel::Auto finds it at
    // construction: then the layer's one fp32 copy, the kernel serving every call of up to
    // floatGemmMaxRows() rows (all of them: 1.2-1.5x oneDNN's brgemm on the decoder's shapes
    // at 32 rows, level or faster at the other row counts measured; docs/benchmarks.md, "Fifth
    // round"). Else empty.
    detail::FloatGemmWeights gemm;
    // The weights packed for a oneDNN primitive: at construction for M = 1 where floatGemm does
    // not run, and any other layout a primitive asks for (in practice the layout depends on K
    // and N only, so there is one); the plain weights are not kept. Where floatGemm runs, packed
    // from its panels only when a call takes oneDNN (limitFloatGemmRows, for tests and
    // benchmarks).
    mutable PackedWeights packed;
    mutable std::once_flag packedFromGemm;
    ShapeCache<LinearPrimitive> primitives;
    // The weights as fp16 [out, in] row-major, kept when they came as F16 and the CPU has
    // AVX2/FMA/F16C: for M <= halfGemvMaxRows() (a decoder step at batch 1) the product reads
    // every weight once for one to four rows, so it is bound by the bytes read, and halfGemv
    // reads half of them (halfgemv.h; the products are exact, fp16 -> fp32 being exact). The
    // packed fp32 copy stays for larger M: +50% memory for these layers (2 bytes a weight on
    // top of 4; +12 MB peak for transformer-en-es), accepted for ~1.9x faster greedy decoding
    // at batch 1, 1.3x beam 4 (docs/benchmarks.md, "fp16 weights at small M").
    Tensor half;
    // The same for weights that came as F32 (a package imported with --float32) where floatGemm
    // does not run (no AVX-512): a plain fp32 copy [out, in] read by floatGemv at
    // M <= halfGemvMaxRows(). oneDNN 2.6's brgemm read fp32 weights at one row slower than ONNX
    // Runtime's MLAS on the OPUS-MT shape, so the copy (+100% memory for these layers) buys the
    // fp32 decoder step at batch 1 (docs/benchmarks.md, "Imported models at small M").
    Tensor plain;

    dnnl::matmul::primitive_desc makeMatmulPd(std::int64_t m) const
    {
        const dnnl::memory::desc src({m, in}, dt::f32, tag::ab);
        const dnnl::memory::desc weights({in, out}, dt::f32, tag::any);
        const dnnl::memory::desc dst({m, out}, dt::f32, tag::ab);
        const dnnl::primitive_attr attr = makeAttr(activation);
        if (bias.empty())
            return {dnnl::matmul::desc(src, weights, dst), attr, runtime::engine()};
        const dnnl::memory::desc biasMd({1, out}, dt::f32, tag::ab);
        return {dnnl::matmul::desc(src, weights, biasMd, dst), attr, runtime::engine()};
    }

    // x [m, in] is one NWC image of width m with `in` channels, y [m, out] likewise.
    dnnl::convolution_forward::primitive_desc makeConvolutionPd(std::int64_t m) const
    {
        using conv = dnnl::convolution_forward;
        const dnnl::memory::desc src({1, in, m}, dt::f32, tag::nwc);
        const dnnl::memory::desc weights({out, in, 1}, dt::f32, tag::any);
        const dnnl::memory::desc dst({1, out, m}, dt::f32, tag::nwc);
        const dnnl::memory::dims stride{1}, padding{0};
        const auto prop = dnnl::prop_kind::forward_inference;
        const auto alg = dnnl::algorithm::convolution_direct;
        const dnnl::primitive_attr attr = makeAttr(activation);
        if (bias.empty())
            return {conv::desc(prop, alg, src, weights, dst, stride, padding, padding), attr,
                    runtime::engine()};
        const dnnl::memory::desc biasMd({out}, dt::f32, tag::x);
        return {conv::desc(prop, alg, src, weights, biasMd, dst, stride, padding, padding), attr,
                runtime::engine()};
    }

    // The weights [out, in] row-major, as the chosen primitive names them.
    dnnl::memory::desc plainWeights() const
    {
        return kernel == Kernel::Matmul ? dnnl::memory::desc({in, out}, dt::f32, tag::ba)
                                        : dnnl::memory::desc({out, in, 1}, dt::f32, tag::oiw);
    }

    std::shared_ptr<const LinearPrimitive> primitiveFor(std::int64_t m) const
    {
        return primitives.get({m}, [&] {
            LinearPrimitive p;
            if (kernel == Kernel::Matmul) {
                const auto pd = makeMatmulPd(m);
                p.pd = pd;
                p.prim = dnnl::matmul(pd);
            } else {
                const auto pd = makeConvolutionPd(m);
                p.pd = pd;
                p.prim = dnnl::convolution_forward(pd);
            }
            p.weights = packedWeights(p.pd.weights_desc(0));
            return p;
        });
    }

    // The fp32 weights [out, in] reordered into `layout`.
    dnnl::memory pack(const Tensor &w, const dnnl::memory::desc &layout) const
    {
        dnnl::memory plain(plainWeights(), runtime::engine(), const_cast<void *>(w.raw()));
        dnnl::memory converted(layout, runtime::engine());
        dnnl::reorder(plain, converted).execute(runtime::stream(), plain, converted);
        runtime::stream().wait();
        return converted;
    }

    dnnl::memory packedWeights(const dnnl::memory::desc &layout) const
    {
        if (!gemm.packed.empty())
            std::call_once(packedFromGemm, [&] {
                Tensor w({out, in});
                unpackFloatGemm(gemm, w.data<float>());
                packed.setSource(pack(w, layout));
            });
        return packed.get(layout);
    }
};

Linear::Linear(const Tensor &weight, const Tensor &bias, Activation activation, Kernel kernel)
{
    requireLinearWeights(weight, bias, "Linear");
    auto impl = std::make_shared<Impl>();
    impl->out = weight.dim(0);
    impl->in = weight.dim(1);
    impl->activation = activation;
    if (!bias.empty())
        impl->bias = floatWeights(bias).clone().reshaped({1, impl->out});
    // Pack once for M = 1 (the decoder's common case); other M reuse this layout. A matmul that
    // asks for plain weights will not prepack them (gemm:jit, below AVX-512): Auto then takes the
    // 1×1 convolution, whose kernels work on blocked weights (see linear.h).
    dnnl::memory::desc layout = impl->makeMatmulPd(1).weights_desc();
    impl->kernel = kernel != Kernel::Auto                 ? kernel
                   : isPlain(layout, impl->in, impl->out) ? Kernel::Convolution
                                                          : Kernel::Matmul;
    if (impl->kernel == Kernel::Convolution)
        layout = impl->makeConvolutionPd(1).weights_desc();
    const Tensor w = floatWeights(weight);
    // One fp32 copy: floatGemm's panels where it runs (Auto only: an explicit kernel is oneDNN's,
    // for tests and benchmarks), else oneDNN's layout.
    if (kernel == Kernel::Auto && floatGemmMaxRows() > 0)
        impl->gemm = packFloatGemm(w.data<float>(), impl->out, impl->in);
    else
        impl->packed.setSource(impl->pack(w, layout));
    if (weight.dtype() == DType::F16 && halfGemvMaxRows() > 0)
        impl->half = weight.clone(); // own aligned storage: `weight` may view a mapped file
    else if (weight.dtype() == DType::F32 && halfGemvMaxRows() > 0 && impl->gemm.packed.empty())
        impl->plain = weight.clone();
    m_impl = std::move(impl);
}

Linear Linear::withPrecision(bool int8, const Tensor &weight, const Tensor &bias,
                             Activation activation)
{
    if (!int8)
        return Linear(weight, bias, activation);
    Linear linear;
    linear.m_int8 = std::make_shared<const QuantizedLinear>(weight, bias, activation);
    return linear;
}

bool Linear::int8() const
{
    return m_int8 != nullptr;
}
std::int64_t Linear::inFeatures() const
{
    return m_int8 ? m_int8->inFeatures() : m_impl ? m_impl->in : 0;
}
std::int64_t Linear::outFeatures() const
{
    return m_int8 ? m_int8->outFeatures() : m_impl ? m_impl->out : 0;
}
Activation Linear::activation() const
{
    return m_int8 ? m_int8->activation() : m_impl ? m_impl->activation : Activation::None;
}
std::int64_t Linear::halfWeightsMaxRows()
{
    return halfGemvMaxRows();
}
bool Linear::halfWeights() const
{
    return m_impl && !m_impl->half.empty();
}
bool Linear::plainWeights() const
{
    return m_impl && !m_impl->plain.empty();
}
std::string Linear::implementation(std::int64_t rows) const
{
    if (m_int8)
        return m_int8->implementation(rows);
    if (!m_impl)
        return {};
    const bool wide = halfGemvIsa() == HalfGemvIsa::Avx512;
    if (rows <= halfGemvMaxRows() && !m_impl->half.empty())
        return wide ? "halfgemv:avx512" : "halfgemv:avx2";
    if (rows <= halfGemvMaxRows() && !m_impl->plain.empty())
        return wide ? "floatgemv:avx512" : "floatgemv:avx2";
    if (rows <= floatGemmMaxRows() && !m_impl->gemm.packed.empty())
        return "floatgemm:avx512";
    return m_impl->primitiveFor(rows)->pd.impl_info_str();
}

Linear::Kernel Linear::kernel() const
{
    return m_int8 ? Kernel::Convolution : m_impl ? m_impl->kernel : Kernel::Auto;
}

void Linear::operator()(const Tensor &x, Tensor &y, RowNormalizer *normalizers,
                        const std::function<void(std::int64_t)> *rowDone) const
{
    if (m_int8) {
        (*m_int8)(x, y, normalizers, rowDone);
        return;
    }
    (*this)(x, y);
    const std::int64_t n = y.rank() ? y.dim(-1) : 0;
    if (n > 0)
        rowNormalizers(y.data<float>(), y.numel() / n, n, normalizers, rowDone);
}

void Linear::operator()(const Tensor &x, Tensor &y) const
{
    if (m_int8) {
        (*m_int8)(x, y);
        return;
    }
    if (!m_impl)
        throw std::logic_error("Linear: called on an empty (default-constructed) op");
    requireF32(x, "Linear", "input");
    if (x.rank() < 1 || x.dim(-1) != m_impl->in)
        throw std::invalid_argument("Linear: input " + shapeToString(x.shape()) +
                                    " does not end in in_features " + std::to_string(m_impl->in));
    const std::int64_t m = x.numel() / m_impl->in;
    Shape outShape = x.shape();
    outShape.back() = m_impl->out;
    y.resize(outShape);
    if (m == 0)
        return;
    const bool small = m <= halfGemvMaxRows();
    if (small && !(m_impl->half.empty() && m_impl->plain.empty())) {
        runtime::stream(); // applies runtime::setNumThreads to this thread's OpenMP
        // The kernels' epilogue applies ReLU in place; other activations go to oneDNN's eltwise
        // (vectorised, the fused post-op of the larger M) rather than a scalar loop.
        const Activation act = m_impl->activation;
        const bool fused = act == Activation::None || act == Activation::Relu;
        const float *bias = m_impl->bias.empty() ? nullptr : m_impl->bias.data<float>();
        if (!m_impl->half.empty())
            halfGemv(x.data<float>(), m, m_impl->in, m_impl->half.data<std::uint16_t>(),
                     m_impl->out, bias, fused ? act : Activation::None, y.data<float>());
        else
            floatGemv(x.data<float>(), m, m_impl->in, m_impl->plain.data<float>(), m_impl->out,
                      bias, fused ? act : Activation::None, y.data<float>());
        if (!fused)
            Elementwise{act}(y, y);
        return;
    }
    if (!m_impl->gemm.packed.empty() && m <= floatGemmMaxRows()) {
        runtime::stream(); // applies runtime::setNumThreads to this thread's OpenMP
        // ReLU in the kernel's store; the others by oneDNN's eltwise over y (vectorised, the
        // same kernel as oneDNN's fused post-op).
        const Activation act = m_impl->activation;
        floatGemm(x.data<float>(), m, m_impl->gemm,
                  m_impl->bias.empty() ? nullptr : m_impl->bias.data<float>(),
                  act == Activation::Relu, y.data<float>());
        if (act != Activation::None && act != Activation::Relu)
            Elementwise{act}(y, y);
        return;
    }
    const auto p = m_impl->primitiveFor(m);
    std::unordered_map<int, dnnl::memory> args{
        {DNNL_ARG_SRC, wrap(p->pd.src_desc(0), x)},
        {DNNL_ARG_WEIGHTS, p->weights},
        {DNNL_ARG_DST, wrap(p->pd.dst_desc(0), y)},
    };
    if (!m_impl->bias.empty())
        args.emplace(DNNL_ARG_BIAS, wrap(p->pd.weights_desc(1), m_impl->bias));
    execute(p->prim, p->pd, std::move(args));
}

} // namespace glosa::engine::ops
