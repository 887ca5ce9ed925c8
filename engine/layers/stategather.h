// Reordering a decoder state's rows by beam origins (DecoderState::reorder()), shared by the
// model families: RNN hidden states and a Transformer's key/value caches alike.
#pragma once

#include "engine/tensor.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace glosa::engine::layers {

// Row i of `rows` (dim 0, fp32) becomes its former row origins[i], and dim 0 becomes
// origins.size(). Only the first `used` floats of each row are copied — a key/value cache filled
// up to the current step — and the rest of a row is left unset; used < 0 copies whole rows.
// When rows are only dropped (origins increasing, the common case once hypotheses finish) they
// are compacted in place; otherwise they are gathered into `spare`, which is swapped in (so a
// state keeps one scratch tensor and allocates only when it grows). Origins must be in
// [0, rows) (checkOrigins()).
void gatherStateRows(Tensor &rows, const std::vector<std::int32_t> &origins, Tensor &spare,
                     std::int64_t used = -1);

// The per-row tensors of a decoder state, reordered together (CTranslate2's gather_state over
// its DecoderState map): a state registers each tensor once, where it creates it, and its
// reorder() calls gather() instead of keeping its own list of what to move.
class RowTensors
{
public:
    RowTensors() = default;
    // The entries point into the state that holds this object: a copy would point into the
    // original, so the states that hold one cannot be copied either.
    RowTensors(const RowTensors &) = delete;
    RowTensors &operator=(const RowTensors &) = delete;

    // Registers `tensor` (dim 0 is the row), which must outlive this object and stay at its
    // address (a member of the state, or an element of a vector that is not resized again).
    // `usedFloats`, when given, says how many leading floats of each row hold data at the time
    // of a gather (a key/value cache filled up to the current step: gatherStateRows' `used`).
    void add(Tensor &tensor, std::function<std::int64_t()> usedFloats = {});
    // gatherStateRows() on every registered tensor; those still empty (a cache the first step
    // allocates) are skipped.
    void gather(const std::vector<std::int32_t> &origins);

private:
    struct Entry
    {
        Tensor *tensor;
        std::function<std::int64_t()> usedFloats;
    };
    std::vector<Entry> m_entries;
    Tensor m_spare;
};

} // namespace glosa::engine::layers
