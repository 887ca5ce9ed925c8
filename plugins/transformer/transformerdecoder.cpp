#include "plugins/transformer/transformerdecoder.h"

#include "engine/layers/attention.h"
#include "engine/layers/stategather.h"
#include "engine/layers/textstate.h"
#include "engine/limits.h"
#include "engine/ops/rowsoftmax.h"
#include "engine/package.h"
#include "engine/tokenizersizes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace glosa::transformer {

using engine::Shape;
using engine::Tensor;
using engine::layers::closeSublayer;
using engine::layers::sublayerInput;

namespace {

// OpenMP pays off only above a few thousand multiply-adds per loop; below that the fork/join
// costs more than the work (a greedy step at batch 1 has 4 heads × ~20 positions × 64 dims).
constexpr std::int64_t kParallelWork = 1 << 15;

// softmax(q · K[j] · scale) over j < n, then out = Σ_j p_j V[j]. q, out [dh]; K[j] at
// k + j * kStride, V[j] at v + j * vStride; probs [n] receives the weights. Masked positions are
// simply not visited, which equals masking them with -inf (engine/layers/attention.h).
void attendOne(const float *q, const float *k, std::int64_t kStride, const float *v,
               std::int64_t vStride, std::int64_t n, std::int64_t dh, float scale, float *probs,
               float *out)
{
    engine::layers::dotScores(q, k, kStride, n, dh, scale, probs);
    engine::layers::softmaxWeightedSum(probs, n, v, vStride, dh, out);
}

// Where the weights of query `row` of `head` in `layer` go in a recorded [layers, heads, rows,
// columns] map (AttentionMaps).
float *mapRow(Tensor &maps, std::int64_t layer, std::int64_t head, std::int64_t row)
{
    const std::int64_t heads = maps.dim(1), rows = maps.dim(2), columns = maps.dim(3);
    return maps.data<float>() + ((layer * heads + head) * rows + row) * columns;
}

// [a; b; ...] stacked along dim 0 (the fused projections), in the parts' dtype when they share
// one (F16 weights stay F16 for Linear's fp16 kernel), else in F32.
Tensor stackRows(const std::vector<Tensor> &parts)
{
    Shape shape = parts.front().shape();
    shape[0] = 0;
    engine::DType dtype = parts.front().dtype();
    for (const Tensor &p : parts) {
        shape[0] += p.dim(0);
        if (p.dtype() != dtype)
            dtype = engine::DType::F32;
    }
    Tensor out(shape, dtype);
    char *dst = static_cast<char *>(out.raw());
    for (const Tensor &p : parts) {
        const Tensor part = p.dtype() == dtype ? p : p.toFloat32();
        std::memcpy(dst, part.raw(), part.byteSize());
        dst += part.byteSize();
    }
    return out;
}

// A string hyperparameter parsed by `parse` (which throws std::invalid_argument naming the
// accepted values), `fallback` when absent: older exports did not record the conventions that are
// our defaults.
template <typename T, typename Parse>
T optionalName(const engine::ModelPackage &package, const std::string &key, T fallback, Parse parse)
{
    if (!package.hyperparameters().contains(key))
        return fallback;
    try {
        return parse(package.hyperparameter<std::string>(key));
    } catch (const std::invalid_argument &error) {
        package.hyperparameterError(key, error.what());
    }
}

// "never_generate": an array of token ids in [0, vocab).
std::vector<std::int32_t> tokenList(const engine::ModelPackage &package, const std::string &key,
                                    std::int64_t vocab)
{
    const auto &h = package.hyperparameters();
    const auto it = h.find(key);
    if (it == h.end())
        return {};
    if (!it->is_array() || it->size() > static_cast<std::size_t>(vocab))
        package.hyperparameterError(key, "must be an array of at most " + std::to_string(vocab) +
                                             " token ids");
    std::vector<std::int32_t> ids;
    for (const auto &v : *it) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= vocab)
            package.hyperparameterError(key, v.dump() + " is not a token id in [0, " +
                                                 std::to_string(vocab) + ")");
        ids.push_back(v.get<std::int32_t>());
    }
    return ids;
}

