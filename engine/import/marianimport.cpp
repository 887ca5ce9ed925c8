#include "engine/import/marianimport.h"

#include "engine/import/staging.h"
#include "engine/import/torchcheckpoint.h"
#include "engine/jsonfile.h"
#include "engine/layers/transformer.h"
#include "engine/limits.h"
#include "engine/package.h"
#include "engine/regularfile.h"
#include "engine/safetensors.h"
#include "engine/text/languagecodes.h"
#include "engine/text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>

namespace glosa::engine {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr auto kMaxConfigBytes = static_cast<std::uint64_t>(limits::kMaxConfigBytes);
constexpr std::uint64_t kMaxModelCardBytes = 1 << 20; // read only for its front matter

// --- config.json -----------------------------------------------------------------------------

struct ConfigReader
{
    const json &config;
    const std::string &path;

    [[noreturn]] void fail(const std::string &key, const std::string &message) const
    {
        throw PackageError(path, {}, "\"" + key + "\" " + message);
    }
    // [minimum, maximum] are engine/limits.h's for sizes, the vocabulary for token ids.
    std::int64_t integer(const std::string &key, std::int64_t minimum, std::int64_t maximum,
                         std::optional<std::int64_t> fallback = std::nullopt,
                         const char *bound = "the limits of engine/limits.h") const
    {
        const auto it = config.find(key);
        if (it == config.end() || it->is_null()) {
            if (!fallback)
                fail(key, "is missing");
            return *fallback;
        }
        if (!it->is_number_integer())
            fail(key, "is " + it->dump() + ", expected an integer");
        const std::int64_t value =
            it->is_number_unsigned() && it->get<std::uint64_t>() > std::uint64_t(maximum)
                ? maximum + 1
                : it->get<std::int64_t>();
        if (value < minimum || value > maximum)
            fail(key, "is " + it->dump() + ", outside [" + std::to_string(minimum) + ", " +
                          std::to_string(maximum) + "] (" + bound + ")");
        return value;
    }
    bool boolean(const std::string &key, bool fallback) const
    {
        const auto it = config.find(key);
        if (it == config.end() || it->is_null())
            return fallback;
        if (!it->is_boolean())
            fail(key, "is " + it->dump() + ", expected true or false");
        return it->get<bool>();
    }
    std::string string(const std::string &key, const std::string &fallback) const
    {
        const auto it = config.find(key);
        if (it == config.end() || it->is_null())
            return fallback;
        if (!it->is_string())
            fail(key, "is " + it->dump() + ", expected a string");
        return it->get<std::string>();
    }
};

// --- Weights: model.safetensors or pytorch_model.bin -------------------------------------------

class HfWeights
{
public:
    explicit HfWeights(const fs::path &folder)
    {
        const fs::path safetensors = folder / "model.safetensors";
        const fs::path bin = folder / "pytorch_model.bin";
        for (const char *sharded : {"model.safetensors.index.json", "pytorch_model.bin.index.json"})
            if (fs::exists(folder / sharded) && !fs::exists(safetensors) && !fs::exists(bin))
                throw PackageError((folder / sharded).string(), {},
                                   "the weights are split into shards, which Glosa does not "
                                   "import (OPUS-MT models come in one file)");
        if (fs::exists(safetensors)) {
            m_path = safetensors.string();
            m_safetensors = std::make_unique<SafeTensorsFile>(m_path);
        } else if (fs::exists(bin)) {
            m_path = bin.string();
            m_torch = std::make_unique<TorchCheckpoint>(m_path);
        } else {
            throw PackageError(folder.string(), {},
                               "has neither model.safetensors nor pytorch_model.bin");
        }
    }
    const std::string &path() const { return m_path; }
    std::string fileName() const { return fs::path(m_path).filename().string(); }

    // Hugging Face stores MarianMTModel's tensors under "model." (and lm_head, final_logits_bias
    // outside it); a MarianModel checkpoint has them without the prefix.
    std::optional<std::string> find(const std::string &name) const
    {
        for (const std::string &candidate : {"model." + name, name})
            if (m_safetensors ? m_safetensors->contains(candidate) : m_torch->contains(candidate))
                return candidate;
        return std::nullopt;
    }
    Tensor load(const std::string &stored, const Shape &expected) const
    {
        const Shape shape = m_safetensors ? m_safetensors->shape(stored) : m_torch->shape(stored);
        if (!expected.empty() && shape != expected)
            throw PackageError(m_path, stored,
                               "has shape " + shapeToString(shape) + ", expected " +
                                   shapeToString(expected) + " from config.json");
        return m_safetensors ? m_safetensors->loadFloat(stored) : m_torch->loadFloat(stored);
    }
    Shape shape(const std::string &stored) const
    {
        return m_safetensors ? m_safetensors->shape(stored) : m_torch->shape(stored);
    }

private:
    std::string m_path;
    std::unique_ptr<SafeTensorsFile> m_safetensors;
    std::unique_ptr<TorchCheckpoint> m_torch;
};

// Row-wise int8 as tools/glosa/export/package.py's quantize_int8 writes it (docs/model-package.md).
std::pair<Tensor, Tensor> quantizeRows(const Tensor &w)
{
    const std::int64_t rows = w.dim(0), columns = w.numel() / std::max<std::int64_t>(rows, 1);
    Tensor codes(w.shape(), DType::I8);
    Tensor scales({rows});
    const float *src = w.data<float>();
    std::int8_t *dst = codes.data<std::int8_t>();
    float *scale = scales.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
        float amax = 0.0f;
        for (std::int64_t c = 0; c < columns; ++c)
            amax = std::max(amax, std::fabs(src[r * columns + c]));
        scale[r] = amax > 0.0f ? amax / 127.0f : 1.0f;
        for (std::int64_t c = 0; c < columns; ++c) {
            const float q = src[r * columns + c] / scale[r];
            const float rounded = std::trunc(q + (q >= 0.0f ? 0.5f : -0.5f));
            dst[r * columns + c] = static_cast<std::int8_t>(std::clamp(rounded, -127.0f, 127.0f));
        }
    }
    return {std::move(codes), std::move(scales)};
}

