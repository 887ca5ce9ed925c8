// bench_linear: GFLOP/s of ops::Linear on each of its oneDNN primitives (matmul, 1×1 convolution;
// weights prepacked) against the plain-loop reference for the M×K×N shapes a translator meets:
// one decoder step, a batch of 32 rows through the shipped models' layers, a big square product.
// Prints the median of many runs and which primitive Linear::Kernel::Auto picks here, and
// ops::QuantizedLinear (int8) on the same shapes: its time includes quantizing the input and the
// rescale, and the last column is fp32 Linear (Auto) over int8.
// Usage: bench_linear [threads] (default: all).
#include "engine/ops/linear.h"
#include "engine/ops/quantizedlinear.h"
#include "engine/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
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

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1)
        runtime::setNumThreads(std::atoi(argv[1]));
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
    const std::int64_t shapes[][3] = {{1, 512, 512},    {1, 256, 8000},   {32, 256, 256},
                                      {32, 256, 768},   {32, 256, 1024},  {32, 1024, 256},
                                      {32, 512, 1536},  {32, 256, 8000},  {64, 512, 2048},
                                      {512, 512, 512}};
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
        const double int8 = medianSeconds(
            [&] { quantized(x, yq); },
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
