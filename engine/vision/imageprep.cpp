#include "engine/vision/imageprep.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace glosa::engine::vision {

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

Tensor preprocessRgb(const std::uint8_t *rgb, std::int64_t width, std::int64_t height)
{
    if (!rgb || width < 1 || height < 1)
        throw std::invalid_argument("preprocessRgb: no pixels or bad size " +
                                    std::to_string(width) + "x" + std::to_string(height));
    Tensor out({1, 3, height, width});
    float *dst = out.data<float>();
    const std::int64_t plane = width * height;
    for (std::int64_t i = 0; i < plane; ++i)
        for (std::int64_t c = 0; c < 3; ++c)
            dst[c * plane + i] = (static_cast<float>(rgb[i * 3 + c]) - 128.0f) * 0.0078125f;
    return out;
}

Tensor prepareRgb(const std::uint8_t *rgb, int width, int height, int inputWidth, int inputHeight)
{
    if (!rgb || width <= 0 || height <= 0)
        throw std::invalid_argument("empty image (" + std::to_string(width) + "x" +
                                    std::to_string(height) + ")");
    const std::vector<std::uint8_t> resized =
        resizeBilinear(rgb, width, height, inputWidth, inputHeight);
    return preprocessRgb(resized.data(), inputWidth, inputHeight);
}

} // namespace glosa::engine::vision
