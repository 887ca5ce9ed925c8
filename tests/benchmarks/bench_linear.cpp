// bench_linear: GFLOP/s of ops::Linear on each of its oneDNN primitives (matmul, 1×1 convolution;
// weights prepacked) against the plain-loop reference for the M×K×N shapes a translator meets:
// one decoder step, a batch of 32 rows through the shipped models' layers, a big square product.
// Prints the median of many runs and which primitive Linear::Kernel::Auto picks here, and
// ops::QuantizedLinear (int8) on the same shapes: its time includes quantizing the input and the
// rescale, and the last column is fp32 Linear (Auto) over int8.
// --half: instead, Linear on F16 weights (its fp16 kernel at small M, halfgemv.h) against Linear
// on the same weights converted to F32 (oneDNN), in one run, the two sides alternated; the
// ratio is the median of the per-round ratios, which a loaded machine disturbs less than the
// times themselves. Shapes: a batch-1 decoder step's layers and beams, and M = 1..16 on the
// output projection to place Linear::halfWeightsMaxRows().
// --shapes MxKxN,...: instead, ops::QuantizedLinear on those shapes, its int8 kernel
// (int8gemv.h) against oneDNN's int8 convolution, alternated in the same way: each side's whole
// call (quantizing the input and the rescale included), the kernel alone on codes already
// quantized, GOP/s (2·M·K·N per call), and oneDNN's implementation for M rows. With --cold each
// side cycles through copies of the layer (about 24 MB of weights in all), so that its weights
// come from L3 as in a decoder step, where the other layers' pass between two calls of one.
// --float --shapes MxKxN,...: the same for fp32 ops::Linear: its fp32 kernel (floatgemm.h)
// against oneDNN's matmul (the kernel's row limit set to 0 for that side,
// detail::limitFloatGemmRows), alternated, GFLOP/s, and for up to 4 rows also floatGemv
// (halfgemv.h) on plain fp32 weights against the kernel, alternated likewise.
// Usage: bench_linear [threads] [--half | [--float] --shapes MxKxN,... [--cold]] (default: all
// threads).
#include "engine/ops/floatgemm.h"
#include "engine/ops/halfgemv.h"
#include "engine/ops/int8gemv.h"
#include "engine/ops/linear.h"
#include "engine/ops/quantizedlinear.h"
#include "engine/runtime.h"
#include "tests/reference/opsreference.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace glosa::engine;

namespace {

Tensor randomTensor(const Shape &shape, unsigned seed)
{
    Tensor t(shape);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (std::int64_t i = 0; i < t.numel(); ++i)
        t.data<float>()[i] = dist(rng);
    return t;
}

template <typename F> double medianSeconds(F &&f, int runs)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
    return times[runs / 2];
}

Tensor toHalf(const Tensor &t)
{
    Tensor half(t.shape(), DType::F16);
    for (std::int64_t i = 0; i < t.numel(); ++i)
        half.data<std::uint16_t>()[i] = floatToHalf(t.data<float>()[i]);
    return half;
}

double median(std::vector<double> v)
{
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

// Seconds per call of `a` and of `b` and the ratio b / a, as medians over rounds that alternate
// which goes first; each sample times as many calls as take about 2 ms.
template <typename A, typename B> std::array<double, 3> alternated(A &&a, B &&b, int rounds)
{
    const double once = std::min(medianSeconds(a, 5), medianSeconds(b, 5));
    const int reps = std::clamp(static_cast<int>(2e-3 / std::max(once, 1e-7)), 1, 10000);
    auto sample = [reps](auto &&f) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i)
            f();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
               reps;
    };
    std::vector<double> ta, tb, ratio;
    for (int r = 0; r < rounds; ++r) {
        const double first = r % 2 ? sample(a) : sample(b);
        const double second = r % 2 ? sample(b) : sample(a);
        ta.push_back(r % 2 ? first : second);
        tb.push_back(r % 2 ? second : first);
        ratio.push_back(tb.back() / ta.back());
    }
    return {median(ta), median(tb), median(ratio)};
}

std::string shapeLabel(std::int64_t m, std::int64_t k, std::int64_t n)
{
    return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
}

// "32x512x65001,8x512x512" -> {{32, 512, 65001}, {8, 512, 512}}; empty on a malformed list.
std::vector<std::array<std::int64_t, 3>> parseShapes(const std::string &list)
{
    std::vector<std::array<std::int64_t, 3>> shapes;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        long long m = 0, k = 0, n = 0;
        char tail = 0;
        if (std::sscanf(item.c_str(), "%lldx%lldx%lld%c", &m, &k, &n, &tail) != 3 || m < 1 ||
            k < 1 || n < 1)
            return {};
        shapes.push_back({m, k, n});
    }
    return shapes;
}

