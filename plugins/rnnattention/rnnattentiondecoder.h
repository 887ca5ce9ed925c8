// RnnAttentionDecoder: the RNN encoder-decoder with attention of tools/train_rnn.py (Luong et al.
// 2015 with input feeding; the score function chosen at training time) on the engine's ops, as a
// TextStepDecoder (engine/layers/stepdecoder.h).
//
// Basic usage:
//     const auto package = engine::ModelPackage::load("resources/models/rnn-attention-en-es");
//     rnnattention::RnnAttentionDecoder decoder(package);          // validates every tensor
//     std::vector<engine::DecodingResult> r = engine::decode(decoder, {{12, 7, 3}}, options);
// The plugin wraps it in an engine::TranslationModel (engine/translation/translationmodel.h).
//
// The computation, exactly as the docstring of tools/train_rnn.py states it:
//   encoder  e = E[src]; a stack of bidirectional GRUs (PyTorch's linear-before-reset cell, gates
//            r, z, n) over the real tokens of each sentence (packed-sequence semantics), layer
//            l > 0 reading [fwd; bwd] of layer l - 1; h_s = [fwd_s; bwd_s] of the last layer
//   bridge   h_0 = tanh(bridge([fwd_last; bwd_first]))
//   step t   x_t = [E[y_{t-1}]; h~_{t-1}] (input feeding, h~_0 = 0); h_t = GRUCell(x_t, h_{t-1})
//            a_t = softmax_s(score(h_t, h_s)) over the sentence's real positions
//            c_t = Σ_s a_t[s] h_s;  h~_t = tanh(combine([c_t; h_t]))   (no bias)
//            log-probs = log_softmax(h~_t E^T + output_bias)          (output tied to E)
//   score    dot: h_t · h_s; general: h_t · (W_a h_s); additive: v · tanh(W_q h_t + W_k h_s);
//            scaled-dot: h_t · h_s / sqrt(2 · encoder_hidden)
//   none     no attention: c_t = [fwd_last; bwd_first] at every step (the fixed-context
//            encoder-decoder, Bahdanau et al. 2015's "RNNencdec" baseline); step() leaves the
//            attention empty and the inspector lists no kind
// Per-source work (W_a h_s, W_k h_s) is done once in encode(). step() returns a_t as the
// alignment; it is the model's one attention, and the only kind inspectAttention() reports
// (engine/layers/attentioninspector.h: one layer, one head). tests/parity/tst_parity_rnn.cpp
// checks all four score functions, and none, against PyTorch.
//
// Threads: one model may be used by one thread at a time (the worker that owns it).
#pragma once

#include "engine/layers/attentioninspector.h"
#include "engine/layers/stepdecoder.h"
#include "engine/ops/embedding.h"
#include "engine/ops/linear.h"
#include "engine/ops/rnn.h"
#include "engine/ops/softmax.h"
#include "engine/tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace glosa::engine {
class ModelPackage;
} // namespace glosa::engine

namespace glosa::rnnattention {

enum class AttentionScore { Dot, General, Additive, ScaledDot, None };

// "dot", "general", "additive", "scaled-dot", "none" (the names train_rnn.py uses).
const char *attentionScoreName(AttentionScore score);

struct RnnAttentionConfig
{
    std::int64_t vocabSize = 0;
    std::int64_t embeddingDim = 0;  // E
    std::int64_t encoderHidden = 0; // H per direction; encoder states are 2H wide
    int encoderLayers = 0;
    std::int64_t decoderHidden = 0; // Hd
    AttentionScore attention = AttentionScore::General;
    std::int64_t attentionDim = 0; // additive only
    std::int32_t padId = 0;
    std::int32_t bosId = 2;
    std::int32_t eosId = 3;

    // Reads and checks "hyperparameters"; PackageError naming model.json and the key.
    static RnnAttentionConfig fromPackage(const engine::ModelPackage &package);
};

class RnnAttentionDecoder final : public engine::TextStepDecoder, public engine::AttentionInspector
{
public:
    // Validates every tensor before using any, then packs the weights. Throws
    // engine::PackageError naming the file and the tensor.
    explicit RnnAttentionDecoder(const engine::ModelPackage &package);
    ~RnnAttentionDecoder() override;

    std::int64_t vocabularySize() const override { return m_config.vocabSize; }
    std::int32_t startToken() const override { return m_config.bosId; }
    std::int32_t endToken() const override { return m_config.eosId; }
    // sources: ids with the final EOS. Throws std::invalid_argument for an empty source or an id
    // outside the vocabulary.
    std::unique_ptr<engine::DecoderState>
    encode(const std::vector<std::vector<std::int32_t>> &sources) override;
    engine::AttentionInspector *attentionInspector() override { return this; }

    // AttentionInspector: Cross only, [1, 1, T, S] (step()'s attention); no kind at all without
    // attention, so that the attention panel lists nothing.
    std::vector<engine::AttentionKind> attentionKinds() const override
    {
        if (m_config.attention == AttentionScore::None)
            return {};
        return {engine::AttentionKind::Cross};
    }
    engine::AttentionMaps inspectAttention(const std::vector<std::int32_t> &source,
                                           const std::vector<std::int32_t> &target) override;

    const RnnAttentionConfig &config() const { return m_config; }

private:
    // step(): lastTokens [rows] I32 -> logProbs [rows, vocab], attention [rows, maxSourceLength]
    // (empty for AttentionScore::None).
    void advance(engine::DecoderState &state, const engine::Tensor &lastTokens,
                 engine::Tensor &logProbs, engine::Tensor &attention) override;

    class State;

    RnnAttentionConfig m_config;
    engine::ops::Embedding m_embedding;              // [vocab, E]
    std::vector<engine::ops::Gru> m_encoderForward;  // per layer
    std::vector<engine::ops::Gru> m_encoderBackward; // per layer
    engine::ops::Linear m_bridge;                    // [Hd, 2H], tanh fused
    engine::ops::Gru m_decoderCell;                  // input 2E, hidden Hd
    engine::ops::Linear m_keyProjection;   // general: [Hd, 2H]; additive: [A, 2H]; else empty
    engine::ops::Linear m_queryProjection; // additive: [A, Hd]
    std::vector<float> m_v;                // additive: [A]
    float m_scoreScale = 1.0f;
    engine::ops::Linear m_combine; // [E, 2H + Hd], tanh fused, no bias
    engine::ops::Linear m_output;  // [vocab, E] (the embedding) + output_bias
    engine::ops::LogSoftmax m_logSoftmax;
};

} // namespace glosa::rnnattention
