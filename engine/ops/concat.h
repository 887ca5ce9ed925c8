// Concat and Split along one axis (plain strided copies: these ops move memory, there is
// nothing for a oneDNN kernel to compute).
//
// Basic usage:
//     ops::Concat(-1)({forward, backward}, both);   // [T, B, H] x2 -> [T, B, 2H]
//     std::vector<Tensor> parts;
//     ops::Split(-1, {h, h})(both, parts);          // [T, B, 2H] -> [T, B, H] x2
#pragma once

#include "engine/tensor.h"

#include <vector>

namespace glosa::engine::ops {

class Concat
{
public:
    // axis: negative counts from the end.
    explicit Concat(int axis) : m_axis(axis) {}
    // inputs: same rank and dtype (F32 or I32), equal dims except `axis` -> out.
    void operator()(const std::vector<Tensor> &inputs, Tensor &out) const;
    int axis() const { return m_axis; }

private:
    int m_axis;
};

class Split
{
public:
    // sizes along `axis`; they must add up to the input's dim.
    Split(int axis, std::vector<std::int64_t> sizes) : m_axis(axis), m_sizes(std::move(sizes)) {}
    // x -> outputs[i] with dim(axis) = sizes[i] (fresh tensors, not views).
    void operator()(const Tensor &x, std::vector<Tensor> &outputs) const;
    int axis() const { return m_axis; }

private:
    int m_axis;
    std::vector<std::int64_t> m_sizes;
};

} // namespace glosa::engine::ops
