// bench_mobilenet: median milliseconds per 224×224 image for MobileNetV2 on the engine (logits
// plus the 7×7×1280 feature map, as the captioner asks for it).
// Usage: bench_mobilenet [threads] [runs]  (threads default: all cores; runs default: 200).
// Needs the shared data (GLOSA_DATA or the configured default).
#include "engine/runtime.h"
#include "engine/vision/imageprep.h"
#include "engine/vision/mobilenetv2.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace glosa::engine;

int main(int argc, char **argv)
{
    if (argc > 1)
        runtime::setNumThreads(std::atoi(argv[1]));
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 200;
    const char *env = std::getenv("GLOSA_DATA");
    const std::string dir = std::string(env ? env : GLOSA_DATA_DEFAULT) + "/mobilenet_v2/";
    try {
        const auto net =
            vision::MobileNetV2::fromFiles(dir + "config.json", dir + "model.safetensors");
        std::vector<std::uint8_t> pixels(224 * 224 * 3);
        for (std::size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<std::uint8_t>((i * 31) % 256);
        const Tensor input = vision::preprocessRgb(pixels.data(), 224, 224);
        for (int i = 0; i < 5; ++i) // warm-up: primitive creation, weight packing
            net(input, {"stride32_7x7x1280"}, ops::Layout::NHWC);
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            const auto start = std::chrono::steady_clock::now();
            net(input, {"stride32_7x7x1280"}, ops::Layout::NHWC);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("engine MobileNetV2 224x224, threads %d, %d runs: median %.2f ms, min %.2f, "
                    "p90 %.2f\n",
                    runtime::numThreads(), runs, ms[ms.size() / 2], ms.front(),
                    ms[ms.size() * 9 / 10]);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_mobilenet: %s\n", e.what());
        return 1;
    }
    return 0;
}
