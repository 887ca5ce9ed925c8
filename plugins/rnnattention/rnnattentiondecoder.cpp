#include "plugins/rnnattention/rnnattentiondecoder.h"

#include "engine/layers/attention.h"
#include "engine/layers/stategather.h"
#include "engine/layers/textstate.h"
#include "engine/limits.h"
#include "engine/package.h"
#include "engine/tokenizersizes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace glosa::rnnattention {

using engine::Shape;
using engine::Tensor;

const char *attentionScoreName(AttentionScore score)
{
    switch (score) {
    case AttentionScore::Dot:
        return "dot";
    case AttentionScore::General:
        return "general";
    case AttentionScore::Additive:
        return "additive";
    case AttentionScore::ScaledDot:
        return "scaled-dot";
    case AttentionScore::None:
        return "none";
    }
    return "?";
}

RnnAttentionConfig RnnAttentionConfig::fromPackage(const engine::ModelPackage &package)
{
    RnnAttentionConfig c;
    using namespace engine::limits;
    c.vocabSize = package.boundedHyperparameter("vocab_size", 1, kMaxVocabulary);
    c.embeddingDim = package.boundedHyperparameter("embedding_dim", 1, kMaxModelWidth);
    c.encoderHidden = package.boundedHyperparameter("encoder_hidden", 1, kMaxModelWidth);
    c.encoderLayers =
        static_cast<int>(package.boundedHyperparameter("encoder_layers", 1, kMaxLayers));
    c.decoderHidden = package.boundedHyperparameter("decoder_hidden", 1, kMaxModelWidth);
    const auto kind = package.hyperparameter<std::string>("attention");
    bool known = false;
    for (AttentionScore s : {AttentionScore::Dot, AttentionScore::General, AttentionScore::Additive,
                             AttentionScore::ScaledDot, AttentionScore::None})
        if (kind == attentionScoreName(s)) {
            c.attention = s;
            known = true;
        }
    if (!known)
        package.hyperparameterError(
            "attention", "\"" + kind + "\" is not one of dot, general, additive, scaled-dot, none");
    c.attentionDim = c.attention == AttentionScore::Additive
                         ? package.boundedHyperparameter("attention_dim", 1, kMaxModelWidth)
                         : 0;
    c.padId = package.hyperparameter<std::int32_t>("pad_id", 0);
    c.bosId = package.hyperparameter<std::int32_t>("bos_id", 2);
    c.eosId = package.hyperparameter<std::int32_t>("eos_id", 3);
    if ((c.attention == AttentionScore::Dot || c.attention == AttentionScore::ScaledDot) &&
        c.decoderHidden != 2 * c.encoderHidden)
        package.hyperparameterError(
            "decoder_hidden", kind + " attention needs decoder_hidden (" +
                                  std::to_string(c.decoderHidden) + ") == 2 * encoder_hidden (" +
                                  std::to_string(2 * c.encoderHidden) + ")");
    package.requireTokenIds({{"pad_id", c.padId}, {"bos_id", c.bosId}, {"eos_id", c.eosId}},
                            c.vocabSize);
    return c;
}

// ---------------------------------------------------------------------------------------------

class RnnAttentionDecoder::State final : public engine::layers::TextState
{
public:
    // No length limit: the GRU runs over any number of positions.
    State(const std::vector<std::vector<std::int32_t>> &sources, std::int64_t vocabularySize)
        : TextState(sources, vocabularySize, std::numeric_limits<std::int64_t>::max(),
                    "RnnAttentionDecoder")
    {
        rowTensors.add(hidden);
        rowTensors.add(feed);
    }

    Tensor memory; // [sentences, S, 2H]: h_s, zeros at padding
    Tensor keys;   // [sentences, S, K]: what h_t is scored against
    Tensor summary; // [sentences, 2H]: [fwd_last; bwd_first], the context without attention
    Tensor hidden; // [rows, Hd]
    Tensor feed;   // [rows, E]: h~ of the previous step
    // Per-step buffers, reused.
    Tensor embedded, input, query, scores, joined, next, logits;
};

// ---------------------------------------------------------------------------------------------