// --- The model card and the languages ---------------------------------------------------------

struct ModelCard
{
    std::string licence;
    std::vector<std::string> languages;
};

// The YAML front matter of a Hugging Face model card: "license: x" and "language:" as a list
// ("- en" lines) or inline ("[en, es]" or "en"). Only these keys are read.
ModelCard readModelCard(const fs::path &path)
{
    ModelCard card;
    std::error_code error;
    if (!fs::is_regular_file(path, error) || fs::file_size(path, error) > kMaxModelCardBytes)
        return card;
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line) || line.rfind("---", 0) != 0)
        return card;
    const auto trim = [](std::string s) {
        const auto first = s.find_first_not_of(" \t\r'\"");
        const auto last = s.find_last_not_of(" \t\r'\"");
        return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
    };
    bool inLanguages = false;
    while (std::getline(in, line) && line.rfind("---", 0) != 0) {
        if (inLanguages && trim(line).rfind("- ", 0) == 0) {
            card.languages.push_back(trim(trim(line).substr(2)));
            continue;
        }
        inLanguages = false;
        if (line.rfind("license:", 0) == 0) {
            card.licence = trim(line.substr(8));
        } else if (line.rfind("language:", 0) == 0) {
            std::string value = trim(line.substr(9));
            if (value.empty()) {
                inLanguages = true;
                continue;
            }
            value.erase(std::remove_if(value.begin(), value.end(),
                                       [](char c) { return c == '[' || c == ']'; }),
                        value.end());
            std::stringstream items(value);
            for (std::string item; std::getline(items, item, ',');)
                if (!trim(item).empty())
                    card.languages.push_back(trim(item));
        }
    }
    return card;
}

bool isLanguageCode(const std::string &code)
{
    static const std::regex pattern("[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*");
    return std::regex_match(code, pattern);
}

// The target languages the model card names: OPUS-MT cards say "target language(s): fra spa
// ..." (or "target languages:") in their text.
std::vector<std::string> cardTargetLanguages(const fs::path &path)
{
    std::vector<std::string> languages;
    std::error_code error;
    if (!fs::is_regular_file(path, error) || fs::file_size(path, error) > kMaxModelCardBytes)
        return languages;
    std::ifstream in(path);
    static const std::regex line(".*target language(s|\\(s\\)):\\s*(.*)", std::regex::icase);
    static const std::regex code("[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*");
    std::smatch match;
    for (std::string text; std::getline(in, text);) {
        if (text.size() > 4096 || !std::regex_match(text, match, line))
            continue;
        std::stringstream items(match[2].str());
        for (std::string item; items >> item;) {
            item.erase(std::remove_if(item.begin(), item.end(),
                                      [](char c) { return c == ',' || c == '`' || c == '*'; }),
                       item.end());
            if (std::regex_match(item, code))
                languages.push_back(item);
        }
    }
    return languages;
}

// Multi-target models: the ">>xxx<<" codes in the source vocabulary, as {"language": code}
// (languages as BCP 47 with ISO 639-1 where there is one: ">>fra<<" is "fr"), kept to the target
// languages the model card names when it names any of them; the first code of a language wins.
json targetLanguageCodes(const Tokenizer &sourceTokenizer, const fs::path &modelCard)
{
    const std::vector<std::string> card = cardTargetLanguages(modelCard);
    const auto primary = [](const std::string &tag) {
        return iso639_1(tag.substr(0, tag.find_first_of("_-")));
    };
    json all = json::object(), named = json::object();
    for (int id = 0; id < sourceTokenizer.vocabSize(); ++id) {
        const std::string piece = sourceTokenizer.idToPiece(id);
        const std::string language = languageOfCodeToken(piece);
        if (language.empty() || all.contains(language))
            continue;
        all[language] = piece;
        for (const std::string &target : card)
            if (primary(target) == primary(language))
                named[language] = piece;
    }
    return named.empty() ? all : named;
}

// The languages of a multi-target model: its target the one asked for (or the configured one)
// when the model has a code for it, else its first; its source tokenizer_config.json's, else the
// folder name's ("opus-mt-en-ROMANCE": en).
void multiTargetLanguages(const json &codes, const std::string &sourceLang,
                          const std::string &folderName, std::string &from, std::string &to)
{
    std::string target;
    for (const auto &[language, code] : codes.items())
        if (!to.empty() && sameLanguage(language, to) && target.empty())
            target = language;
    to = target.empty() ? codes.begin().key() : target;
    static const std::regex folderSource(".*?-([a-z]{2,3})-[A-Za-z_]+$");
    std::smatch match;
    if (from.empty() && isLanguageCode(sourceLang))
        from = sourceLang;
    else if (from.empty() && std::regex_match(folderName, match, folderSource))
        from = match[1];
}

