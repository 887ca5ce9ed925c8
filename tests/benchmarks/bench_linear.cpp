// bench_linear: GFLOP/s of ops::Linear (oneDNN matmul, prepacked weights) against the plain-loop
// reference for the M×K×N shapes a translator meets: one decoder step, a batch of rows, a big
// square product. Prints the median of many runs. Usage: bench_linear [threads] (default: all).
#include "engine/ops/linear.h"
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
    std::printf("threads: %d\n", runtime::numThreads());
    std::printf("%-16s %12s %12s %12s %12s %9s\n", "M x K x N", "engine us", "engine GF/s",
                "ref us", "ref GF/s", "speed-up");
    const std::int64_t shapes[][3] = {{1, 512, 512}, {64, 512, 2048}, {512, 512, 512}};
    for (const auto &s : shapes) {
        const std::int64_t m = s[0], k = s[1], n = s[2];
        const Tensor w = randomTensor({n, k}, 1), b = randomTensor({n}, 2);
        const Tensor x = randomTensor({m, k}, 3);
        const ops::Linear linear(w, b);
        Tensor y, yRef;
        linear(x, y); // warm-up: primitive creation
        const double flops = 2.0 * m * k * n;
        // Aim for about a second of engine work per shape, at least 50 runs.
        const double once = medianSeconds([&] { linear(x, y); }, 5);
        const int runs = std::clamp(static_cast<int>(1.0 / std::max(once, 1e-7)), 50, 20000);
        const double engine = medianSeconds([&] { linear(x, y); }, runs);
        const double reference =
            medianSeconds([&] { ops::reference::linear(x, w, b, ops::Activation::None, yRef); },
                          m * n * k > 10'000'000 ? 3 : 21);
        char label[32];
        std::snprintf(label, sizeof label, "%lldx%lldx%lld", static_cast<long long>(m),
                      static_cast<long long>(k), static_cast<long long>(n));
        std::printf("%-16s %12.1f %12.1f %12.1f %12.2f %8.0fx\n", label, engine * 1e6,
                    flops / engine * 1e-9, reference * 1e6, flops / reference * 1e-9,
                    reference / engine);
    }
    return 0;
}
