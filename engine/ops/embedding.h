// Embedding lookup: int32 ids -> rows of a table.
//
// Basic usage:
//     ops::Embedding embed(table);      // table [vocab, dim]
//     embed(ids, out);                  // ids [...] (I32) -> out [..., dim]
//
// An id outside [0, vocab) throws std::out_of_range naming the id, its position and the vocab
// size: a corrupt model or tokenizer mismatch must not read out of bounds.
#pragma once

#include "engine/tensor.h"

namespace glosa::engine::ops {

class Embedding
{
public:
    Embedding() = default; // empty; calling it throws
    // table [vocab, dim], any storage dtype (converted to fp32 once; an F32 table is shared,
    // not copied, so a memory-mapped table stays zero-copy).
    explicit Embedding(const Tensor &table);
    // Optional scale applied to every looked-up row (e.g. sqrt(d_model) in the Transformer,
    // Vaswani et al. 2017 §3.4); 1 turns it off.
    Embedding(const Tensor &table, float scale);
    void operator()(const Tensor &ids, Tensor &out) const;
    std::int64_t vocabSize() const { return m_table.empty() ? 0 : m_table.dim(0); }
    std::int64_t dim() const { return m_table.empty() ? 0 : m_table.dim(1); }
    const Tensor &table() const { return m_table; } // [vocab, dim] F32

private:
    Tensor m_table;
    float m_scale = 1.0f;
};

} // namespace glosa::engine::ops
