// The JSON files of a Hugging Face model folder other than config.json (fuzz_marian_config), read
// from a file as the MarianMT import reads them: bounded, linear parsing (engine/jsonfile.h) and
// then the reader of each, built once per file by GLOSA_FUZZ_FILE:
//   generation_config  engine::marianDecoding on a valid config's hyperparameters;
//   tokenizer_config   engine::readJsonFile with the import's size bound;
//   vocab              engine::Tokenizer(tests/data/spm/spm.model, the input).
// scripts/fuzz runs them with -len_control=0 up to 1 MiB (kMaxConfigBytes), where a parse that
// rescans (the callback this replaced took 16 s on 1 MiB of small objects) runs past -timeout.
// Seeds: corpus/fuzz_<file>.
#include "engine/import/marianimport.h"
#include "engine/jsonfile.h"
#include "engine/limits.h"
#include "engine/packageerror.h"
#include "engine/text/tokenizer.h"
#include "tests/fuzz/fuzzutil.h"

#include <cstring>

namespace {

const nlohmann::json &hyperparameters()
{
    static const nlohmann::json h =
        glosa::engine::marianHyperparameters({{"model_type", "marian"},
                                              {"d_model", 16},
                                              {"encoder_attention_heads", 2},
                                              {"encoder_ffn_dim", 32},
                                              {"encoder_layers", 1},
                                              {"decoder_layers", 1},
                                              {"max_position_embeddings", 64},
                                              {"vocab_size", 100},
                                              {"pad_token_id", 99},
                                              {"eos_token_id", 0}},
                                             "config.json");
    return h;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString path = glosa::fuzz::writeInput(data, size, ".json");
    const std::string file = path.toStdString();
    const auto maxBytes = static_cast<std::uint64_t>(glosa::engine::limits::kMaxConfigBytes);
    try {
        if (std::strcmp(GLOSA_FUZZ_FILE, "vocab") == 0) {
            const glosa::engine::Tokenizer tokenizer(GLOSA_TEST_DATA_DIR "/spm/spm.model", file);
            if (tokenizer.vocabSize() > glosa::engine::limits::kMaxVocabulary)
                std::abort();
        } else if (std::strcmp(GLOSA_FUZZ_FILE, "generation_config") == 0) {
            nlohmann::json h = hyperparameters();
            const nlohmann::json decoding =
                glosa::engine::marianDecoding(glosa::engine::readJsonFile(file, maxBytes), h, file);
            if (decoding["beam_size"].get<int>() > glosa::engine::limits::kMaxBeamSize)
                std::abort();
        } else {
            (void)glosa::engine::readJsonFile(file, maxBytes);
        }
    } catch (const glosa::engine::PackageError &) {
    }
    return 0;
}