// QuantizedLinear on each shape: its int8 kernel against oneDNN (int8gemv.h's row limit set to
// 0 for the oneDNN side), and the kernel alone on codes quantized beforehand.
int benchShapes(const std::vector<std::array<std::int64_t, 3>> &shapes, bool cold)
{
    namespace detail = ops::detail;
    const std::int64_t maxRows = detail::int8GemvMaxRows();
    std::printf("threads: %d; int8 kernel for %s rows here; weights %s\n", runtime::numThreads(),
                maxRows == std::numeric_limits<std::int64_t>::max()
                    ? "any number of"
                    : std::to_string(maxRows).c_str(),
                cold ? "from L3 (--cold)" : "hot (one layer)");
    std::printf("%-16s %9s %9s %9s %9s %9s %9s %9s  %s\n", "M x K x N", "kern us", "kern GOP/s",
                "dnnl us", "dnnl GOP/s", "dnnl/kern", "gemv us", "gemv GOP/s", "oneDNN impl");
    for (const auto &[m, k, n] : shapes) {
        const Tensor w = randomTensor({n, k}, 1), x = randomTensor({m, k}, 3);
        const std::int64_t copies = cold ? std::max<std::int64_t>(1, (24 << 20) / (n * k)) : 1;
        std::vector<ops::QuantizedLinear> layers; // each its own weights (a copy would share them)
        for (std::int64_t i = 0; i < copies; ++i)
            layers.emplace_back(w);
        const ops::QuantizedLinear &op = layers.front();
        Tensor yKernel, yDnnl;
        std::size_t nextKernel = 0, nextDnnl = 0;
        auto kernel = [&] { layers[nextKernel++ % layers.size()](x, yKernel); };
        auto dnnl = [&] {
            detail::limitInt8GemvRows(0);
            layers[nextDnnl++ % layers.size()](x, yDnnl);
            detail::limitInt8GemvRows(-1);
        };
        const auto [tKernel, tDnnl, ratio] = alternated(kernel, dnnl, 31);
        const double work = 2.0 * m * k * n; // operations a call
        // The kernel alone: random codes, no quantizing or rescale around it.
        std::vector<std::int8_t> codes(static_cast<std::size_t>(n * k)), xq(m * k);
        std::mt19937 rng(4);
        for (auto *v : {&codes, &xq})
            for (std::int8_t &c : *v)
                c = static_cast<std::int8_t>(static_cast<int>(rng() % 255) - 127);
        const detail::Int8GemvWeights packed = detail::packInt8Gemv(codes.data(), n, k);
        const std::vector<float> scales(static_cast<std::size_t>(n), 1.0f);
        std::vector<float> y(static_cast<std::size_t>(m * n));
        double tGemv = 0.0;
        if (detail::int8GemvMaxRows() >= m) {
            const std::int64_t rows = m; // clang 14 cannot capture a structured binding
            auto gemv = [&] { detail::int8Gemv(xq.data(), rows, packed, scales.data(), y.data()); };
            tGemv = std::get<0>(alternated(gemv, gemv, 11));
        }
        detail::limitInt8GemvRows(0);
        const std::string dnnlImplementation = op.implementation(m);
        detail::limitInt8GemvRows(-1);
        std::printf("%-16s %9.1f %9.1f %9.1f %9.1f %8.2fx %9.1f %9.1f  %s\n",
                    shapeLabel(m, k, n).c_str(), tKernel * 1e6, work / tKernel * 1e-9, tDnnl * 1e6,
                    work / tDnnl * 1e-9, ratio, tGemv * 1e6, tGemv > 0 ? work / tGemv * 1e-9 : 0.0,
                    dnnlImplementation.c_str());
    }
    return 0;
}

