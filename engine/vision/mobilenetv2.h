// MobileNetV2 (Sandler et al. 2018, arXiv:1801.04381), built from a "float32-backbone-graph/v1"
// config.json (the op list in execution order, with TFLite's explicit asymmetric SAME pads) and
// weights handed in by a loader, run on the engine's Conv2d / AvgPool2d / Add / Softmax ops.
//
// Basic usage:
//     auto net = vision::MobileNetV2::fromFiles("mobilenet_v2/config.json",
//                                                "mobilenet_v2/model.safetensors");
//     Tensor x = vision::preprocessRgb(pixels, 224, 224);        // imageprep.h: [1, 3, 224, 224]
//     auto out = net(x, {"stride32_7x7x1280"}, ops::Layout::NHWC);
//     out.logits;                                                // [1, 1001]
//     out.features.at("stride32_7x7x1280");                     // [1, 7, 7, 1280]
//
// Activations run in NHWC internally (oneDNN's brgemm and depthwise kernels take it directly)
// and are converted only at the boundary: the input from NCHW, each requested feature map into
// the layout asked for. NHWC [1, 7, 7, 1280] is already the [49, 1280] memory a captioner's
// attention reads. Weights come through a WeightLoader so that a model package can supply them
// from its own file, in fp16 or bf16 too (they are converted to fp32 once, here).
//
// Thread-safe: operator() is const and may run in several threads at once.
#pragma once

#include "engine/ops/conv.h"
#include "engine/tensor.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace glosa::engine::vision {

// Returns the tensor called `name`; `expected` is the shape the graph needs (the loader may
// check it; the network checks it again). Any float storage dtype.
using WeightLoader = std::function<Tensor(const std::string &name, const Shape &expected)>;

class MobileNetV2
{
public:
    // config: parsed config.json. Throws std::runtime_error on an unknown format or op type and
    // std::invalid_argument when a weight's shape differs from the graph's.
    MobileNetV2(const nlohmann::json &config, const WeightLoader &loadWeight);
    // Reads config.json and model.safetensors (SafeTensorsFile; PackageError on a bad file).
    static MobileNetV2 fromFiles(const std::string &configPath, const std::string &weightsPath);

    struct Result
    {
        Tensor logits;                          // [N, classes], before softmax
        Tensor probabilities;                   // [N, classes]
        std::map<std::string, Tensor> features; // requested maps, keyed as requested
    };

    // input [N, 3, H, W] NCHW fp32 (imageprep.h prepareRgb), H×W as in the config (224×224).
    // features: config feature-map aliases ("stride16_14x14x96") or tensor names
    // ("expanded_conv_12.add", "Conv_1", "input"); each comes back in `featureLayout`.
    Result operator()(const Tensor &input, const std::vector<std::string> &features = {},
                      ops::Layout featureLayout = ops::Layout::NCHW) const;

    Shape inputShape() const; // [1, 3, 224, 224]
    std::int64_t numClasses() const;
    // alias -> tensor name, from config.json "feature_maps".
    const std::map<std::string, std::string> &featureMaps() const;
    std::vector<std::string> tensorNames() const; // every op output, in execution order

private:
    struct Impl;
    std::shared_ptr<const Impl> m_impl;
};

} // namespace glosa::engine::vision
