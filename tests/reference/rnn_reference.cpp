#include "tests/reference/opsreference.h"

#include <cmath>

namespace glosa::engine::ops::reference {

namespace {

double sigmoid(double v)
{
    return 1.0 / (1.0 + std::exp(-v));
}

// Row r of (x · Wᵀ + b), gate block g of size H, element j.
double affine(const Tensor &x, std::int64_t r, const Tensor &w, const Tensor &b, std::int64_t row)
{
    const std::int64_t in = w.dim(1);
    double acc = b.empty() ? 0.0 : b.data<float>()[row];
    for (std::int64_t k = 0; k < in; ++k)
        acc += static_cast<double>(x.data<float>()[r * in + k]) * w.data<float>()[row * in + k];
    return acc;
}

} // namespace

void gruCell(const Tensor &x, const Tensor &h, const Tensor &weightIh, const Tensor &weightHh,
             const Tensor &biasIh, const Tensor &biasHh, Tensor &hOut)
{
    const Tensor wi = weightIh.toFloat32(), wh = weightHh.toFloat32();
    const std::int64_t m = x.dim(0), H = wh.dim(1);
    Tensor result({m, H});
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < H; ++j) {
            const double rg = sigmoid(affine(x, r, wi, biasIh, j) + affine(h, r, wh, biasHh, j));
            const double z =
                sigmoid(affine(x, r, wi, biasIh, H + j) + affine(h, r, wh, biasHh, H + j));
            const double n = std::tanh(affine(x, r, wi, biasIh, 2 * H + j) +
                                       rg * affine(h, r, wh, biasHh, 2 * H + j));
            result.data<float>()[r * H + j] =
                static_cast<float>((1.0 - z) * n + z * h.data<float>()[r * H + j]);
        }
    hOut = result;
}

void lstmCell(const Tensor &x, const Tensor &h, const Tensor &c, const Tensor &weightIh,
              const Tensor &weightHh, const Tensor &biasIh, const Tensor &biasHh, Tensor &hOut,
              Tensor &cOut)
{
    const Tensor wi = weightIh.toFloat32(), wh = weightHh.toFloat32();
    const std::int64_t m = x.dim(0), H = wh.dim(1);
    Tensor hr({m, H}), cr({m, H});
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < H; ++j) {
            auto gate = [&](int g) {
                return affine(x, r, wi, biasIh, g * H + j) + affine(h, r, wh, biasHh, g * H + j);
            };
            const double i = sigmoid(gate(0)), f = sigmoid(gate(1)), g = std::tanh(gate(2)),
                         o = sigmoid(gate(3));
            const double cNew = f * c.data<float>()[r * H + j] + i * g;
            cr.data<float>()[r * H + j] = static_cast<float>(cNew);
            hr.data<float>()[r * H + j] = static_cast<float>(o * std::tanh(cNew));
        }
    hOut = hr;
    cOut = cr;
}

} // namespace glosa::engine::ops::reference
