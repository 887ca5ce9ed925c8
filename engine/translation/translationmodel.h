// TranslationModel: a loaded translation model as the app sees it — a text step decoder
// (engine/layers/stepdecoder.h), the source and target tokenizers and the package's defaults.
// A translation plugin only writes its TextStepDecoder and returns
//
//     return std::make_shared<engine::TranslationModel>(package, std::make_unique<MyDecoder>(...));
//
// from ModelPluginInterface::load(); the Translator (translator.h) does the rest: text →
// sentences → ids → search → ids → text, with alignments on the user's characters.
//
// Thread safety: the step decoder is driven by one thread at a time (one worker per model).
#pragma once

#include "engine/decoding/coverage.h"
#include "engine/decoding/decodingoptions.h"
#include "engine/layers/stepdecoder.h"
#include "engine/model.h"
#include "engine/text/tokenizer.h"
#include "engine/text/truecaser.h"

#include <map>
#include <memory>
#include <string>

namespace glosa::engine {

class ModelPackage;

class TranslationModel : public Model
{
public:
    // Takes the id, languages, tokenizers and "decoding" defaults from the package. Throws
    // std::invalid_argument when the decoder is null or its vocabulary differs from the target
    // tokenizer's.
    TranslationModel(const ModelPackage &package, std::unique_ptr<TextStepDecoder> decoder);
    // For models built without a package (tests): everything explicit.
    TranslationModel(std::string id, std::string sourceLanguage, std::string targetLanguage,
                     std::shared_ptr<const Tokenizer> sourceTokenizer,
                     std::shared_ptr<const Tokenizer> targetTokenizer,
                     std::unique_ptr<TextStepDecoder> decoder, DecodingOptions defaults = {});
    ~TranslationModel() override;

    Task task() const override { return Task::Translation; }
    std::string id() const override { return m_id; }

    const std::string &sourceLanguage() const { return m_sourceLanguage; }
    const std::string &targetLanguage() const { return m_targetLanguage; }
    const Tokenizer &sourceTokenizer() const { return *m_sourceTokenizer; }
    const Tokenizer &targetTokenizer() const { return *m_targetTokenizer; }
    TextStepDecoder &decoder() { return *m_decoder; }

    // The package's "decoding" object over DecodingOptions' defaults (decodingOptionsFromJson).
    const DecodingOptions &defaultDecodingOptions() const { return m_defaults; }
    // Whether the source ids end with the source tokenizer's EOS (how our models are trained).
    bool appendSourceEos() const { return m_appendSourceEos; }
    void setAppendSourceEos(bool append) { m_appendSourceEos = append; }
    // Longest source (in pieces, EOS included) given to the decoder at once; longer sentences are
    // cut into chunks at word starts by the Translator (model.json hyperparameter
    // "max_source_length", default 256).
    int maxSourceLength() const { return m_maxSourceLength; }
    void setMaxSourceLength(int length);
    // How many placeholder pieces (U+E000 + k, one vocabulary piece each, on both sides) the
    // model was trained to copy: the Translator hands it protected spans (protectedspans.h) as
    // placeholders. 0, the default, when the model knows none (model.json hyperparameter
    // "placeholders"). Throws std::invalid_argument when a tokenizer lacks one of the pieces.
    int placeholders() const { return m_placeholders; }
    void setPlaceholders(int count);
    // Multi-target models (OPUS-MT's en-ROMANCE, en-mul, the tc-big group models) read the
    // language to translate into from a ">>xxx<<" code before every source: model.json's
    // "target_languages", language -> code ({"fr": ">>fra<<", ...}; docs/model-package.md).
    // Empty for a model with one target.
    const std::map<std::string, std::string> &targetLanguageCodes() const { return m_targetCodes; }
    void setTargetLanguageCodes(std::map<std::string, std::string> codes);
    // Translate into `language` (ISO 639-1 or 639-3, "fr" or "fra"): targetLanguage() becomes it
    // and its code is put first in every source. Throws std::invalid_argument naming the
    // languages the model has when it has no code for it. The package's languages.target is
    // chosen at load.
    void setTargetLanguage(const std::string &language);
    // The code the Translator puts first in every source; "" for none.
    const std::string &targetLanguageCode() const { return m_targetCode; }
    // The bar for this model's coverage warnings (coverage.h): model.json's
    // "decoding.coverage_threshold", CoverageOptions' 0.1 when absent. Attention that spreads
    // differently needs its own bar (the RNN's: 0.005), chosen on dev with tools/coverage_eval.py.
    const CoverageOptions &coverageOptions() const { return m_coverage; }
    // The source side's truecase table (truecaser.h): with DecodingOptions::truecase, the
    // Translator reads a sentence's first word lower-cased where the table says that is its usual
    // form. nullptr when the package has none (model.json "tokenizer.truecase"; imported OPUS-MT
    // models, which are trained on cased text as users type it).
    const Truecaser *truecaser() const { return m_truecaser.get(); }
    void setTruecaser(std::shared_ptr<const Truecaser> truecaser)
    {
        m_truecaser = std::move(truecaser);
    }

private:
    std::string m_id;
    std::string m_sourceLanguage;
    std::string m_targetLanguage;
    std::shared_ptr<const Tokenizer> m_sourceTokenizer;
    std::shared_ptr<const Tokenizer> m_targetTokenizer;
    std::unique_ptr<TextStepDecoder> m_decoder;
    DecodingOptions m_defaults;
    bool m_appendSourceEos = true;
    int m_maxSourceLength = 256;
    int m_placeholders = 0;
    CoverageOptions m_coverage;
    std::map<std::string, std::string> m_targetCodes;
    std::string m_targetCode;
    std::shared_ptr<const Truecaser> m_truecaser;
};

} // namespace glosa::engine
