// Row gather: reorders decoder state rows by beam origins.
#pragma once

#include "engine/tensor.h"

#include <cstdint>
#include <vector>

namespace glosa::engine::ops {

// dst[i] = src[origins[i]] for rows of dim 0. src: [rows, ...] fp32; dst: [origins.size(), ...].
// Throws std::out_of_range for an origin outside [0, rows). dst must not alias src.
void gatherRows(const Tensor &src, const std::vector<std::int32_t> &origins, Tensor &dst);

} // namespace glosa::engine::ops
