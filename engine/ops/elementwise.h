// Element-wise ops: activations (Elementwise) and broadcasting Add / Mul, on oneDNN eltwise and
// binary primitives.
//
// Basic usage:
//     ops::Elementwise gelu(ops::Activation::Gelu);
//     gelu(x, y);                     // y = gelu(x); y may be x itself (in place)
//     ops::Add add;
//     add(x, bias, y);                // x [rows, n] + bias [n] (row broadcast) -> y [rows, n]
//
// Broadcasting follows NumPy, restricted to the second operand: `b` is right-aligned with `a`
// (missing leading dims count as 1) and each of its dims equals a's or is 1. The output always
// has a's shape.
#pragma once

#include "engine/ops/activation.h"
#include "engine/tensor.h"

namespace glosa::engine::ops {

class Elementwise
{
public:
    explicit Elementwise(Activation activation) : m_activation(activation) {}
    // x [any] (F32) -> y [same]; y may alias x.
    void operator()(const Tensor &x, Tensor &y) const;
    Activation activation() const { return m_activation; }

private:
    Activation m_activation;
};

enum class BinaryKind { Add, Mul };

class Binary
{
public:
    explicit Binary(BinaryKind kind) : m_kind(kind) {}
    // a [d0, ..., dn], b broadcastable to a (see above) -> out [d0, ..., dn]; out may alias a.
    void operator()(const Tensor &a, const Tensor &b, Tensor &out) const;
    BinaryKind kind() const { return m_kind; }

private:
    BinaryKind m_kind;
};

class Add : public Binary
{
public:
    Add() : Binary(BinaryKind::Add) {}
};

class Mul : public Binary
{
public:
    Mul() : Binary(BinaryKind::Mul) {}
};

// Throws std::invalid_argument naming both shapes when b does not broadcast to a; returns b's
// shape padded with leading 1s to a's rank.
Shape broadcastShape(const Shape &a, const Shape &b, const char *op);

} // namespace glosa::engine::ops
