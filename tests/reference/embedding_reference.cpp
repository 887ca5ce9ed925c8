#include "tests/reference/opsreference.h"

#include <stdexcept>

namespace glosa::engine::ops::reference {

void embedding(const Tensor &table, const Tensor &ids, float scale, Tensor &out)
{
    const Tensor t = table.toFloat32();
    const std::int64_t vocab = t.dim(0), d = t.dim(1);
    Shape shape = ids.shape();
    shape.push_back(d);
    Tensor result(shape);
    for (std::int64_t i = 0; i < ids.numel(); ++i) {
        const std::int32_t id = ids.data<std::int32_t>()[i];
        if (id < 0 || id >= vocab)
            throw std::out_of_range("reference::embedding: id out of range");
        for (std::int64_t k = 0; k < d; ++k)
            result.data<float>()[i * d + k] = t.data<float>()[id * d + k] * scale;
    }
    out = result;
}

} // namespace glosa::engine::ops::reference
