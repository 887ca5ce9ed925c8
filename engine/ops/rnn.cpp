#include "engine/ops/rnn.h"

#include "engine/ops/elementwise.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace glosa::engine::ops {

namespace {

// Stateless and configured once. Named objects, not `Elementwise(Activation::X)(in, out)`: clang
// parses that statement as a declaration (the most vexing parse) and rejects the file.
const Elementwise kSigmoid{Activation::Sigmoid};
const Elementwise kTanh{Activation::Tanh};

void checkWeights(const char *op, int gates, const Tensor &wIh, const Tensor &wHh,
                  const Tensor &bIh, const Tensor &bHh, std::int64_t &hidden)
{
    if (wHh.rank() != 2 || wIh.rank() != 2 || wHh.dim(0) % gates != 0 ||
        wHh.dim(0) / gates != wHh.dim(1) || wIh.dim(0) != wHh.dim(0) || wHh.dim(1) == 0)
        throw std::invalid_argument(std::string(op) + ": weight_ih " + shapeToString(wIh.shape()) +
                                    " and weight_hh " + shapeToString(wHh.shape()) + " are not [" +
                                    std::to_string(gates) + "H, in] and [" + std::to_string(gates) +
                                    "H, H]");
    hidden = wHh.dim(1);
    for (const Tensor *b : {&bIh, &bHh})
        if (!b->empty() && b->shape() != Shape{gates * hidden})
            throw std::invalid_argument(std::string(op) + ": bias " + shapeToString(b->shape()) +
                                        " is not [" + std::to_string(gates * hidden) + "]");
}

void checkState(const char *op, const char *what, const Tensor &t, std::int64_t m,
                std::int64_t hidden)
{
    if (t.dtype() != DType::F32 || t.shape() != Shape{m, hidden})
        throw std::invalid_argument(std::string(op) + ": " + what + " " + dtypeName(t.dtype()) +
                                    " " + shapeToString(t.shape()) + " is not F32 [" +
                                    std::to_string(m) + ", " + std::to_string(hidden) + "]");
}

void checkProjection(const char *op, const Tensor &xProj, int gates, std::int64_t hidden)
{
    if (xProj.dtype() != DType::F32 || xProj.rank() != 2 || xProj.dim(1) != gates * hidden)
        throw std::invalid_argument(std::string(op) + ": input projection " +
                                    shapeToString(xProj.shape()) + " is not [M, " +
                                    std::to_string(gates * hidden) + "]");
}

void checkSequence(const char *op, const Tensor &x, std::int64_t in,
                   const std::vector<std::int64_t> &lengths)
{
    if (x.dtype() != DType::F32 || x.rank() != 3 || x.dim(2) != in)
        throw std::invalid_argument(std::string(op) + ": sequence " + shapeToString(x.shape()) +
                                    " is not F32 [T, B, " + std::to_string(in) + "]");
    if (!lengths.empty()) {
        if (static_cast<std::int64_t>(lengths.size()) != x.dim(1))
            throw std::invalid_argument(std::string(op) + ": " + std::to_string(lengths.size()) +
                                        " lengths for a batch of " + std::to_string(x.dim(1)));
        for (std::int64_t len : lengths)
            if (len < 0 || len > x.dim(0))
                throw std::invalid_argument(std::string(op) + ": length " + std::to_string(len) +
                                            " outside [0, " + std::to_string(x.dim(0)) + "]");
    }
}

// Per-thread work buffers, so that steps allocate nothing once warm.
struct Scratch
{
    Tensor hProj, sig, tanhIn;
};

Scratch &scratch()
{
    thread_local Scratch s;
    return s;
}

// Visits t = 0 .. steps-1, or backwards. Every step advances all rows (one matmul for the
// batch); the callers then keep the old state of rows that are past their length.
template <typename Step> void runSequence(std::int64_t steps, bool reverse, Step &&stepFn)
{
    for (std::int64_t i = 0; i < steps; ++i)
        stepFn(reverse ? steps - 1 - i : i);
}

} // namespace

Gru::Gru(const Tensor &weightIh, const Tensor &weightHh, const Tensor &biasIh, const Tensor &biasHh,
         bool int8)
{
    checkWeights("Gru", 3, weightIh, weightHh, biasIh, biasHh, m_hidden);
    m_ih = Linear::withPrecision(int8, weightIh, biasIh);
    m_hh = Linear::withPrecision(int8, weightHh, biasHh);
}

