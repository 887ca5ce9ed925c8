// TextState: what every text decoder's state keeps besides its tensors (the Transformer's and the
// RNN's alike): which source sentence each row decodes, each sentence's length and sampling key,
// and the longest source. A model's State derives from it, adds its tensors and registers the
// per-row ones in `rowTensors`; reorder() moves them and the bookkeeping together.
#pragma once

#include "engine/layers/stategather.h"
#include "engine/layers/stepdecoder.h"

#include <cstdint>
#include <vector>

namespace glosa::engine::layers {

class TextState : public DecoderState
{
public:
    // One row per source, in order. Checks what TextStepDecoder::encode() promises to refuse,
    // throwing std::invalid_argument that names `decoder`: an empty source, a token id outside
    // [0, vocabularySize), a source longer than maxLength tokens.
    TextState(const std::vector<std::vector<std::int32_t>> &sources, std::int64_t vocabularySize,
              std::int64_t maxLength, const char *decoder);

    std::int64_t rows() const override { return static_cast<std::int64_t>(rowSentence.size()); }
    std::int64_t sourceLength(std::int64_t row) const override;
    std::uint64_t sourceKey(std::int64_t row) const override;
    // Checks the origins (std::out_of_range naming the decoder), then moves the row → sentence
    // map and every registered row tensor; nothing moves when the origins are the identity.
    void reorder(const std::vector<std::int32_t> &origins) final;

    std::vector<std::int64_t> lengths;     // [sentences]
    std::vector<std::uint64_t> sourceKeys; // [sentences]: tokenKey() of the source
    std::vector<std::int32_t> rowSentence; // [rows]: which sentence each row decodes
    std::int64_t maxSourceLength = 0;
    RowTensors rowTensors; // the model's [rows, ...] tensors

private:
    const char *m_decoder;
};

} // namespace glosa::engine::layers
