#include "engine/ops/matmul.h"

#include "engine/ops/dnnlutil.h"

namespace glosa::engine::ops {

using namespace detail;

namespace {

struct MatMulPrimitive
{
    dnnl::matmul::primitive_desc pd;
    dnnl::matmul prim;
};

} // namespace

void BatchedMatMul::operator()(const Tensor &a, const Tensor &b, Tensor &c) const
{
    requireF32(a, "BatchedMatMul", "A");
    requireF32(b, "BatchedMatMul", "B");
    requireRank(a, 3, "BatchedMatMul", "A [batch, M, K]");
    requireRank(b, 3, "BatchedMatMul", m_transposeB ? "B [batch, N, K]" : "B [batch, K, N]");
    const std::int64_t batch = a.dim(0), m = a.dim(1), k = a.dim(2);
    const std::int64_t bBatch = b.dim(0);
    const std::int64_t bK = m_transposeB ? b.dim(2) : b.dim(1);
    const std::int64_t n = m_transposeB ? b.dim(1) : b.dim(2);
    if (bK != k || (bBatch != batch && bBatch != 1))
        throw std::invalid_argument(std::string("BatchedMatMul: A ") + shapeToString(a.shape()) +
                                    " and B " + shapeToString(b.shape()) +
                                    (m_transposeB ? " (transposed)" : "") +
                                    " do not match: need K = " + std::to_string(k) + " and batch " +
                                    std::to_string(batch) + " or 1");
    c.resize({batch, m, n});
    if (c.numel() == 0)
        return;
    if (k == 0) {
        std::fill_n(c.data<float>(), c.numel(), 0.0f);
        return;
    }
    static ShapeCache<MatMulPrimitive> cache(1024);
    std::int32_t alphaBits;
    std::memcpy(&alphaBits, &m_alpha, sizeof alphaBits);
    const auto p = cache.get({batch, bBatch, m, k, n, m_transposeB, alphaBits}, [&] {
        const dnnl::memory::desc aMd({batch, m, k}, dt::f32, tag::abc);
        // Bᵀ is B's memory read with swapped strides: no copy.
        const dnnl::memory::desc bMd({bBatch, k, n}, dt::f32, m_transposeB ? tag::acb : tag::abc);
        const dnnl::memory::desc cMd({batch, m, n}, dt::f32, tag::abc);
        dnnl::primitive_attr attr = makeAttr();
        if (m_alpha != 1.0f)
            attr.set_output_scales(0, {m_alpha});
        dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(aMd, bMd, cMd), attr, runtime::engine());
        return MatMulPrimitive{pd, dnnl::matmul(pd)};
    });
    execute(p->prim, p->pd,
            {{DNNL_ARG_SRC, wrap(p->pd.src_desc(), a)},
             {DNNL_ARG_WEIGHTS, wrap(p->pd.weights_desc(), b)},
             {DNNL_ARG_DST, wrap(p->pd.dst_desc(), c)}});
}

} // namespace glosa::engine::ops
