#include "tests/reference/opsreference.h"

#include <cmath>
#include <stdexcept>

namespace glosa::engine::ops::reference {

void layerNorm(const Tensor &x, const Tensor &gamma, const Tensor &beta, float eps, Tensor &y)
{
    const std::int64_t d = x.dim(-1), rows = x.numel() / d;
    if ((!gamma.empty() && gamma.numel() != d) || (!beta.empty() && beta.numel() != d))
        throw std::invalid_argument("reference::layerNorm: size mismatch");
    Tensor result(x.shape());
    for (std::int64_t r = 0; r < rows; ++r) {
        const float *row = x.data<float>() + r * d;
        double mean = 0.0, var = 0.0;
        for (std::int64_t i = 0; i < d; ++i)
            mean += row[i];
        mean /= d;
        for (std::int64_t i = 0; i < d; ++i)
            var += (row[i] - mean) * (row[i] - mean);
        var /= d;
        const double inv = 1.0 / std::sqrt(var + eps);
        for (std::int64_t i = 0; i < d; ++i) {
            const double g = gamma.empty() ? 1.0 : gamma.data<float>()[i];
            const double b = beta.empty() ? 0.0 : beta.data<float>()[i];
            result.data<float>()[r * d + i] = static_cast<float>((row[i] - mean) * inv * g + b);
        }
    }
    y = result;
}

} // namespace glosa::engine::ops::reference
