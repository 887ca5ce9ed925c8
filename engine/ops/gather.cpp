#include "engine/ops/gather.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace glosa::engine::ops {

void gatherRows(const Tensor &src, const std::vector<std::int32_t> &origins, Tensor &dst)
{
    if (src.rank() == 0)
        throw std::invalid_argument("gatherRows: source is a scalar");
    const std::int64_t rows = src.dim(0);
    const std::int64_t width = rows ? src.numel() / rows : 0;
    Shape shape = src.shape();
    shape[0] = static_cast<std::int64_t>(origins.size());
    dst.resize(shape);
    const float *s = src.data<float>();
    float *d = dst.data<float>();
    for (std::size_t i = 0; i < origins.size(); ++i) {
        if (origins[i] < 0 || origins[i] >= rows)
            throw std::out_of_range("gatherRows: origin " + std::to_string(origins[i]) +
                                    " outside [0, " + std::to_string(rows) + ")");
        std::memcpy(d + i * width, s + origins[i] * width, width * sizeof(float));
    }
}

} // namespace glosa::engine::ops