// fp32 Linear on each shape: its kernel against oneDNN's matmul, and floatGemv against the
// kernel for up to 4 rows; `cold` cycles each side through copies of the weights.
int benchFloatShapes(const std::vector<std::array<std::int64_t, 3>> &shapes, bool cold)
{
    namespace detail = ops::detail;
    std::printf("threads: %d; fp32 kernel %s here; weights %s\n", runtime::numThreads(),
                detail::floatGemmMaxRows() > 0 ? "for every call" : "NOT available",
                cold ? "from L3 (--cold)" : "hot (one layer)");
    std::printf("%-16s %9s %9s %9s %9s %9s %9s %9s  %s / %s\n", "M x K x N", "kern us", "kern GF/s",
                "dnnl us", "dnnl GF/s", "dnnl/kern", "gemv us", "gemv/kern", "kernel",
                "oneDNN impl");
    for (const auto &[m, k, n] : shapes) {
        const Tensor w = randomTensor({n, k}, 1), b = randomTensor({n}, 2);
        const Tensor x = randomTensor({m, k}, 3);
        const std::int64_t copies = cold ? std::max<std::int64_t>(1, (48 << 20) / (n * k * 4)) : 1;
        std::vector<ops::Linear> layers; // each its own weights (a copy would share them)
        std::vector<Tensor> plain;       // floatGemv's weights, as many copies
        for (std::int64_t i = 0; i < copies; ++i) {
            layers.emplace_back(w, b);
            if (m <= 4)
                plain.push_back(w.clone());
        }
        Tensor yKernel, yDnnl, yGemv(Shape{m, n});
        std::size_t nextKernel = 0, nextDnnl = 0, nextGemv = 0;
        auto kernel = [&] { layers[nextKernel++ % layers.size()](x, yKernel); };
        auto dnnl = [&] {
            detail::limitFloatGemmRows(0);
            layers[nextDnnl++ % layers.size()](x, yDnnl);
            detail::limitFloatGemmRows(-1);
        };
        for (std::int64_t i = 0; i < copies; ++i)
            dnnl(); // oneDNN's copy of each layer's weights, packed on its first call
        const auto [tKernel, tDnnl, ratio] = alternated(kernel, dnnl, 31);
        double tGemv = 0.0, gemvRatio = 0.0;
        if (m <= 4 && detail::halfGemvIsa() != detail::HalfGemvIsa::None) {
            const std::int64_t rows = m, outs = n, ins = k; // clang 14 cannot capture bindings
            auto gemv = [&] {
                detail::floatGemv(x.data<float>(), rows, ins,
                                  plain[nextGemv++ % plain.size()].data<float>(), outs,
                                  b.data<float>(), ops::Activation::None, yGemv.data<float>());
            };
            const auto times = alternated(kernel, gemv, 31);
            tGemv = times[1];
            gemvRatio = times[2];
        }
        detail::limitFloatGemmRows(0);
        const std::string dnnlImplementation = layers.front().implementation(m);
        detail::limitFloatGemmRows(-1);
        const double work = 2.0 * m * k * n;
        std::printf("%-16s %9.1f %9.1f %9.1f %9.1f %8.2fx %9.1f %8.2fx  %s / %s\n",
                    shapeLabel(m, k, n).c_str(), tKernel * 1e6, work / tKernel * 1e-9, tDnnl * 1e6,
                    work / tDnnl * 1e-9, ratio, tGemv * 1e6, gemvRatio,
                    layers.front().implementation(m).c_str(), dnnlImplementation.c_str());
    }
    return 0;
}

