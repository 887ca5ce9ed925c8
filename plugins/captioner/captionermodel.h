// The captioning model the "captioner" plugin loads: engine::CaptioningModel over the captioner's
// image encoder (captionerencoder.h: MobileNetV2 and the per-image half of the decoder) and its
// Show, Attend and Tell step decoder (captionerdecoder.h).
//
// Basic usage:
//     const auto package = engine::ModelPackage::load("resources/models/captioner-en");
//     std::unique_ptr<engine::CaptioningModel> model = captioner::loadCaptioner(package);
//     engine::ImageCaption c = model->caption(rgb, width, height, options);
//     c.result.hypotheses[0].attention;   // [tokens, gridRows * gridCols], rows sum to 1
#pragma once

#include "engine/captioning/captioningmodel.h"

#include <memory>

namespace glosa::engine {
class ModelPackage;
} // namespace glosa::engine

namespace glosa::captioner {

// Reads the hyperparameters once and builds both halves; PackageError naming the file (and the
// key or tensor) that is wrong.
std::unique_ptr<engine::CaptioningModel> loadCaptioner(const engine::ModelPackage &package);

} // namespace glosa::captioner
