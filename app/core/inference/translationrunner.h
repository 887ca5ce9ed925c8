// Translating and captioning on a loaded model for the views: the engine's results (the
// Translator's segments, a caption's best hypothesis, detokenised with every token's position by
// the engine) converted to inferenceresult.h's types, segments joined into the whole text, and
// the alignment matrix in token × token form. Runs on the worker thread; Qt types in and out so
// that the GUI never touches the engine's tokenizers.
#pragma once

#include "app/core/inference/inferenceresult.h"
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
// engine::DecodingCancelled when control.cancelled() turns true. `everyAttention`: also fill
// each hypothesis's attentionMaps (the model runs again on each sentence, teacher-forced).
TranslationResult runTranslation(const std::shared_ptr<engine::Model> &model, const QString &text,
                                 const engine::DecodingOptions &options,
                                 const engine::DecodingControl &control = {},
                                 bool everyAttention = false);

// The kinds of attention `model` can show, Cross first: all the AttentionInspector offers, only
// Cross for a translation model without one, none for other models.
QList<engine::AttentionKind> attentionKinds(engine::Model &model);

// The whole text's [rows, columns] map of one kind, layer and head (or
// engine::AlignmentSource::kAverageHeads) of `hypothesis`, block-diagonal by sentence:
//   Cross        rows: the hypothesis's tokens; columns: result.sourceTokens
//   EncoderSelf  rows and columns: result.sourceTokens
//   DecoderSelf  rows: the hypothesis's tokens; columns: each sentence's decoder inputs (its start
//                token, then its tokens but the last), decoderInputLabels() names them
// Empty when the hypothesis has no maps of that kind (or no such layer or head).
QVector<float> attentionMatrix(const TranslationResult &result,
                               const TranslationHypothesis &hypothesis, engine::AttentionKind kind,
                               int layer, int head, int *rows, int *columns);
// Layers and heads of `kind` in the hypothesis's maps (0 when it has none).
int attentionLayers(const TranslationHypothesis &hypothesis, engine::AttentionKind kind);
int attentionHeads(const TranslationHypothesis &hypothesis, engine::AttentionKind kind);
// Labels of DecoderSelf's columns: `start` for each sentence's start, then its tokens' surfaces.
QStringList decoderInputLabels(const TranslationHypothesis &hypothesis, const QString &start);

// Captions the image file (read by loadRgbImage, app/core/inference/imageloader.h). Throws ImageLoadError
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