bool isValidPackageId(const std::string &id)
{
    static const std::regex pattern("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    return std::regex_match(id, pattern);
}

// The name the model goes by: its repository's ("opus-mt-en-es" of "Helsinki-NLP/opus-mt-en-es"),
// else its folder's unless that says nothing about it (a file-format folder, a cache snapshot's
// commit); empty then.
std::string modelNameOf(const std::string &repo, const std::string &folderName)
{
    if (!repo.empty())
        return repo.substr(repo.rfind('/') + 1);
    static const std::regex commit("[0-9a-f]{40}");
    if (folderName == "safetensors" || folderName == "bin" || std::regex_match(folderName, commit))
        return {};
    return folderName;
}

// "OPUS-MT en→es (Helsinki-NLP)" for an opus-mt repository, the repository id for another,
// "MarianMT en→es (folder)" without one; a multi-target model names its targets.
std::string displayName(const std::string &repo, const std::string &modelName,
                        const std::string &from, const std::string &to, const json &targetCodes)
{
    std::string targets = to;
    if (targetCodes.size() > 1) {
        targets.clear();
        std::size_t shown = 0;
        for (const auto &[language, code] : targetCodes.items())
            if (++shown <= 6)
                targets += (targets.empty() ? "" : ", ") + language;
        if (shown > 6)
            targets += " … (" + std::to_string(shown) + ")";
    }
    const std::string pair = from + "→" + targets;
    const std::size_t slash = repo.find('/');
    if (!repo.empty() && modelName.rfind("opus-mt-", 0) == 0)
        return "OPUS-MT " + pair +
               (slash == std::string::npos ? "" : " (" + repo.substr(0, slash) + ")");
    if (!repo.empty())
        return repo;
    return "MarianMT " + pair + (modelName.empty() ? "" : " (" + modelName + ")");
}

// A model folder's links may lead only where the folder's own repository keeps its files: a
// Hugging Face cache snapshot (models--ORG--NAME/snapshots/REV/) links into
// models--ORG--NAME/blobs/; any other folder into itself. A README.md linked to /etc/shadow was
// copied into the package, and a weights file linked out of the folder was read.
fs::path linkRoot(const fs::path &folder)
{
    std::error_code error;
    const fs::path canonical = fs::canonical(folder, error);
    if (error)
        return folder;
    const fs::path snapshots = canonical.parent_path();
    const fs::path repository = snapshots.parent_path();
    if (snapshots.filename() == "snapshots" &&
        repository.filename().string().rfind("models--", 0) == 0)
        return repository;
    return canonical;
}

void checkLinksStayInside(const fs::path &folder)
{
    const fs::path root = linkRoot(folder);
    for (const char *name :
         {"config.json", "generation_config.json", "tokenizer_config.json", "source.spm",
          "target.spm", "vocab.json", "target_vocab.json", "README.md", "model.safetensors",
          "pytorch_model.bin"}) {
        const fs::path file = folder / name;
        std::error_code error;
        if (!fs::is_symlink(fs::symlink_status(file, error)))
            continue;
        const fs::path target = fs::weakly_canonical(file, error);
        const auto [inRoot, inTarget] =
            std::mismatch(root.begin(), root.end(), target.begin(), target.end());
        if (error || inRoot != root.end())
            throw PackageError(file.string(), {},
                               "is a link to " + target.string() + ", outside " + root.string() +
                                   " (a model folder's links must stay inside it, or inside "
                                   "its Hugging Face cache repository)");
    }
}

// A tokenizer file the folder must have, as a regular file (a FIFO's open never returned).
void requireTokenizerFile(const fs::path &file, const char *why)
{
    const RegularFile opened(file.string());
    if (!opened.ok())
        throw PackageError(file.string(), {},
                           (opened.missing() ? "file not found" : opened.error()) + " (" + why +
                               ")");
}

// The float32 parameters the import will materialise, summed before the first tensor is read:
// shapes come from config.json, and each tensor is checked against its shape as it loads.
void checkMaterialisedSize(const std::vector<Shape> &shapes, const std::string &weightsPath)
{
    std::int64_t total = 0;
    for (const Shape &shape : shapes) {
        total += shapeNumel(shape); // each below kMaxModelWidth^2 and the sum stops at the limit
        if (total > limits::kMaxModelParameters)
            throw PackageError(weightsPath, {},
                               "config.json's sizes ask for more than " +
                                   std::to_string(limits::kMaxModelParameters) +
                                   " parameters (" +
                                   std::to_string((limits::kMaxModelParameters * 4) >> 30) +
                                   " GiB as float32), the limit of an import");
    }
}

// Writes the manifest with the system's reason on failure.
void writeManifest(const fs::path &path, const json &manifest)
{
    const std::string text = manifest.dump(2) + "\n";
    FileWriter out(path.string());
    out.write(text.data(), text.size());
    if (const std::string why = out.finish(); !why.empty())
        throw PackageError(path.string(), {}, why);
}

} // namespace

namespace {

void checkMarianModelType(const json &config, const std::string &path)
{
    if (!config.is_object())
        throw PackageError(path, {}, "expected a JSON object (a Hugging Face model config)");
    if (!config.contains("model_type"))
        throw PackageError(path, {},
                           "has no \"model_type\": not a Hugging Face model config (Glosa "
                           "imports MarianMT models, model_type marian)");
    const std::string type = ConfigReader{config, path}.string("model_type", "");
    if (type != "marian")
        throw PackageError(path, {},
                           "model_type " + type +
                               " is not supported; Glosa imports MarianMT (model_type marian, "
                               "the Helsinki-NLP opus-mt-* models)");
}

struct MarianWidths
{
    std::int64_t d = 0, heads = 0, ffn = 0;
};

// d_model, the heads and the feed-forward width: the encoder's and the decoder's the same, as
// Glosa's Transformer has them.
MarianWidths marianWidths(const ConfigReader &c)
{
    using namespace limits;
    const std::int64_t d = c.integer("d_model", 2, kMaxModelWidth);
    const std::int64_t heads = c.integer("encoder_attention_heads", 1, kMaxModelWidth);
    const std::int64_t ffn = c.integer("encoder_ffn_dim", 1, kMaxModelWidth);
    if (c.integer("decoder_attention_heads", 1, kMaxModelWidth, heads) != heads)
        c.fail("decoder_attention_heads", "differs from encoder_attention_heads, which Glosa's "
                                          "Transformer does not support");
    if (c.integer("decoder_ffn_dim", 1, kMaxModelWidth, ffn) != ffn)
        c.fail("decoder_ffn_dim", "differs from encoder_ffn_dim, which Glosa's Transformer does "
                                  "not support");
    if (d % heads != 0)
        c.fail("d_model", std::to_string(d) + " is not divisible by the " + std::to_string(heads) +
                              " attention heads");
    if (d % 2 != 0)
        c.fail("d_model", std::to_string(d) + " must be even (sinusoidal positions)");
    return {d, heads, ffn};
}

} // namespace

