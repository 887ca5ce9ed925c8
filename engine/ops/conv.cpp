#include "engine/ops/conv.h"

#include "engine/ops/dnnlutil.h"

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct ConvPrimitive
{
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward prim;
    dnnl::memory weights; // packed in pd.weights_desc()
};

struct PoolPrimitive
{
    dnnl::pooling_forward::primitive_desc pd;
    dnnl::pooling_forward prim;
};

tag activationTag(Layout layout)
{
    return layout == Layout::NHWC ? tag::nhwc : tag::nchw;
}

// {N, C, H, W} of a tensor in `layout`.
dnnl::memory::dims logicalDims(const Shape &s, Layout layout)
{
    return layout == Layout::NHWC ? dnnl::memory::dims{s[0], s[3], s[1], s[2]}
                                  : dnnl::memory::dims{s[0], s[1], s[2], s[3]};
}

Shape physicalShape(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, Layout layout)
{
    return layout == Layout::NHWC ? Shape{n, h, w, c} : Shape{n, c, h, w};
}

const char *layoutName(Layout layout)
{
    return layout == Layout::NHWC ? "NHWC" : "NCHW";
}

std::int64_t outputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                        std::int64_t dilation, std::int64_t padBefore, std::int64_t padAfter)
{
    const std::int64_t span = (kernel - 1) * dilation + 1;
    const std::int64_t padded = in + padBefore + padAfter;
    return padded < span ? -1 : (padded - span) / stride + 1;
}

} // namespace

struct Conv2d::Impl
{
    Conv2dParams params;
    std::int64_t out = 0, inPerGroup = 0, kh = 0, kw = 0;
    Tensor weight; // [out, in/groups, kh, kw] F32, plain, source of every packed copy
    Tensor bias;   // [out] F32 or empty
    mutable std::mutex packedMutex;
    mutable std::vector<dnnl::memory> packed;
    ShapeCache<ConvPrimitive> primitives;

    dnnl::memory::desc plainWeightsDesc() const
    {
        const std::int64_t g = params.groups;
        if (g == 1)
            return {{out, inPerGroup, kh, kw}, dt::f32, tag::oihw};
        return {{g, out / g, inPerGroup, kh, kw}, dt::f32, tag::goihw};
    }

    dnnl::memory packedFor(const dnnl::memory::desc &layout) const
    {
        std::lock_guard lock(packedMutex);
        for (const dnnl::memory &m : packed)
            if (m.get_desc() == layout)
                return m;
        dnnl::memory plain(plainWeightsDesc(), runtime::engine(), const_cast<void *>(weight.raw()));
        dnnl::memory converted(layout, runtime::engine());
        dnnl::reorder(plain, converted).execute(runtime::stream(), plain, converted);
        runtime::stream().wait();
        packed.push_back(converted);
        return converted;
    }
};

Conv2d::Conv2d(const Tensor &weight, const Tensor &bias, const Conv2dParams &params)
{
    requireRank(weight, 4, "Conv2d", "weight [out, in/groups, kh, kw]");
    auto impl = std::make_shared<Impl>();
    impl->params = params;
    impl->out = weight.dim(0);
    impl->inPerGroup = weight.dim(1);
    impl->kh = weight.dim(2);
    impl->kw = weight.dim(3);
    const auto &p = params;
    if (p.groups < 1 || impl->out % p.groups != 0 || weight.numel() == 0)
        throw std::invalid_argument("Conv2d: weight " + shapeToString(weight.shape()) +
                                    " does not fit groups " + std::to_string(p.groups));
    if (p.strideH < 1 || p.strideW < 1 || p.dilationH < 1 || p.dilationW < 1 || p.padTop < 0 ||
        p.padLeft < 0 || p.padBottom < 0 || p.padRight < 0)
        throw std::invalid_argument(
            "Conv2d: stride " + std::to_string(p.strideH) + "x" + std::to_string(p.strideW) +
            ", dilation " + std::to_string(p.dilationH) + "x" + std::to_string(p.dilationW) +
            " must be >= 1 and pads (" + std::to_string(p.padTop) + ", " +
            std::to_string(p.padLeft) + ", " + std::to_string(p.padBottom) + ", " +
            std::to_string(p.padRight) + ") >= 0");
    if (!bias.empty() && bias.shape() != Shape{impl->out})
        throw std::invalid_argument("Conv2d: bias " + shapeToString(bias.shape()) +
                                    " does not match weight " + shapeToString(weight.shape()));
    impl->weight = floatWeights(weight);
    if (!bias.empty())
        impl->bias = floatWeights(bias);
    m_impl = std::move(impl);
}

