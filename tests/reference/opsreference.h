// The plain-loop definitions every engine op is tested against (test-only: the shipped engine
// holds none of them). Each computes what its op computes, with no oneDNN and, where sums are
// long, double accumulation; tests/engine/tst_ops_*.cpp compare the op with it on random inputs.
#pragma once

#include "engine/ops/concat.h"
#include "engine/ops/conv.h"
#include "engine/ops/elementwise.h"
#include "engine/ops/embedding.h"
#include "engine/ops/layernorm.h"
#include "engine/ops/linear.h"
#include "engine/ops/matmul.h"
#include "engine/ops/quantizedlinear.h"
#include "engine/ops/rnn.h"
#include "engine/ops/softmax.h"

#include <cstdint>
#include <vector>

namespace glosa::engine::ops::reference {

// concat
void concat(const std::vector<Tensor> &inputs, int axis, Tensor &out);
void split(const Tensor &x, int axis, const std::vector<std::int64_t> &sizes,
           std::vector<Tensor> &outputs);

// conv
void conv2d(const Tensor &x, const Tensor &weight, const Tensor &bias, const Conv2dParams &params,
            Tensor &y);
void avgPool2d(const Tensor &x, const Pool2dParams &params, Tensor &y);

// elementwise
void elementwise(Activation activation, const Tensor &x, Tensor &y);
void binary(BinaryKind kind, const Tensor &a, const Tensor &b, Tensor &out);

// embedding
void embedding(const Tensor &table, const Tensor &ids, float scale, Tensor &out);

// layernorm
void layerNorm(const Tensor &x, const Tensor &gamma, const Tensor &beta, float eps, Tensor &y);

// linear
// Plain loops (double accumulation), no oneDNN: the definition Linear is tested against.
void linear(const Tensor &x, const Tensor &weight, const Tensor &bias, Activation activation,
            Tensor &y);

// matmul
void batchedMatMul(const Tensor &a, const Tensor &b, bool transposeB, float alpha, Tensor &c);

// quantizedlinear
// The arithmetic above with plain loops (exact int32 sums, double rescale): what QuantizedLinear
// computes, up to oneDNN's 7-bit weights on AVX2 without VNNI.
void quantizedLinear(const Tensor &x, const Tensor &weight, const Tensor &bias,
                     Activation activation, Tensor &y);

// rnn
// One step each, straight from the weights (double accumulation).
void gruCell(const Tensor &x, const Tensor &h, const Tensor &weightIh, const Tensor &weightHh,
             const Tensor &biasIh, const Tensor &biasHh, Tensor &hOut);
void lstmCell(const Tensor &x, const Tensor &h, const Tensor &c, const Tensor &weightIh,
              const Tensor &weightHh, const Tensor &biasIh, const Tensor &biasHh, Tensor &hOut,
              Tensor &cOut);

// softmax
// mask may be an empty Tensor.
void softmax(const Tensor &x, const Tensor &mask, bool log, Tensor &y);

} // namespace glosa::engine::ops::reference