json marianHyperparameters(const json &config, const std::string &path)
{
    checkMarianModelType(config, path);
    const ConfigReader c{config, path};
    using namespace limits;
    const auto [d, heads, ffn] = marianWidths(c);
    const std::int64_t vocab = c.integer("vocab_size", 1, kMaxVocabulary);
    const std::int64_t targetVocab = c.integer("decoder_vocab_size", 1, kMaxVocabulary, vocab);
    const bool shared = c.boolean("share_encoder_decoder_embeddings", true);
    if (shared && targetVocab != vocab)
        c.fail("decoder_vocab_size", std::to_string(targetVocab) + " differs from vocab_size " +
                                         std::to_string(vocab) +
                                         " while share_encoder_decoder_embeddings is true");
    const char *ids = "the target vocabulary, decoder_vocab_size";
    const std::int64_t pad = c.integer("pad_token_id", 0, targetVocab - 1, std::nullopt, ids);
    const std::int64_t eos = c.integer("eos_token_id", 0, targetVocab - 1, 0, ids);
    const std::int64_t start = c.integer("decoder_start_token_id", 0, targetVocab - 1, pad, ids);
    std::string activation = c.string("activation_function", "gelu");
    try {
        layers::feedForwardActivationFromName(activation);
    } catch (const std::invalid_argument &error) {
        c.fail("activation_function", error.what());
    }
    if (activation == "silu")
        activation = "swish";
    json h = {
        {"d_model", d},
        {"heads", heads},
        {"ffn_dim", ffn},
        {"encoder_layers", c.integer("encoder_layers", 1, kMaxLayers)},
        {"decoder_layers", c.integer("decoder_layers", 1, kMaxLayers)},
        {"max_positions", c.integer("max_position_embeddings", 1, kMaxPositions)},
        // nn.LayerNorm's default: modeling_marian.py gives none.
        {"layer_norm_eps", 1e-5},
        {"vocab_size", targetVocab},
        {"pad_id", pad},
        {"eos_id", eos},
        {"bos_id", start},
        {"decoder_start_id", start},
        {"never_generate", json::array({pad})},
        // modeling_marian.py: layers are post-norm whatever the config says (it has no
        // normalize_before), positions are MarianSinusoidalPositionalEmbedding's halves.
        {"normalization", "post-norm"},
        {"final_norms", false},
        {"activation", activation},
        {"positional_encoding", "sinusoidal-halves"},
        {"embedding_scale", c.boolean("scale_embedding", false) ? "sqrt(d_model)" : "none"},
        {"shared_embeddings", shared},
        {"tied_embeddings", c.boolean("tie_word_embeddings", true)},
        {"output_bias", true},
    };
    if (!shared)
        h["source_vocab_size"] = vocab;
    if (pad == eos)
        c.fail("pad_token_id", "equals eos_token_id: <pad> is never generated, so nothing could "
                               "end");
    return h;
}

json marianDecoding(const json &generation, json &h, const std::string &path)
{
    if (!generation.is_object())
        throw PackageError(path, {}, "expected a JSON object");
    const ConfigReader g{generation, path};
    const std::int64_t targetVocab = h["vocab_size"];
    for (const auto &[key, value] : generation.items()) {
        if (key != "bad_words_ids" || value.is_null())
            continue;
        // Single-token entries are tokens never generated; longer sequences are not supported
        // and would change the output, so they are refused.
        if (!value.is_array() || value.size() > static_cast<std::size_t>(targetVocab))
            g.fail(key, "expected a list of token-id lists");
        for (const json &words : value) {
            if (!words.is_array() || words.size() != 1 || !words[0].is_number_integer() ||
                words[0].get<std::int64_t>() < 0 || words[0].get<std::int64_t>() >= targetVocab)
                g.fail(key, "holds " + words.dump() +
                                "; Glosa supports single token ids in [0, vocab_size)");
            const std::int64_t id = words[0];
            if (id == h["eos_id"].get<std::int64_t>())
                g.fail(key, "forbids the end token " + std::to_string(id));
            if (std::find(h["never_generate"].begin(), h["never_generate"].end(), id) ==
                h["never_generate"].end())
                h["never_generate"].push_back(id);
        }
    }
    const std::int64_t beams = g.integer("num_beams", 1, limits::kMaxBeamSize, 1);
    const auto lengthPenalty = [&]() -> double {
        const auto it = generation.find("length_penalty");
        if (it == generation.end() || it->is_null())
            return 1.0;
        if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
            g.fail("length_penalty", "is " + it->dump() + ", expected a number ≥ 0");
        return it->get<double>();
    }();
    // Hugging Face counts the decoder start token in max_length.
    const std::int64_t maxLength = std::clamp<std::int64_t>(
        g.integer("max_length", 2, 1 << 30, 257) - 1, 1, limits::kMaxDecodeLength);
    std::string earlyStopping = "heuristic";
    if (generation.contains("early_stopping") && generation["early_stopping"].is_boolean() &&
        generation["early_stopping"].get<bool>())
        earlyStopping = "beam";
    json decoding = {{"strategy", beams > 1 ? "beam" : "greedy"},
                     {"beam_size", std::max<std::int64_t>(beams, 1)},
                     {"length_normalization", "power"},
                     {"length_penalty", lengthPenalty},
                     {"early_stopping", earlyStopping},
                     {"max_length", maxLength}};
    const std::int64_t noRepeat = g.integer("no_repeat_ngram_size", 0, limits::kMaxNgramSize, 0);
    if (noRepeat > 0)
        decoding["no_repeat_ngram_size"] = noRepeat;
    return decoding;
}