void Gru::operator()(const Tensor &x, const Tensor &h, Tensor &hOut) const
{
    if (m_hidden == 0)
        throw std::logic_error("Gru: called on an empty (default-constructed) op");
    if (x.rank() != 2 || x.dim(0) != h.dim(0))
        throw std::invalid_argument("Gru: input " + shapeToString(x.shape()) + " and state " +
                                    shapeToString(h.shape()) + " are not [M, in] and [M, H]");
    thread_local Tensor xProj;
    m_ih(x, xProj);
    step(xProj, h, hOut);
}

void Gru::step(const Tensor &xProj, const Tensor &h, Tensor &hOut) const
{
    if (m_hidden == 0)
        throw std::logic_error("Gru: called on an empty (default-constructed) op");
    const std::int64_t H = m_hidden;
    checkProjection("Gru", xProj, 3, H);
    const std::int64_t m = xProj.dim(0);
    checkState("Gru", "state", h, m, H);
    Scratch &s = scratch();
    m_hh(h, s.hProj); // [M, 3H]
    // r and z: one dense [M, 2H] buffer so a single vectorised eltwise call does both.
    s.sig.resize({m, 2 * H});
    s.tanhIn.resize({m, H});
    const float *xp = xProj.data<float>(), *hp = s.hProj.data<float>();
    float *sig = s.sig.data<float>();
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < 2 * H; ++j)
            sig[r * 2 * H + j] = xp[r * 3 * H + j] + hp[r * 3 * H + j];
    kSigmoid(s.sig, s.sig);
    float *n = s.tanhIn.data<float>();
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < H; ++j)
            n[r * H + j] =
                xp[r * 3 * H + 2 * H + j] + sig[r * 2 * H + j] * hp[r * 3 * H + 2 * H + j];
    kTanh(s.tanhIn, s.tanhIn);
    // h may alias hOut: read h before writing each element (same index), which is safe.
    if (!(hOut.raw() == h.raw() && hOut.shape() == h.shape()))
        hOut.resize({m, H});
    const float *hv = h.data<float>();
    float *ho = hOut.data<float>();
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < H; ++j) {
            const float z = sig[r * 2 * H + H + j];
            ho[r * H + j] = (1.0f - z) * n[r * H + j] + z * hv[r * H + j];
        }
}

void Gru::sequence(const Tensor &x, const Tensor &h0, bool reverse, Tensor &out, Tensor &hLast,
                   const std::vector<std::int64_t> &lengths) const
{
    if (m_hidden == 0)
        throw std::logic_error("Gru: called on an empty (default-constructed) op");
    checkSequence("Gru", x, inputSize(), lengths);
    const std::int64_t T = x.dim(0), B = x.dim(1), H = m_hidden;
    Tensor h({B, H});
    if (!h0.empty()) {
        checkState("Gru", "initial state", h0, B, H);
        std::memcpy(h.raw(), h0.raw(), h.byteSize());
    }
    Tensor xProj;
    m_ih(x, xProj); // [T, B, 3H], one matmul for the whole sentence
    Tensor result({T, B, H});
    Tensor next;
    runSequence(T, reverse, [&](std::int64_t t) {
        step(xProj[t], h, next);
        float *dst = result.data<float>() + t * B * H;
        for (std::int64_t b = 0; b < B; ++b) {
            const bool active = lengths.empty() || t < lengths[b];
            if (!active)
                continue; // keeps its state and outputs zeros (result is zero-filled)
            std::memcpy(h.data<float>() + b * H, next.data<float>() + b * H, H * sizeof(float));
            std::memcpy(dst + b * H, next.data<float>() + b * H, H * sizeof(float));
        }
    });
    out = result;
    hLast = h;
}

Lstm::Lstm(const Tensor &weightIh, const Tensor &weightHh, const Tensor &biasIh,
           const Tensor &biasHh)
{
    checkWeights("Lstm", 4, weightIh, weightHh, biasIh, biasHh, m_hidden);
    m_ih = Linear(weightIh, biasIh);
    m_hh = Linear(weightHh, biasHh);
}

void Lstm::operator()(const Tensor &x, const Tensor &h, const Tensor &c, Tensor &hOut,
                      Tensor &cOut) const
{
    if (m_hidden == 0)
        throw std::logic_error("Lstm: called on an empty (default-constructed) op");
    if (x.rank() != 2 || x.dim(0) != h.dim(0))
        throw std::invalid_argument("Lstm: input " + shapeToString(x.shape()) + " and state " +
                                    shapeToString(h.shape()) + " are not [M, in] and [M, H]");
    thread_local Tensor xProj;
    m_ih(x, xProj);
    step(xProj, h, c, hOut, cOut);
}

