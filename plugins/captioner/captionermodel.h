// CaptionerModel: the captioning model the "captioner" plugin loads (engine::CaptioningModel):
// the package's own MobileNetV2 backbone (backbone.json + "backbone.*" tensors, run by
// engine/vision/mobilenetv2.h) and the Show, Attend and Tell decoder (captionerdecoder.h) under
// the shared search.
//
// Basic usage:
//     const auto package = engine::ModelPackage::load("resources/models/captioner-en");
//     captioner::CaptionerModel model(package);
//     engine::ImageCaption c = model.caption(rgb, width, height, options);
//     c.result.hypotheses[0].attention;   // [tokens, gridRows * gridCols], rows sum to 1
//
// Preprocessing is the backbone's (engine/vision/imageprep.h): resized to its 224×224 input over
// the whole image with PIL's bilinear filter, then (x - 128) / 128.
#pragma once

#include "engine/captioning/captioningmodel.h"
#include "engine/decoding/decodingoptions.h"
#include "engine/vision/mobilenetv2.h"
#include "plugins/captioner/captionerdecoder.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace glosa::captioner {

class CaptionerModel final : public engine::CaptioningModel
{
public:
    // Loads the backbone graph and weights and the decoder; PackageError naming the file.
    explicit CaptionerModel(const engine::ModelPackage &package);
    ~CaptionerModel() override;

    std::string id() const override { return m_id; }
    const engine::Tokenizer &tokenizer() const override { return *m_tokenizer; }
    engine::ImageCaption caption(const std::uint8_t *rgb, int width, int height,
                                 const engine::DecodingOptions &options,
                                 const engine::DecodingControl &control = {}) override;

    // The grid the decoder attends over for one image: [1, L, featureDim] (backbone only).
    engine::Tensor features(const std::uint8_t *rgb, int width, int height) const;
    // Captions precomputed features (the parity test and the benchmark's decoder half).
    engine::ImageCaption captionFeatures(const engine::Tensor &features,
                                         const engine::DecodingOptions &options,
                                         const engine::DecodingControl &control = {});

    // The package's "decoding" object over DecodingOptions' defaults.
    engine::DecodingOptions defaultDecodingOptions() const override { return m_defaults; }
    const CaptionerConfig &config() const { return m_decoder->config(); }
    int inputWidth() const { return m_inputWidth; }
    int inputHeight() const { return m_inputHeight; }

private:
    std::string m_id;
    std::shared_ptr<const engine::Tokenizer> m_tokenizer;
    std::unique_ptr<engine::vision::MobileNetV2> m_backbone;
    std::unique_ptr<CaptionerDecoder> m_decoder;
    engine::DecodingOptions m_defaults;
    int m_inputWidth = 224;
    int m_inputHeight = 224;
};

} // namespace glosa::captioner