int benchHalf()
{
    std::printf(
        "threads: %d; fp16 kernel %s; Linear::halfWeightsMaxRows() = %lld\n", runtime::numThreads(),
        ops::Linear(toHalf(randomTensor({8, 8}, 1))).halfWeights() ? "available" : "NOT available",
        static_cast<long long>(ops::Linear::halfWeightsMaxRows()));
    // "f16 us" is Linear on the F16 weights: the fp16 kernel up to halfWeightsMaxRows() rows
    // ("path" fp16), oneDNN fp32 above (the ratio is then noise: the same path on both sides).
    std::printf("%-16s %10s %10s %10s %9s  %s\n", "M x K x N", "f16 us", "fp32 us", "fp32/f16",
                "f16 GB/s", "path");
    const std::int64_t shapes[][3] = {
        {1, 256, 256},   {1, 256, 768},   {1, 256, 1024},  {1, 1024, 256}, {1, 256, 8000},
        {1, 256, 16000}, {4, 256, 256},   {4, 256, 1024},  {4, 1024, 256}, {4, 256, 8000},
        {2, 256, 8000},  {3, 256, 8000},  {5, 256, 8000},  {6, 256, 8000}, {8, 256, 8000},
        {9, 256, 8000},  {12, 256, 8000}, {16, 256, 8000}, {8, 256, 1024}, {16, 256, 1024}};
    for (const auto &s : shapes) {
        const std::int64_t m = s[0], k = s[1], n = s[2];
        const Tensor w16 = toHalf(randomTensor({n, k}, 1));
        const Tensor b = randomTensor({n}, 2), x = randomTensor({m, k}, 3);
        const ops::Linear half(w16, b), full(w16.toFloat32(), b);
        Tensor y;
        half(x, y);
        full(x, y);
        const auto [h, f, ratio] = alternated([&] { half(x, y); }, [&] { full(x, y); }, 61);
        std::printf("%-16s %10.1f %10.1f %9.2fx %9.1f  %s\n", shapeLabel(m, k, n).c_str(), h * 1e6,
                    f * 1e6, ratio, 2.0 * n * k / h * 1e-9,
                    half.halfWeights() && m <= ops::Linear::halfWeightsMaxRows() ? "fp16"
                                                                                 : "oneDNN");
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    bool halfMode = false;
    std::vector<std::array<std::int64_t, 3>> given;
    bool cold = false, floatMode = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--half") {
            halfMode = true;
        } else if (arg == "--float") {
            floatMode = true;
        } else if (arg == "--cold") {
            cold = true;
        } else if (arg == "--shapes") {
            given = parseShapes(i + 1 < argc ? argv[++i] : "");
            if (given.empty()) {
                std::fprintf(stderr, "bench_linear: --shapes wants MxKxN[,MxKxN...] with "
                                     "positive sizes, e.g. 32x512x65001,1x512x512\n");
                return 2;
            }
        } else {
            runtime::setNumThreads(std::atoi(argv[i]));
        }
    }
    if (halfMode)
        return benchHalf();
    if (floatMode && given.empty()) {
        std::fprintf(stderr, "bench_linear: --float wants --shapes MxKxN[,MxKxN...]\n");
        return 2;
    }
    if (!given.empty())
        return floatMode ? benchFloatShapes(given, cold) : benchShapes(given, cold);
    using Kernel = ops::Linear::Kernel;
    std::printf("threads: %d; Linear::Kernel::Auto uses the %s here\n", runtime::numThreads(),
                ops::Linear(randomTensor({8, 8}, 1)).kernel() == Kernel::Matmul
                    ? "matmul"
                    : "1x1 convolution");
    std::printf("%-16s %12s %12s %12s %12s %12s %9s %10s %9s  %s\n", "M x K x N", "matmul us",
                "matmul GF/s", "conv us", "conv GF/s", "ref GF/s", "conv/matmul", "int8 us",
                "fp32/int8", "int8 kernel");
    // The shipped models' layers: Transformer d_model 256, FFN 1024, fused QKV 768, tied output
    // projection 8000; RNN GRU gates 512 -> 1536.
    const std::int64_t shapes[][3] = {
        {1, 512, 512},   {1, 256, 8000},  {32, 256, 256},  {32, 256, 768},  {32, 256, 1024},
        {32, 1024, 256}, {32, 512, 1536}, {32, 256, 8000}, {64, 512, 2048}, {512, 512, 512}};
    for (const auto &s : shapes) {
        const std::int64_t m = s[0], k = s[1], n = s[2];
        const Tensor w = randomTensor({n, k}, 1), b = randomTensor({n}, 2);
        const Tensor x = randomTensor({m, k}, 3);
        const double flops = 2.0 * m * k * n;
        double seconds[2];
        const bool autoConv = ops::Linear(w, b).kernel() == Kernel::Convolution;
        for (const Kernel kernel : {Kernel::Matmul, Kernel::Convolution}) {
            const ops::Linear linear(w, b, ops::Activation::None, kernel);
            Tensor y;
            linear(x, y); // warm-up: primitive creation
            // Aim for about a second of engine work per shape, at least 50 runs.
            const double once = medianSeconds([&] { linear(x, y); }, 5);
            const int runs = std::clamp(static_cast<int>(1.0 / std::max(once, 1e-7)), 50, 20000);
            seconds[kernel == Kernel::Convolution] = medianSeconds([&] { linear(x, y); }, runs);
        }
        const ops::QuantizedLinear quantized(w, b);
        Tensor yq;
        quantized(x, yq);
        const double once = medianSeconds([&] { quantized(x, yq); }, 5);
        const double int8 =
            medianSeconds([&] { quantized(x, yq); },
                          std::clamp(static_cast<int>(1.0 / std::max(once, 1e-7)), 50, 20000));
        Tensor yRef;
        const double reference =
            medianSeconds([&] { ops::reference::linear(x, w, b, ops::Activation::None, yRef); },
                          m * n * k > 10'000'000 ? 3 : 21);
        char label[32];
        std::snprintf(label, sizeof label, "%lldx%lldx%lld", static_cast<long long>(m),
                      static_cast<long long>(k), static_cast<long long>(n));
        std::printf("%-16s %12.1f %12.1f %12.1f %12.1f %12.2f %8.2fx %10.1f %8.2fx  %s\n", label,
                    seconds[0] * 1e6, flops / seconds[0] * 1e-9, seconds[1] * 1e6,
                    flops / seconds[1] * 1e-9, flops / reference * 1e-9, seconds[0] / seconds[1],
                    int8 * 1e6, seconds[autoConv] / int8, quantized.implementation(m).c_str());
    }
    return 0;
}
