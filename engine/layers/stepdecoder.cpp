#include "engine/layers/stepdecoder.h"

#include "engine/tensor.h"

#include <string>

namespace glosa::engine {

// Out-of-line destructors give the interfaces one typeinfo, in the engine library, so that
// dynamic_cast works across the plugins.
DecoderState::~DecoderState() = default;
StepDecoder::~StepDecoder() = default;
TextStepDecoder::~TextStepDecoder() = default;

bool checkOrigins(const std::vector<std::int32_t> &origins, std::int64_t rows, const char *decoder)
{
    bool identity = static_cast<std::int64_t>(origins.size()) == rows;
    for (std::size_t i = 0; i < origins.size(); ++i) {
        if (origins[i] < 0 || origins[i] >= rows)
            throw std::out_of_range(std::string(decoder) + ": origin " +
                                    std::to_string(origins[i]) + " outside [0, " +
                                    std::to_string(rows) + ")");
        identity = identity && origins[i] == static_cast<std::int32_t>(i);
    }
    return identity;
}

void reorderRows(std::vector<std::int32_t> &values, const std::vector<std::int32_t> &origins)
{
    std::vector<std::int32_t> reordered(origins.size());
    for (std::size_t i = 0; i < origins.size(); ++i)
        reordered[i] = values[origins[i]];
    values = std::move(reordered);
}

std::uint64_t tokenKey(const std::vector<std::int32_t> &ids)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (std::int32_t token : ids) {
        for (int byte = 0; byte < 4; ++byte) {
            hash ^= (static_cast<std::uint32_t>(token) >> (8 * byte)) & 0xffu;
            hash *= 0x100000001b3ULL;
        }
    }
    return hash;
}

void StepDecoder::checkStep(const DecoderState &state, const Tensor &lastTokens) const
{
    const std::int64_t rows = state.rows();
    if (lastTokens.rank() != 1 || lastTokens.dim(0) != rows || lastTokens.dtype() != DType::I32)
        throw std::invalid_argument("StepDecoder::step: lastTokens must be I32 [" +
                                    std::to_string(rows) + "], got " +
                                    shapeToString(lastTokens.shape()));
    const std::int64_t vocabulary = vocabularySize();
    const std::int32_t *tokens = rows ? lastTokens.data<std::int32_t>() : nullptr;
    for (std::int64_t r = 0; r < rows; ++r)
        if (tokens[r] < 0 || tokens[r] >= vocabulary)
            throw std::invalid_argument("StepDecoder::step: token " + std::to_string(tokens[r]) +
                                        " of row " + std::to_string(r) + " is outside [0, " +
                                        std::to_string(vocabulary) + ")");
}

void StepDecoder::step(DecoderState &state, const Tensor &lastTokens, Tensor &logProbs,
                       Tensor &attention)
{
    checkStep(state, lastTokens);
    advance(state, lastTokens, logProbs, attention);
}

void StepDecoder::stepLogits(DecoderState &state, const Tensor &lastTokens, Tensor &logits,
                             Tensor &normalizers, Tensor &attention, const RowReady *rowReady)
{
    if (!hasStepLogits())
        throw std::logic_error("StepDecoder::stepLogits: this model returns log-probabilities only");
    checkStep(state, lastTokens);
    advanceLogits(state, lastTokens, logits, normalizers, attention, rowReady);
}

void StepDecoder::advanceLogits(DecoderState &, const Tensor &, Tensor &, Tensor &, Tensor &,
                                const RowReady *)
{
    throw std::logic_error("StepDecoder::advanceLogits: not overridden");
}

} // namespace glosa::engine