namespace {

// The MarianMT folder, checked to be one: config.json present, no link leading out of it.
fs::path checkedSourceFolder(const std::string &sourceFolder)
{
    const fs::path source = fs::absolute(sourceFolder).lexically_normal();
    std::error_code error;
    if (!fs::is_directory(source, error))
        throw PackageError(sourceFolder, {},
                           "not a folder (a MarianMT model is a folder with "
                           "config.json, weights and tokenizer files)");
    const fs::path configPath = source / "config.json";
    if (!fs::exists(fs::symlink_status(configPath, error)))
        throw PackageError(configPath.string(), {},
                           "file not found: not a Hugging Face model folder");
    checkLinksStayInside(source);
    return source;
}

// What the folder's JSON files say: the hyperparameters, the generation defaults and the
// tokenizer's layout (one joint vocabulary, or vocab.json + target_vocab.json).
struct MarianConfig
{
    json config;
    json hyperparameters;
    fs::path generationPath; // empty when config.json holds the generation defaults
    json generation;
    json decoding;
    json tokenizerConfig;
    std::string tokenizerConfigPath;
    std::string targetVocabularyFile;
    bool separateVocabularies = false;
    std::int64_t sourceVocab = 0, targetVocab = 0;

    ConfigReader tokenizerReader() const
    {
        return ConfigReader{tokenizerConfig, tokenizerConfigPath};
    }
};

MarianConfig readMarianConfig(const fs::path &source)
{
    MarianConfig c;
    const fs::path configPath = source / "config.json";
    c.config = readJsonFile(configPath.string(), kMaxConfigBytes);
    c.hyperparameters = marianHyperparameters(c.config, configPath.string());
    return c;
}

void readGenerationAndTokenizerConfig(const fs::path &source, MarianConfig &c)
{
    // Generation defaults: generation_config.json, else the same keys in config.json (older
    // uploads keep them there).
    const fs::path generationPath = source / "generation_config.json";
    if (fs::exists(generationPath)) {
        c.generationPath = generationPath;
        c.generation = readJsonFile(generationPath.string(), kMaxConfigBytes);
    }
    c.decoding = marianDecoding(
        c.generationPath.empty() ? c.config : c.generation, c.hyperparameters,
        (c.generationPath.empty() ? source / "config.json" : generationPath).string());
    c.targetVocab = c.hyperparameters["vocab_size"];
    c.tokenizerConfigPath = (source / "tokenizer_config.json").string();
    c.tokenizerConfig = fs::exists(c.tokenizerConfigPath)
                            ? readJsonFile(c.tokenizerConfigPath, kMaxConfigBytes)
                            : json::object();
    if (!c.tokenizerConfig.is_object())
        throw PackageError(c.tokenizerConfigPath, {}, "expected a JSON object");
    c.separateVocabularies = c.tokenizerReader().boolean("separate_vocabs", false);
    c.targetVocabularyFile = c.separateVocabularies ? "target_vocab.json" : "vocab.json";
    c.sourceVocab = c.hyperparameters.contains("source_vocab_size")
                        ? c.hyperparameters["source_vocab_size"].get<std::int64_t>()
                        : c.targetVocab;
}

void requireTokenizerFiles(const fs::path &source, const MarianConfig &c)
{
    for (const char *file : {"source.spm", "target.spm", "vocab.json"})
        requireTokenizerFile(source / file,
                             "a MarianMT folder holds source.spm, target.spm and vocab.json");
    requireTokenizerFile(source / c.targetVocabularyFile,
                         "tokenizer_config.json says separate_vocabs");
}

// The tokenizers' vocabularies agree with config.json: sizes, </s> and <pad>.
void checkVocabularies(const Tokenizer &sourceTokenizer, const Tokenizer &targetTokenizer,
                       const MarianConfig &c)
{
    const auto checkSize = [](const Tokenizer &tokenizer, std::int64_t expected, const char *key) {
        if (tokenizer.vocabSize() != expected)
            throw PackageError(
                tokenizer.vocabularyPath(), {},
                "vocabulary size mismatch: the file has " + std::to_string(tokenizer.vocabSize()) +
                    " pieces but config.json's " + key + " is " + std::to_string(expected));
    };
    checkSize(sourceTokenizer, c.sourceVocab, "vocab_size");
    checkSize(targetTokenizer, c.targetVocab,
              c.separateVocabularies ? "decoder_vocab_size" : "vocab_size");
    const json &h = c.hyperparameters;
    if (targetTokenizer.eosId() != h["eos_id"].get<std::int64_t>() ||
        targetTokenizer.padId() != h["pad_id"].get<std::int64_t>())
        throw PackageError(targetTokenizer.vocabularyPath(), {},
                           "its </s> and <pad> ids (" + std::to_string(targetTokenizer.eosId()) +
                               ", " + std::to_string(targetTokenizer.padId()) +
                               ") differ from config.json's eos_token_id and pad_token_id (" +
                               h["eos_id"].dump() + ", " + h["pad_id"].dump() + ")");
}

// The languages, the model's name and its licence.
struct MarianLanguages
{
    std::string from, to;
    json targetCodes; // a multi-target model's >>xx<< tokens, else empty
    std::string folderName, modelName, licence;
};

MarianLanguages marianLanguages(const fs::path &source, const MarianConfig &c,
                                const Tokenizer &sourceTokenizer,
                                const MarianImportOptions &options)
{
    MarianLanguages l{options.sourceLanguage, options.targetLanguage, json(), {}, {}, {}};
    const ConfigReader t = c.tokenizerReader();
    const ModelCard card = readModelCard(source / "README.md");
    // The first source that names both languages wins: the options, tokenizer_config.json, the
    // model card, the folder's name.
    const auto fill = [&](const std::string &a, const std::string &b) {
        if (l.from.empty() && l.to.empty() && isLanguageCode(a) && isLanguageCode(b)) {
            l.from = a;
            l.to = b;
        }
    };
    fill(t.string("source_lang", ""), t.string("target_lang", ""));
    if (card.languages.size() == 2)
        fill(card.languages[0], card.languages[1]);
    std::smatch match;
    l.folderName = source.filename().string();
    l.modelName = modelNameOf(options.repo, l.folderName);
    static const std::regex pair(".*-([a-z]{2,3})-([a-z]{2,3})$");
    if (std::regex_match(l.modelName, match, pair))
        fill(match[1], match[2]);
    l.targetCodes = targetLanguageCodes(sourceTokenizer, source / "README.md");
    if (!l.targetCodes.empty())
        multiTargetLanguages(l.targetCodes, t.string("source_lang", ""), l.modelName, l.from, l.to);
    if (l.from.empty() || l.to.empty() || !isLanguageCode(l.from) || !isLanguageCode(l.to))
        throw PackageError(source.string(), {},
                           "cannot tell the languages (tokenizer_config.json's source_lang and "
                           "target_lang, the model card, the folder name): give them (--from, "
                           "--to)");
    l.licence = card.licence.empty() ? "unknown (see the model's source: " + source.string() + ")"
                                     : card.licence;
    return l;
}

// The package's id (given, else the model's name, else marian-FROM-TO) and its folder, which
// must not exist yet.
std::pair<std::string, fs::path> packageDestination(const std::string &givenId,
                                                    const MarianLanguages &l,
                                                    const fs::path &source, const fs::path &root)
{
    std::string id = givenId;
    if (id.empty())
        id = isValidPackageId(l.modelName) ? l.modelName : "marian-" + l.from + "-" + l.to;
    if (!isValidPackageId(id))
        throw PackageError(source.string(), {},
                           "\"" + id +
                               "\" is not a valid package id (letters, digits, '-', '_', "
                               "'.'; not starting with '.' or '-')");
    std::error_code error;
    fs::create_directories(root, error);
    if (error)
        throw PackageError(root.string(), {}, "cannot create the folder: " + error.message());
    const fs::path destination = root / id;
    if (fs::exists(destination))
        throw PackageError(destination.string(), {},
                           "already exists (a model with id \"" + id +
                               "\" is installed there; remove it first or choose another id)");
    return {id, destination};
}

// One tensor of the package: our name, the checkpoint's, the shape config.json implies.
struct WeightItem
{
    std::string ours, theirs;
    Shape shape;
    // Stored with more rows than the vocabulary: only the first are used.
    bool firstRows = false;
};

// The checkpoint's tensors renamed into the Transformer plugin's layout.
class MarianWeightMap
{
public:
    MarianWeightMap(const HfWeights &weights, json &h) : m_weights(weights), m_h(h)
    {
        m_d = h["d_model"];
        m_ffn = h["ffn_dim"];
    }

