// bench_caption: median milliseconds to caption one image with the shipped captioner, split into
// the encoder (resize, MobileNetV2 to the 7×7 grid, the per-image projections) and the decoder
// (Show, Attend and Tell under the shared search), as CaptioningModel::caption runs them.
// Usage: bench_caption [threads] [runs] [beam] [image.jpg ...]
//   threads default: all cores; runs default 50; beam default 3 (1: greedy). Images are loaded
//   with loadRgbImage and used in turn; without any, a synthetic 224×224 pattern is captioned.
//   The package is resources/models/captioner-en (GLOSA_CAPTIONER overrides it).
#include "app/core/inference/imageloader.h"
#include "engine/package.h"
#include "engine/runtime.h"
#include "engine/vision/imageprep.h"
#include "plugins/captioner/captionermodel.h"

#include <QString>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace glosa;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1)
        engine::runtime::setNumThreads(std::atoi(argv[1]));
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
    const int beam = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    const char *env = std::getenv("GLOSA_CAPTIONER");
    const std::string dir =
        env ? std::string(env) : std::string(GLOSA_SOURCE_DIR) + "/resources/models/captioner-en";
    try {
        std::vector<RgbImage> images;
        for (int i = 4; i < argc; ++i)
            images.push_back(loadRgbImage(QString::fromLocal8Bit(argv[i])));
        if (images.empty()) {
            RgbImage pattern;
            pattern.width = pattern.height = 224;
            pattern.pixels.resize(224 * 224 * 3);
            for (std::size_t i = 0; i < pattern.pixels.size(); ++i)
                pattern.pixels[i] = static_cast<std::uint8_t>((i * 31) % 256);
            images.push_back(std::move(pattern));
        }
        const auto model = captioner::loadCaptioner(engine::ModelPackage::load(dir));
        engine::DecodingOptions options = model->defaultDecodingOptions();
        options.strategy = beam > 1 ? engine::SearchStrategy::Beam : engine::SearchStrategy::Greedy;
        options.beamSize = beam;
        options.nBest = 1;
        engine::ImageEncoder &imageEncoder = model->encoder();
        auto encode = [&](const RgbImage &image) {
            return imageEncoder.encode(
                engine::vision::prepareRgb(image.pixels.data(), image.width, image.height,
                                           imageEncoder.inputWidth(), imageEncoder.inputHeight()));
        };
        for (int i = 0; i < 3; ++i) // warm-up: primitive creation per shape
            engine::decode(model->decoder(), encode(images[0]), options);
        std::vector<double> encoder, decoder, total;
        std::size_t tokens = 0;
        for (int i = 0; i < runs; ++i) {
            const RgbImage &image = images[i % images.size()];
            const auto start = Clock::now();
            std::unique_ptr<engine::DecoderState> state = encode(image);
            encoder.push_back(msSince(start));
            const auto middle = Clock::now();
            const auto results = engine::decode(model->decoder(), std::move(state), options);
            decoder.push_back(msSince(middle));
            total.push_back(msSince(start));
            tokens += results.at(0).hypotheses.at(0).tokens.size();
        }
        std::printf("captioner %s, threads %d, beam %d, %d runs over %zu image(s): median %.2f ms "
                    "per image (encoder %.2f ms, decoder %.2f ms; %.1f tokens per caption)\n",
                    model->id().c_str(), engine::runtime::numThreads(), beam, runs, images.size(),
                    median(total), median(encoder), median(decoder), double(tokens) / double(runs));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_caption: %s\n", e.what());
        return 1;
    }
    return 0;
}
