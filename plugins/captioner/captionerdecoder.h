// CaptionerDecoder: the Show, Attend and Tell decoder (Xu et al. 2015, arXiv:1502.03044, soft
// attention) of tools/train_captioner.py on the engine's ops, as a StepDecoder
// (engine/layers/stepdecoder.h), so that greedy, beam, sampling and every logits processor of
// the shared search drive it unchanged. Its states come from the captioner's image encoder
// (captionerencoder.h), which computes the per-image half of the model.
//
// Basic usage:
//     const auto config = CaptionerConfig::fromPackage(package);
//     CaptionerEncoder encoder(package, config);
//     CaptionerDecoder decoder(package, config);             // checks its decoder.* tensors
//     auto results = engine::decode(decoder, encoder.encode(images), options);
//
// The computation, as the docstring of tools/train_captioner.py states it (a_i: grid rows):
//   a_i = relu(project(f_i))                       (projection_dim 0: a_i = f_i)
//   h_0 = tanh(init_h(mean_i a_i)), c_0 = tanh(init_c(mean_i a_i))
//   step t: e_i = full_att · relu(encoder_att(a_i) + decoder_att(h_{t-1})) + b
//           α = softmax_i(e); z = σ(f_beta(h_{t-1})) ⊙ Σ_i α_i a_i      (gating scalar β)
//           h_t, c_t = LSTM([embedding(y_{t-1}); z], h_{t-1}, c_{t-1})   (gates i, f, g, o)
//           log-probs = log_softmax(fc(h_t)); attention = α (sums to 1 over the L cells)
// a_i, encoder_att(a_i), h_0 and c_0 are computed once per image, by the encoder; the rest is
// step(). The weights keep their "decoder." names in the package, whichever half uses them.
//
// Threads: one decoder is driven by one thread at a time (the worker that owns the model).
#pragma once

#include "engine/layers/stategather.h"
#include "engine/layers/stepdecoder.h"
#include "engine/ops/embedding.h"
#include "engine/ops/linear.h"
#include "engine/ops/rnn.h"
#include "engine/ops/softmax.h"
#include "engine/tensor.h"

#include <cstdint>
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

// The state the encoder makes and the decoder steps: per image, the annotations and their
// attention keys; per row, which image it describes and the LSTM's h and c.
class CaptionerState final : public engine::DecoderState
{
public:
    CaptionerState()
    {
        rowTensors.add(hidden);
        rowTensors.add(cell);
    }
    std::int64_t rows() const override { return static_cast<std::int64_t>(rowImage.size()); }
    // Every row attends over the whole grid.
    std::int64_t sourceLength(std::int64_t) const override { return cells; }
    // The image's index in its batch (engine/captioning/imageencoder.h).
    std::uint64_t sourceKey(std::int64_t row) const override
    {
        return static_cast<std::uint64_t>(rowImage.at(row));
    }
    void reorder(const std::vector<std::int32_t> &origins) override;

    std::int64_t cells = 0;             // L
    std::vector<std::int32_t> rowImage; // [rows]
    engine::Tensor annotations;         // [images, L, P]: a_i
    engine::Tensor keys;                // [images, L, A]: encoder_att(a_i)
    engine::Tensor hidden, cell;        // [rows, H]
    engine::layers::RowTensors rowTensors; // hidden and cell
    // Per-step buffers, reused.
    engine::Tensor query, gate, embedded, input, logits;
};

class CaptionerDecoder final : public engine::StepDecoder
{
public:
    // Checks the decoder.* tensors step() uses before using any, then packs the weights;
    // PackageError naming the file and the tensor.
    CaptionerDecoder(const engine::ModelPackage &package, const CaptionerConfig &config);
    ~CaptionerDecoder() override;

    std::int64_t vocabularySize() const override { return m_config.vocabSize; }
    std::int32_t startToken() const override { return m_config.bosId; }
    std::int32_t endToken() const override { return m_config.eosId; }
private:
    // step(): state, a CaptionerState from CaptionerEncoder::encode(); lastTokens [rows] I32 ->
    // logProbs [rows, vocab], attention [rows, L].
    void advance(engine::DecoderState &state, const engine::Tensor &lastTokens,
                 engine::Tensor &logProbs, engine::Tensor &attention) override;

    CaptionerConfig m_config;
    engine::ops::Linear m_decoderAtt; // [A, H]
    std::vector<float> m_fullAtt;     // [A]
    float m_fullAttBias = 0.0f;
    engine::ops::Embedding m_embedding; // [vocab, E]
    engine::ops::Linear m_fBeta;        // [P, H], sigmoid fused
    engine::ops::Lstm m_lstm;           // input E + P, hidden H
    engine::ops::Linear m_fc;           // [vocab, H]
    engine::ops::LogSoftmax m_logSoftmax;
};

} // namespace glosa::captioner