namespace {

// The weights a package of this family holds, with their shapes.
std::vector<engine::TensorRequirement> requiredTensors(const RnnAttentionConfig &c)
{
    const std::int64_t E = c.embeddingDim, H = c.encoderHidden, Hd = c.decoderHidden,
                       K = 2 * c.encoderHidden, A = c.attentionDim;
    std::vector<engine::TensorRequirement> required{
        {"embedding.weight", {c.vocabSize, E}},  {"encoder.bridge.weight", {Hd, K}},
        {"encoder.bridge.bias", {Hd}},           {"decoder.rnn.weight_ih", {3 * Hd, 2 * E}},
        {"decoder.rnn.weight_hh", {3 * Hd, Hd}}, {"decoder.rnn.bias_ih", {3 * Hd}},
        {"decoder.rnn.bias_hh", {3 * Hd}},       {"decoder.combine.weight", {E, K + Hd}},
        {"decoder.output_bias", {c.vocabSize}},
    };
    for (int l = 0; l < c.encoderLayers; ++l)
        for (const char *suffix : {"", "_reverse"}) {
            const std::string s = "_l" + std::to_string(l) + suffix;
            required.push_back({"encoder.rnn.weight_ih" + s, {3 * H, l == 0 ? E : K}});
            required.push_back({"encoder.rnn.weight_hh" + s, {3 * H, H}});
            required.push_back({"encoder.rnn.bias_ih" + s, {3 * H}});
            required.push_back({"encoder.rnn.bias_hh" + s, {3 * H}});
        }
    if (c.attention == AttentionScore::General)
        required.push_back({"decoder.attention.key_proj.weight", {Hd, K}});
    if (c.attention == AttentionScore::Additive) {
        required.push_back({"decoder.attention.query_proj.weight", {A, Hd}});
        required.push_back({"decoder.attention.key_proj.weight", {A, K}});
        required.push_back({"decoder.attention.v.weight", {1, A}});
    }
    return required;
}

} // namespace

RnnAttentionDecoder::RnnAttentionDecoder(const engine::ModelPackage &package)
    : m_config(RnnAttentionConfig::fromPackage(package))
{
    const RnnAttentionConfig &c = m_config;
    const std::int64_t K = 2 * c.encoderHidden, A = c.attentionDim;
    engine::requireTokenizerSizes(package, c.vocabSize);

    package.requireTensors(requiredTensors(c));

    auto w = [&](const std::string &name) { return package.weight(name); };
    // Projection weights as stored when F16: Linear (and the GRUs' Linears) then multiply a
    // decoder step's few rows with fp16 weights, half the bytes (linear.h, "fp16 weights").
    auto lw = [&](const std::string &name) { return package.linearWeight(name); };
    // Int8 covers the GRU projections and every Linear (attention, combine, output); embeddings,
    // the gates' arithmetic and the attention softmax stay fp32 (ComputeType).
    const bool int8 = package.computeType() == engine::ComputeType::Int8;
    auto linear = [&](const Tensor &weight, const Tensor &bias = Tensor(),
                      engine::ops::Activation activation = engine::ops::Activation::None) {
        return engine::ops::Linear::withPrecision(int8, weight, bias, activation);
    };
    const Tensor embedding = w("embedding.weight");
    m_embedding = engine::ops::Embedding(embedding);
    for (int l = 0; l < c.encoderLayers; ++l) {
        const std::string s = "_l" + std::to_string(l);
        m_encoderForward.emplace_back(lw("encoder.rnn.weight_ih" + s),
                                      lw("encoder.rnn.weight_hh" + s),
                                      w("encoder.rnn.bias_ih" + s), w("encoder.rnn.bias_hh" + s),
                                      int8);
        const std::string r = s + "_reverse";
        m_encoderBackward.emplace_back(lw("encoder.rnn.weight_ih" + r),
                                       lw("encoder.rnn.weight_hh" + r),
                                       w("encoder.rnn.bias_ih" + r), w("encoder.rnn.bias_hh" + r),
                                       int8);
    }
    m_bridge = linear(lw("encoder.bridge.weight"), w("encoder.bridge.bias"),
                      engine::ops::Activation::Tanh);
    m_decoderCell = engine::ops::Gru(lw("decoder.rnn.weight_ih"), lw("decoder.rnn.weight_hh"),
                                     w("decoder.rnn.bias_ih"), w("decoder.rnn.bias_hh"), int8);
    if (c.attention == AttentionScore::General || c.attention == AttentionScore::Additive)
        m_keyProjection = linear(lw("decoder.attention.key_proj.weight"));
    if (c.attention == AttentionScore::Additive) {
        m_queryProjection = linear(lw("decoder.attention.query_proj.weight"));
        const Tensor v = w("decoder.attention.v.weight");
        m_v.assign(v.data<float>(), v.data<float>() + A);
    }
    // train_rnn.py: 1 / sqrt(key_dim) for scaled-dot, where key_dim = 2 * encoder_hidden.
    m_scoreScale = c.attention == AttentionScore::ScaledDot
                       ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(K)))
                       : 1.0f;
    m_combine = linear(lw("decoder.combine.weight"), Tensor(), engine::ops::Activation::Tanh);
    m_output = linear(lw("embedding.weight"), w("decoder.output_bias")); // tied
}