    std::vector<WeightItem> items(const MarianConfig &c)
    {
        embeddings(c);
        for (int l = 0; l < m_h["encoder_layers"].get<int>(); ++l) {
            const std::string layer = "encoder.layers." + std::to_string(l);
            attention(layer + ".self_attn", layer + ".self_attn");
            norm(layer + ".self_attn_norm", layer + ".self_attn_layer_norm");
            feedForward(layer + ".ffn", layer);
            norm(layer + ".ffn_norm", layer + ".final_layer_norm");
        }
        for (int l = 0; l < m_h["decoder_layers"].get<int>(); ++l) {
            const std::string layer = "decoder.layers." + std::to_string(l);
            attention(layer + ".self_attn", layer + ".self_attn");
            norm(layer + ".self_attn_norm", layer + ".self_attn_layer_norm");
            attention(layer + ".cross_attn", layer + ".encoder_attn");
            norm(layer + ".cross_attn_norm", layer + ".encoder_attn_layer_norm");
            feedForward(layer + ".ffn", layer);
            norm(layer + ".ffn_norm", layer + ".final_layer_norm");
        }
        return std::move(m_items);
    }

private:
    // The embeddings and the output layer; a missing final_logits_bias turns the output bias off
    // in the hyperparameters.
    void embeddings(const MarianConfig &c)
    {
        const bool shared = m_h["shared_embeddings"], tied = m_h["tied_embeddings"];
        if (shared) {
            embedding("embedding.weight", {"shared.weight", "decoder.embed_tokens.weight"},
                      c.targetVocab, c.targetVocabularyFile);
        } else {
            embedding("embedding.weight", {"decoder.embed_tokens.weight"}, c.targetVocab,
                      c.targetVocabularyFile);
            embedding("source_embedding.weight", {"encoder.embed_tokens.weight"}, c.sourceVocab,
                      "vocab.json");
        }
        if (!tied)
            embedding("output.weight", {"lm_head.weight"}, c.targetVocab, c.targetVocabularyFile);
        if (const auto bias = m_weights.find("final_logits_bias")) {
            const Shape shape = m_weights.shape(*bias);
            const bool more = shape.size() == 2 && shape[0] == 1 && shape[1] > c.targetVocab;
            m_items.push_back({"output.bias", *bias, {1, more ? shape[1] : c.targetVocab}, more});
        } else {
            m_h["output_bias"] = false;
        }
    }
    void require(const std::string &ours, const std::vector<std::string> &theirs,
                 const Shape &shape)
    {
        for (const std::string &name : theirs)
            if (const auto stored = m_weights.find(name)) {
                m_items.push_back({ours, *stored, shape});
                return;
            }
        throw PackageError(m_weights.path(), "model." + theirs.front(),
                           "not found (a MarianMT checkpoint has it)");
    }
    // The vocabulary size must agree with vocab.json; a target-side matrix may have more rows
    // than the target vocabulary (transformers writes the decoder's that way when the
    // vocabularies are separate), of which the first are the vocabulary's.
    void embedding(const std::string &ours, const std::vector<std::string> &theirs,
                   std::int64_t rows, const std::string &vocabulary)
    {
        const bool targetSide = ours != "source_embedding.weight";
        for (const std::string &name : theirs)
            if (const auto stored = m_weights.find(name)) {
                const Shape shape = m_weights.shape(*stored);
                if (shape.size() == 2 && shape[0] != rows && !(targetSide && shape[0] > rows))
                    throw PackageError(m_weights.path(), *stored,
                                       "vocabulary size mismatch: the weights have " +
                                           std::to_string(shape[0]) + " rows but " + vocabulary +
                                           " has " + std::to_string(rows) + " pieces");
                const bool more = shape.size() == 2 && shape[0] > rows;
                m_items.push_back(
                    {ours, *stored, more ? Shape{shape[0], m_d} : Shape{rows, m_d}, more});
                return;
            }
        throw PackageError(m_weights.path(), "model." + theirs.front(),
                           "not found (a MarianMT checkpoint has it)");
    }
    void attention(const std::string &ours, const std::string &theirs)
    {
        for (const char *proj : {"q_proj", "k_proj", "v_proj", "out_proj"}) {
            require(ours + "." + proj + ".weight", {theirs + "." + proj + ".weight"}, {m_d, m_d});
            require(ours + "." + proj + ".bias", {theirs + "." + proj + ".bias"}, {m_d});
        }
    }
    void norm(const std::string &ours, const std::string &theirs)
    {
        require(ours + ".weight", {theirs + ".weight"}, {m_d});
        require(ours + ".bias", {theirs + ".bias"}, {m_d});
    }
    void feedForward(const std::string &ours, const std::string &theirs)
    {
        require(ours + ".fc1.weight", {theirs + ".fc1.weight"}, {m_ffn, m_d});
        require(ours + ".fc1.bias", {theirs + ".fc1.bias"}, {m_ffn});
        require(ours + ".fc2.weight", {theirs + ".fc2.weight"}, {m_d, m_ffn});
        require(ours + ".fc2.bias", {theirs + ".fc2.bias"}, {m_d});
    }

