#include "plugins/captioner/captionerdecoder.h"

#include "engine/layers/attention.h"
#include "engine/layers/stategather.h"
#include "engine/limits.h"
#include "engine/package.h"
#include "engine/tokenizersizes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace glosa::captioner {

using engine::Tensor;

CaptionerConfig CaptionerConfig::fromPackage(const engine::ModelPackage &package)
{
    CaptionerConfig c;
    using namespace engine::limits;
    c.vocabSize = package.boundedHyperparameter("vocab_size", 1, kMaxVocabulary);
    c.featureDim = package.boundedHyperparameter("feature_dim", 1, kMaxModelWidth);
    c.projectionDim = package.boundedHyperparameter("projection_dim", 0, kMaxModelWidth, 0);
    c.embedDim = package.boundedHyperparameter("embed_dim", 1, kMaxModelWidth);
    c.hiddenDim = package.boundedHyperparameter("hidden_dim", 1, kMaxModelWidth);
    c.attentionDim = package.boundedHyperparameter("attention_dim", 1, kMaxModelWidth);
    c.gridRows = static_cast<int>(package.boundedHyperparameter("grid_rows", 1, kMaxPositions));
    c.gridCols = static_cast<int>(package.boundedHyperparameter("grid_cols", 1, kMaxPositions));
    c.featureMap = package.hyperparameter<std::string>("feature_map");
    c.padId = package.hyperparameter<std::int32_t>("pad_id", 0);
    c.bosId = package.hyperparameter<std::int32_t>("bos_id", 2);
    c.eosId = package.hyperparameter<std::int32_t>("eos_id", 3);
    package.requireTokenIds({{"pad_id", c.padId}, {"bos_id", c.bosId}, {"eos_id", c.eosId}},
                            c.vocabSize);
    return c;
}

// ---------------------------------------------------------------------------------------------

void CaptionerState::reorder(const std::vector<std::int32_t> &origins)
{
    if (engine::checkOrigins(origins, rows(), "CaptionerDecoder"))
        return;
    rowTensors.gather(origins);
    engine::reorderRows(rowImage, origins);
}

// ---------------------------------------------------------------------------------------------

CaptionerDecoder::CaptionerDecoder(const engine::ModelPackage &package,
                                   const CaptionerConfig &config)
    : m_config(config)
{
    const CaptionerConfig &c = m_config;
    const std::int64_t P = c.annotationDim(), E = c.embedDim, H = c.hiddenDim, A = c.attentionDim,
                       V = c.vocabSize;
    engine::requireTokenizerSizes(package, V);
    package.requireTensors({
        {"decoder.decoder_att.weight", {A, H}},
        {"decoder.decoder_att.bias", {A}},
        {"decoder.full_att.weight", {1, A}},
        {"decoder.full_att.bias", {1}},
        {"decoder.embedding.weight", {V, E}},
        {"decoder.f_beta.weight", {P, H}},
        {"decoder.f_beta.bias", {P}},
        {"decoder.lstm.weight_ih", {4 * H, E + P}},
        {"decoder.lstm.weight_hh", {4 * H, H}},
        {"decoder.lstm.bias_ih", {4 * H}},
        {"decoder.lstm.bias_hh", {4 * H}},
        {"decoder.fc.weight", {V, H}},
        {"decoder.fc.bias", {V}},
    });
    auto w = [&](const std::string &name) { return package.weight("decoder." + name); };
    using engine::ops::Activation;
    using engine::ops::Linear;
    m_decoderAtt = Linear(w("decoder_att.weight"), w("decoder_att.bias"));
    const Tensor fullAtt = w("full_att.weight");
    m_fullAtt.assign(fullAtt.data<float>(), fullAtt.data<float>() + A);
    m_fullAttBias = w("full_att.bias").data<float>()[0];
    m_embedding = engine::ops::Embedding(w("embedding.weight"));
    m_fBeta = Linear(w("f_beta.weight"), w("f_beta.bias"), Activation::Sigmoid);
    m_lstm = engine::ops::Lstm(w("lstm.weight_ih"), w("lstm.weight_hh"), w("lstm.bias_ih"),
                               w("lstm.bias_hh"));
    m_fc = Linear(w("fc.weight"), w("fc.bias"));
}

CaptionerDecoder::~CaptionerDecoder() = default;

void CaptionerDecoder::advance(engine::DecoderState &base, const Tensor &lastTokens,
                               Tensor &logProbs, Tensor &attention)
{
    CaptionerState &st = engine::stateOf<CaptionerState>(base, "CaptionerDecoder");
    const CaptionerConfig &c = m_config;
    const std::int64_t L = c.cells(), P = c.annotationDim(), E = c.embedDim, A = c.attentionDim,
                       V = c.vocabSize;
    const std::int64_t rows = st.rows();
    logProbs.resize({rows, V});
    attention.resize({rows, L});
    if (rows == 0)
        return;
    // Attention and gate read h_{t-1}.
    m_decoderAtt(st.hidden, st.query); // [rows, A]
    m_fBeta(st.hidden, st.gate);       // [rows, P], sigmoid fused
    m_embedding(lastTokens, st.embedded);
    st.input.resize({rows, E + P});
    const float *query = st.query.data<float>();
    const float *gate = st.gate.data<float>();
    const float *keys = st.keys.data<float>();
    const float *annotations = st.annotations.data<float>();
    float *att = attention.data<float>();
    float *input = st.input.data<float>();
    std::vector<float> context(static_cast<std::size_t>(P));
    for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t image = st.rowImage[r];
        const float *q = query + r * A;
        float *alpha = att + r * L;
        for (std::int64_t i = 0; i < L; ++i) {
            const float *k = keys + (image * L + i) * A;
            float e = m_fullAttBias;
            for (std::int64_t j = 0; j < A; ++j)
                e += m_fullAtt[j] * std::max(k[j] + q[j], 0.0f);
            alpha[i] = e;
        }
        engine::layers::softmaxWeightedSum(alpha, L, annotations + image * L * P, P, P,
                                           context.data());
        float *x = input + r * (E + P);
        std::memcpy(x, st.embedded.data<float>() + r * E, E * sizeof(float));
        for (std::int64_t p = 0; p < P; ++p)
            x[E + p] = gate[r * P + p] * context[p];
    }
    m_lstm(st.input, st.hidden, st.cell, st.hidden, st.cell);
    m_fc(st.hidden, st.logits);
    m_logSoftmax(st.logits, logProbs);
}

} // namespace glosa::captioner
