#include "tests/reference/opsreference.h"

#include <stdexcept>

namespace glosa::engine::ops::reference {

void batchedMatMul(const Tensor &a, const Tensor &b, bool transposeB, float alpha, Tensor &c)
{
    const std::int64_t batch = a.dim(0), m = a.dim(1), k = a.dim(2);
    const std::int64_t n = transposeB ? b.dim(1) : b.dim(2);
    if ((transposeB ? b.dim(2) : b.dim(1)) != k)
        throw std::invalid_argument("reference::batchedMatMul: K mismatch");
    Tensor result({batch, m, n});
    const float *pa = a.data<float>(), *pb = b.data<float>();
    for (std::int64_t bi = 0; bi < batch; ++bi) {
        const float *bb = pb + (b.dim(0) == 1 ? 0 : bi) * k * n;
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                double acc = 0.0;
                for (std::int64_t x = 0; x < k; ++x)
                    acc += static_cast<double>(pa[(bi * m + i) * k + x]) *
                           (transposeB ? bb[j * k + x] : bb[x * n + j]);
                result.data<float>()[(bi * m + i) * n + j] = static_cast<float>(alpha * acc);
            }
    }
    c = result;
}

} // namespace glosa::engine::ops::reference