    const HfWeights &m_weights;
    json &m_h;
    std::int64_t m_d = 0, m_ffn = 0;
    std::vector<WeightItem> m_items;
};

// Stored position tables (older uploads) must be the sinusoidal halves we compute.
void checkPositionTables(const HfWeights &weights, std::int64_t d)
{
    for (const char *stack : {"encoder", "decoder"}) {
        const auto stored = weights.find(std::string(stack) + ".embed_positions.weight");
        if (!stored)
            continue;
        const Shape shape = weights.shape(*stored);
        if (shape.size() != 2 || shape[1] != d || shape[0] < 1 || shape[0] > limits::kMaxPositions)
            throw PackageError(weights.path(), *stored,
                               "has shape " + shapeToString(shape) + ", expected [positions, " +
                                   std::to_string(d) + "]");
        const Tensor table = weights.load(*stored, {});
        const Tensor expected =
            layers::sinusoidalPositions(shape[0], d, layers::PositionEncoding::Halves);
        const float *a = table.data<float>();
        const float *b = expected.data<float>();
        for (std::int64_t i = 0; i < table.numel(); ++i)
            if (std::fabs(a[i] - b[i]) > 1e-3f)
                throw PackageError(weights.path(), *stored,
                                   "is not Marian's sinusoidal position table (value " +
                                       std::to_string(i) + " is " + std::to_string(a[i]) +
                                       ", expected " + std::to_string(b[i]) +
                                       "); learned positions are not supported");
    }
}

// model.safetensors: each item loaded, cut to the vocabulary, int8 where asked; progress runs
// to 0.9.
void writeMarianWeights(const HfWeights &weights, const std::vector<WeightItem> &items,
                        std::int64_t targetVocab, bool int8, const fs::path &path,
                        const std::string &id, const std::function<void(double)> &progress)
{
    std::vector<std::pair<std::string, Tensor>> converted;
    for (std::size_t i = 0; i < items.size(); ++i) {
        progress(0.9 * static_cast<double>(i) / static_cast<double>(items.size()));
        const WeightItem &item = items[i];
        Tensor w = weights.load(item.theirs, item.shape);
        if (item.ours == "output.bias")
            w = w.reshaped({w.numel()}).slice(0, targetVocab).clone();
        else if (item.firstRows)
            w = w.slice(0, targetVocab).clone();
        if (int8 && w.rank() >= 2) {
            auto [codes, scales] = quantizeRows(w);
            converted.emplace_back(item.ours, std::move(codes));
            converted.emplace_back(item.ours + ".scale", std::move(scales));
        } else {
            converted.emplace_back(item.ours, std::move(w));
        }
    }
    progress(0.9);
    writeSafeTensors(path.string(), converted,
                     {{"format", "pt"},
                      {"architecture", "transformer"},
                      {"id", id},
                      {"imported_from", "huggingface-marian"}});
}

// The tokenizer files and the model card, copied as they are.
void copyTokenizerFiles(const fs::path &source, const fs::path &staging,
                        const std::string &targetVocabularyFile)
{
    for (const std::string &file :
         {std::string("source.spm"), std::string("target.spm"), std::string("vocab.json"),
          targetVocabularyFile, std::string("README.md")}) {
        if (!fs::exists(source / file) || fs::exists(staging / file))
            continue;
        const std::string why =
            copyRegularFile((source / file).string(), (staging / file).string());
        if (!why.empty())
            throw PackageError((source / file).string(), {},
                               "cannot copy it into the package (" + (staging / file).string() +
                                   "): " + why);
    }
}

// model.json of the imported package (docs/model-package.md).
json marianManifest(const std::string &id, const fs::path &source, const MarianConfig &c,
                    const MarianLanguages &l, const std::string &weightsFile,
                    const MarianImportOptions &options)
{
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    json manifest = {
        {"format_version", 1},
        {"id", id},
        {"version", "1.0.0"},
        {"name", displayName(options.repo, l.modelName, l.from, l.to, l.targetCodes)},
        {"task", taskName(Task::Translation)},
        {"architecture", "transformer"},
        {"plugin", "transformer"},
        {"languages", {{"source", l.from}, {"target", l.to}}},
        {"hyperparameters", c.hyperparameters},
        {"tokenizer",
         {{"type", "sentencepiece"},
          {"source", "source.spm"},
          {"target", "target.spm"},
          {"source_vocabulary", "vocab.json"},
          {"target_vocabulary", c.targetVocabularyFile}}},
        {"weights", "model.safetensors"},
        {"decoding", c.decoding},
        {"training",
         {{"data", json::array({{{"name", "as stated in the model card (README.md) of " +
                                              (options.repo.empty() ? l.folderName : options.repo)},
                                 {"licence", l.licence},
                                 {"attribution", "the model's authors (for OPUS-MT: Helsinki-NLP, "
                                                 "Tiedemann and Thottingal 2020), imported from " +
                                                     source.string()}}})}}},
        {"licence", l.licence},
        {"imported_from",
         {{"folder", source.string()},
          {"format", "huggingface-marian"},
          {"weights", weightsFile},
          {"date", date},
          {"config", c.config},
          {"generation_config", c.generationPath.empty() ? json() : c.generation}}},
    };
    if (options.int8)
        manifest["compute_type"] = "int8";
    if (!l.targetCodes.empty())
        manifest["target_languages"] = l.targetCodes;
    if (!options.repo.empty())
        manifest["imported_from"]["repo"] = options.repo;
    if (!options.commit.empty())
        manifest["imported_from"]["commit"] = options.commit;
    return manifest;
}

} // namespace

