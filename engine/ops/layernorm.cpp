#include "engine/ops/layernorm.h"

#include "engine/ops/dnnlutil.h"

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct LayerNormPrimitive
{
    dnnl::layer_normalization_forward::primitive_desc pd;
    dnnl::layer_normalization_forward prim;
};

Tensor filled(std::int64_t n, float value)
{
    Tensor t({n});
    std::fill_n(t.data<float>(), n, value);
    return t;
}

} // namespace

LayerNorm::LayerNorm(const Tensor &gamma, const Tensor &beta, float eps) : m_eps(eps)
{
    const Tensor &any = gamma.empty() ? beta : gamma;
    if (any.empty() || any.rank() != 1)
        throw std::invalid_argument("LayerNorm: gamma " + shapeToString(gamma.shape()) +
                                    " / beta " + shapeToString(beta.shape()) +
                                    " must be [d] (at least one of them)");
    m_size = any.dim(0);
    if ((!gamma.empty() && gamma.shape() != Shape{m_size}) ||
        (!beta.empty() && beta.shape() != Shape{m_size}))
        throw std::invalid_argument("LayerNorm: gamma " + shapeToString(gamma.shape()) +
                                    " and beta " + shapeToString(beta.shape()) + " differ");
    if (!(eps >= 0.0f))
        throw std::invalid_argument("LayerNorm: eps must be >= 0, got " + std::to_string(eps));
    m_gamma = gamma.empty() ? filled(m_size, 1.0f) : gamma.toFloat32();
    m_beta = beta.empty() ? filled(m_size, 0.0f) : beta.toFloat32();
}

void LayerNorm::operator()(const Tensor &x, Tensor &y) const
{
    if (m_size == 0)
        throw std::logic_error("LayerNorm: called on an empty (default-constructed) op");
    requireF32(x, "LayerNorm", "input");
    if (x.rank() < 1 || x.dim(-1) != m_size)
        throw std::invalid_argument("LayerNorm: input " + shapeToString(x.shape()) +
                                    " does not end in normalised size " + std::to_string(m_size));
    if (!(y.raw() == x.raw() && y.shape() == x.shape()))
        y.resize(x.shape());
    const std::int64_t rows = x.numel() / m_size;
    if (rows == 0)
        return;
    static ShapeCache<LayerNormPrimitive> cache(512);
    // eps is part of the primitive; its bits go into the key.
    std::int32_t epsBits;
    std::memcpy(&epsBits, &m_eps, sizeof epsBits);
    const auto p = cache.get({rows, m_size, epsBits}, [&] {
        const dnnl::memory::desc md({rows, m_size}, dt::f32, tag::ab);
        dnnl::layer_normalization_forward::primitive_desc pd(
            dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, md, m_eps,
                                                    dnnl::normalization_flags::use_scale |
                                                        dnnl::normalization_flags::use_shift),
            makeAttr(), runtime::engine());
        return LayerNormPrimitive{pd, dnnl::layer_normalization_forward(pd)};
    });
    const dnnl::memory::desc vec({m_size}, dt::f32, tag::a);
    execute(p->prim, p->pd,
            {{DNNL_ARG_SRC, wrap(p->pd.src_desc(), x)},
             {DNNL_ARG_DST, wrap(p->pd.dst_desc(), y)},
             {DNNL_ARG_SCALE, wrap(vec, m_gamma)},
             {DNNL_ARG_SHIFT, wrap(vec, m_beta)}});
}

} // namespace glosa::engine::ops