// Every tensor the configuration needs, with its shape: checked before any is used.
std::vector<engine::TensorRequirement> requiredTensors(const TransformerConfig &c)
{
    const std::int64_t d = c.dModel;
    std::vector<engine::TensorRequirement> required{{"embedding.weight", {c.vocabSize, d}}};
    if (!c.sharedEmbeddings)
        required.push_back({"source_embedding.weight", {c.sourceVocabSize, d}});
    if (!c.tiedOutput)
        required.push_back({"output.weight", {c.vocabSize, d}});
    if (c.outputBias)
        required.push_back({"output.bias", {c.vocabSize}});
    auto addNorm = [&](const std::string &prefix) {
        required.push_back({prefix + ".weight", {d}});
        required.push_back({prefix + ".bias", {d}});
    };
    auto addAttention = [&](const std::string &prefix) {
        for (const char *proj : {"q_proj", "k_proj", "v_proj", "out_proj"}) {
            required.push_back({prefix + "." + proj + ".weight", {d, d}});
            required.push_back({prefix + "." + proj + ".bias", {d}});
        }
    };
    auto addFfn = [&](const std::string &prefix) {
        required.push_back({prefix + ".fc1.weight", {c.ffnDim, d}});
        required.push_back({prefix + ".fc1.bias", {c.ffnDim}});
        required.push_back({prefix + ".fc2.weight", {d, c.ffnDim}});
        required.push_back({prefix + ".fc2.bias", {d}});
    };
    for (int l = 0; l < c.encoderLayers; ++l) {
        const std::string p = "encoder.layers." + std::to_string(l);
        addNorm(p + ".self_attn_norm");
        addAttention(p + ".self_attn");
        addNorm(p + ".ffn_norm");
        addFfn(p + ".ffn");
    }
    if (c.shape.finalNorms)
        addNorm("encoder.final_norm");
    for (int l = 0; l < c.decoderLayers; ++l) {
        const std::string p = "decoder.layers." + std::to_string(l);
        addNorm(p + ".self_attn_norm");
        addAttention(p + ".self_attn");
        addNorm(p + ".cross_attn_norm");
        addAttention(p + ".cross_attn");
        addNorm(p + ".ffn_norm");
        addFfn(p + ".ffn");
    }
    if (c.shape.finalNorms)
        addNorm("decoder.final_norm");
    return required;
}

} // namespace

TransformerConfig TransformerConfig::fromPackage(const engine::ModelPackage &package)
{
    TransformerConfig c;
    using namespace engine::limits;
    c.vocabSize = package.boundedHyperparameter("vocab_size", 1, kMaxVocabulary);
    c.dModel = package.boundedHyperparameter("d_model", 1, kMaxModelWidth);
    c.heads = package.boundedHyperparameter("heads", 1, kMaxModelWidth);
    c.ffnDim = package.boundedHyperparameter("ffn_dim", 1, kMaxModelWidth);
    c.encoderLayers =
        static_cast<int>(package.boundedHyperparameter("encoder_layers", 1, kMaxLayers));
    c.decoderLayers =
        static_cast<int>(package.boundedHyperparameter("decoder_layers", 1, kMaxLayers));
    c.maxPositions = package.boundedHyperparameter("max_positions", 1, kMaxPositions);
    c.alignmentLayer = static_cast<int>(package.boundedHyperparameter(
        "alignment_layer", 0, c.decoderLayers - 1, std::max(c.decoderLayers - 2, 0)));
    c.layerNormEps = static_cast<float>(package.hyperparameter<double>("layer_norm_eps"));
    c.padId = package.hyperparameter<std::int32_t>("pad_id", 0);
    c.bosId = package.hyperparameter<std::int32_t>("bos_id", 2);
    c.eosId = package.hyperparameter<std::int32_t>("eos_id", 3);
    if (c.dModel % c.heads != 0)
        package.hyperparameterError("heads", "d_model " + std::to_string(c.dModel) +
                                                 " is not divisible by " + std::to_string(c.heads) +
                                                 " heads");
    if (c.dModel % 2 != 0)
        package.hyperparameterError(
            "d_model", std::to_string(c.dModel) +
                           " must be even (sinusoidal positions come in sin/cos pairs)");
    if (!(c.layerNormEps > 0.0f))
        package.hyperparameterError("layer_norm_eps", "must be positive");
    package.requireTokenIds({{"pad_id", c.padId}, {"bos_id", c.bosId}, {"eos_id", c.eosId}},
                            c.vocabSize);
    using namespace engine::layers;
    c.shape.normalization =
        optionalName(package, "normalization", Normalization::PreNorm, normalizationFromName);
    c.shape.activation = optionalName(package, "activation", engine::ops::Activation::Relu,
                                      feedForwardActivationFromName);
    c.shape.positions = optionalName(package, "positional_encoding", PositionEncoding::Interleaved,
                                     positionEncodingFromName);
    c.shape.scaleEmbedding =
        optionalName(package, "embedding_scale", true, [](const std::string &name) {
            if (name != "sqrt(d_model)" && name != "none")
                throw std::invalid_argument("\"" + name +
                                            "\" is not an embedding scale (sqrt(d_model), none)");
            return name == "sqrt(d_model)";
        });
    c.shape.finalNorms = package.hyperparameter<bool>("final_norms", c.shape.normalization ==
                                                                         Normalization::PreNorm);
    c.tiedOutput = package.hyperparameter<bool>("tied_embeddings", true);
    c.outputBias = package.hyperparameter<bool>("output_bias", false);
    c.sharedEmbeddings = package.hyperparameter<bool>("shared_embeddings", true);
    c.sourceVocabSize = c.sharedEmbeddings
                            ? c.vocabSize
                            : package.boundedHyperparameter("source_vocab_size", 1, kMaxVocabulary);
    c.decoderStartId = package.hyperparameter<std::int32_t>("decoder_start_id", c.bosId);
    package.requireTokenIds({{"decoder_start_id", c.decoderStartId}}, c.vocabSize);
    c.neverGenerate = tokenList(package, "never_generate", c.vocabSize);
    for (std::int32_t id : c.neverGenerate)
        if (id == c.eosId)
            package.hyperparameterError("never_generate", "lists eos_id " + std::to_string(id) +
                                                              ": nothing could end");
    return c;
}

