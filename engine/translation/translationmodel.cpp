#include "engine/translation/translationmodel.h"

#include "engine/limits.h"
#include "engine/package.h"
#include "engine/text/protectedspans.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace glosa::engine {

TranslationModel::TranslationModel(const ModelPackage &package,
                                   std::unique_ptr<StepDecoder> decoder)
    : TranslationModel(package.id(), package.sourceLanguage(), package.targetLanguage(),
                       package.sourceTokenizer(), package.targetTokenizer(), std::move(decoder),
                       decodingOptionsFromJson(package.decoding()))
{
    setMaxSourceLength(static_cast<int>(
        package.boundedHyperparameter("max_source_length", 2, limits::kMaxPositions, 256)));
    setPlaceholders(static_cast<int>(package.boundedHyperparameter("placeholders", 0, 64, 0)));
}

TranslationModel::TranslationModel(std::string id, std::string sourceLanguage,
                                   std::string targetLanguage,
                                   std::shared_ptr<const Tokenizer> sourceTokenizer,
                                   std::shared_ptr<const Tokenizer> targetTokenizer,
                                   std::unique_ptr<StepDecoder> decoder, DecodingOptions defaults)
    : m_id(std::move(id)), m_sourceLanguage(std::move(sourceLanguage)),
      m_targetLanguage(std::move(targetLanguage)), m_sourceTokenizer(std::move(sourceTokenizer)),
      m_targetTokenizer(std::move(targetTokenizer)), m_decoder(std::move(decoder)),
      m_defaults(std::move(defaults))
{
    if (!m_decoder)
        throw std::invalid_argument("TranslationModel " + m_id + ": no step decoder");
    if (!m_sourceTokenizer || !m_targetTokenizer)
        throw std::invalid_argument("TranslationModel " + m_id +
                                    ": a translation model needs source and target tokenizers");
    if (m_decoder->vocabularySize() != m_targetTokenizer->vocabSize())
        throw std::invalid_argument(
            "TranslationModel " + m_id + ": the decoder's vocabulary has " +
            std::to_string(m_decoder->vocabularySize()) + " entries but the target tokenizer " +
            m_targetTokenizer->path() + " has " + std::to_string(m_targetTokenizer->vocabSize()));
    if (m_sourceTokenizer->eosId() < 0)
        m_appendSourceEos = false;
    m_defaults.validate(m_decoder->vocabularySize());
}

TranslationModel::~TranslationModel() = default;

void TranslationModel::setMaxSourceLength(int length)
{
    if (length < 2)
        throw std::invalid_argument("TranslationModel " + m_id + ": max_source_length " +
                                    std::to_string(length) + " must be at least 2");
    m_maxSourceLength = length;
}

void TranslationModel::setPlaceholders(int count)
{
    if (count < 0 || count > 64)
        throw std::invalid_argument("TranslationModel " + m_id + ": placeholders " +
                                    std::to_string(count) + " is not in [0, 64]");
    for (int k = 0; k < count; ++k) {
        for (const Tokenizer *tokenizer : {m_sourceTokenizer.get(), m_targetTokenizer.get()}) {
            const int id = tokenizer->pieceToId(placeholderText(k));
            if (id == tokenizer->unkId() || id < 0) {
                char codePoint[16];
                std::snprintf(codePoint, sizeof codePoint, "U+%04X",
                              static_cast<unsigned>(kPlaceholderBase) + k);
                throw std::invalid_argument("TranslationModel " + m_id + ": placeholder " +
                                            std::to_string(k) + " (" + codePoint +
                                            ") is not a piece of " + tokenizer->path());
            }
        }
    }
    m_placeholders = count;
}

namespace {

using nlohmann::json;

template <typename T> T get(const json &object, const char *key, T value)
{
    const auto it = object.find(key);
    if (it == object.end())
        return value;
    try {
        if constexpr (std::is_same_v<T, float>) {
            if (!it->is_number())
                throw std::invalid_argument("not a number");
            return it->get<float>();
        } else if constexpr (std::is_integral_v<T>) {
            if (!it->is_number_integer())
                throw std::invalid_argument("not an integer");
            return it->get<T>();
        } else {
            if (!it->is_string())
                throw std::invalid_argument("not a string");
            return it->get<T>();
        }
    } catch (const std::exception &) {
        throw std::invalid_argument("\"decoding." + std::string(key) + "\" is " + it->dump() +
                                    ", expected " +
                                    (std::is_same_v<T, float> ? "a number"
                                     : std::is_integral_v<T>  ? "an integer"
                                                              : "a string"));
    }
}

// 0.6f as 0.6, not 0.6000000238418579: the shortest decimal that reads back as the same float.
double tidy(float value)
{
    char buffer[32];
    for (int digits = 6; digits <= 9; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, static_cast<double>(value));
        if (std::strtof(buffer, nullptr) == value)
            break;
    }
    return std::strtod(buffer, nullptr);
}

} // namespace

