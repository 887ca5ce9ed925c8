#include "engine/ops/dnnlutil.h"
#include "tests/reference/opsreference.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace glosa::engine::ops::reference {

namespace {

// QuantizedLinear's arithmetic written out: a row's scale is max|v| / 127 (1 for a zero row),
// codes are v / scale rounded half away from zero.
float rowScale(const float *v, std::int64_t n)
{
    float amax = 0.0f;
    for (std::int64_t i = 0; i < n; ++i)
        amax = std::max(amax, std::fabs(v[i]));
    return amax > 0.0f ? amax / 127.0f : 1.0f;
}

void quantizeRow(const float *v, std::int64_t n, float scale, std::int8_t *out)
{
    const float inverse = 1.0f / scale;
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = static_cast<std::int8_t>(std::lround(v[i] * inverse));
}

} // namespace


void quantizedLinear(const Tensor &x, const Tensor &weight, const Tensor &bias,
                     Activation activation, Tensor &y)
{
    const Tensor w = detail::floatWeights(weight);
    const std::int64_t out = w.dim(0), in = w.dim(1), m = x.numel() / in;
    std::vector<std::int8_t> wq(static_cast<std::size_t>(out * in)),
        xq(static_cast<std::size_t>(in));
    std::vector<float> ws(static_cast<std::size_t>(out));
    for (std::int64_t n = 0; n < out; ++n) {
        ws[n] = rowScale(w.data<float>() + n * in, in);
        quantizeRow(w.data<float>() + n * in, in, ws[n], wq.data() + n * in);
    }
    const Tensor b = bias.empty() ? Tensor() : detail::floatWeights(bias);
    Shape outShape = x.shape();
    outShape.back() = out;
    y.resize(outShape);
    for (std::int64_t r = 0; r < m; ++r) {
        const float *xr = x.data<float>() + r * in;
        const float xs = rowScale(xr, in);
        quantizeRow(xr, in, xs, xq.data());
        for (std::int64_t n = 0; n < out; ++n) {
            std::int64_t sum = 0;
            for (std::int64_t k = 0; k < in; ++k)
                sum += static_cast<std::int64_t>(xq[k]) * wq[n * in + k];
            double v = static_cast<double>(sum) * xs * ws[n];
            if (!b.empty())
                v += b.data<float>()[n];
            y.data<float>()[r * out + n] = activationReference(activation, static_cast<float>(v));
        }
    }
}


} // namespace glosa::engine::ops::reference
