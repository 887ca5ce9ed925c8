#include "engine/ops/linear.h"

#include "engine/ops/dnnlutil.h"

#include <vector>

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct LinearPrimitive
{
    dnnl::matmul::primitive_desc pd;
    dnnl::matmul prim;
    dnnl::memory weights; // packed in pd.weights_desc()
};

} // namespace

struct Linear::Impl
{
    std::int64_t in = 0;
    std::int64_t out = 0;
    Activation activation = Activation::None;
    Tensor bias; // [1, out] F32, or empty
    // Packed copies of the weights, one per distinct layout a primitive asked for (in practice
    // the brgemm layout depends on K and N only, so there is one).
    mutable std::mutex packedMutex;
    mutable std::vector<dnnl::memory> packed;
    ShapeCache<LinearPrimitive> primitives;

    dnnl::matmul::primitive_desc makePd(std::int64_t m) const
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

    // Returns the packed weights in `layout`, reordering from an existing packed copy (the
    // plain weights are not kept after construction).
    dnnl::memory packedFor(const dnnl::memory::desc &layout) const
    {
        std::lock_guard lock(packedMutex);
        for (const dnnl::memory &m : packed)
            if (m.get_desc() == layout)
                return m;
        dnnl::memory converted(layout, runtime::engine());
        dnnl::memory &from = packed.front();
        dnnl::reorder(from, converted).execute(runtime::stream(), from, converted);
        runtime::stream().wait();
        packed.push_back(converted);
        return converted;
    }

    std::shared_ptr<const LinearPrimitive> primitiveFor(std::int64_t m) const
    {
        return primitives.get({m}, [&] {
            LinearPrimitive p{makePd(m), {}, {}};
            p.prim = dnnl::matmul(p.pd);
            p.weights = packedFor(p.pd.weights_desc());
            return p;
        });
    }
};

Linear::Linear(const Tensor &weight, const Tensor &bias, Activation activation)
{
    requireRank(weight, 2, "Linear", "weight [out, in]");
    requireNonEmpty(weight, "Linear", "weight");
    auto impl = std::make_shared<Impl>();
    impl->out = weight.dim(0);
    impl->in = weight.dim(1);
    impl->activation = activation;
    if (!bias.empty()) {
        if (bias.rank() != 1 || bias.dim(0) != impl->out)
            throw std::invalid_argument("Linear: bias " + shapeToString(bias.shape()) +
                                        " does not match weight " + shapeToString(weight.shape()) +
                                        " (expected [" + std::to_string(impl->out) + "])");
        impl->bias = floatWeights(bias).clone().reshaped({1, impl->out});
    }
    // Pack once for M = 1 (the decoder's common case); other M reuse this layout.
    const Tensor w = floatWeights(weight);
    const auto pd = impl->makePd(1);
    dnnl::memory plain({{impl->in, impl->out}, dt::f32, tag::ba}, runtime::engine(),
                       const_cast<void *>(w.raw()));
    dnnl::memory packed(pd.weights_desc(), runtime::engine());
    dnnl::reorder(plain, packed).execute(runtime::stream(), plain, packed);
    runtime::stream().wait();
    impl->packed.push_back(packed);
    m_impl = std::move(impl);
}

std::int64_t Linear::inFeatures() const
{
    return m_impl ? m_impl->in : 0;
}
std::int64_t Linear::outFeatures() const
{
    return m_impl ? m_impl->out : 0;
}
Activation Linear::activation() const
{
    return m_impl ? m_impl->activation : Activation::None;
}

void Linear::operator()(const Tensor &x, Tensor &y) const
{
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
    const auto p = m_impl->primitiveFor(m);
    std::unordered_map<int, dnnl::memory> args{
        {DNNL_ARG_SRC, wrap(p->pd.src_desc(), x)},
        {DNNL_ARG_WEIGHTS, p->weights},
        {DNNL_ARG_DST, wrap(p->pd.dst_desc(), y)},
    };
    if (!m_impl->bias.empty())
        args.emplace(DNNL_ARG_BIAS, wrap(p->pd.bias_desc(), m_impl->bias));
    execute(p->prim, p->pd, std::move(args));
}

} // namespace glosa::engine::ops
