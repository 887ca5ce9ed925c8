#include "engine/ops/softmax.h"

#include "engine/ops/dnnlutil.h"
#include "engine/ops/elementwise.h"

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct SoftmaxPrimitive
{
    dnnl::primitive_desc_base pd;
    dnnl::primitive prim;
    dnnl::memory::desc md;
};

// I32 boolean mask -> additive F32 mask of the same shape.
Tensor additiveMask(const Tensor &mask)
{
    if (mask.dtype() == DType::F32)
        return mask;
    if (mask.dtype() != DType::I32)
        throw std::invalid_argument(std::string("Softmax: mask must be F32 (additive) or I32 "
                                                "(boolean), got ") +
                                    dtypeName(mask.dtype()) + " " + shapeToString(mask.shape()));
    Tensor out(mask.shape());
    const std::int32_t *pm = mask.data<std::int32_t>();
    float *po = out.data<float>();
    for (std::int64_t i = 0; i < mask.numel(); ++i)
        po[i] = pm[i] ? 0.0f : kMaskedOut;
    return out;
}

} // namespace

void Softmax::operator()(const Tensor &x, Tensor &y) const
{
    const char *name = m_log ? "LogSoftmax" : "Softmax";
    requireF32(x, name, "input");
    if (x.rank() < 1)
        throw std::invalid_argument(std::string(name) + ": input must have rank >= 1, got " +
                                    shapeToString(x.shape()));
    if (!(y.raw() == x.raw() && y.shape() == x.shape()))
        y.resize(x.shape());
    if (x.numel() == 0)
        return;
    const std::int64_t n = x.dim(-1), rows = x.numel() / n;
    static ShapeCache<SoftmaxPrimitive> cache(512);
    const auto p = cache.get({m_log ? 1 : 0, rows, n}, [&] {
        const dnnl::memory::desc md({rows, n}, dt::f32, tag::ab);
        const auto prop = dnnl::prop_kind::forward_inference;
        if (m_log) {
            dnnl::logsoftmax_forward::primitive_desc pd(dnnl::logsoftmax_forward::desc(prop, md, 1),
                                                        makeAttr(), runtime::engine());
            return SoftmaxPrimitive{pd, dnnl::logsoftmax_forward(pd), md};
        }
        dnnl::softmax_forward::primitive_desc pd(dnnl::softmax_forward::desc(prop, md, 1),
                                                 makeAttr(), runtime::engine());
        return SoftmaxPrimitive{pd, dnnl::softmax_forward(pd), md};
    });
    execute(p->prim, p->pd, {{DNNL_ARG_SRC, wrap(p->md, x)}, {DNNL_ARG_DST, wrap(p->md, y)}});
}

void Softmax::operator()(const Tensor &x, const Tensor &mask, Tensor &y) const
{
    if (mask.empty()) {
        (*this)(x, y);
        return;
    }
    requireF32(x, m_log ? "LogSoftmax" : "Softmax", "input");
    broadcastShape(x.shape(), mask.shape(), m_log ? "LogSoftmax mask" : "Softmax mask");
    Add()(x, additiveMask(mask), y);
    (*this)(y, y);
}

} // namespace glosa::engine::ops
