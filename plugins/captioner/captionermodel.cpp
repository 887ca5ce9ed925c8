#include "plugins/captioner/captionermodel.h"

#include "engine/decoding/decodingfields.h"
#include "engine/package.h"
#include "engine/packageerror.h"
#include "engine/vision/imageprep.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace glosa::captioner {

using engine::PackageError;
using engine::Tensor;

CaptionerModel::CaptionerModel(const engine::ModelPackage &package)
    : m_id(package.id()), m_tokenizer(package.targetTokenizer())
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
    m_decoder = std::make_unique<CaptionerDecoder>(package);
    const engine::Shape input = m_backbone->inputShape(); // [1, 3, H, W]
    m_inputHeight = static_cast<int>(input[2]);
    m_inputWidth = static_cast<int>(input[3]);
    m_defaults = engine::decodingOptionsFromJson(package.decoding());
    m_defaults.validate(m_decoder->vocabularySize());
}

CaptionerModel::~CaptionerModel() = default;

Tensor CaptionerModel::features(const std::uint8_t *rgb, int width, int height) const
{
    const Tensor x = engine::vision::prepareRgb(rgb, width, height, m_inputWidth, m_inputHeight);
    const CaptionerConfig &c = m_decoder->config();
    auto out = (*m_backbone)(x, {c.featureMap}, engine::ops::Layout::NHWC);
    Tensor grid = out.features.at(c.featureMap); // [1, rows, cols, channels]
    if (grid.rank() != 4 || grid.dim(1) != c.gridRows || grid.dim(2) != c.gridCols ||
        grid.dim(3) != c.featureDim)
        throw std::runtime_error("CaptionerModel: the backbone's " + c.featureMap + " is " +
                                 engine::shapeToString(grid.shape()) +
                                 ", the decoder expects [1, " + std::to_string(c.gridRows) + ", " +
                                 std::to_string(c.gridCols) + ", " + std::to_string(c.featureDim) +
                                 "]");
    Tensor rows({1, c.cells(), c.featureDim});
    std::copy(grid.data<float>(), grid.data<float>() + grid.numel(), rows.data<float>());
    return rows;
}

engine::ImageCaption CaptionerModel::captionFeatures(const Tensor &features,
                                                     const engine::DecodingOptions &options,
                                                     const engine::DecodingControl &control)
{
    m_decoder->setFeatures(features);
    std::vector<engine::DecodingResult> results =
        engine::decode(*m_decoder, m_decoder->gridSources(), options, control);
    engine::ImageCaption caption;
    caption.result = std::move(results.at(0));
    caption.gridRows = m_decoder->config().gridRows;
    caption.gridCols = m_decoder->config().gridCols;
    return caption;
}

engine::ImageCaption CaptionerModel::caption(const std::uint8_t *rgb, int width, int height,
                                             const engine::DecodingOptions &options,
                                             const engine::DecodingControl &control)
{
    if (control.cancelled && control.cancelled())
        throw engine::DecodingCancelled();
    return captionFeatures(features(rgb, width, height), options, control);
}

} // namespace glosa::captioner