DecodingOptions decodingOptionsFromJson(const nlohmann::json &decoding, const DecodingOptions &base)
{
    DecodingOptions o = base;
    if (decoding.is_null())
        return o;
    if (!decoding.is_object())
        throw std::invalid_argument("\"decoding\" is " + decoding.dump() + ", expected an object");
    if (decoding.contains("strategy"))
        o.strategy = searchStrategyFromName(get<std::string>(decoding, "strategy", ""));
    o.beamSize = get(decoding, "beam_size", o.beamSize);
    o.nBest = get(decoding, "n_best", o.nBest);
    if (decoding.contains("length_normalization"))
        o.lengthNormalization =
            lengthNormalizationFromName(get<std::string>(decoding, "length_normalization", ""));
    o.lengthPenalty = get(decoding, "length_penalty", o.lengthPenalty);
    o.coveragePenalty = get(decoding, "coverage_penalty", o.coveragePenalty);
    if (decoding.contains("early_stopping"))
        o.earlyStopping = earlyStoppingFromName(get<std::string>(decoding, "early_stopping", ""));
    o.maxLength = get(decoding, "max_length", o.maxLength);
    o.maxLengthRatio = get(decoding, "max_length_ratio", o.maxLengthRatio);
    o.minLength = get(decoding, "min_length", o.minLength);
    o.noRepeatNgramSize = get(decoding, "no_repeat_ngram_size", o.noRepeatNgramSize);
    o.repetitionPenalty = get(decoding, "repetition_penalty", o.repetitionPenalty);
    o.ngramPenalty = get(decoding, "ngram_penalty", o.ngramPenalty);
    o.ngramPenaltySize = get(decoding, "ngram_penalty_size", o.ngramPenaltySize);
    o.temperature = get(decoding, "temperature", o.temperature);
    o.topK = get(decoding, "top_k", o.topK);
    o.topP = get(decoding, "top_p", o.topP);
    o.seed = get(decoding, "seed", o.seed);
    for (const auto &[key, field] : {std::pair{"suppress_tokens", &DecodingOptions::suppressTokens},
                                     std::pair{"target_prefix", &DecodingOptions::targetPrefix}}) {
        const auto it = decoding.find(key);
        if (it == decoding.end())
            continue;
        std::vector<std::int32_t> ids;
        if (it->is_array())
            for (const json &id : *it)
                if (id.is_number_integer())
                    ids.push_back(id.get<std::int32_t>());
        if (!it->is_array() || ids.size() != it->size())
            throw std::invalid_argument("\"decoding." + std::string(key) + "\" is " + it->dump() +
                                        ", expected an array of token ids");
        o.*field = std::move(ids);
    }
    if (decoding.contains("trace")) {
        if (!decoding["trace"].is_boolean())
            throw std::invalid_argument("\"decoding.trace\" is " + decoding["trace"].dump() +
                                        ", expected true or false");
        o.trace = decoding["trace"].get<bool>();
    }
    o.traceTopN = get(decoding, "trace_top_n", o.traceTopN);
    o.validate();
    return o;
}

nlohmann::json decodingOptionsToJson(const DecodingOptions &o)
{
    json j;
    j["strategy"] = searchStrategyName(o.strategy);
    j["beam_size"] = o.beamSize;
    j["n_best"] = o.nBest;
    j["length_normalization"] = lengthNormalizationName(o.lengthNormalization);
    j["length_penalty"] = tidy(o.lengthPenalty);
    j["coverage_penalty"] = tidy(o.coveragePenalty);
    j["early_stopping"] = earlyStoppingName(o.earlyStopping);
    j["max_length"] = o.maxLength;
    j["max_length_ratio"] = tidy(o.maxLengthRatio);
    j["min_length"] = o.minLength;
    j["no_repeat_ngram_size"] = o.noRepeatNgramSize;
    j["repetition_penalty"] = tidy(o.repetitionPenalty);
    j["ngram_penalty"] = tidy(o.ngramPenalty);
    j["ngram_penalty_size"] = o.ngramPenaltySize;
    j["suppress_tokens"] = o.suppressTokens;
    j["target_prefix"] = o.targetPrefix;
    j["temperature"] = tidy(o.temperature);
    j["top_k"] = o.topK;
    j["top_p"] = tidy(o.topP);
    j["seed"] = o.seed;
    j["trace"] = o.trace;
    j["trace_top_n"] = o.traceTopN;
    return j;
}

} // namespace glosa::engine
