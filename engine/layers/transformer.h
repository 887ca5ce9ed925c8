// The shapes of a Transformer encoder-decoder (Vaswani et al. 2017) that model families differ
// in, as options of one implementation rather than one copy per family: CTranslate2's
// layers/transformer.h takes the same path (pre_norm, activation, positional embeddings, output
// bias are constructor options of TransformerEncoder/TransformerDecoder). Our own models
// (tools/train_transformer.py) and MarianMT / OPUS-MT (Hugging Face's modeling_marian.py) are two
// settings of these options; the plugin (plugins/transformer) reads them from model.json's
// "hyperparameters" and builds its layers with them.
//
//                          ours                     MarianMT (OPUS-MT)
//     normalization        pre-norm + final norms   post-norm, no final norms
//     activation           relu                     swish (relu, gelu in other families)
//     positions            sin/cos interleaved      sin | cos halves
//     embedding scale      sqrt(d_model)            sqrt(d_model) (scale_embedding), or 1
//     output               tied, no bias            tied or separate, final_logits_bias
//     decoding starts from <s> (bos_id)             <pad> (decoder_start_token_id)
//     never generated      -                        <pad> (bad_words_ids)
//
// Basic usage:
//     TransformerShape shape;                         // our defaults
//     shape.normalization = Normalization::PostNorm;  // or parse it:
//     shape.positions = positionEncodingFromName("sinusoidal-halves");
//     Tensor pe = sinusoidalPositions(256, 512, shape.positions); // [256, 512]
//     const Tensor &in = sublayerInput(shape, norm, x, normed);   // before a sublayer
//     ... sublayer(in) -> projected ...
//     closeSublayer(shape, norm, x, projected);                   // residual (+ norm)
#pragma once

#include "engine/ops/activation.h"
#include "engine/ops/layernorm.h"
#include "engine/tensor.h"

#include <cstdint>
#include <string>

namespace glosa::engine::layers {

// Where each sublayer's layer norm sits.
enum class Normalization : std::uint8_t {
    // x + f(norm(x)), and a final norm on each stack's output (Xiong et al. 2020, "On Layer
    // Normalization in the Transformer Architecture"): our models.
    PreNorm,
    // norm(x + f(x)), the original Transformer's order: MarianMT, BART, fairseq's default.
    PostNorm,
};

// How sinusoidal positions (Vaswani et al. 2017, section 3.5) are laid out in a d-wide vector;
// both use the frequencies 1 / 10000^(2i/d), i in [0, d/2), and positions counted from 0.
enum class PositionEncoding : std::uint8_t {
    Interleaved, // PE[pos, 2i] = sin, PE[pos, 2i+1] = cos: tools/train_transformer.py
    Halves,      // PE[pos, i] = sin, PE[pos, d/2 + i] = cos: Marian, fairseq, tensor2tensor
};

struct TransformerShape
{
    Normalization normalization = Normalization::PreNorm;
    // The feed-forward block's activation (between fc1 and fc2).
    ops::Activation activation = ops::Activation::Relu;
    PositionEncoding positions = PositionEncoding::Interleaved;
    // Token embeddings are multiplied by sqrt(d_model) (Vaswani et al. 2017, section 3.4);
    // false multiplies by 1 (MarianMT with scale_embedding false).
    bool scaleEmbedding = true;
    // Layer norms on the encoder's and the decoder's last output. Pre-norm stacks need them
    // (their residual stream is never normalised otherwise); post-norm ones have none.
    bool finalNorms = true;
};

// The names model.json uses ("pre-norm", "relu", "sinusoidal-interleaved", ...). The parsers
// throw std::invalid_argument listing the accepted names.
const char *normalizationName(Normalization normalization);
const char *positionEncodingName(PositionEncoding encoding);
Normalization normalizationFromName(const std::string &name);
PositionEncoding positionEncodingFromName(const std::string &name);
// The feed-forward activations a Transformer may use: "relu", "gelu", "swish" (also accepted
// as "silu", Hugging Face's other name for it).
ops::Activation feedForwardActivationFromName(const std::string &name);

// [positions, d] fp32 table; d even. Computed in double and rounded once, as PyTorch's and
// Hugging Face's tables are (both compute the angles in double/float64 before storing fp32).
Tensor sinusoidalPositions(std::int64_t positions, std::int64_t d, PositionEncoding encoding);

// What a sublayer reads: norm(x) written into `normed` for pre-norm, x itself for post-norm.
const Tensor &sublayerInput(const TransformerShape &shape, const ops::LayerNorm &norm,
                            const Tensor &x, Tensor &normed);
// The residual connection after a sublayer: x += f; then, for post-norm, x = norm(x).
void closeSublayer(const TransformerShape &shape, const ops::LayerNorm &norm, Tensor &x,
                   const Tensor &f);

} // namespace glosa::engine::layers