RnnAttentionDecoder::~RnnAttentionDecoder() = default;

std::unique_ptr<engine::DecoderState>
RnnAttentionDecoder::encode(const std::vector<std::vector<std::int32_t>> &sources)
{
    const RnnAttentionConfig &c = m_config;
    const std::int64_t H = c.encoderHidden, K = 2 * H, E = c.embeddingDim;
    const auto batch = static_cast<std::int64_t>(sources.size());
    auto state = std::make_unique<State>(sources, c.vocabSize);
    const std::int64_t S = state->maxSourceLength;
    state->hidden = Tensor({batch, c.decoderHidden});
    state->feed = Tensor({batch, E});
    if (batch == 0)
        return state;

    // Time-major [S, B] ids (PAD past each length: the GRUs never read those steps).
    Tensor ids({S, batch}, engine::DType::I32);
    std::int32_t *idp = ids.data<std::int32_t>();
    for (std::int64_t s = 0; s < S; ++s)
        for (std::int64_t b = 0; b < batch; ++b)
            idp[s * batch + b] = s < state->lengths[b] ? sources[b][s] : c.padId;
    Tensor x;
    m_embedding(ids, x); // [S, B, E]
    Tensor forward, backward, forwardLast, backwardLast, both;
    for (int l = 0; l < c.encoderLayers; ++l) {
        m_encoderForward[l].sequence(x, Tensor(), false, forward, forwardLast, state->lengths);
        m_encoderBackward[l].sequence(x, Tensor(), true, backward, backwardLast, state->lengths);
        both.resize({S, batch, K});
        const float *f = forward.data<float>();
        const float *r = backward.data<float>();
        float *o = both.data<float>();
        for (std::int64_t i = 0; i < S * batch; ++i) {
            std::memcpy(o + i * K, f + i * H, H * sizeof(float));
            std::memcpy(o + i * K + H, r + i * H, H * sizeof(float));
        }
        std::swap(x, both); // the next layer's input [S, B, 2H]
    }
    // memory [B, S, 2H] (batch-major, so that one row's attention reads contiguous states);
    // out[t >= length] is zero, as pad_packed_sequence leaves it.
    state->memory = Tensor({batch, S, K});
    {
        const float *src = x.data<float>();
        float *dst = state->memory.data<float>();
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t s = 0; s < S; ++s)
                std::memcpy(dst + (b * S + s) * K, src + (s * batch + b) * K, K * sizeof(float));
    }
    if (m_keyProjection.empty())
        state->keys = state->memory;
    else
        m_keyProjection(state->memory, state->keys); // [B, S, Hd or A]

    // h_0 = tanh(bridge([fwd_last; bwd_first])) of the last layer.
    Tensor last({batch, K});
    for (std::int64_t b = 0; b < batch; ++b) {
        std::memcpy(last.data<float>() + b * K, forwardLast.data<float>() + b * H,
                    H * sizeof(float));
        std::memcpy(last.data<float>() + b * K + H, backwardLast.data<float>() + b * H,
                    H * sizeof(float));
    }
    m_bridge(last, state->hidden);
    if (c.attention == AttentionScore::None)
        state->summary = std::move(last);
    return state;
}