const Conv2dParams &Conv2d::params() const
{
    if (!m_impl)
        throw std::logic_error("Conv2d: empty (default-constructed) op");
    return m_impl->params;
}

std::int64_t Conv2d::inChannels() const
{
    return m_impl ? m_impl->inPerGroup * m_impl->params.groups : 0;
}

std::int64_t Conv2d::outChannels() const
{
    return m_impl ? m_impl->out : 0;
}

Shape Conv2d::outputShape(const Shape &input) const
{
    const Conv2dParams &p = params();
    const std::int64_t c = input.size() == 4 ? logicalDims(input, p.layout)[1] : -1;
    if (input.size() != 4 || c != inChannels())
        throw std::invalid_argument(std::string("Conv2d: input ") + shapeToString(input) +
                                    " is not " + layoutName(p.layout) + " with " +
                                    std::to_string(inChannels()) + " channels");
    const auto d = logicalDims(input, p.layout);
    const std::int64_t oh =
        outputSize(d[2], m_impl->kh, p.strideH, p.dilationH, p.padTop, p.padBottom);
    const std::int64_t ow =
        outputSize(d[3], m_impl->kw, p.strideW, p.dilationW, p.padLeft, p.padRight);
    if (oh < 1 || ow < 1)
        throw std::invalid_argument("Conv2d: input " + shapeToString(input) +
                                    " is smaller than the " + std::to_string(m_impl->kh) + "x" +
                                    std::to_string(m_impl->kw) + " kernel after padding");
    return physicalShape(d[0], m_impl->out, oh, ow, p.layout);
}

void Conv2d::operator()(const Tensor &x, Tensor &y) const
{
    if (!m_impl)
        throw std::logic_error("Conv2d: called on an empty (default-constructed) op");
    requireF32(x, "Conv2d", "input");
    const Shape outShape = outputShape(x.shape());
    if (y.raw() == x.raw())
        y = Tensor(); // a convolution cannot run in place
    y.resize(outShape);
    const Impl &impl = *m_impl;
    const auto p = impl.primitives.get(x.shape(), [&] {
        const Conv2dParams &cp = impl.params;
        const tag t = activationTag(cp.layout);
        const dnnl::memory::desc src(logicalDims(x.shape(), cp.layout), dt::f32, t);
        const dnnl::memory::desc dst(logicalDims(outShape, cp.layout), dt::f32, t);
        dnnl::memory::dims wDims = impl.plainWeightsDesc().dims();
        const dnnl::memory::desc weights(wDims, dt::f32, tag::any);
        const dnnl::memory::dims strides{cp.strideH, cp.strideW};
        const dnnl::memory::dims dilates{cp.dilationH - 1, cp.dilationW - 1}; // 0 = dense
        const dnnl::memory::dims padL{cp.padTop, cp.padLeft}, padR{cp.padBottom, cp.padRight};
        const auto prop = dnnl::prop_kind::forward_inference;
        const auto alg = dnnl::algorithm::convolution_direct;
        const auto desc = impl.bias.empty()
                              ? dnnl::convolution_forward::desc(prop, alg, src, weights, dst,
                                                                strides, dilates, padL, padR)
                              : dnnl::convolution_forward::desc(prop, alg, src, weights,
                                                                {{impl.out}, dt::f32, tag::a}, dst,
                                                                strides, dilates, padL, padR);
        dnnl::convolution_forward::primitive_desc pd(desc, makeAttr(cp.activation),
                                                     runtime::engine());
        return ConvPrimitive{pd, dnnl::convolution_forward(pd), impl.packedFor(pd.weights_desc())};
    });
    std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, wrap(p->pd.src_desc(), x)},
                                               {DNNL_ARG_WEIGHTS, p->weights},
                                               {DNNL_ARG_DST, wrap(p->pd.dst_desc(), y)}};
    if (!impl.bias.empty())
        args.emplace(DNNL_ARG_BIAS, wrap(p->pd.bias_desc(), impl.bias));
    execute(p->prim, p->pd, std::move(args));
}

AvgPool2d::AvgPool2d(const Pool2dParams &params) : m_params(params)
{
    const auto &p = params;
    if (p.kernelH < 1 || p.kernelW < 1 || p.strideH < 1 || p.strideW < 1 || p.padTop < 0 ||
        p.padLeft < 0 || p.padBottom < 0 || p.padRight < 0)
        throw std::invalid_argument("AvgPool2d: kernel " + std::to_string(p.kernelH) + "x" +
                                    std::to_string(p.kernelW) + ", stride " +
                                    std::to_string(p.strideH) + "x" + std::to_string(p.strideW) +
                                    " must be >= 1 and pads >= 0");
}