// ---------------------------------------------------------------------------------------------

class TransformerDecoder::State final : public engine::layers::TextState
{
public:
    State(const std::vector<std::vector<std::int32_t>> &sources, std::int64_t vocabularySize,
          std::int64_t maxPositions, std::int64_t dModel, std::int64_t layers)
        : TextState(sources, vocabularySize, maxPositions, "TransformerDecoder"), dModel(dModel),
          selfKeys(layers), selfValues(layers)
    {
        // The caches stay empty (skipped by a reorder) until the first step's reserve(); each
        // row's first `step` positions hold data.
        for (std::int64_t l = 0; l < layers; ++l)
            for (Tensor *cache : {&selfKeys[l], &selfValues[l]})
                rowTensors.add(*cache, [this] { return step * this->dModel; });
    }

    // Makes room for position `step` in every layer's cache.
    void reserve(std::int64_t needed, std::int64_t maxPositions)
    {
        const std::int64_t n = rows();
        if (needed <= capacity)
            return; // reorder() keeps every cache at rows() rows
        // The first allocation holds the steps the search expects (up to kFirstCapacity), so
        // that a batch's caches are usually made once: each growth is a new zero-filled tensor
        // and a copy, ~40 MB and ~18 MB a batch of 32 on the OPUS-MT shape when they grew
        // 8 → 16 → 32.
        std::int64_t newCapacity = std::max<std::int64_t>(
            capacity, capacity == 0 ? std::clamp<std::int64_t>(expected, 8, kFirstCapacity) : 8);
        while (newCapacity < needed)
            newCapacity *= 2;
        newCapacity = std::min(newCapacity, maxPositions);
        for (std::size_t l = 0; l < selfKeys.size(); ++l) {
            for (Tensor *cache : {&selfKeys[l], &selfValues[l]}) {
                Tensor grown({std::max<std::int64_t>(n, 1), newCapacity, dModel});
                if (step > 0 && !cache->empty()) {
                    const float *src = cache->data<float>();
                    float *dst = grown.data<float>();
                    for (std::int64_t r = 0; r < n; ++r)
                        std::memcpy(dst + r * newCapacity * dModel, src + r * capacity * dModel,
                                    step * dModel * sizeof(float));
                }
                *cache = std::move(grown);
            }
        }
        capacity = newCapacity;
    }

    void expectSteps(std::int64_t steps) override { expected = steps; }

