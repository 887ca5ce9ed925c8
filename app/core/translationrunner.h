// The text side of translating and captioning on a loaded model: sentence splitting,
// tokenisation, decoding through engine/decoding/search.h, detokenisation with every token's
// position, and the alignment matrix in token × token form. Runs on the worker thread; Qt types
// in and out so that the GUI never touches the engine's tokenizers.
#pragma once

#include "app/core/inferenceresult.h"
#include "engine/decoding/search.h"
#include "engine/model.h"

#include <memory>

namespace glosa::engine {
class CaptioningModel;
struct ImageCaption;
} // namespace glosa::engine

namespace glosa {

// Whether `model` can translate / caption (it implements the matching engine interface).
bool canTranslate(const engine::Model &model);
bool canCaption(const engine::Model &model);

// Translates `text` (any number of sentences and lines; they are decoded as one batch). Throws
// what the engine throws, std::invalid_argument for a model that cannot translate, and
// engine::DecodingCancelled when control.cancelled() turns true.
TranslationResult runTranslation(const std::shared_ptr<engine::Model> &model, const QString &text,
                                 const engine::DecodingOptions &options,
                                 const engine::DecodingControl &control = {});

// Captions the image file (read by loadRgbImage, app/core/imageloader.h). Throws ImageLoadError
// naming the file for unreadable images.
CaptionResult runCaption(const std::shared_ptr<engine::Model> &model, const QString &imagePath,
                         const engine::DecodingOptions &options,
                         const engine::DecodingControl &control = {});

// A caption as people write one: the captioners are trained on lower-cased, tokenised text
// ("a dog runs on the grass ."), so the first letter is capitalised and the space before
// . , ; : ! ? is dropped ("A dog runs on the grass."). `tokens` (when given) are ranges into
// `text` and are moved along; their pieces stay as the model produced them.
QString tidyCaption(const QString &raw, QList<TokenSpan> *tokens = nullptr);

// The best hypothesis of `caption` as the views and the history keep it: text (tidyCaption())
// with each token's position, log-probabilities, attention over the grid. Leaves `image` and
// `elapsedMs` to the caller. Throws std::runtime_error when the search returned no hypothesis.
CaptionResult captionResultFrom(const engine::CaptioningModel &captioner,
                                const engine::ImageCaption &caption, const QString &imagePath,
                                const engine::DecodingOptions &options);

} // namespace glosa
