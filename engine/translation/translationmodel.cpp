#include "engine/translation/translationmodel.h"

#include "engine/decoding/decodingfields.h"
#include "engine/limits.h"
#include "engine/package.h"
#include "engine/text/languagecodes.h"
#include "engine/text/protectedspans.h"

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <stdexcept>

namespace glosa::engine {

namespace {

// model.json "target_languages": {"language": ">>code<<", ...}.
std::map<std::string, std::string> targetLanguageCodesOf(const ModelPackage &package)
{
    std::map<std::string, std::string> codes;
    const auto it = package.manifest().find("target_languages");
    if (it == package.manifest().end())
        return codes;
    if (!it->is_object() || it->size() > 4096)
        throw std::invalid_argument(package.id() + ": \"target_languages\" must be an object "
                                                   "{\"language\": \">>code<<\", ...}");
    for (const auto &[language, code] : it->items()) {
        if (!code.is_string() ||
            languageCodeLength(code.get<std::string>()) != code.get<std::string>().size())
            throw std::invalid_argument(package.id() + ": \"target_languages\" gives " + language +
                                        " the code " + code.dump() + ", expected \">>xxx<<\"");
        codes.emplace(language, code.get<std::string>());
    }
    return codes;
}

} // namespace

TranslationModel::TranslationModel(const ModelPackage &package,
                                   std::unique_ptr<TextStepDecoder> decoder)
    : TranslationModel(package.id(), package.sourceLanguage(), package.targetLanguage(),
                       package.sourceTokenizer(), package.targetTokenizer(), std::move(decoder),
                       decodingOptionsFromJson(package.decoding()))
{
    setMaxSourceLength(static_cast<int>(
        package.boundedHyperparameter("max_source_length", 2, limits::kMaxPositions, 256)));
    setPlaceholders(static_cast<int>(package.boundedHyperparameter("placeholders", 0, 64, 0)));
    setTruecaser(package.truecaser());
    const auto &decoding = package.decoding();
    if (const auto it = decoding.find("coverage_threshold"); it != decoding.end()) {
        // At most 10: a word's mass is a sum over the target tokens, and a bar above that would
        // flag every word of any sentence a user is likely to type.
        if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0.0 ||
            it->get<double>() > 10.0)
            throw std::invalid_argument(package.id() + ": \"decoding.coverage_threshold\" is " +
                                        it->dump() + ", expected a number from 0 to 10");
        m_coverage.threshold = it->get<float>();
    }
    setTargetLanguageCodes(targetLanguageCodesOf(package));
}

TranslationModel::TranslationModel(std::string id, std::string sourceLanguage,
                                   std::string targetLanguage,
                                   std::shared_ptr<const Tokenizer> sourceTokenizer,
                                   std::shared_ptr<const Tokenizer> targetTokenizer,
                                   std::unique_ptr<TextStepDecoder> decoder,
                                   DecodingOptions defaults)
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

void TranslationModel::setTargetLanguageCodes(std::map<std::string, std::string> codes)
{
    for (const auto &[language, code] : codes)
        if (m_sourceTokenizer->pieceToId(code) == m_sourceTokenizer->unkId())
            throw std::invalid_argument("TranslationModel " + m_id + ": the code " + code +
                                        " for " + language + " is not in the source vocabulary " +
                                        m_sourceTokenizer->vocabularyPath());
    m_targetCodes = std::move(codes);
    m_targetCode.clear();
    if (!m_targetCodes.empty())
        setTargetLanguage(m_targetCodes.count(m_targetLanguage) ? m_targetLanguage
                                                                : m_targetCodes.begin()->first);
}

void TranslationModel::setTargetLanguage(const std::string &language)
{
    if (m_targetCodes.empty() && sameLanguage(language, m_targetLanguage))
        return;
    std::string known;
    for (const auto &[candidate, code] : m_targetCodes) {
        if (sameLanguage(candidate, language)) {
            m_targetLanguage = candidate;
            m_targetCode = code;
            return;
        }
        known += (known.empty() ? "" : " ") + candidate;
    }
    throw std::invalid_argument("model " + m_id + " does not translate into " + language +
                                " (it translates into " +
                                (known.empty() ? m_targetLanguage : known) + ")");
}

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

} // namespace glosa::engine
