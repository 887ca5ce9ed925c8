#include "tests/reference/opsreference.h"

#include <stdexcept>

namespace glosa::engine::ops::reference {

void linear(const Tensor &x, const Tensor &weight, const Tensor &bias, Activation activation,
            Tensor &y)
{
    if (weight.rank() != 2 || x.rank() < 1 || x.dim(-1) != weight.dim(1))
        throw std::invalid_argument("reference::linear: input " + shapeToString(x.shape()) +
                                    " does not match weight " + shapeToString(weight.shape()));
    const Tensor w = weight.toFloat32();
    const std::int64_t in = w.dim(1), out = w.dim(0), m = x.numel() / in;
    Shape outShape = x.shape();
    outShape.back() = out;
    Tensor result(outShape);
    const float *px = x.data<float>(), *pw = w.data<float>();
    const float *pb = bias.empty() ? nullptr : bias.data<float>();
    float *py = result.data<float>();
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t o = 0; o < out; ++o) {
            double acc = pb ? pb[o] : 0.0;
            for (std::int64_t k = 0; k < in; ++k)
                acc += static_cast<double>(px[r * in + k]) * pw[o * in + k];
            py[r * out + o] = activationReference(activation, static_cast<float>(acc));
        }
    y = result;
}

} // namespace glosa::engine::ops::reference
