// AttentionInspector: the optional interface of a text step decoder that can show every attention
// it computes for one translation — not only the alignment step() returns — so that the GUI's
// attention panel and `glosa-cli translate --attention all` can draw them without knowing the
// plugin's classes:
//
//     if (AttentionInspector *inspector = translationModel->decoder().attentionInspector()) {
//         AttentionMaps maps = inspector->inspectAttention(sourceIds, hypothesis.tokens);
//         // [S, S]: the mean of the heads of encoder layer 0
//         Tensor mean = attentionMap(maps.encoderSelf, 0, AlignmentSource::kAverageHeads);
//     }                                              // null: the model shows no more
//
// TextStepDecoder::attentionInspector() hands it out. The search never records anything: the
// inspector re-runs the model teacher-forced on one source and the target a search chose, so a
// translation that does not ask pays nothing, and the maps are exactly those of the hypothesis
// shown (the cross map of the layer and head step() returns equals Hypothesis::attention). Call it
// between translations, on the thread that owns the model.
#pragma once

#include "engine/layers/alignmentsource.h"
#include "engine/tensor.h"

#include <cstdint>
#include <vector>

namespace glosa::engine {

class TextStepDecoder;

enum class AttentionKind : std::uint8_t {
    Cross,       // target × source: what the decoder reads of the source (the alignment)
    EncoderSelf, // source × source
    DecoderSelf, // target × target, masked: row i sees the start token and target tokens < i
};

// "cross", "encoder_self", "decoder_self": the keys of `glosa-cli translate --attention all`.
const char *attentionKindName(AttentionKind kind);

// Every layer and head of one sentence. Each kind is a Tensor [layers, heads, rows, columns] of
// softmax weights, empty when the model does not have that kind. With S source tokens (the ids
// given, EOS included) and T target tokens (the target given, without the final EOS):
//   cross        [L, H, T, S]  row i: the query that predicted target token i
//   encoderSelf  [L, H, S, S]
//   decoderSelf  [L, H, T, T]  row i, column j: the decoder input at position j — the start token
//                for j = 0, target token j - 1 after — as seen from the query predicting token i;
//                zero for j > i (the future is masked), each row sums to 1 over j ≤ i.
// Every row sums to 1 over the positions it may attend.
struct AttentionMaps
{
    Tensor cross;
    Tensor encoderSelf;
    Tensor decoderSelf;

    const Tensor &of(AttentionKind kind) const;
    Tensor &of(AttentionKind kind);
};

// One [rows, columns] map of a kind's [layers, heads, rows, columns] tensor: head `head` of layer
// `layer`, or the mean of the layer's heads for AlignmentSource::kAverageHeads. Throws
// std::out_of_range for a layer or head outside the tensor (an empty tensor has none).
Tensor attentionMap(const Tensor &maps, int layer, int head);

class AttentionInspector
{
public:
    virtual ~AttentionInspector() = default;

    // The kinds inspectAttention() fills, in the order a panel should offer them (Cross first).
    virtual std::vector<AttentionKind> attentionKinds() const = 0;
    // Encodes `source` (ids as TextStepDecoder::encode() takes them, EOS included) and steps the
    // decoder teacher-forced through `target` (inputs: startToken(), then target[0..T-2]),
    // recording every layer and head. Throws std::invalid_argument as encode() and step() do (an
    // empty source, an id outside the vocabulary, a sequence too long for the model).
    virtual AttentionMaps inspectAttention(const std::vector<std::int32_t> &source,
                                           const std::vector<std::int32_t> &target) = 0;
};

// For inspectors: encodes `source` and steps `decoder` through `target` teacher-forced, as
// inspectAttention() describes, and returns the attention step() gave for each target token,
// [T, S] (empty when the decoder gives none, or T is 0).
Tensor teacherForcedAttention(TextStepDecoder &decoder, const std::vector<std::int32_t> &source,
                              const std::vector<std::int32_t> &target);

} // namespace glosa::engine
