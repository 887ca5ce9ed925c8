// A Hugging Face config.json handed to the MarianMT import: bounded JSON parsing
// (engine::parseJsonText) and engine::marianHyperparameters, which must refuse every config it
// cannot import with a PackageError and accept only sizes within engine/limits.h. Seeds:
// corpus/fuzz_marian_config (the fixture's config.json and OPUS-MT-shaped variants).
#include "engine/import/marianimport.h"
#include "engine/jsonfile.h"
#include "engine/limits.h"
#include "engine/packageerror.h"
#include "tests/fuzz/fuzzutil.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        const nlohmann::json config = glosa::engine::parseJsonText(
            std::string_view(reinterpret_cast<const char *>(data), size), "config.json");
        const nlohmann::json h = glosa::engine::marianHyperparameters(config, "config.json");
        // What was accepted is within the limits the plugin checks again at load.
        if (h["d_model"].get<std::int64_t>() > glosa::engine::limits::kMaxModelWidth ||
            h["vocab_size"].get<std::int64_t>() > glosa::engine::limits::kMaxVocabulary ||
            h["max_positions"].get<std::int64_t>() > glosa::engine::limits::kMaxPositions)
            std::abort();
    } catch (const glosa::engine::PackageError &) {
    }
    return 0;
}