    static constexpr std::int64_t kFirstCapacity = 64;
    std::int64_t dModel = 0;
    std::int64_t expected = 0;          // the search's expectSteps(), 0 before it
    std::int64_t step = 0;              // target positions already in the cache
    std::int64_t capacity = 0;          // positions each cache row can hold
    std::vector<Tensor> crossKeyValues; // per layer [sentences, maxSource, 2d]
    std::vector<Tensor> selfKeys;       // per layer [rows, capacity, d]
    std::vector<Tensor> selfValues;     // per layer [rows, capacity, d]
    // Per-step buffers, reused.
    Tensor x, normed, qkv, query, context, projected, hidden, logits, probs, positionIds;
    std::vector<engine::ops::RowNormalizer> rowNormalizers; // [rows]: the output layer's
};

// ---------------------------------------------------------------------------------------------

TransformerDecoder::TransformerDecoder(const engine::ModelPackage &package)
    : m_config(TransformerConfig::fromPackage(package))
{
    engine::requireTokenizerSizes(package, m_config.vocabSize, m_config.sourceVocabSize);
    package.requireTensors(requiredTensors(m_config)); // every tensor before any is used
    loadWeights(package);
}

// Packs every weight the checked package holds into the layers.
void TransformerDecoder::loadWeights(const engine::ModelPackage &package)
{
    const TransformerConfig &c = m_config;
    const std::int64_t d = c.dModel;
    auto w = [&](const std::string &name) { return package.weight(name); };
    // Projection weights as stored when F16: Linear then multiplies a decoder step's few rows
    // with fp16 weights, half the bytes (linear.h, "fp16 weights").
    auto lw = [&](const std::string &name) { return package.linearWeight(name); };
    // Int8 covers every projection (attention, FFN, the tied output); embeddings, layer norms,
    // softmax and the residual sums stay fp32 (ComputeType, docs/model-package.md).
    const bool int8 = package.computeType() == engine::ComputeType::Int8;
    auto linear = [&](const Tensor &weight, const Tensor &bias = Tensor(),
                      engine::ops::Activation activation = engine::ops::Activation::None) {
        return engine::ops::Linear::withPrecision(int8, weight, bias, activation);
    };
    auto norm = [&](const std::string &prefix) {
        return engine::ops::LayerNorm(w(prefix + ".weight"), w(prefix + ".bias"), c.layerNormEps);
    };
    auto ffn = [&](const std::string &prefix, const std::string &normName) {
        FeedForward f;
        f.norm = norm(normName);
        f.fc1 = linear(lw(prefix + ".fc1.weight"), w(prefix + ".fc1.bias"), c.shape.activation);
        f.fc2 = linear(lw(prefix + ".fc2.weight"), w(prefix + ".fc2.bias"));
        return f;
    };
    auto selfAttention = [&](const std::string &prefix, const std::string &normName) {
        Attention a;
        a.norm = norm(normName);
        a.qkv = linear(stackRows({lw(prefix + ".q_proj.weight"), lw(prefix + ".k_proj.weight"),
                                  lw(prefix + ".v_proj.weight")}),
                       stackRows({w(prefix + ".q_proj.bias"), w(prefix + ".k_proj.bias"),
                                  w(prefix + ".v_proj.bias")}));
        a.out = linear(lw(prefix + ".out_proj.weight"), w(prefix + ".out_proj.bias"));
        return a;
    };
    auto crossAttention = [&](const std::string &prefix, const std::string &normName) {
        Attention a;
        a.norm = norm(normName);
        a.query = linear(lw(prefix + ".q_proj.weight"), w(prefix + ".q_proj.bias"));
        a.keyValue =
            linear(stackRows({lw(prefix + ".k_proj.weight"), lw(prefix + ".v_proj.weight")}),
                   stackRows({w(prefix + ".k_proj.bias"), w(prefix + ".v_proj.bias")}));
        a.out = linear(lw(prefix + ".out_proj.weight"), w(prefix + ".out_proj.bias"));
        return a;
    };

    const float embeddingScale =
        c.shape.scaleEmbedding ? static_cast<float>(std::sqrt(double(d))) : 1.0f;
    m_embedding = engine::ops::Embedding(w("embedding.weight"), embeddingScale);
    if (!c.sharedEmbeddings)
        m_sourceEmbedding = engine::ops::Embedding(w("source_embedding.weight"), embeddingScale);
    m_output = linear(lw(c.tiedOutput ? "embedding.weight" : "output.weight"),
                      c.outputBias ? w("output.bias") : Tensor());
    for (int l = 0; l < c.encoderLayers; ++l) {
        const std::string p = "encoder.layers." + std::to_string(l);
        m_encoder.push_back({selfAttention(p + ".self_attn", p + ".self_attn_norm"),
                             ffn(p + ".ffn", p + ".ffn_norm")});
    }
    if (c.shape.finalNorms)
        m_encoderNorm = norm("encoder.final_norm");
    for (int l = 0; l < c.decoderLayers; ++l) {
        const std::string p = "decoder.layers." + std::to_string(l);
        m_decoder.push_back({selfAttention(p + ".self_attn", p + ".self_attn_norm"),
                             crossAttention(p + ".cross_attn", p + ".cross_attn_norm"),
                             ffn(p + ".ffn", p + ".ffn_norm")});
    }
    if (c.shape.finalNorms)
        m_decoderNorm = norm("decoder.final_norm");
    m_positions = engine::layers::sinusoidalPositions(c.maxPositions, d, c.shape.positions);
    m_alignmentLayer = c.alignmentLayer; // see the header: aligns best
}

