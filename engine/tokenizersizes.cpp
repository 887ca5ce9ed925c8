#include "engine/tokenizersizes.h"

#include "engine/packageerror.h"
#include "engine/text/tokenizer.h"

#include <string>

namespace glosa::engine {

void requireTokenizerSizes(const ModelPackage &package, std::int64_t vocabSize,
                           std::int64_t sourceVocabSize)
{
    if (const auto target = package.targetTokenizer(); target && target->vocabSize() != vocabSize)
        throw PackageError(target->path(), "",
                           "the tokenizer has " + std::to_string(target->vocabSize()) +
                               " pieces but the model's vocabulary (hyperparameters.vocab_size)"
                               " has " +
                               std::to_string(vocabSize));
    if (const auto source = package.sourceTokenizer();
        sourceVocabSize > 0 && source && source->vocabSize() != sourceVocabSize)
        throw PackageError(source->path(), "",
                           "the source tokenizer has " + std::to_string(source->vocabSize()) +
                               " pieces but the encoder's vocabulary has " +
                               std::to_string(sourceVocabSize));
}

} // namespace glosa::engine