MarianImport importMarian(const std::string &sourceFolder, const std::string &destinationRoot,
                          const MarianImportOptions &options)
{
    const fs::path source = checkedSourceFolder(sourceFolder);
    MarianConfig c = readMarianConfig(source);
    const std::function<void(double)> progress = [&](double fraction) {
        if (options.cancelled && options.cancelled())
            throw PackageError(source.string(), {}, "the import was cancelled");
        if (options.progress)
            options.progress(fraction);
    };
    progress(0.0);

    readGenerationAndTokenizerConfig(source, c);
    requireTokenizerFiles(source, c);
    const Tokenizer sourceTokenizer((source / "source.spm").string(),
                                    (source / "vocab.json").string());
    const Tokenizer targetTokenizer((source / "target.spm").string(),
                                    (source / c.targetVocabularyFile).string());
    checkVocabularies(sourceTokenizer, targetTokenizer, c);
    const MarianLanguages languages = marianLanguages(source, c, sourceTokenizer, options);

    const fs::path root = fs::absolute(destinationRoot).lexically_normal();
    const auto [id, destination] = packageDestination(options.id, languages, source, root);
    removeAbandonedStaging(root);
    StagingFolder staging(root);

    const HfWeights weights(source);
    const std::vector<WeightItem> items = MarianWeightMap(weights, c.hyperparameters).items(c);
    std::vector<Shape> shapes;
    for (const WeightItem &item : items)
        shapes.push_back(item.shape);
    checkMaterialisedSize(shapes, weights.path());
    checkPositionTables(weights, c.hyperparameters["d_model"].get<std::int64_t>());
    writeMarianWeights(weights, items, c.targetVocab, options.int8,
                       staging.path() / "model.safetensors", id, progress);
    copyTokenizerFiles(source, staging.path(), c.targetVocabularyFile);
    writeManifest(staging.path() / "model.json",
                  marianManifest(id, source, c, languages, weights.fileName(), options));
    // The package must load as any other before it becomes visible.
    ModelPackage::load(staging.path().string());
    progress(1.0);
    staging.commit(destination);
    return {id, destination.string()};
}

} // namespace glosa::engine
