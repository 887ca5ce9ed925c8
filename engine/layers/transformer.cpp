#include "engine/layers/transformer.h"

#include <cmath>
#include <stdexcept>

namespace glosa::engine::layers {

const char *normalizationName(Normalization normalization)
{
    return normalization == Normalization::PreNorm ? "pre-norm" : "post-norm";
}

const char *positionEncodingName(PositionEncoding encoding)
{
    return encoding == PositionEncoding::Interleaved ? "sinusoidal-interleaved"
                                                     : "sinusoidal-halves";
}

Normalization normalizationFromName(const std::string &name)
{
    if (name == "pre-norm")
        return Normalization::PreNorm;
    if (name == "post-norm")
        return Normalization::PostNorm;
    throw std::invalid_argument("\"" + name + "\" is not a normalization (pre-norm, post-norm)");
}

PositionEncoding positionEncodingFromName(const std::string &name)
{
    if (name == "sinusoidal-interleaved")
        return PositionEncoding::Interleaved;
    if (name == "sinusoidal-halves")
        return PositionEncoding::Halves;
    throw std::invalid_argument("\"" + name +
                                "\" is not a position encoding (sinusoidal-interleaved, "
                                "sinusoidal-halves)");
}

ops::Activation feedForwardActivationFromName(const std::string &name)
{
    if (name == "relu")
        return ops::Activation::Relu;
    if (name == "gelu")
        return ops::Activation::Gelu;
    if (name == "swish" || name == "silu")
        return ops::Activation::Swish;
    throw std::invalid_argument("\"" + name +
                                "\" is not a feed-forward activation (relu, gelu, "
                                "swish)");
}

Tensor sinusoidalPositions(std::int64_t positions, std::int64_t d, PositionEncoding encoding)
{
    if (positions < 0 || d <= 0 || d % 2 != 0)
        throw std::invalid_argument("sinusoidalPositions: " + std::to_string(positions) +
                                    " positions of width " + std::to_string(d) +
                                    " (the width must be even and positive)");
    Tensor table({positions, d});
    float *pe = table.data<float>();
    const std::int64_t half = d / 2;
    for (std::int64_t pos = 0; pos < positions; ++pos)
        for (std::int64_t i = 0; i < half; ++i) {
            const double angle = static_cast<double>(pos) /
                                 std::pow(10000.0, static_cast<double>(2 * i) / double(d));
            const bool interleaved = encoding == PositionEncoding::Interleaved;
            pe[pos * d + (interleaved ? 2 * i : i)] = static_cast<float>(std::sin(angle));
            pe[pos * d + (interleaved ? 2 * i + 1 : half + i)] =
                static_cast<float>(std::cos(angle));
        }
    return table;
}

const Tensor &sublayerInput(const TransformerShape &shape, const ops::LayerNorm &norm,
                            const Tensor &x, Tensor &normed)
{
    if (shape.normalization == Normalization::PostNorm)
        return x;
    norm(x, normed);
    return normed;
}

void closeSublayer(const TransformerShape &shape, const ops::LayerNorm &norm, Tensor &x,
                   const Tensor &f)
{
    if (x.shape() != f.shape())
        throw std::invalid_argument("closeSublayer: the sublayer's output " +
                                    shapeToString(f.shape()) + " differs from its input " +
                                    shapeToString(x.shape()));
    float *a = x.data<float>();
    const float *b = f.data<float>();
    const std::int64_t n = x.numel();
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i)
        a[i] += b[i];
    if (shape.normalization == Normalization::PostNorm)
        norm(x, x);
}

} // namespace glosa::engine::layers
