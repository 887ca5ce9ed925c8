// Reordering a decoder state's rows by beam origins (DecoderState::reorder()), shared by the
// model families: RNN hidden states and a Transformer's key/value caches alike.
#pragma once

#include "engine/tensor.h"

#include <cstdint>
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

} // namespace glosa::engine::layers
