#include "engine/ops/elementwise.h"

#include "engine/ops/dnnlutil.h"

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct EltwisePrimitive
{
    dnnl::eltwise_forward::primitive_desc pd;
    dnnl::eltwise_forward prim;
};

struct BinaryPrimitive
{
    dnnl::binary::primitive_desc pd;
    dnnl::binary prim;
};

// Plain row-major descriptor; rank 0 tensors are treated as [1].
dnnl::memory::desc plainDesc(const Shape &shape)
{
    dnnl::memory::dims dims = toDims(shape.empty() ? Shape{1} : shape);
    dnnl::memory::dims strides(dims.size(), 1);
    for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i)
        strides[i] = strides[i + 1] * dims[i + 1];
    return dnnl::memory::desc(dims, dt::f32, strides);
}

} // namespace

Shape broadcastShape(const Shape &a, const Shape &b, const char *op)
{
    bool ok = b.size() <= a.size();
    Shape padded(a.size(), 1);
    if (ok) {
        const std::size_t offset = a.size() - b.size();
        for (std::size_t i = 0; i < b.size(); ++i) {
            padded[offset + i] = b[i];
            if (b[i] != a[offset + i] && b[i] != 1)
                ok = false;
        }
    }
    if (!ok)
        throw std::invalid_argument(std::string(op) + ": shape " + shapeToString(b) +
                                    " does not broadcast to " + shapeToString(a));
    return padded;
}

void Elementwise::operator()(const Tensor &x, Tensor &y) const
{
    requireF32(x, "Elementwise", "input");
    if (!(y.raw() == x.raw() && y.shape() == x.shape()))
        y.resize(x.shape());
    if (x.numel() == 0)
        return;
    // One primitive per activation; the flat length is a run-time-free 1D shape, so the cache
    // key is the length (oneDNN's own primitive cache makes repeated creation cheap anyway).
    static ShapeCache<EltwisePrimitive> cache(512);
    const std::int64_t n = x.numel();
    const auto p = cache.get({static_cast<std::int64_t>(m_activation), n}, [&] {
        dnnl::algorithm alg;
        float alpha, beta;
        eltwiseParams(m_activation, alg, alpha, beta);
        const dnnl::memory::desc md({n}, dt::f32, tag::a);
        dnnl::eltwise_forward::primitive_desc pd(
            dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, alg, md, alpha, beta),
            makeAttr(), runtime::engine());
        return EltwisePrimitive{pd, dnnl::eltwise_forward(pd)};
    });
    execute(p->prim, p->pd,
            {{DNNL_ARG_SRC, wrap(p->pd.src_desc(), x)}, {DNNL_ARG_DST, wrap(p->pd.dst_desc(), y)}});
}

void Binary::operator()(const Tensor &a, const Tensor &b, Tensor &out) const
{
    const char *name = m_kind == BinaryKind::Add ? "Add" : "Mul";
    requireF32(a, name, "first operand");
    requireF32(b, name, "second operand");
    const Shape bShape = broadcastShape(a.shape(), b.shape(), name);
    if (!(out.raw() == a.raw() && out.shape() == a.shape()))
        out.resize(a.shape());
    if (a.numel() == 0)
        return;
    static ShapeCache<BinaryPrimitive> cache(512);
    ShapeCache<BinaryPrimitive>::Key key{static_cast<std::int64_t>(m_kind), a.rank()};
    key.insert(key.end(), a.shape().begin(), a.shape().end());
    key.insert(key.end(), bShape.begin(), bShape.end());
    const auto p = cache.get(key, [&] {
        const auto alg =
            m_kind == BinaryKind::Add ? dnnl::algorithm::binary_add : dnnl::algorithm::binary_mul;
        const dnnl::memory::desc aMd = plainDesc(a.shape());
        dnnl::binary::primitive_desc pd(dnnl::binary::desc(alg, aMd, plainDesc(bShape), aMd),
                                        makeAttr(), runtime::engine());
        return BinaryPrimitive{pd, dnnl::binary(pd)};
    });
    execute(p->prim, p->pd,
            {{DNNL_ARG_SRC_0, wrap(p->pd.src_desc(0), a)},
             {DNNL_ARG_SRC_1, wrap(p->pd.src_desc(1), b)},
             {DNNL_ARG_DST, wrap(p->pd.dst_desc(), out)}});
}

} // namespace glosa::engine::ops
