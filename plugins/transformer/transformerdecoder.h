// TransformerDecoder: the Transformer encoder-decoder of tools/train_transformer.py (Vaswani et al.
// 2017) on the engine's ops, as a StepDecoder (engine/layers/stepdecoder.h).
//
// Basic usage:
//     const auto package = engine::ModelPackage::load("resources/models/transformer-en-es");
//     transformer::TransformerDecoder decoder(package);            // validates every tensor
//     decoder.setAlignment(2, TransformerDecoder::kAverageHeads); // layer 2, mean of the heads
//     std::vector<engine::DecodingResult> r = engine::decode(decoder, {{12, 7, 3}}, options);
// The plugin wraps it in an engine::TranslationModel (engine/translation/translationmodel.h).
//
// The computation is the one documented at the top of tools/train_transformer.py, operation by
// operation: pre-norm layers, embeddings scaled by sqrt(d_model) plus interleaved sinusoidal
// positions (PE[pos, 2i] = sin, PE[pos, 2i+1] = cos, pos from 0), biased-variance layer norms with
// the package's eps, ReLU feed-forward, a final layer norm on both stacks, and an output layer
// tied to the shared embedding without bias. tests/parity/tst_parity_transformer.cpp checks it
// against PyTorch on tiny random-weight packages exported by the training code.
//
// Other Transformer families are other settings of the same layers (engine/layers/transformer.h,
// as CTranslate2's layers/transformer.h), read from model.json's "hyperparameters":
// "normalization" (pre-norm | post-norm), "activation" (relu | gelu | swish),
// "positional_encoding" (sinusoidal-interleaved | sinusoidal-halves), "embedding_scale"
// (sqrt(d_model) | none), "final_norms", "tied_embeddings" (false: an "output.weight"),
// "output_bias" (an "output.bias" added to the logits), "shared_embeddings" (false: the encoder
// reads "source_embedding.weight" of "source_vocab_size" rows), "decoder_start_id" (the first
// decoder input; default bos_id) and "never_generate" (ids whose log-probability is set to -inf
// after the softmax, as Hugging Face's bad_words_ids). MarianMT (OPUS-MT) packages made by
// `glosa-cli models import` (engine/import/marianimport.h) use them; tests/parity/
// tst_parity_marian.cpp checks them against Hugging Face transformers' outputs.
//
// Decoding keeps, per state, a key/value cache for the decoder self-attention (one position is
// appended per step; reorder() gathers rows by beam origin, in place when the origins only drop
// rows) and the cross-attention keys/values, computed once per sentence from the encoder output
// and shared by all rows of that sentence (reorder() only remaps the row → sentence index).
// Query/key/value projections are fused into one prepacked matmul; every buffer lives in the state
// and is reused from step to step, so a step allocates nothing once the cache has grown.
//
// Alignment: step() returns the cross-attention of one decoder layer, either one head or the mean
// over the heads. The default is the mean over the heads of the penultimate layer (layer 0 for a
// one-layer decoder), because it aligns best. Measured on the shipped transformer-en-es (step
// 1,227; 3 layers × 4 heads) over the Tatoeba dev sources: for the 476 greedy output pieces that
// copy a piece occurring once in the source (names, cognates, ≥ 3 letters), the attention's argmax
// points at that source piece for 97% with the layer-1 mean, 90% with the last layer's mean
// (what the training code's beam search returns), 93% with layer 0's, and 29–97% for single
// heads (a head may specialise in the next word or in EOS). This matches Garg et al. 2019
// ("Jointly Learning to Align and Translate with Transformer Models"), where the penultimate
// layer's attention gave the best alignments (tools/alignment_heads.py measures it again for a new
// model, and a package may name its layer: hyperparameter "alignment_layer"; the general-domain
// transformer-general-en-es, 2 decoder layers, aligns 99.3% with its last layer's mean against
// 95.9% with layer 0's). The GUI may switch through AlignmentSource (alignmentsource.h); with a
// coverage penalty the choice also changes the search.
//
// Inspection (engine/layers/attentioninspector.h): inspectAttention() re-runs encode() and step()
// on one sentence with a recorder set, and they copy every head's softmax weights into it as they
// compute them: the maps are the very numbers the search used, and a search without the recorder
// pays one null test per layer.
//
// Threads: one model may be used by one thread at a time (the worker that owns it). The state
// returned by encode() belongs to the call that created it.
#pragma once

