// The image loader the captioner uses (glosa::loadRgbImage): any bytes as an image file.
#include "app/core/inference/imageloader.h"
#include "tests/fuzz/fuzzutil.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    glosa::fuzz::ensureApp();
    try {
        (void)glosa::loadRgbImage(glosa::fuzz::writeInput(data, size, ".img"));
    } catch (const glosa::ImageLoadError &) {
    }
    return 0;
}
