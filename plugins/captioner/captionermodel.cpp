#include "plugins/captioner/captionermodel.h"

#include "engine/decoding/decodingfields.h"
#include "engine/package.h"
#include "engine/packageerror.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace glosa::captioner {

using engine::PackageError;
using engine::Tensor;

namespace {

// PIL's precomputed filter taps for one axis (Imaging/Resample.c, precompute_coeffs with the
// bilinear "triangle" filter of support 1).
struct Taps
{
    std::vector<int> first;      // [out]: first input index
    std::vector<int> count;      // [out]
    std::vector<double> weights; // [out, maxCount]
    int maxCount = 0;
};

Taps triangleTaps(int inSize, int outSize)
{
    const double scale = static_cast<double>(inSize) / outSize;
    const double filterScale = std::max(scale, 1.0);
    const double support = 1.0 * filterScale;
    Taps t;
    t.maxCount = static_cast<int>(std::ceil(support)) * 2 + 1;
    t.first.resize(outSize);
    t.count.resize(outSize);
    t.weights.assign(static_cast<std::size_t>(outSize) * t.maxCount, 0.0);
    for (int x = 0; x < outSize; ++x) {
        const double center = (x + 0.5) * scale;
        int lo = static_cast<int>(center - support + 0.5);
        int hi = static_cast<int>(center + support + 0.5);
        lo = std::max(lo, 0);
        hi = std::min(hi, inSize);
        double total = 0.0;
        double *w = &t.weights[static_cast<std::size_t>(x) * t.maxCount];
        for (int i = lo; i < hi; ++i) {
            const double d = std::abs((i - center + 0.5) / filterScale);
            w[i - lo] = d < 1.0 ? 1.0 - d : 0.0;
            total += w[i - lo];
        }
        if (total != 0.0)
            for (int i = 0; i < hi - lo; ++i)
                w[i] /= total;
        t.first[x] = lo;
        t.count[x] = hi - lo;
    }
    return t;
}

std::uint8_t clip8(double v)
{
    return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

} // namespace

std::vector<std::uint8_t> resizeBilinear(const std::uint8_t *rgb, int width, int height,
                                         int outWidth, int outHeight)
{
    if (!rgb || width <= 0 || height <= 0 || outWidth <= 0 || outHeight <= 0)
        throw std::invalid_argument("resizeBilinear: bad size " + std::to_string(width) + "x" +
                                    std::to_string(height) + " -> " + std::to_string(outWidth) +
                                    "x" + std::to_string(outHeight));
    if (width == outWidth && height == outHeight)
        return {rgb, rgb + static_cast<std::size_t>(width) * height * 3};
    // Horizontal pass (skipped, as in PIL, when the width does not change), then vertical.
    std::vector<std::uint8_t> horizontal;
    const std::uint8_t *src = rgb;
    if (width != outWidth) {
        const Taps t = triangleTaps(width, outWidth);
        horizontal.resize(static_cast<std::size_t>(outWidth) * height * 3);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < outWidth; ++x)
                for (int ch = 0; ch < 3; ++ch) {
                    double v = 0.0;
                    const double *w = &t.weights[static_cast<std::size_t>(x) * t.maxCount];
                    for (int i = 0; i < t.count[x]; ++i)
                        v += w[i] *
                             rgb[(static_cast<std::size_t>(y) * width + t.first[x] + i) * 3 + ch];
                    horizontal[(static_cast<std::size_t>(y) * outWidth + x) * 3 + ch] = clip8(v);
                }
        src = horizontal.data();
    }
    if (height == outHeight)
        return horizontal;
    const Taps t = triangleTaps(height, outHeight);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(outWidth) * outHeight * 3);
    for (int y = 0; y < outHeight; ++y) {
        const double *w = &t.weights[static_cast<std::size_t>(y) * t.maxCount];
        for (int x = 0; x < outWidth; ++x)
            for (int ch = 0; ch < 3; ++ch) {
                double v = 0.0;
                for (int i = 0; i < t.count[y]; ++i)
                    v += w[i] *
                         src[(static_cast<std::size_t>(t.first[y] + i) * outWidth + x) * 3 + ch];
                out[(static_cast<std::size_t>(y) * outWidth + x) * 3 + ch] = clip8(v);
            }
    }
    return out;
}

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
    if (!rgb || width <= 0 || height <= 0)
        throw std::invalid_argument("CaptionerModel: empty image (" + std::to_string(width) + "x" +
                                    std::to_string(height) + ")");
    const std::vector<std::uint8_t> resized =
        resizeBilinear(rgb, width, height, m_inputWidth, m_inputHeight);
    const Tensor x = engine::vision::preprocessRgb(resized.data(), m_inputWidth, m_inputHeight);
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