#include "engine/layers/alignmentsource.h"
#include "engine/layers/attentioninspector.h"
#include "engine/layers/stepdecoder.h"
#include "engine/layers/transformer.h"
#include "engine/ops/embedding.h"
#include "engine/ops/layernorm.h"
#include "engine/ops/linear.h"
#include "engine/tensor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace glosa::engine {
class ModelPackage;
} // namespace glosa::engine

namespace glosa::transformer {

struct TransformerConfig
{
    std::int64_t vocabSize = 0;
    std::int64_t dModel = 0;
    std::int64_t heads = 0;
    std::int64_t ffnDim = 0;
    int encoderLayers = 0;
    int decoderLayers = 0;
    std::int64_t maxPositions = 0;
    float layerNormEps = 1e-6f;
    std::int32_t padId = 0;
    std::int32_t bosId = 2;
    std::int32_t eosId = 3;
    // The first decoder input: bos_id for our models, <pad> for MarianMT.
    std::int32_t decoderStartId = 2;
    // Ids never generated: their log-probability is -inf after the softmax (Marian's <pad>).
    std::vector<std::int32_t> neverGenerate;
    engine::layers::TransformerShape shape;
    bool tiedOutput = true;           // the output projection is the (target) embedding
    bool outputBias = false;          // "output.bias" [vocab] added to the logits
    bool sharedEmbeddings = true;     // encoder and decoder read one embedding
    std::int64_t sourceVocabSize = 0; // the encoder's vocabulary (= vocabSize when shared)
    // The decoder layer whose cross-attention is the alignment by default: "alignment_layer" in
    // the package when tools/alignment_heads.py found another one better, else the penultimate.
    int alignmentLayer = 0;