TransformerDecoder::~TransformerDecoder() = default;

void TransformerDecoder::setAlignment(int layer, int head)
{
    if (layer < 0 || layer >= m_config.decoderLayers)
        throw std::out_of_range("TransformerDecoder::setAlignment: layer " + std::to_string(layer) +
                                " outside [0, " + std::to_string(m_config.decoderLayers) + ")");
    if (head != kAverageHeads && (head < 0 || head >= m_config.heads))
        throw std::out_of_range("TransformerDecoder::setAlignment: head " + std::to_string(head) +
                                " outside [0, " + std::to_string(m_config.heads) +
                                ") and not kAverageHeads (-1)");
    m_alignmentLayer = layer;
    m_alignmentHead = head;
}

std::vector<engine::AttentionKind> TransformerDecoder::attentionKinds() const
{
    return {engine::AttentionKind::Cross, engine::AttentionKind::EncoderSelf,
            engine::AttentionKind::DecoderSelf};
}

engine::AttentionMaps TransformerDecoder::inspectAttention(const std::vector<std::int32_t> &source,
                                                           const std::vector<std::int32_t> &target)
{
    const auto S = static_cast<std::int64_t>(source.size());
    const auto T = static_cast<std::int64_t>(target.size());
    const std::int64_t heads = m_config.heads;
    engine::AttentionMaps maps;
    maps.encoderSelf = Tensor({m_config.encoderLayers, heads, S, S});
    maps.decoderSelf = Tensor({m_config.decoderLayers, heads, T, T});
    maps.cross = Tensor({m_config.decoderLayers, heads, T, S});
    struct Recording
    {
        engine::AttentionMaps *&slot;
        ~Recording() { slot = nullptr; } // also when encode() or step() throws
    } recording{m_recording = &maps};
    engine::teacherForcedAttention(*this, source, target);
    return maps;
}

Tensor TransformerDecoder::encoderOutput(const std::vector<std::int32_t> &source)
{
    Tensor memory;
    struct Capture
    {
        Tensor *&slot;
        ~Capture() { slot = nullptr; } // also when encode() throws
    } capture{m_memoryOut = &memory};
    encode({source});
    return memory;
}

// out [n, d] = E[ids] * scale + PE[positions]; ids [n] I32.
void TransformerDecoder::embed(const engine::ops::Embedding &embedding, const Tensor &ids,
                               const std::vector<std::int64_t> &positions, Tensor &out) const
{
    embedding(ids, out);
    const std::int64_t d = m_config.dModel;
    float *x = out.data<float>();
    const float *pe = m_positions.data<float>();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const float *p = pe + positions[i] * d;
        float *row = x + static_cast<std::int64_t>(i) * d;
        for (std::int64_t f = 0; f < d; ++f)
            row[f] += p[f];
    }
}

