// CaptionerEncoder: the captioner's image half (engine::ImageEncoder): the package's own
// MobileNetV2 backbone (backbone.json + "backbone.*" tensors, run by engine/vision/mobilenetv2.h)
// to the feature grid, then the per-image part of the Show, Attend and Tell computation that
// captionerdecoder.h writes out (the annotations a_i, their attention keys encoder_att(a_i), and
// h_0, c_0), into the CaptionerState that CaptionerDecoder steps.
//
// Basic usage:
//     CaptionerEncoder encoder(package, CaptionerConfig::fromPackage(package));
//     Tensor x = engine::vision::prepareRgb(rgb, w, h, encoder.inputWidth(),
//     encoder.inputHeight()); encoder.features(x);                      // [1, L, featureDim]: the
//     backbone's grid auto state = encoder.encode(x);           // one row per image, for
//     engine::decode()
//
// Threads: one encoder is driven by one thread at a time (the worker that owns the model).
#pragma once

#include "engine/captioning/imageencoder.h"
#include "engine/ops/linear.h"
#include "engine/vision/mobilenetv2.h"
#include "plugins/captioner/captionerdecoder.h"

#include <memory>

namespace glosa::engine {
class ModelPackage;
} // namespace glosa::engine

namespace glosa::captioner {

class CaptionerEncoder final : public engine::ImageEncoder
{
public:
    // Loads the backbone graph and weights and checks the decoder.* tensors the encoder uses;
    // PackageError naming the file (and the tensor).
    CaptionerEncoder(const engine::ModelPackage &package, const CaptionerConfig &config);
    ~CaptionerEncoder() override;

    int inputWidth() const override { return m_inputWidth; }
    int inputHeight() const override { return m_inputHeight; }
    int gridRows() const override { return m_config.gridRows; }
    int gridCols() const override { return m_config.gridCols; }
    std::unique_ptr<engine::DecoderState> encode(const engine::Tensor &images) override;

    // The backbone alone: images [N, 3, H, W] -> the grid the decoder attends over,
    // [N, L, featureDim], cells row-major (the parity test compares it with PyTorch's).
    engine::Tensor features(const engine::Tensor &images) const;

private:
    CaptionerConfig m_config;
    std::unique_ptr<engine::vision::MobileNetV2> m_backbone;
    int m_inputWidth = 0;
    int m_inputHeight = 0;
    engine::ops::Linear m_project;    // [P, D], relu fused (empty when projectionDim is 0)
    engine::ops::Linear m_encoderAtt; // [A, P]
    engine::ops::Linear m_initH;      // [H, P], tanh fused
    engine::ops::Linear m_initC;      // [H, P], tanh fused
};

} // namespace glosa::captioner
