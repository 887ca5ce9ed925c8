// CaptioningModel: a loaded image captioner as the app sees it: an image encoder
// (imageencoder.h), a step decoder (engine/layers/stepdecoder.h) and the caption vocabulary. A
// captioning plugin only writes the two halves and returns
//
//     return std::make_shared<engine::CaptioningModel>(package, std::make_unique<MyEncoder>(...),
//                                                      std::make_unique<MyDecoder>(...));
//
// caption() does the rest: resize and normalise (engine/vision/imageprep.h), encode, and the
// shared search strategies (engine/decoding/search.h). The app calls it on an InferenceWorker
// thread (app/core/inference/translationrunner.h runCaption), never on the GUI thread.
//
// Basic usage:
//     auto model = std::dynamic_pointer_cast<CaptioningModel>(loaded);
//     ImageCaption caption = model->caption(rgb.data(), width, height, options, control);
//     const Hypothesis &best = caption.result.hypotheses[0];  // tokens, log-probs, attention
//     // best.attention: [tokens, gridRows * gridCols], row-major over the grid (rows sum to 1)
//     std::string text = model->tokenizer().decode({best.tokens.begin(), best.tokens.end()});
//
// Thread safety: the encoder and decoder are driven by one thread at a time (one worker per
// model).
#pragma once

#include "engine/captioning/imageencoder.h"
#include "engine/decoding/decodingoptions.h"
#include "engine/decoding/search.h"
#include "engine/layers/stepdecoder.h"
#include "engine/model.h"
#include "engine/text/tokenizer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace glosa::engine {

class ModelPackage;

struct ImageCaption
{
    DecodingResult result; // hypotheses best first; attention columns are grid cells
    int gridRows = 0;      // the feature map the decoder attends over, e.g. 7 × 7
    int gridCols = 0;
};

class CaptioningModel : public Model
{
public:
    // Takes the id, the caption tokenizer (the package's target tokenizer) and the "decoding"
    // defaults from the package. Throws std::invalid_argument when the encoder, the decoder or
    // the tokenizer is missing, or the defaults do not fit the decoder's vocabulary.
    CaptioningModel(const ModelPackage &package, std::unique_ptr<ImageEncoder> encoder,
                    std::unique_ptr<StepDecoder> decoder);
    ~CaptioningModel() override;

    Task task() const override { return Task::Captioning; }
    std::string id() const override { return m_id; }

    // The caption vocabulary.
    const Tokenizer &tokenizer() const { return *m_tokenizer; }
    ImageEncoder &encoder() { return *m_encoder; }
    StepDecoder &decoder() { return *m_decoder; }
    // The package's "decoding" object over DecodingOptions' defaults (what a caller starts from).
    const DecodingOptions &defaultDecodingOptions() const { return m_defaults; }

    // Captions one image given as 8-bit RGB, [height, width, 3] row-major, any size (resized and
    // normalised to the encoder's input here). Throws std::invalid_argument for an empty image
    // or bad options, DecodingCancelled when control.cancelled() says so.
    ImageCaption caption(const std::uint8_t *rgb, int width, int height,
                         const DecodingOptions &options, const DecodingControl &control = {});

private:
    std::string m_id;
    std::shared_ptr<const Tokenizer> m_tokenizer;
    std::unique_ptr<ImageEncoder> m_encoder;
    std::unique_ptr<StepDecoder> m_decoder;
    DecodingOptions m_defaults;
};

} // namespace glosa::engine