void Lstm::step(const Tensor &xProj, const Tensor &h, const Tensor &c, Tensor &hOut,
                Tensor &cOut) const
{
    if (m_hidden == 0)
        throw std::logic_error("Lstm: called on an empty (default-constructed) op");
    const std::int64_t H = m_hidden;
    checkProjection("Lstm", xProj, 4, H);
    const std::int64_t m = xProj.dim(0);
    checkState("Lstm", "state h", h, m, H);
    checkState("Lstm", "state c", c, m, H);
    Scratch &s = scratch();
    m_hh(h, s.hProj); // [M, 4H]
    // Pre-activations, repacked densely: sig = [i | f | o] per row, tanhIn = g.
    s.sig.resize({m, 3 * H});
    s.tanhIn.resize({m, H});
    const float *xp = xProj.data<float>(), *hp = s.hProj.data<float>();
    float *sig = s.sig.data<float>(), *g = s.tanhIn.data<float>();
    for (std::int64_t r = 0; r < m; ++r) {
        const float *xr = xp + r * 4 * H, *hr = hp + r * 4 * H;
        float *sr = sig + r * 3 * H;
        for (std::int64_t j = 0; j < 2 * H; ++j)
            sr[j] = xr[j] + hr[j]; // i, f
        for (std::int64_t j = 0; j < H; ++j) {
            g[r * H + j] = xr[2 * H + j] + hr[2 * H + j];
            sr[2 * H + j] = xr[3 * H + j] + hr[3 * H + j]; // o
        }
    }
    kSigmoid(s.sig, s.sig);
    kTanh(s.tanhIn, s.tanhIn);
    if (!(cOut.raw() == c.raw() && cOut.shape() == c.shape()))
        cOut.resize({m, H});
    const float *cv = c.data<float>();
    float *co = cOut.data<float>();
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < H; ++j)
            co[r * H + j] =
                sig[r * 3 * H + H + j] * cv[r * H + j] + sig[r * 3 * H + j] * g[r * H + j];
    // tanh(c') into the g buffer (g is no longer needed).
    std::memcpy(g, co, static_cast<std::size_t>(m * H) * sizeof(float));
    kTanh(s.tanhIn, s.tanhIn);
    if (!(hOut.raw() == h.raw() && hOut.shape() == h.shape()))
        hOut.resize({m, H});
    float *ho = hOut.data<float>();
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t j = 0; j < H; ++j)
            ho[r * H + j] = sig[r * 3 * H + 2 * H + j] * g[r * H + j];
}

void Lstm::sequence(const Tensor &x, const Tensor &h0, const Tensor &c0, bool reverse, Tensor &out,
                    Tensor &hLast, Tensor &cLast, const std::vector<std::int64_t> &lengths) const
{
    if (m_hidden == 0)
        throw std::logic_error("Lstm: called on an empty (default-constructed) op");
    checkSequence("Lstm", x, inputSize(), lengths);
    const std::int64_t T = x.dim(0), B = x.dim(1), H = m_hidden;
    Tensor h({B, H}), c({B, H});
    if (!h0.empty()) {
        checkState("Lstm", "initial state h", h0, B, H);
        std::memcpy(h.raw(), h0.raw(), h.byteSize());
    }
    if (!c0.empty()) {
        checkState("Lstm", "initial state c", c0, B, H);
        std::memcpy(c.raw(), c0.raw(), c.byteSize());
    }
    Tensor xProj;
    m_ih(x, xProj); // [T, B, 4H]
    Tensor result({T, B, H});
    Tensor hNext, cNext;
    runSequence(T, reverse, [&](std::int64_t t) {
        step(xProj[t], h, c, hNext, cNext);
        float *dst = result.data<float>() + t * B * H;
        for (std::int64_t b = 0; b < B; ++b) {
            if (!lengths.empty() && t >= lengths[b])
                continue;
            std::memcpy(h.data<float>() + b * H, hNext.data<float>() + b * H, H * sizeof(float));
            std::memcpy(c.data<float>() + b * H, cNext.data<float>() + b * H, H * sizeof(float));
            std::memcpy(dst + b * H, hNext.data<float>() + b * H, H * sizeof(float));
        }
    });
    out = result;
    hLast = h;
    cLast = c;
}

} // namespace glosa::engine::ops