Shape AvgPool2d::outputShape(const Shape &input) const
{
    const auto &p = m_params;
    if (input.size() != 4)
        throw std::invalid_argument(std::string("AvgPool2d: input ") + shapeToString(input) +
                                    " is not " + layoutName(p.layout));
    const auto d = logicalDims(input, p.layout);
    const std::int64_t oh = outputSize(d[2], p.kernelH, p.strideH, 1, p.padTop, p.padBottom);
    const std::int64_t ow = outputSize(d[3], p.kernelW, p.strideW, 1, p.padLeft, p.padRight);
    if (oh < 1 || ow < 1)
        throw std::invalid_argument("AvgPool2d: input " + shapeToString(input) +
                                    " is smaller than the " + std::to_string(p.kernelH) + "x" +
                                    std::to_string(p.kernelW) + " window");
    return physicalShape(d[0], d[1], oh, ow, p.layout);
}

void AvgPool2d::operator()(const Tensor &x, Tensor &y) const
{
    requireF32(x, "AvgPool2d", "input");
    const Shape outShape = outputShape(x.shape());
    if (y.raw() == x.raw())
        y = Tensor();
    y.resize(outShape);
    static ShapeCache<PoolPrimitive> cache(256);
    const auto &pp = m_params;
    ShapeCache<PoolPrimitive>::Key key = x.shape();
    key.insert(key.end(),
               {pp.kernelH, pp.kernelW, pp.strideH, pp.strideW, pp.padTop, pp.padLeft, pp.padBottom,
                pp.padRight, pp.countIncludePad, static_cast<std::int64_t>(pp.layout)});
    const auto p = cache.get(key, [&] {
        const tag t = activationTag(pp.layout);
        const dnnl::memory::desc src(logicalDims(x.shape(), pp.layout), dt::f32, t);
        const dnnl::memory::desc dst(logicalDims(outShape, pp.layout), dt::f32, t);
        const auto alg = pp.countIncludePad ? dnnl::algorithm::pooling_avg_include_padding
                                            : dnnl::algorithm::pooling_avg_exclude_padding;
        dnnl::pooling_forward::primitive_desc pd(
            dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference, alg, src, dst,
                                        {pp.strideH, pp.strideW}, {pp.kernelH, pp.kernelW},
                                        {pp.padTop, pp.padLeft}, {pp.padBottom, pp.padRight}),
            makeAttr(), runtime::engine());
        return PoolPrimitive{pd, dnnl::pooling_forward(pd)};
    });
    execute(p->prim, p->pd,
            {{DNNL_ARG_SRC, wrap(p->pd.src_desc(), x)}, {DNNL_ARG_DST, wrap(p->pd.dst_desc(), y)}});
}

namespace {

Tensor transpose4(const Tensor &x, bool toNhwc)
{
    requireF32(x, toNhwc ? "nchwToNhwc" : "nhwcToNchw", "input");
    requireRank(x, 4, toNhwc ? "nchwToNhwc" : "nhwcToNchw", "input");
    // Name the dims as NCHW whichever way we go.
    const std::int64_t n = x.dim(0);
    const std::int64_t c = toNhwc ? x.dim(1) : x.dim(3);
    const std::int64_t h = toNhwc ? x.dim(2) : x.dim(1);
    const std::int64_t w = toNhwc ? x.dim(3) : x.dim(2);
    Tensor out(toNhwc ? Shape{n, h, w, c} : Shape{n, c, h, w});
    const float *src = x.data<float>();
    float *dst = out.data<float>();
    for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t ci = 0; ci < c; ++ci)
            for (std::int64_t hw = 0; hw < h * w; ++hw) {
                const std::int64_t nchw = (b * c + ci) * h * w + hw;
                const std::int64_t nhwc = (b * h * w + hw) * c + ci;
                if (toNhwc)
                    dst[nhwc] = src[nchw];
                else
                    dst[nchw] = src[nhwc];
            }
    return out;
}

} // namespace

Tensor nchwToNhwc(const Tensor &x)
{
    return transpose4(x, true);
}
Tensor nhwcToNchw(const Tensor &x)
{
    return transpose4(x, false);
}

} // namespace glosa::engine::ops
