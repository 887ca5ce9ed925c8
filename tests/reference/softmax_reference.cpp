#include "engine/ops/elementwise.h"
#include "tests/reference/opsreference.h"

#include <algorithm>
#include <cmath>

namespace glosa::engine::ops::reference {

void softmax(const Tensor &x, const Tensor &mask, bool log, Tensor &y)
{
    Tensor scores = x.clone();
    if (!mask.empty()) {
        Tensor additive = mask;
        if (mask.dtype() == DType::I32) {
            additive = Tensor(mask.shape());
            for (std::int64_t i = 0; i < mask.numel(); ++i)
                additive.data<float>()[i] = mask.data<std::int32_t>()[i] ? 0.0f : kMaskedOut;
        }
        binary(BinaryKind::Add, x, additive, scores);
    }
    const std::int64_t n = x.dim(-1), rows = x.numel() / n;
    float *p = scores.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
        float *row = p + r * n;
        const double mx = *std::max_element(row, row + n);
        double sum = 0.0;
        for (std::int64_t i = 0; i < n; ++i)
            sum += std::exp(row[i] - mx);
        for (std::int64_t i = 0; i < n; ++i)
            row[i] =
                static_cast<float>(log ? row[i] - mx - std::log(sum) : std::exp(row[i] - mx) / sum);
    }
    y = scores;
}

} // namespace glosa::engine::ops::reference
