// Image preparation for the vision backbones: 8-bit RGB of any size to the tensor a backbone
// takes. The app hands the engine decoded pixels (app/core/inference/imageloader.h); resizing and
// normalising happen here, once, for every image model (engine/captioning/captioningmodel.h).
//
// Basic usage:
//     Tensor x = vision::prepareRgb(rgb, width, height, 224, 224); // [1, 3, 224, 224] F32
//
// The resize is PIL's (Image.resize(size, BILINEAR)), what the models were trained and exported
// with: a separable triangle filter whose support is widened by the scale factor when shrinking,
// horizontal pass then vertical, each rounded to 8 bits. The normalisation is TFLite's uint8 input
// quantisation of MobileNetV2 (scale 1/128, zero point 128).
#pragma once

#include "engine/tensor.h"

#include <cstdint>
#include <vector>

namespace glosa::engine::vision {

// PIL-compatible bilinear resize of 8-bit RGB. rgb is [height, width, 3] row-major; returns
// [outHeight, outWidth, 3]. Throws std::invalid_argument for no pixels or a size below 1.
std::vector<std::uint8_t> resizeBilinear(const std::uint8_t *rgb, int width, int height,
                                         int outWidth, int outHeight);

// RGB u8 pixels, row-major HWC (height rows of width×3 bytes, no padding) -> [1, 3, H, W] with
// x = (pixel - 128) / 128, the exact float form of TFLite's uint8 input quantisation. No resizing.
Tensor preprocessRgb(const std::uint8_t *rgb, std::int64_t width, std::int64_t height);

// resizeBilinear to inputWidth × inputHeight, then preprocessRgb: [1, 3, inputHeight, inputWidth].
// Throws std::invalid_argument for an empty image (no pixels, a width or height below 1).
Tensor prepareRgb(const std::uint8_t *rgb, int width, int height, int inputWidth, int inputHeight);

} // namespace glosa::engine::vision