    std::int64_t headDim() const { return dModel / heads; }
    // Reads and checks "hyperparameters" (values this implementation does not support are a
    // PackageError naming model.json and the key).
    static TransformerConfig fromPackage(const engine::ModelPackage &package);
};

class TransformerDecoder final : public engine::TextStepDecoder,
                                 public engine::AlignmentSource,
                                 public engine::AttentionInspector
{
public:
    // Validates every tensor (names, shapes, finite values) before using any, then packs the
    // weights. Throws engine::PackageError naming the file and the tensor.
    explicit TransformerDecoder(const engine::ModelPackage &package);
    ~TransformerDecoder() override;

    // engine::TextStepDecoder
    std::int64_t vocabularySize() const override { return m_config.vocabSize; }
    std::int32_t startToken() const override { return m_config.decoderStartId; }
    std::int32_t endToken() const override { return m_config.eosId; }
    std::int64_t maxTargetLength() const override { return m_config.maxPositions; }
    engine::AlignmentSource *alignmentSource() override { return this; }
    engine::AttentionInspector *attentionInspector() override { return this; }
    bool hasStepLogits() const override { return true; } // see advanceLogits()
    // sources: ids with the final EOS (the training convention: pieces + </s>), each at most
    // maxPositions long. Throws std::invalid_argument for an empty source, an id outside the
    // vocabulary or a source that is too long.
    std::unique_ptr<engine::DecoderState>
    encode(const std::vector<std::vector<std::int32_t>> &sources) override;
    const TransformerConfig &config() const { return m_config; }
    // The encoder's output for one source (ids with the final EOS): [source length, d_model],
    // what the cross-attention reads. For parity tests against other implementations.
    engine::Tensor encoderOutput(const std::vector<std::int32_t> &source);
    int decoderLayers() const { return m_config.decoderLayers; }
    int attentionHeads() const { return static_cast<int>(m_config.heads); }

    // AlignmentSource: which cross-attention step() returns: layer in [0, decoderLayers()), head
    // in [0, attentionHeads()) or kAverageHeads. Default: (max(decoderLayers() - 2, 0),
    // kAverageHeads).
    int alignmentLayers() const override { return decoderLayers(); }
    int alignmentHeads() const override { return attentionHeads(); }
    void setAlignment(int layer, int head) override;
    int alignmentLayer() const override { return m_alignmentLayer; }
    int alignmentHead() const override { return m_alignmentHead; }

    // AttentionInspector: all three kinds, every layer and head (encoderLayers() layers for
    // encoder self-attention, decoderLayers() for the others).
    std::vector<engine::AttentionKind> attentionKinds() const override;
    engine::AttentionMaps inspectAttention(const std::vector<std::int32_t> &source,
                                           const std::vector<std::int32_t> &target) override;

private:
    // step(): lastTokens [rows] I32 -> logProbs [rows, vocab], attention [rows, maxSourceLength]
    // (the cross-attention chosen with setAlignment()). Throws std::invalid_argument past
    // maxPositions target tokens.
    void advance(engine::DecoderState &state, const engine::Tensor &lastTokens,
                 engine::Tensor &logProbs, engine::Tensor &attention) override;
    // stepLogits(): the logits and each row's normaliser, the log-softmax left to the reader
    // (rowsoftmax.h; advance() computes it with the same loops, so both agree bit for bit).
    void advanceLogits(engine::DecoderState &state, const engine::Tensor &lastTokens,
                       engine::Tensor &logits, engine::Tensor &normalizers,
                       engine::Tensor &attention, const RowReady *rowReady) override;

    struct Attention
    {
        engine::ops::LayerNorm norm;
        engine::ops::Linear qkv;      // self-attention: [3d, d] (q, k, v stacked)
        engine::ops::Linear query;    // cross-attention: [d, d]
        engine::ops::Linear keyValue; // cross-attention: [2d, d] (k, v stacked), on the memory
        engine::ops::Linear out;      // [d, d]
    };
    struct FeedForward
    {
        engine::ops::LayerNorm norm;
        engine::ops::Linear fc1; // [ffn, d], the activation fused
        engine::ops::Linear fc2; // [d, ffn]
    };
    struct EncoderLayer
    {
        Attention self;
        FeedForward ffn;
    };
    struct DecoderLayer
    {
        Attention self;
        Attention cross;
        FeedForward ffn;
    };
    class State;
    void loadWeights(const engine::ModelPackage &package);
    bool forward(State &state, const engine::Tensor &lastTokens, engine::Tensor &attention,
                 engine::Tensor &logits, const std::function<void(std::int64_t)> *rowDone = nullptr);
    // forward()'s steps, in order.
    void embedStep(State &state, const engine::Tensor &lastTokens) const;
    void selfAttentionStep(int layer, State &state);
    void crossAttentionStep(int layer, State &state);
    void alignmentRows(const State &state, engine::Tensor &attention) const;

    void embed(const engine::ops::Embedding &embedding, const engine::Tensor &ids,
               const std::vector<std::int64_t> &positions, engine::Tensor &out) const;

    TransformerConfig m_config;
    engine::ops::Embedding m_embedding;       // the decoder's, scaled by sqrt(d_model) or 1
    engine::ops::Embedding m_sourceEmbedding; // the encoder's when not shared
    engine::Tensor m_positions;               // [maxPositions, d]
    std::vector<EncoderLayer> m_encoder;
    engine::ops::LayerNorm m_encoderNorm;
    std::vector<DecoderLayer> m_decoder;
    engine::ops::LayerNorm m_decoderNorm;
    engine::ops::Linear m_output; // [vocab, d]: tied to the embedding or its own; optional bias
    int m_alignmentLayer = 0;
    int m_alignmentHead = kAverageHeads;
    // Set only during inspectAttention() (one sentence, one row): encode() and step() then copy
    // every head's weights into it. Null otherwise, so that a search pays one test per layer.
    engine::AttentionMaps *m_recording = nullptr;
    // Set only during encoderOutput(): encode() copies the encoder's output into it.
    engine::Tensor *m_memoryOut = nullptr;
};

} // namespace glosa::transformer
