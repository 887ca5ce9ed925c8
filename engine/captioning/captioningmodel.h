// CaptioningModel: what the app needs from an image captioner, implemented by plugins/captioner
// (MobileNetV2 features + a soft-attention LSTM). One call encodes an image and runs the shared
// search strategies (engine/decoding/search.h) over the model's step decoder; the app calls it on
// an InferenceWorker thread (app/core/translationrunner.h runCaption), never on the GUI thread.
//
// Basic usage:
//     auto model = std::dynamic_pointer_cast<CaptioningModel>(loaded);
//     ImageCaption caption = model->caption(rgb.data(), width, height, options, control);
//     const Hypothesis &best = caption.result.hypotheses[0];  // tokens, log-probs, attention
//     // best.attention: [tokens, gridRows * gridCols], row-major over the grid (rows sum to 1)
//     std::string text = model->tokenizer().decode({best.tokens.begin(), best.tokens.end()});
#pragma once

#include "engine/decoding/search.h"
#include "engine/model.h"
#include "engine/text/tokenizer.h"

#include <cstdint>

namespace glosa::engine {

struct ImageCaption
{
    DecodingResult result; // hypotheses best first; attention columns are grid cells
    int gridRows = 0;      // the feature map the decoder attends over, e.g. 7 × 7
    int gridCols = 0;
};

class CaptioningModel : public Model
{
public:
    Task task() const override { return Task::Captioning; }

    // The caption vocabulary.
    virtual const Tokenizer &tokenizer() const = 0;
    // The package's "decoding" object over DecodingOptions' defaults (what a caller starts from).
    virtual DecodingOptions defaultDecodingOptions() const { return {}; }

    // Captions one image given as 8-bit RGB, [height, width, 3] row-major, any size (the model
    // resizes and normalises it as its backbone expects). Throws std::invalid_argument for an
    // empty image or bad options, DecodingCancelled when control.cancelled() says so.
    virtual ImageCaption caption(const std::uint8_t *rgb, int width, int height,
                                 const DecodingOptions &options,
                                 const DecodingControl &control = {}) = 0;
};

} // namespace glosa::engine
