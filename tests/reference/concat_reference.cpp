#include "tests/reference/opsreference.h"

#include <vector>

namespace glosa::engine::ops::reference {

namespace {

// Row-major flat index of a multi-index.
std::int64_t flatIndex(const Shape &shape, const std::vector<std::int64_t> &index)
{
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < shape.size(); ++d)
        flat = flat * shape[d] + index[d];
    return flat;
}

std::vector<std::int64_t> unravel(const Shape &shape, std::int64_t flat)
{
    std::vector<std::int64_t> index(shape.size());
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    return index;
}

} // namespace

void concat(const std::vector<Tensor> &inputs, int axis, Tensor &out)
{
    const int rank = inputs.front().rank();
    const int a = axis < 0 ? axis + rank : axis;
    Shape shape = inputs.front().shape();
    shape[a] = 0;
    for (const Tensor &t : inputs)
        shape[a] += t.dim(a);
    Tensor result(shape);
    std::int64_t base = 0;
    for (const Tensor &t : inputs) {
        for (std::int64_t i = 0; i < t.numel(); ++i) {
            auto index = unravel(t.shape(), i);
            index[a] += base;
            result.data<float>()[flatIndex(shape, index)] = t.data<float>()[i];
        }
        base += t.dim(a);
    }
    out = result;
}

void split(const Tensor &x, int axis, const std::vector<std::int64_t> &sizes,
           std::vector<Tensor> &outputs)
{
    const int a = axis < 0 ? axis + x.rank() : axis;
    outputs.clear();
    std::int64_t base = 0;
    for (std::int64_t size : sizes) {
        Shape shape = x.shape();
        shape[a] = size;
        Tensor part(shape);
        for (std::int64_t i = 0; i < part.numel(); ++i) {
            auto index = unravel(shape, i);
            index[a] += base;
            part.data<float>()[i] = x.data<float>()[flatIndex(x.shape(), index)];
        }
        outputs.push_back(part);
        base += size;
    }
}

} // namespace glosa::engine::ops::reference
