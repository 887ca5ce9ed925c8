// ImageEncoder: the image half of a captioning model (captioningmodel.h). It runs a backbone over
// a batch of prepared images (engine/vision/imageprep.h) and computes what the model's step
// decoder needs once per image, returning the DecoderState (engine/layers/stepdecoder.h) the
// shared search starts from. It is the image counterpart of TextStepDecoder::encode().
//
// Basic usage (what CaptioningModel::caption does):
//     Tensor x = vision::prepareRgb(rgb, w, h, encoder.inputWidth(), encoder.inputHeight());
//     auto results = decode(decoder, encoder.encode(x), options);
//     // attention columns: the gridRows() × gridCols() cells, row-major
#pragma once

#include "engine/layers/stepdecoder.h"
#include "engine/tensor.h"

#include <memory>

namespace glosa::engine {

class ImageEncoder
{
public:
    virtual ~ImageEncoder();

    // The image size encode() takes (the backbone's input), in pixels.
    virtual int inputWidth() const = 0;
    virtual int inputHeight() const = 0;
    // The grid of cells the decoder attends over: attention column i is cell
    // (i / gridCols(), i % gridCols()), and every row's sourceLength() is gridRows() * gridCols().
    virtual int gridRows() const = 0;
    virtual int gridCols() const = 0;

    // images: [N, 3, inputHeight(), inputWidth()] F32, as vision::prepareRgb makes them. Returns
    // a state with one row per image, in order. Row b's sourceKey() is b: the seed alone decides
    // an image's samples, rather than a hash of its features, whose float bits may change with
    // the thread count. Throws std::invalid_argument for another shape.
    virtual std::unique_ptr<DecoderState> encode(const Tensor &images) = 0;
};

} // namespace glosa::engine