std::unique_ptr<engine::DecoderState>
TransformerDecoder::encode(const std::vector<std::vector<std::int32_t>> &sources)
{
    const TransformerConfig &c = m_config;
    const std::int64_t d = c.dModel, heads = c.heads, dh = c.headDim();
    const auto batch = static_cast<std::int64_t>(sources.size());
    auto state =
        std::make_unique<State>(sources, c.sourceVocabSize, c.maxPositions, d, c.decoderLayers);
    const std::int64_t S = state->maxSourceLength;
    if (batch == 0)
        return state;

    // x [B*S, d]; padded positions hold PAD and are computed like PyTorch does (their keys are
    // masked out everywhere, so their values never matter).
    Tensor ids({batch * S}, engine::DType::I32);
    // With separate vocabularies the target's pad id may lie outside the source's.
    const std::int32_t padding = c.padId < c.sourceVocabSize ? c.padId : 0;
    std::vector<std::int64_t> positions(batch * S);
    std::int32_t *idp = ids.data<std::int32_t>();
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t s = 0; s < S; ++s) {
            idp[b * S + s] = s < state->lengths[b] ? sources[b][s] : padding;
            positions[b * S + s] = s;
        }
    Tensor x, normed, qkv, context, projected, hidden;
    embed(c.sharedEmbeddings ? m_embedding : m_sourceEmbedding, ids, positions, x);
    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    const std::vector<std::int64_t> &lengths = state->lengths;
    for (int l = 0; l < c.encoderLayers; ++l) {
        const EncoderLayer &layer = m_encoder[l];
        layer.self.qkv(sublayerInput(c.shape, layer.self.norm, x, normed), qkv); // [B*S, 3d]
        context.resize({batch * S, d});
        const float *q = qkv.data<float>();
        float *ctx = context.data<float>();
        const std::int64_t tasks = batch * heads * S;
#pragma omp parallel if (tasks * S * dh > kParallelWork)
        {
            std::vector<float> probs(S);
#pragma omp for schedule(static)
            for (std::int64_t task = 0; task < tasks; ++task) {
                const std::int64_t b = task / (heads * S);
                const std::int64_t h = (task / S) % heads;
                const std::int64_t i = task % S;
                const float *rowBase = q + b * S * 3 * d;
                attendOne(rowBase + i * 3 * d + h * dh, rowBase + d + h * dh, 3 * d,
                          rowBase + 2 * d + h * dh, 3 * d, lengths[b], dh, scale, probs.data(),
                          ctx + (b * S + i) * d + h * dh);
                if (m_recording) // one sentence: b == 0, lengths[0] == S
                    std::memcpy(mapRow(m_recording->encoderSelf, l, h, i), probs.data(),
                                S * sizeof(float));
            }
        }
        layer.self.out(context, projected);
        closeSublayer(c.shape, layer.self.norm, x, projected);
        layer.ffn.fc1(sublayerInput(c.shape, layer.ffn.norm, x, normed), hidden);
        layer.ffn.fc2(hidden, projected);
        closeSublayer(c.shape, layer.ffn.norm, x, projected);
    }
    if (c.shape.finalNorms)
        m_encoderNorm(x, x);
    const Tensor &memory = x; // [B*S, d]
    if (m_memoryOut)
        *m_memoryOut = memory.clone();
    state->crossKeyValues.resize(c.decoderLayers);
    for (int l = 0; l < c.decoderLayers; ++l) {
        m_decoder[l].cross.keyValue(memory, state->crossKeyValues[l]); // [B*S, 2d]
        state->crossKeyValues[l] = state->crossKeyValues[l].reshaped({batch, S, 2 * d});
    }
    return state;
}

void TransformerDecoder::advance(engine::DecoderState &base, const Tensor &lastTokens,
                                 Tensor &logProbs, Tensor &attention)
{
    State &st = engine::stateOf<State>(base, "TransformerDecoder");
    const std::int64_t rows = st.rows(), vocab = m_config.vocabSize;
    logProbs.resize({rows, vocab});
    if (!forward(st, lastTokens, attention, st.logits))
        return;
    const float *logits = st.logits.data<float>();
    float *lp = logProbs.data<float>();
#pragma omp parallel for schedule(static) if (rows > 1 && rows * vocab > kParallelWork)
    for (std::int64_t r = 0; r < rows; ++r) {
        const float *row = logits + r * vocab;
        engine::ops::logSoftmaxRow(row, vocab, st.rowNormalizers[r], lp + r * vocab);
        // After the softmax, as Hugging Face's bad_words_ids: the other tokens keep the
        // probabilities the model gave them.
        for (std::int32_t id : m_config.neverGenerate)
            lp[r * vocab + id] = -std::numeric_limits<float>::infinity();
    }
}

