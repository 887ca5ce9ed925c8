#include "engine/ops/concat.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace glosa::engine::ops {

namespace {

int normaliseAxis(int axis, int rank, const char *op)
{
    const int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
        throw std::invalid_argument(std::string(op) + ": axis " + std::to_string(axis) +
                                    " is out of range for rank " + std::to_string(rank));
    return a;
}

// Elements before `axis` (outer) and after it (inner).
void outerInner(const Shape &shape, int axis, std::int64_t &outer, std::int64_t &inner)
{
    outer = 1;
    inner = 1;
    for (int i = 0; i < axis; ++i)
        outer *= shape[i];
    for (std::size_t i = axis + 1; i < shape.size(); ++i)
        inner *= shape[i];
}

} // namespace

void Concat::operator()(const std::vector<Tensor> &inputs, Tensor &out) const
{
    if (inputs.empty())
        throw std::invalid_argument("Concat: no inputs");
    const Tensor &first = inputs.front();
    const int axis = normaliseAxis(m_axis, first.rank(), "Concat");
    Shape shape = first.shape();
    shape[axis] = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Tensor &t = inputs[i];
        bool ok = t.rank() == first.rank() && t.dtype() == first.dtype() &&
                  (t.dtype() == DType::F32 || t.dtype() == DType::I32);
        for (int d = 0; ok && d < t.rank(); ++d)
            ok = d == axis || t.dim(d) == first.dim(d);
        if (!ok)
            throw std::invalid_argument(
                "Concat: input " + std::to_string(i) + " " + dtypeName(t.dtype()) + " " +
                shapeToString(t.shape()) + " does not match input 0 " + dtypeName(first.dtype()) +
                " " + shapeToString(first.shape()) + " outside axis " + std::to_string(m_axis));
        shape[axis] += t.dim(axis);
    }
    // A fresh tensor: `out` might alias one of the inputs.
    Tensor result(shape, first.dtype());
    std::int64_t outer, inner;
    outerInner(shape, axis, outer, inner);
    const std::size_t elem = dtypeSize(first.dtype());
    const std::size_t outRow = static_cast<std::size_t>(shape[axis] * inner) * elem;
    auto *dst = static_cast<char *>(result.raw());
    std::size_t offset = 0;
    for (const Tensor &t : inputs) {
        const std::size_t row = static_cast<std::size_t>(t.dim(axis) * inner) * elem;
        const auto *src = static_cast<const char *>(t.raw());
        for (std::int64_t o = 0; o < outer; ++o)
            std::memcpy(dst + o * outRow + offset, src + o * row, row);
        offset += row;
    }
    out = result;
}

void Split::operator()(const Tensor &x, std::vector<Tensor> &outputs) const
{
    const int axis = normaliseAxis(m_axis, x.rank(), "Split");
    std::int64_t total = 0;
    for (std::int64_t s : m_sizes) {
        if (s < 0)
            throw std::invalid_argument("Split: negative size " + std::to_string(s));
        total += s;
    }
    if (total != x.dim(axis))
        throw std::invalid_argument("Split: sizes add up to " + std::to_string(total) +
                                    " but input " + shapeToString(x.shape()) + " has " +
                                    std::to_string(x.dim(axis)) + " along axis " +
                                    std::to_string(m_axis));
    std::int64_t outer, inner;
    outerInner(x.shape(), axis, outer, inner);
    const std::size_t elem = dtypeSize(x.dtype());
    const std::size_t inRow = static_cast<std::size_t>(x.dim(axis) * inner) * elem;
    const auto *src = static_cast<const char *>(x.raw());
    outputs.resize(m_sizes.size());
    std::size_t offset = 0;
    for (std::size_t i = 0; i < m_sizes.size(); ++i) {
        Shape shape = x.shape();
        shape[axis] = m_sizes[i];
        Tensor part(shape, x.dtype());
        const std::size_t row = static_cast<std::size_t>(m_sizes[i] * inner) * elem;
        auto *dst = static_cast<char *>(part.raw());
        for (std::int64_t o = 0; o < outer; ++o)
            std::memcpy(dst + o * row, src + o * inRow + offset, row);
        offset += row;
        outputs[i] = part;
    }
}

} // namespace glosa::engine::ops
