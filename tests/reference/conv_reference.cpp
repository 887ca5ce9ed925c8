#include "tests/reference/opsreference.h"

#include <stdexcept>

namespace glosa::engine::ops::reference {

namespace {

// Index of (n, c, h, w) in a tensor of logical size C×H×W stored in `layout`.
std::int64_t at(Layout layout, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w,
                std::int64_t C, std::int64_t H, std::int64_t W)
{
    return layout == Layout::NHWC ? ((n * H + h) * W + w) * C + c : ((n * C + c) * H + h) * W + w;
}

} // namespace

void conv2d(const Tensor &x, const Tensor &weight, const Tensor &bias, const Conv2dParams &p,
            Tensor &y)
{
    const bool nhwc = p.layout == Layout::NHWC;
    const std::int64_t N = x.dim(0), C = nhwc ? x.dim(3) : x.dim(1);
    const std::int64_t H = nhwc ? x.dim(1) : x.dim(2), W = nhwc ? x.dim(2) : x.dim(3);
    const Tensor w = weight.toFloat32();
    const std::int64_t O = w.dim(0), IG = w.dim(1), KH = w.dim(2), KW = w.dim(3);
    if (IG * p.groups != C)
        throw std::invalid_argument("reference::conv2d: channel mismatch");
    const std::int64_t OH =
        (H + p.padTop + p.padBottom - (KH - 1) * p.dilationH - 1) / p.strideH + 1;
    const std::int64_t OW =
        (W + p.padLeft + p.padRight - (KW - 1) * p.dilationW - 1) / p.strideW + 1;
    const std::int64_t OG = O / p.groups;
    Tensor result(nhwc ? Shape{N, OH, OW, O} : Shape{N, O, OH, OW});
    const float *px = x.data<float>(), *pw = w.data<float>();
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t o = 0; o < O; ++o) {
            const std::int64_t g = o / OG;
            for (std::int64_t oh = 0; oh < OH; ++oh)
                for (std::int64_t ow = 0; ow < OW; ++ow) {
                    double acc = bias.empty() ? 0.0 : bias.data<float>()[o];
                    for (std::int64_t ic = 0; ic < IG; ++ic)
                        for (std::int64_t kh = 0; kh < KH; ++kh)
                            for (std::int64_t kw = 0; kw < KW; ++kw) {
                                const std::int64_t ih =
                                    oh * p.strideH - p.padTop + kh * p.dilationH;
                                const std::int64_t iw =
                                    ow * p.strideW - p.padLeft + kw * p.dilationW;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                acc += static_cast<double>(
                                           px[at(p.layout, n, g * IG + ic, ih, iw, C, H, W)]) *
                                       pw[((o * IG + ic) * KH + kh) * KW + kw];
                            }
                    result.data<float>()[at(p.layout, n, o, oh, ow, O, OH, OW)] =
                        activationReference(p.activation, static_cast<float>(acc));
                }
        }
    y = result;
}

void avgPool2d(const Tensor &x, const Pool2dParams &p, Tensor &y)
{
    const bool nhwc = p.layout == Layout::NHWC;
    const std::int64_t N = x.dim(0), C = nhwc ? x.dim(3) : x.dim(1);
    const std::int64_t H = nhwc ? x.dim(1) : x.dim(2), W = nhwc ? x.dim(2) : x.dim(3);
    const std::int64_t OH = (H + p.padTop + p.padBottom - p.kernelH) / p.strideH + 1;
    const std::int64_t OW = (W + p.padLeft + p.padRight - p.kernelW) / p.strideW + 1;
    Tensor result(nhwc ? Shape{N, OH, OW, C} : Shape{N, C, OH, OW});
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t oh = 0; oh < OH; ++oh)
                for (std::int64_t ow = 0; ow < OW; ++ow) {
                    double sum = 0.0;
                    std::int64_t count = 0;
                    for (std::int64_t kh = 0; kh < p.kernelH; ++kh)
                        for (std::int64_t kw = 0; kw < p.kernelW; ++kw) {
                            const std::int64_t ih = oh * p.strideH - p.padTop + kh;
                            const std::int64_t iw = ow * p.strideW - p.padLeft + kw;
                            if (ih < 0 || ih >= H || iw < 0 || iw >= W) {
                                count += p.countIncludePad ? 1 : 0;
                                continue;
                            }
                            sum += x.data<float>()[at(p.layout, n, c, ih, iw, C, H, W)];
                            ++count;
                        }
                    result.data<float>()[at(p.layout, n, c, oh, ow, C, OH, OW)] =
                        static_cast<float>(sum / count);
                }
    y = result;
}

} // namespace glosa::engine::ops::reference
