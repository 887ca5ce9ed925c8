#include "plugins/captioner/captionerencoder.h"

#include "engine/package.h"
#include "engine/packageerror.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>

namespace glosa::captioner {

using engine::PackageError;
using engine::Tensor;

CaptionerEncoder::CaptionerEncoder(const engine::ModelPackage &package,
                                   const CaptionerConfig &config)
    : m_config(config)
{
    const nlohmann::json &manifest = package.manifest();
    if (!manifest.contains("backbone") || !manifest["backbone"].is_object() ||
        !manifest["backbone"].contains("graph") || !manifest["backbone"]["graph"].is_string())
        throw PackageError(package.manifestPath(), "",
                           "\"backbone.graph\" is missing: a captioner package names the file "
                           "holding its MobileNetV2 graph");
    const std::string graphPath =
        package.folder() + "/" + manifest["backbone"]["graph"].get<std::string>();
    std::ifstream in(graphPath);
    if (!in)
        throw PackageError(graphPath, "", "cannot open the backbone graph");
    nlohmann::json graph;
    try {
        graph = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &e) {
        throw PackageError(graphPath, "", std::string("not valid JSON: ") + e.what());
    }
    const std::string prefix = manifest["backbone"].value("tensor_prefix", "backbone.");
    m_backbone = std::make_unique<engine::vision::MobileNetV2>(
        graph, [&](const std::string &name, const engine::Shape &expected) {
            return package.weight(prefix + name, expected);
        });
    const engine::Shape input = m_backbone->inputShape(); // [1, 3, H, W]
    m_inputHeight = static_cast<int>(input[2]);
    m_inputWidth = static_cast<int>(input[3]);

    const CaptionerConfig &c = m_config;
    const std::int64_t D = c.featureDim, P = c.annotationDim(), H = c.hiddenDim, A = c.attentionDim;
    std::vector<engine::TensorRequirement> required{
        {"decoder.encoder_att.weight", {A, P}}, {"decoder.encoder_att.bias", {A}},
        {"decoder.init_h.weight", {H, P}},      {"decoder.init_h.bias", {H}},
        {"decoder.init_c.weight", {H, P}},      {"decoder.init_c.bias", {H}},
    };
    if (c.projectionDim) {
        required.push_back({"decoder.project.weight", {P, D}});
        required.push_back({"decoder.project.bias", {P}});
    }
    package.requireTensors(required);
    auto w = [&](const std::string &name) { return package.weight("decoder." + name); };
    using engine::ops::Activation;
    using engine::ops::Linear;
    if (c.projectionDim)
        m_project = Linear(w("project.weight"), w("project.bias"), Activation::Relu);
    m_encoderAtt = Linear(w("encoder_att.weight"), w("encoder_att.bias"));
    m_initH = Linear(w("init_h.weight"), w("init_h.bias"), Activation::Tanh);
    m_initC = Linear(w("init_c.weight"), w("init_c.bias"), Activation::Tanh);
}

CaptionerEncoder::~CaptionerEncoder() = default;

Tensor CaptionerEncoder::features(const Tensor &images) const
{
    if (images.rank() != 4 || images.dim(1) != 3 || images.dim(2) != m_inputHeight ||
        images.dim(3) != m_inputWidth || images.dtype() != engine::DType::F32)
        throw std::invalid_argument(
            "CaptionerEncoder: expected F32 images [N, 3, " + std::to_string(m_inputHeight) + ", " +
            std::to_string(m_inputWidth) + "], got " + engine::shapeToString(images.shape()));
    const CaptionerConfig &c = m_config;
    auto out = (*m_backbone)(images, {c.featureMap}, engine::ops::Layout::NHWC);
    const Tensor &grid = out.features.at(c.featureMap); // [N, rows, cols, channels]
    const std::int64_t n = images.dim(0);
    if (grid.rank() != 4 || grid.dim(0) != n || grid.dim(1) != c.gridRows ||
        grid.dim(2) != c.gridCols || grid.dim(3) != c.featureDim)
        throw std::runtime_error("CaptionerEncoder: the backbone's " + c.featureMap + " is " +
                                 engine::shapeToString(grid.shape()) + ", the decoder expects [" +
                                 std::to_string(n) + ", " + std::to_string(c.gridRows) + ", " +
                                 std::to_string(c.gridCols) + ", " + std::to_string(c.featureDim) +
                                 "]");
    // NHWC is already the row-major [N, L, channels] memory the attention reads.
    Tensor cells({n, c.cells(), c.featureDim});
    std::copy(grid.data<float>(), grid.data<float>() + grid.numel(), cells.data<float>());
    return cells;
}

std::unique_ptr<engine::DecoderState> CaptionerEncoder::encode(const Tensor &images)
{
    const Tensor grid = features(images); // [images, L, D]
    const CaptionerConfig &c = m_config;
    const std::int64_t n = grid.dim(0), L = c.cells(), P = c.annotationDim();
    auto state = std::make_unique<CaptionerState>();
    state->cells = L;
    for (std::int64_t b = 0; b < n; ++b)
        state->rowImage.push_back(static_cast<std::int32_t>(b));
    state->hidden = Tensor({n, c.hiddenDim});
    state->cell = Tensor({n, c.hiddenDim});
    if (n == 0)
        return state;
    if (m_project.empty())
        state->annotations = grid;
    else
        m_project(grid, state->annotations);       // [images, L, P]
    m_encoderAtt(state->annotations, state->keys); // [images, L, A]
    Tensor mean({n, P});
    {
        const float *a = state->annotations.data<float>();
        float *m = mean.data<float>();
        for (std::int64_t b = 0; b < n; ++b)
            for (std::int64_t p = 0; p < P; ++p) {
                double sum = 0.0;
                for (std::int64_t i = 0; i < L; ++i)
                    sum += a[(b * L + i) * P + p];
                m[b * P + p] = static_cast<float>(sum / static_cast<double>(L));
            }
    }
    m_initH(mean, state->hidden);
    m_initC(mean, state->cell);
    return state;
}

} // namespace glosa::captioner
