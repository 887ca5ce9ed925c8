// CaptionerDecoder: the Show, Attend and Tell decoder (Xu et al. 2015, arXiv:1502.03044, soft
// attention) of tools/train_captioner.py on the engine's ops, as a StepDecoder
// (engine/decoding/stepdecoder.h), so that greedy, beam, sampling and every logits processor of
// the shared search drive it unchanged.
//
// Basic usage:
//     CaptionerDecoder decoder(package);                    // checks every decoder.* tensor
//     decoder.setFeatures(grid);                            // [images, L, backbone channels]
//     auto results = engine::decode(decoder, decoder.gridSources(), options);
//
// The computation, as the docstring of tools/train_captioner.py states it (a_i: grid rows):
//   a_i = relu(project(f_i))                       (projection_dim 0: a_i = f_i)
//   h_0 = tanh(init_h(mean_i a_i)), c_0 = tanh(init_c(mean_i a_i))
//   step t: e_i = full_att · relu(encoder_att(a_i) + decoder_att(h_{t-1})) + b
//           α = softmax_i(e); z = σ(f_beta(h_{t-1})) ⊙ Σ_i α_i a_i      (gating scalar β)
//           h_t, c_t = LSTM([embedding(y_{t-1}); z], h_{t-1}, c_{t-1})   (gates i, f, g, o)
//           log-probs = log_softmax(fc(h_t)); attention = α (sums to 1 over the L cells)
// encoder_att(a_i) is computed once per image in encode().
//
// "Sources": the search hands encode() one id list per image; the captioner reads only their
// number and length, which must be the grid size L (gridSources() builds them), so that the
// search's source length - used by maxLengthRatio and the coverage penalty - is the attention
// width.
//
// Threads: one decoder is driven by one thread at a time (the worker that owns the model).
#pragma once

#include "engine/decoding/stepdecoder.h"
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

namespace glosa::captioner {

struct CaptionerConfig
{
    std::int64_t vocabSize = 0;
    std::int64_t featureDim = 0;    // backbone channels (1280 for 7x7x1280)
    std::int64_t projectionDim = 0; // P; 0 = the features are used as they are
    std::int64_t embedDim = 0;      // E
    std::int64_t hiddenDim = 0;     // H
    std::int64_t attentionDim = 0;  // A
    int gridRows = 0;
    int gridCols = 0;
    std::string featureMap; // the backbone feature map alias, e.g. "stride32_7x7x1280"
    std::int32_t padId = 0;
    std::int32_t bosId = 2;
    std::int32_t eosId = 3;

    std::int64_t cells() const { return std::int64_t(gridRows) * gridCols; }
    std::int64_t annotationDim() const { return projectionDim ? projectionDim : featureDim; }
    // Reads and checks "hyperparameters"; PackageError naming model.json and the key.
    static CaptionerConfig fromPackage(const engine::ModelPackage &package);
};

class CaptionerDecoder final : public engine::TextStepDecoder
{
public:
    // Checks every decoder.* tensor before using any, then packs the weights; PackageError
    // naming the file and the tensor.
    explicit CaptionerDecoder(const engine::ModelPackage &package);
    ~CaptionerDecoder() override;

    // The images the next encode() describes: features [images, L, featureDim] F32, grid rows in
    // row-major order (NHWC backbone output). Throws std::invalid_argument on another shape.
    void setFeatures(engine::Tensor features);
    // One source per image given to setFeatures(): L ids (the cell indices).
    std::vector<std::vector<std::int32_t>> gridSources() const;

    std::int64_t vocabularySize() const override { return m_config.vocabSize; }
    std::int32_t startToken() const override { return m_config.bosId; }
    std::int32_t endToken() const override { return m_config.eosId; }
    // sources: one per image of setFeatures(), each of length L. Throws std::invalid_argument
    // otherwise.
    std::unique_ptr<engine::DecoderState>
    encode(const std::vector<std::vector<std::int32_t>> &sources) override;
    // lastTokens [rows] I32 -> logProbs [rows, vocab], attention [rows, L].
    void step(engine::DecoderState &state, const engine::Tensor &lastTokens,
              engine::Tensor &logProbs, engine::Tensor &attention) override;

    const CaptionerConfig &config() const { return m_config; }

private:
    class State;

    CaptionerConfig m_config;
    engine::Tensor m_features;        // [images, L, featureDim]
    engine::ops::Linear m_project;    // [P, D], relu fused (empty when projectionDim is 0)
    engine::ops::Linear m_encoderAtt; // [A, P]
    engine::ops::Linear m_decoderAtt; // [A, H]
    std::vector<float> m_fullAtt;     // [A]
    float m_fullAttBias = 0.0f;
    engine::ops::Embedding m_embedding; // [vocab, E]
    engine::ops::Linear m_initH;        // [H, P], tanh fused
    engine::ops::Linear m_initC;        // [H, P], tanh fused
    engine::ops::Linear m_fBeta;        // [P, H], sigmoid fused
    engine::ops::Lstm m_lstm;           // input E + P, hidden H
    engine::ops::Linear m_fc;           // [vocab, H]
    engine::ops::LogSoftmax m_logSoftmax;
};

} // namespace glosa::captioner
