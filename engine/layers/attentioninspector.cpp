#include "engine/layers/attentioninspector.h"

#include "engine/layers/stepdecoder.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace glosa::engine {

const char *attentionKindName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Cross:
        return "cross";
    case AttentionKind::EncoderSelf:
        return "encoder_self";
    case AttentionKind::DecoderSelf:
        return "decoder_self";
    }
    return "?";
}

const Tensor &AttentionMaps::of(AttentionKind kind) const
{
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return encoderSelf;
    case AttentionKind::DecoderSelf:
        return decoderSelf;
    case AttentionKind::Cross:
        break;
    }
    return cross;
}

Tensor &AttentionMaps::of(AttentionKind kind)
{
    return const_cast<Tensor &>(static_cast<const AttentionMaps &>(*this).of(kind));
}

Tensor attentionMap(const Tensor &maps, int layer, int head)
{
    const std::int64_t layers = maps.rank() == 4 ? maps.dim(0) : 0;
    const std::int64_t heads = maps.rank() == 4 ? maps.dim(1) : 0;
    if (layer < 0 || layer >= layers)
        throw std::out_of_range("attentionMap: layer " + std::to_string(layer) + " outside [0, " +
                                std::to_string(layers) + ")");
    if (head != AlignmentSource::kAverageHeads && (head < 0 || head >= heads))
        throw std::out_of_range("attentionMap: head " + std::to_string(head) + " outside [0, " +
                                std::to_string(heads) + ") and not kAverageHeads (-1)");
    const std::int64_t rows = maps.dim(2), columns = maps.dim(3), size = rows * columns;
    const float *layerMaps = maps.data<float>() + layer * heads * size;
    Tensor out({rows, columns});
    float *o = out.data<float>();
    if (head != AlignmentSource::kAverageHeads) {
        std::memcpy(o, layerMaps + head * size, size * sizeof(float));
        return out;
    }
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < size; ++i)
            o[i] += layerMaps[h * size + i];
    const float inverse = 1.0f / static_cast<float>(heads);
    for (std::int64_t i = 0; i < size; ++i)
        o[i] *= inverse;
    return out;
}

Tensor teacherForcedAttention(TextStepDecoder &decoder, const std::vector<std::int32_t> &source,
                              const std::vector<std::int32_t> &target)
{
    std::unique_ptr<DecoderState> state = decoder.encode({source});
    const auto T = static_cast<std::int64_t>(target.size());
    Tensor attention, logProbs, stepAttention;
    Tensor last = Tensor::fromInts({1}, {decoder.startToken()});
    for (std::int64_t t = 0; t < T; ++t) {
        decoder.step(*state, last, logProbs, stepAttention);
        if (!stepAttention.empty()) {
            const std::int64_t S = stepAttention.dim(1);
            if (attention.empty())
                attention = Tensor({T, S});
            std::memcpy(attention.data<float>() + t * S, stepAttention.data<float>(),
                        S * sizeof(float));
        }
        last.data<std::int32_t>()[0] = target[t];
    }
    return attention;
}

} // namespace glosa::engine