void RnnAttentionDecoder::advance(engine::DecoderState &base, const Tensor &lastTokens,
                                  Tensor &logProbs, Tensor &attention)
{
    State &st = engine::stateOf<State>(base, "RnnAttentionDecoder");
    const RnnAttentionConfig &c = m_config;
    const std::int64_t E = c.embeddingDim, Hd = c.decoderHidden, K = 2 * c.encoderHidden;
    const std::int64_t rows = st.rows();
    const std::int64_t S = st.maxSourceLength;
    logProbs.resize({rows, c.vocabSize});
    const bool attends = c.attention != AttentionScore::None;
    if (attends)
        attention.resize({rows, S});
    else
        attention = Tensor();
    if (rows == 0)
        return;

    // x_t = [E[y]; h~_{t-1}] -> h_t (in place).
    m_embedding(lastTokens, st.embedded); // [rows, E]
    st.input.resize({rows, 2 * E});
    {
        float *in = st.input.data<float>();
        const float *e = st.embedded.data<float>();
        const float *f = st.feed.data<float>();
        for (std::int64_t r = 0; r < rows; ++r) {
            std::memcpy(in + r * 2 * E, e + r * E, E * sizeof(float));
            std::memcpy(in + r * 2 * E + E, f + r * E, E * sizeof(float));
        }
    }
    m_decoderCell(st.input, st.hidden, st.hidden);

    // Attention over each row's sentence (or the fixed summary); c_t goes straight into
    // joined = [c_t; h_t].
    const float *h = st.hidden.data<float>();
    st.joined.resize({rows, K + Hd});
    float *joined = st.joined.data<float>();
    if (!attends) {
        const float *summary = st.summary.data<float>();
        for (std::int64_t r = 0; r < rows; ++r) {
            float *context = joined + r * (K + Hd);
            std::memcpy(context, summary + st.rowSentence[r] * K, K * sizeof(float));
            std::memcpy(context + K, h + r * Hd, Hd * sizeof(float));
        }
    } else {
        const float *query = h;
        std::int64_t queryWidth = Hd;
        if (c.attention == AttentionScore::Additive) {
            m_queryProjection(st.hidden, st.query); // [rows, A]
            query = st.query.data<float>();
            queryWidth = c.attentionDim;
        }
        const std::int64_t keyWidth = st.keys.dim(2);
        float *att = attention.data<float>();
        std::fill(att, att + rows * S, 0.0f);
        const float *keys = st.keys.data<float>();
        const float *memory = st.memory.data<float>();
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int32_t b = st.rowSentence[r];
            const std::int64_t n = st.lengths[b];
            const float *q = query + r * queryWidth;
            float *a = att + r * S;
            const float *k = keys + b * S * keyWidth;
            if (c.attention == AttentionScore::Additive)
                engine::layers::additiveScores(m_v.data(), q, k, keyWidth, n, queryWidth, a);
            else
                engine::layers::dotScores(q, k, keyWidth, n, queryWidth, m_scoreScale, a);
            float *context = joined + r * (K + Hd);
            engine::layers::softmaxWeightedSum(a, n, memory + b * S * K, K, K, context);
            std::memcpy(context + K, h + r * Hd, Hd * sizeof(float));
        }
    }
    // h~_t = tanh(combine([c_t; h_t])) becomes the next step's input feed.
    m_combine(st.joined, st.feed); // [rows, E]
    m_output(st.feed, st.logits);  // [rows, vocab]
    m_logSoftmax(st.logits, logProbs);
}

engine::AttentionMaps RnnAttentionDecoder::inspectAttention(const std::vector<std::int32_t> &source,
                                                            const std::vector<std::int32_t> &target)
{
    engine::AttentionMaps maps;
    if (m_config.attention == AttentionScore::None)
        return maps;
    const engine::Tensor attention = engine::teacherForcedAttention(*this, source, target);
    maps.cross = attention.empty() ? engine::Tensor({1, 1, 0, std::int64_t(source.size())})
                                   : attention.reshaped({1, 1, attention.dim(0), attention.dim(1)});
    return maps;
}

} // namespace glosa::rnnattention
