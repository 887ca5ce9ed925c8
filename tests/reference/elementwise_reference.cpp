#include "tests/reference/opsreference.h"

#include <vector>

namespace glosa::engine::ops::reference {

void elementwise(Activation activation, const Tensor &x, Tensor &y)
{
    Tensor result(x.shape());
    const float *px = x.data<float>();
    float *py = result.data<float>();
    for (std::int64_t i = 0; i < x.numel(); ++i)
        py[i] = activationReference(activation, px[i]);
    y = result;
}

void binary(BinaryKind kind, const Tensor &a, const Tensor &b, Tensor &out)
{
    const Shape bShape = broadcastShape(a.shape(), b.shape(), "reference::binary");
    const int rank = a.rank();
    Tensor result(a.shape());
    const float *pa = a.data<float>(), *pb = b.data<float>();
    float *po = result.data<float>();
    std::vector<std::int64_t> index(rank, 0);
    for (std::int64_t i = 0; i < a.numel(); ++i) {
        // Unravel i over a's shape, then ravel over b's with broadcast dims pinned to 0.
        std::int64_t rest = i, bIndex = 0, bStride = 1;
        for (int d = rank - 1; d >= 0; --d) {
            index[d] = rest % a.shape()[d];
            rest /= a.shape()[d];
        }
        for (int d = rank - 1; d >= 0; --d) {
            bIndex += (bShape[d] == 1 ? 0 : index[d]) * bStride;
            bStride *= bShape[d];
        }
        po[i] = kind == BinaryKind::Add ? pa[i] + pb[bIndex] : pa[i] * pb[bIndex];
    }
    out = result;
}

} // namespace glosa::engine::ops::reference
