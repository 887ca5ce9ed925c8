// The check every model family makes of its package's tokenizers: the model's vocabulary and the
// tokenizer's pieces are one numbering, so a tokenizer of another size (another model's
// spm.model copied in) would turn ids into the wrong words or past the end of the embedding.
//
// Basic usage, in a family's constructor, before any weight is read:
//     engine::requireTokenizerSizes(package, config.vocabSize, config.sourceVocabSize);
#pragma once

#include "engine/package.h"

#include <cstdint>

namespace glosa::engine {

// Throws PackageError naming the tokenizer's file when the package's target tokenizer has other
// than `vocabSize` pieces (hyperparameters.vocab_size), or, for sourceVocabSize > 0, its source
// tokenizer other than `sourceVocabSize` (the encoder's vocabulary). A side without a tokenizer
// is not checked.
void requireTokenizerSizes(const ModelPackage &package, std::int64_t vocabSize,
                           std::int64_t sourceVocabSize = 0);

} // namespace glosa::engine