void TransformerDecoder::advanceLogits(engine::DecoderState &base, const Tensor &lastTokens,
                                       Tensor &logits, Tensor &normalizers, Tensor &attention,
                                       const RowReady *rowReady)
{
    State &st = engine::stateOf<State>(base, "TransformerDecoder");
    const std::int64_t rows = st.rows(), vocab = m_config.vocabSize;
    logits.resize({rows, vocab});
    normalizers.resize({rows, 2});
    float *x = logits.data<float>();
    float *norms = normalizers.data<float>();
    // Each row as soon as the output layer has its normaliser: the row still in cache.
    const std::function<void(std::int64_t)> finish = [&](std::int64_t r) {
        float *row = x + r * vocab;
        const engine::ops::RowNormalizer norm = st.rowNormalizers[r];
        norms[2 * r] = norm.max;
        norms[2 * r + 1] = norm.logSum;
        // The normaliser includes them, as advance()'s softmax does.
        for (std::int32_t id : m_config.neverGenerate)
            row[id] = -std::numeric_limits<float>::infinity();
        if (rowReady)
            (*rowReady)(r);
    };
    forward(st, lastTokens, attention, logits, &finish);
}

// One decoder step up to the output layer: logits [rows, vocab], each row's normaliser in
// st.rowNormalizers (rowDone(r) called once row r and its normaliser are written), attention
// [rows, S]. False (attention sized, nothing computed) for a state without rows.
bool TransformerDecoder::forward(State &st, const Tensor &lastTokens, Tensor &attention,
                                 Tensor &logits, const std::function<void(std::int64_t)> *rowDone)
{
    const TransformerConfig &c = m_config;
    const std::int64_t rows = st.rows();
    const std::int64_t t = st.step;
    if (t >= c.maxPositions)
        throw std::invalid_argument("TransformerDecoder::step: target position " +
                                    std::to_string(t) + " reaches max_positions " +
                                    std::to_string(c.maxPositions));
    const std::int64_t S = st.maxSourceLength;
    attention.resize({rows, S});
    if (rows == 0)
        return false;
    st.reserve(t + 1, c.maxPositions);

    embedStep(st, lastTokens);
    st.probs.resize({rows, c.heads, std::max(S, st.capacity)});
    std::fill(attention.data<float>(), attention.data<float>() + rows * S, 0.0f);
    for (int l = 0; l < c.decoderLayers; ++l) {
        const DecoderLayer &layer = m_decoder[l];
        selfAttentionStep(l, st);
        crossAttentionStep(l, st);
        if (l == m_alignmentLayer)
            alignmentRows(st, attention);
        layer.cross.out(st.context, st.projected);
        closeSublayer(c.shape, layer.cross.norm, st.x, st.projected);

        layer.ffn.fc1(sublayerInput(c.shape, layer.ffn.norm, st.x, st.normed), st.hidden);
        layer.ffn.fc2(st.hidden, st.projected);
        closeSublayer(c.shape, layer.ffn.norm, st.x, st.projected);
    }
    if (c.shape.finalNorms)
        m_decoderNorm(st.x, st.x);
    st.rowNormalizers.resize(static_cast<std::size_t>(rows));
    m_output(st.x, logits, st.rowNormalizers.data(), rowDone); // [rows, vocab]
    st.step = t + 1;
    return true;
}

// st.x [rows, d] = E[lastTokens] * scale + PE[st.step].
void TransformerDecoder::embedStep(State &st, const Tensor &lastTokens) const
{
    const std::int64_t d = m_config.dModel, rows = st.rows();
    m_embedding(lastTokens, st.x);
    float *x = st.x.data<float>();
    const float *pe = m_positions.data<float>() + st.step * d;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t f = 0; f < d; ++f)
            x[r * d + f] += pe[f];
}

// Layer `l`'s self-attention over positions 0..st.step, this step's key and value appended to
// the cache first; closes the sublayer (st.x updated).
void TransformerDecoder::selfAttentionStep(int l, State &st)
{
    const TransformerConfig &c = m_config;
    const std::int64_t d = c.dModel, heads = c.heads, dh = c.headDim();
    const std::int64_t rows = st.rows(), t = st.step, cap = st.capacity;
    const std::int64_t probStride = st.probs.dim(2);
    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    float *probs = st.probs.data<float>();
    const Attention &self = m_decoder[l].self;
    self.qkv(sublayerInput(c.shape, self.norm, st.x, st.normed), st.qkv); // [rows, 3d]
    float *keys = st.selfKeys[l].data<float>();
    float *values = st.selfValues[l].data<float>();
    const float *qkv = st.qkv.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
        std::memcpy(keys + (r * cap + t) * d, qkv + r * 3 * d + d, d * sizeof(float));
        std::memcpy(values + (r * cap + t) * d, qkv + r * 3 * d + 2 * d, d * sizeof(float));
    }
    st.context.resize({rows, d});
    float *ctx = st.context.data<float>();
    const std::int64_t tasks = rows * heads;
