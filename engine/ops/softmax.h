// Softmax and LogSoftmax over the last axis, with an optional mask (oneDNN softmax /
// logsoftmax primitives; the mask is added first with a broadcasting binary add).
//
// Basic usage:
//     ops::Softmax softmax;
//     softmax(scores, probs);                    // [..., n] -> [..., n]
//     softmax(scores, keyMask, probs);           // mask broadcasts to scores, see below
//     ops::LogSoftmax()(logits, logProbs);       // [batch, vocab]
//
// Masks broadcast to the input like ops::Add's second operand (e.g. scores
// [batch, heads, tq, tk] with mask [batch, 1, 1, tk]):
//   - F32: additive, e.g. 0 to keep and -inf (or a large negative number) to drop;
//   - I32: boolean, nonzero = keep, 0 = drop (implemented as an additive -1e30, so a row that
//     drops everything comes out uniform instead of NaN, and LogSoftmax gives about -1e30 there).
#pragma once

#include "engine/tensor.h"

namespace glosa::engine::ops {

class Softmax
{
public:
    // log = true computes log(softmax(x)) in one stable pass.
    explicit Softmax(bool log = false) : m_log(log) {}
    // x [..., n] (F32) -> y [..., n]; y may alias x.
    void operator()(const Tensor &x, Tensor &y) const;
    // mask: F32 additive or I32 boolean, broadcastable to x.
    void operator()(const Tensor &x, const Tensor &mask, Tensor &y) const;
    bool isLog() const { return m_log; }

private:
    bool m_log;
};

class LogSoftmax : public Softmax
{
public:
    LogSoftmax() : Softmax(true) {}
};

// The additive value an I32 mask's zeros turn into.
inline constexpr float kMaskedOut = -1e30f;

} // namespace glosa::engine::ops
