// GRU and LSTM with PyTorch's weight layout, gate order and semantics (nn.GRU / nn.LSTM,
// nn.GRUCell / nn.LSTMCell), composed from two prepacked Linear ops and oneDNN eltwise kernels.
//
// Basic usage (decoder, one step for a beam of M hypotheses):
//     ops::Gru gru(wIh, wHh, bIh, bHh);     // [3H, in], [3H, H], [3H], [3H]
//     gru(x, h, hNext);                     // x [M, in], h [M, H] -> hNext [M, H]
// Encoder, a whole sentence (the input projection runs once, as one matmul over all steps):
//     gru.sequence(x, Tensor(), false, out, hLast);     // x [T, B, in] -> out [T, B, H]
//     gruBackward.sequence(x, Tensor(), true, outB, hLastB); // the backward half of a BiGRU
//
// GRU (Cho et al. 2014, arXiv:1406.1078) with PyTorch's "linear before reset" form:
//     r = σ(W_ir x + b_ir + W_hr h + b_hr)        z = σ(W_iz x + b_iz + W_hz h + b_hz)
//     n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))     h' = (1 − z) ⊙ n + z ⊙ h
// LSTM (Hochreiter & Schmidhuber 1997), gates in PyTorch order i, f, g, o:
//     c' = σ(f) ⊙ c + σ(i) ⊙ tanh(g)              h' = σ(o) ⊙ tanh(c')
//
// Why not oneDNN's own RNN primitives: in oneDNN 2.6 GRU and LBR-GRU run on the reference RNN
// driver ("ref"), and lbr_gru with weights in format_tag::any died with SIGFPE in Debian's
// 2.6.3 on this machine, so it would also need plain (unpacked) weights. Measured here, one
// thread, in = H = 512 (medians on a heavily loaded 2-core VM, so only the ratios mean much):
// decoder step M = 1: 113 µs composed vs 133 µs lbr_gru; M = 5: 126 vs 159 µs; a 30-step
// sequence, batch 1: 26 ms vs 61 ms. The composition also lets a decoder feed its inputs step
// by step without a primitive per sequence length.
//
// Thread-safe; copies share the packed weights.
#pragma once

#include "engine/ops/linear.h"
#include "engine/tensor.h"

#include <vector>

namespace glosa::engine::ops {

class Gru
{
public:
    Gru() = default; // empty; calling it throws
    // weightIh [3H, in], weightHh [3H, H] (rows r, z, n), biasIh [3H], biasHh [3H] (either bias
    // may be an empty Tensor for none). Any float storage dtype; packed at construction. `int8`
    // builds both projections as Linear::withPrecision(true, ...) (the gates' arithmetic stays
    // fp32).
    Gru(const Tensor &weightIh, const Tensor &weightHh, const Tensor &biasIh, const Tensor &biasHh,
        bool int8 = false);

    // One step: x [M, in], h [M, H] -> hOut [M, H]. hOut may alias h.
    void operator()(const Tensor &x, const Tensor &h, Tensor &hOut) const;
    // One step from a precomputed input projection xProj [M, 3H] = x·W_ihᵀ + b_ih
    // (inputProjection()), e.g. a slice of a whole sequence's projection.
    void step(const Tensor &xProj, const Tensor &h, Tensor &hOut) const;
    // A whole sequence: x [T, B, in], h0 [B, H] (empty = zeros) -> out [T, B, H], where out[t]
    // is the state after x[t], and hLast [B, H], the final state. reverse runs t = T-1 .. 0.
    // lengths (empty = all T): row b only consumes x[0 .. lengths[b]), like PyTorch's packed
    // sequences: its out[t >= lengths[b]] are zero and hLast[b] is its state at its last real
    // step (for reverse: the state after x[0], having started at x[lengths[b] - 1]).
    void sequence(const Tensor &x, const Tensor &h0, bool reverse, Tensor &out, Tensor &hLast,
                  const std::vector<std::int64_t> &lengths = {}) const;

    const Linear &inputProjection() const { return m_ih; } // x [.., in] -> [.., 3H]
    std::int64_t inputSize() const { return m_ih.inFeatures(); }
    std::int64_t hiddenSize() const { return m_hidden; }

private:
    Linear m_ih;
    Linear m_hh;
    std::int64_t m_hidden = 0;
};

class Lstm
{
public:
    Lstm() = default;
    // weightIh [4H, in], weightHh [4H, H] (rows i, f, g, o), biasIh [4H], biasHh [4H] (either
    // may be empty).
    Lstm(const Tensor &weightIh, const Tensor &weightHh, const Tensor &biasIh,
         const Tensor &biasHh);

    // One step: x [M, in], h [M, H], c [M, H] -> hOut [M, H], cOut [M, H] (may alias h, c).
    void operator()(const Tensor &x, const Tensor &h, const Tensor &c, Tensor &hOut,
                    Tensor &cOut) const;
    // xProj [M, 4H] = x·W_ihᵀ + b_ih.
    void step(const Tensor &xProj, const Tensor &h, const Tensor &c, Tensor &hOut,
              Tensor &cOut) const;
    // x [T, B, in], h0 / c0 [B, H] (empty = zeros) -> out [T, B, H], hLast / cLast [B, H];
    // reverse and lengths as in Gru::sequence.
    void sequence(const Tensor &x, const Tensor &h0, const Tensor &c0, bool reverse, Tensor &out,
                  Tensor &hLast, Tensor &cLast,
                  const std::vector<std::int64_t> &lengths = {}) const;

    const Linear &inputProjection() const { return m_ih; } // x [.., in] -> [.., 4H]
    std::int64_t inputSize() const { return m_ih.inFeatures(); }
    std::int64_t hiddenSize() const { return m_hidden; }

private:
    Linear m_ih;
    Linear m_hh;
    std::int64_t m_hidden = 0;
};

} // namespace glosa::engine::ops