#pragma omp parallel for schedule(static) if (tasks * (t + 1) * dh > kParallelWork)
    for (std::int64_t task = 0; task < tasks; ++task) {
        const std::int64_t r = task / heads, h = task % heads;
        attendOne(qkv + r * 3 * d + h * dh, keys + r * cap * d + h * dh, d,
                  values + r * cap * d + h * dh, d, t + 1, dh, scale,
                  probs + (r * heads + h) * probStride, ctx + r * d + h * dh);
    }
    if (m_recording) // one row: its position t sees positions 0..t
        for (std::int64_t h = 0; h < heads; ++h)
            std::memcpy(mapRow(m_recording->decoderSelf, l, h, t), probs + h * probStride,
                        (t + 1) * sizeof(float));
    self.out(st.context, st.projected);
    closeSublayer(c.shape, self.norm, st.x, st.projected);
}

// Layer `l`'s cross-attention over each row's sentence: st.context [rows, d], the weights in
// st.probs (the sublayer is closed by the caller, after alignmentRows() has read them).
void TransformerDecoder::crossAttentionStep(int l, State &st)
{
    const TransformerConfig &c = m_config;
    const std::int64_t d = c.dModel, heads = c.heads, dh = c.headDim();
    const std::int64_t rows = st.rows(), S = st.maxSourceLength, t = st.step;
    const std::int64_t probStride = st.probs.dim(2);
    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    float *probs = st.probs.data<float>();
    float *ctx = st.context.data<float>();
    const Attention &cross = m_decoder[l].cross;
    cross.query(sublayerInput(c.shape, cross.norm, st.x, st.normed), st.query); // [rows, d]
    const float *q = st.query.data<float>();
    const float *memory = st.crossKeyValues[l].data<float>();
    const std::int32_t *sentence = st.rowSentence.data();
    const std::int64_t *lengths = st.lengths.data();
    const std::int64_t tasks = rows * heads;
#pragma omp parallel for schedule(static) if (tasks * S * dh > kParallelWork)
    for (std::int64_t task = 0; task < tasks; ++task) {
        const std::int64_t r = task / heads, h = task % heads;
        const float *kv = memory + sentence[r] * S * 2 * d;
        attendOne(q + r * d + h * dh, kv + h * dh, 2 * d, kv + d + h * dh, 2 * d,
                  lengths[sentence[r]], dh, scale, probs + (r * heads + h) * probStride,
                  ctx + r * d + h * dh);
    }
    if (m_recording)
        for (std::int64_t h = 0; h < heads; ++h)
            std::memcpy(mapRow(m_recording->cross, l, h, t), probs + h * probStride,
                        S * sizeof(float));
}

// attention [rows, S] (zeroed by the caller) += the cross-attention weights in st.probs of the
// chosen head, or their mean over the heads (setAlignment()).
void TransformerDecoder::alignmentRows(const State &st, Tensor &attention) const
{
    const std::int64_t heads = m_config.heads, rows = st.rows(), S = st.maxSourceLength;
    const std::int64_t probStride = st.probs.dim(2);
    const float *probs = st.probs.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t n = st.lengths[st.rowSentence[r]];
        float *out = attention.data<float>() + r * S;
        if (m_alignmentHead == kAverageHeads) {
            for (std::int64_t h = 0; h < heads; ++h) {
                const float *p = probs + (r * heads + h) * probStride;
                for (std::int64_t j = 0; j < n; ++j)
                    out[j] += p[j];
            }
            const float inverse = 1.0f / static_cast<float>(heads);
            for (std::int64_t j = 0; j < n; ++j)
                out[j] *= inverse;
        } else {
            std::memcpy(out, probs + (r * heads + m_alignmentHead) * probStride, n * sizeof(float));
        }
    }
}

} // namespace glosa::transformer
