// Resource limits on untrusted input: model packages, tensors and decoding options. Every limit
// is checked before anything is allocated for it, and a violation throws with the limit's name,
// its value and the offending value. docs/robustness.md lists them with the reasons for each
// value; the app's own limits (documents, images) are in app/core/limits.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace glosa::engine::limits {

// Tensors: the rank and the element count of any shape (a safetensors header, a Tensor). The
// product of the dimensions is computed with overflow checks before it is compared.
inline constexpr int kMaxTensorRank = 8;
inline constexpr std::int64_t kMaxTensorElements = std::int64_t(1) << 31; // 8 GiB as fp32

// JSON (model.json, a safetensors header, a model folder's config and vocabulary): nesting depth
// of objects and arrays, and the values of one file at any depth (a vocabulary of kMaxVocabulary
// pieces is a value each, a safetensors header of kMaxTensors about 12 each). Parsing is linear
// (engine/jsonfile.h); the count bounds the memory of the tree built, ~100 bytes a value.
inline constexpr int kMaxJsonDepth = 64;
inline constexpr std::int64_t kMaxJsonValues = std::int64_t(1) << 22;

// Weights: tensors in one weights file (a safetensors header, a checkpoint's state dict). The
// largest models this app runs have a few hundred; 200,000 took seconds to parse and check.
inline constexpr std::int64_t kMaxTensors = std::int64_t(1) << 16;
// The parameters an import materialises as float32 in all, summed over its tensors before the
// first is read: 4 GiB. OPUS-MT models have 75-240 million.
inline constexpr std::int64_t kMaxModelParameters = std::int64_t(1) << 30;

// Model hyperparameters (model.json): widths (d_model, hidden sizes, FFN, attention), layer
// counts, vocabulary and positions. Far above any model this app can run on a CPU, far below
// what exhausts memory; the weights are then checked against them before any is read.
inline constexpr std::int64_t kMaxModelWidth = 16384;
inline constexpr std::int64_t kMaxLayers = 64;
inline constexpr std::int64_t kMaxVocabulary = std::int64_t(1) << 20;
inline constexpr std::int64_t kMaxPositions = 16384;
// A SentencePiece model file (source.spm): ~1 MB for a 64k vocabulary; read whole.
inline constexpr std::int64_t kMaxTokenizerModelBytes = std::int64_t(64) << 20;

// Imported models (engine/import): a pytorch_model.bin's data.pkl (a state dict takes ~60 bytes
// a tensor, so 8 MiB is over 100,000 tensors) and the objects its pickle may build (one per
// opcode at most; a real state dict needs ~10 a tensor); a JSON file of the model folder
// (config.json, generation_config.json, tokenizer_config.json).
inline constexpr std::int64_t kMaxPickleBytes = std::int64_t(8) << 20;
inline constexpr std::int64_t kMaxPickleObjects = std::int64_t(1) << 20;
inline constexpr std::int64_t kMaxConfigBytes = std::int64_t(1) << 20;

// Decoding options (model.json "decoding", the CLI, the GUI).
inline constexpr int kMaxBeamSize = 64;
inline constexpr int kMaxDecodeLength = 4096; // maxLength, in target tokens
inline constexpr int kMaxTopK = 1 << 20;
inline constexpr int kMaxNgramSize = 64;
// target_prefix_sentence: an index, not an allocation; bounded so that the option's range is
// finite like every other (a text of 16 million sentences is far past any input limit).
inline constexpr int kMaxSentenceIndex = 1 << 24;
// keep_terms: a do-not-translate list (product names, terms of art), each term matched in every
// sentence: bounded in number and length so that the search stays linear in practice.
inline constexpr std::size_t kMaxKeptTerms = 4096;
inline constexpr std::size_t kMaxKeptTermBytes = 256;
// A package's truecase table (text/truecaser.h): one word a line; our tables hold 10-60k words
// (under 1 MiB), 16 MiB is a few million.
inline constexpr std::uintmax_t kMaxTruecaseBytes = std::uintmax_t(16) << 20;

} // namespace glosa::engine::limits
